"""config.settings: what the settings make the site do (not what they say)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import get_commands


def test_runserver_serves_the_asgi_app_with_its_websockets():
    # daphne's runserver replaces Django's, so `manage.py runserver` serves the live table too.
    assert get_commands()["runserver"] == "daphne"


def _deploy_check(extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "HTTPS", "SECRET_KEY")}
    environ.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": "q7#Vf2!mZ9@Lr4$Kx8%Tb1^Wn6&Pe3*Hs5(Jd0)Gy" * 2,
            "ALLOWED_HOSTS": "mj.example",
        }
    )
    environ.update(extra)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=Path(__file__).resolve().parents[2],
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_over_https_passes_the_deploy_check():
    done = _deploy_check({"HTTPS": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    without = _deploy_check({})
    assert without.returncode != 0 and "SECURE_SSL_REDIRECT" in without.stdout + without.stderr


@pytest.mark.django_db
def test_pages_are_gzipped_for_a_browser_that_takes_gzip(client: Any) -> None:
    import gzip

    plain = client.get("/accounts/login/")
    packed = client.get("/accounts/login/", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert len(packed.content) < len(plain.content) / 2
    # the same page, but for its CSRF tokens: masked afresh for every response (BREACH)
    assert len(gzip.decompress(packed.content)) == len(plain.content)
