from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config import env


def test_sqlite_by_default(tmp_path: Path):
    config = env.database_config({}, tmp_path)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == tmp_path / "db.sqlite3"


def test_postgres_when_database_url_set(tmp_path: Path):
    config = env.database_config(
        {"DATABASE_URL": "postgres://mj:secret@db.example:5433/mahjong"}, tmp_path
    )
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert config["NAME"] == "mahjong"
    assert config["USER"] == "mj"
    assert config["PASSWORD"] == "secret"
    assert config["HOST"] == "db.example"
    assert config["PORT"] == 5433


def test_empty_database_url_means_sqlite(tmp_path: Path):
    assert env.database_config({"DATABASE_URL": ""}, tmp_path)["ENGINE"].endswith("sqlite3")


def test_in_memory_channel_layer_by_default():
    assert env.channel_layer_config({}) == {"BACKEND": "channels.layers.InMemoryChannelLayer"}


def test_redis_channel_layer_when_redis_url_set():
    config = env.channel_layer_config({"REDIS_URL": "redis://cache.example:6379/1"})
    assert config == {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [{"address": "redis://cache.example:6379/1", "socket_timeout": None}]},
    }


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("true", True),
        ("Yes", True),
        ("on", True),
        ("0", False),
        ("False", False),
        ("no", False),
        ("", False),
    ],
)
def test_env_bool(raw: str, expected: bool):
    assert env.env_bool({"DEBUG": raw}, "DEBUG", not expected) is expected


def test_env_bool_rejects_nonsense():
    with pytest.raises(ValueError):
        env.env_bool({"DEBUG": "maybe"}, "DEBUG", True)


def test_env_list():
    assert env.env_list({}, "ALLOWED_HOSTS", ["localhost"]) == ["localhost"]
    assert env.env_list({"ALLOWED_HOSTS": "a.example, ,b.example"}, "ALLOWED_HOSTS", []) == [
        "a.example",
        "b.example",
    ]


def test_secret_key():
    assert env.secret_key({"SECRET_KEY": "s3cret"}, debug=False) == "s3cret"
    assert env.secret_key({}, debug=True) == env.DEV_SECRET_KEY
    with pytest.raises(ValueError):
        env.secret_key({}, debug=False)


def test_live_settings():
    from django.conf import settings

    assert settings.AUTH_USER_MODEL == "accounts.User"
    assert settings.INSTALLED_APPS[0] == "daphne"
    assert settings.LANGUAGE_CODE == "zh-hans"
    assert [code for code, _ in settings.LANGUAGES] == ["zh-hans", "en"]
    assert "django_htmx.middleware.HtmxMiddleware" in settings.MIDDLEWARE
    assert "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE
    assert settings.ASGI_APPLICATION == "config.asgi.application"


def test_asgi_application_imports():
    from channels.routing import ProtocolTypeRouter

    from config.asgi import application

    assert isinstance(application, ProtocolTypeRouter)
    assert set(application.application_mapping) == {"http", "websocket"}


def test_sqlite_queues_writers_instead_of_failing(tmp_path: Path):
    options = env.database_config({}, tmp_path)["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE" and options["timeout"] >= 5


def test_sqlite_path_names_another_database_file(tmp_path: Path):
    config = env.database_config({"SQLITE_PATH": str(tmp_path / "x.sqlite3")}, tmp_path)
    assert config["NAME"] == str(tmp_path / "x.sqlite3")


def test_cache_is_shared_redis_when_redis_url_set():
    cache = env.cache_config({"REDIS_URL": "redis://127.0.0.1:6379/0"})
    assert cache["BACKEND"].endswith("RedisCache")
    assert cache["LOCATION"] == "redis://127.0.0.1:6379/0"
    assert env.cache_config({})["BACKEND"].endswith("LocMemCache")


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
