"""config.clientip: the address limits count by; proxy headers only when configured."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import RequestFactory

from config.clientip import axes_ip, request_ip, scope_ip


def request_from(ip: str | None, **meta: Any) -> Any:
    request = RequestFactory().get("/", **meta)
    if ip is None:
        del request.META["REMOTE_ADDR"]
    else:
        request.META["REMOTE_ADDR"] = ip
    return request


def test_remote_addr_and_no_proxy_header_by_default() -> None:
    assert request_ip(request_from("10.9.8.7", HTTP_X_FORWARDED_FOR="1.1.1.1")) == "10.9.8.7"
    assert scope_ip({"client": ("10.9.8.7", 5), "headers": [(b"x-forwarded-for", b"1.1.1.1")]}) == (
        "10.9.8.7"
    )


@pytest.mark.parametrize("ip", [None, ""])
def test_unknown_without_an_address(ip: str | None) -> None:
    assert request_ip(request_from(ip)) == "unknown"
    assert request_ip(None) == "unknown"
    assert scope_ip({"headers": []}) == "unknown"


def test_behind_proxies_the_entry_our_first_proxy_saw(settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    forged = "6.6.6.6, 203.0.113.9"  # the client wrote the first entry itself
    assert request_ip(request_from("10.0.0.2", HTTP_X_FORWARDED_FOR=forged)) == "203.0.113.9"
    scope = {"client": ("10.0.0.2", 1), "headers": [(b"x-forwarded-for", forged.encode())]}
    assert scope_ip(scope) == "203.0.113.9"
    assert request_ip(request_from("10.0.0.2")) == "10.0.0.2"  # no header: the peer


def test_behind_two_proxies_the_entry_two_from_the_right(settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 2
    # The client wrote 6.6.6.6; our first proxy saw 203.0.113.9 and appended it; our second
    # appended the first's address (10.0.0.3) and is the peer (10.0.0.2).
    chain = "6.6.6.6, 203.0.113.9, 10.0.0.3"
    assert request_ip(request_from("10.0.0.2", HTTP_X_FORWARDED_FOR=chain)) == "203.0.113.9"
    # Fewer entries than our proxies append: the header was not written by them.
    short = request_from("10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert request_ip(short) == "10.0.0.2"


def test_axes_gets_no_address_rather_than_unknown() -> None:
    """Axes keeps addresses in an address column: PostgreSQL refuses "unknown"."""
    assert axes_ip(request_from(None)) is None
    assert axes_ip(request_from("10.1.1.1")) == "10.1.1.1"
