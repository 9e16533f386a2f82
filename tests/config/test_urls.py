from __future__ import annotations

from django.test import Client


def test_favicon_ico_leads_to_the_icon_not_a_404(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    icon = client.get(response["Location"])
    assert icon.status_code == 200
    assert b"".join(icon.streaming_content)[:8] == b"\x89PNG\r\n\x1a\n"  # type: ignore[attr-defined]
