from __future__ import annotations

from typing import Any

from config.session_cookie import SessionKeyFilter, is_session_key


def test_only_lower_case_letters_and_digits_can_be_a_key() -> None:
    assert is_session_key("qjpnior3yq9qjj8319vt46el5msmea97")
    for bad in ("", "short", "ab\x00cdefghij", "ABCDEFGHIJ", "abc def ghij", "x" * 41):
        assert not is_session_key(bad)


async def test_a_malformed_session_cookie_never_reaches_the_session_lookup(settings: Any) -> None:
    seen: list[dict[str, str]] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["cookies"])

    name = settings.SESSION_COOKIE_NAME
    await SessionKeyFilter(inner)({"cookies": {name: "ab\x00cdefghij", "x": "1"}}, None, None)
    await SessionKeyFilter(inner)({"cookies": {name: "abcdefgh12345678"}}, None, None)
    assert seen == [{"x": "1"}, {name: "abcdefgh12345678"}]
