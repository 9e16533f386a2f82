from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_service_worker_is_served_from_the_root_as_javascript(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert '"/offline/"' in body and "css/site" in body


def test_the_offline_page_is_in_chinese(client: Client) -> None:
    response = client.get("/offline/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 200
    assert "没有网络" in response.content.decode()
