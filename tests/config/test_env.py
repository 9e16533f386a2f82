"""config.env: settings read from the environment (SQLite or PostgreSQL, the channel layer
and cache, booleans, lists, the secret key), with their defaults, blanks and messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from config import env


@pytest.mark.parametrize("default", [True, False])
def test_env_bool_unset_is_the_default(default: bool) -> None:
    assert env.env_bool({"OTHER": "1"}, "DEBUG", default) is default


@pytest.mark.parametrize(("raw", "expected"), [(" TRUE ", True), ("\tOff\n", False), ("  ", False)])
def test_env_bool_ignores_case_and_surrounding_spaces(raw: str, expected: bool) -> None:
    assert env.env_bool({"DEBUG": raw}, "DEBUG", not expected) is expected


def test_env_bool_error_names_the_variable_and_the_value() -> None:
    with pytest.raises(ValueError, match=r"^FEATURE must be a boolean .*got 'enabled'$"):
        env.env_bool({"FEATURE": "enabled"}, "FEATURE", False)


def test_env_list_set_but_blank_is_empty_not_the_default() -> None:
    assert env.env_list({"ALLOWED_HOSTS": ""}, "ALLOWED_HOSTS", ["localhost"]) == []
    assert env.env_list({"ALLOWED_HOSTS": " , ,"}, "ALLOWED_HOSTS", ["localhost"]) == []


def test_env_list_returns_a_copy_of_the_default() -> None:
    default = ["localhost"]
    hosts = env.env_list({}, "ALLOWED_HOSTS", default)
    hosts.append("evil.example")
    assert default == ["localhost"]


def test_a_blank_secret_key_counts_as_unset() -> None:
    assert env.secret_key({"SECRET_KEY": ""}, debug=True) == env.DEV_SECRET_KEY
    with pytest.raises(ValueError, match="SECRET_KEY must be set when DEBUG is off"):
        env.secret_key({"SECRET_KEY": ""}, debug=False)
    assert env.secret_key({"SECRET_KEY": "prod-key"}, debug=True) == "prod-key"


def test_database_url_keeps_connections_open(tmp_path: Path) -> None:
    config = env.database_config({"DATABASE_URL": "postgres://u:p@db/x"}, tmp_path)
    assert config["CONN_MAX_AGE"] == 600
    # The SQLite write-queueing options are SQLite's only.
    assert "transaction_mode" not in config.get("OPTIONS", {})


def test_the_default_sqlite_file_keeps_connections_open_too(tmp_path: Path) -> None:
    """A deployment without DATABASE_URL is the one most tables run on: its socket's every
    database call opened the file afresh when connections were not kept."""
    assert env.database_config({}, tmp_path)["CONN_MAX_AGE"] == 600


def test_a_blank_sqlite_path_means_the_default_file(tmp_path: Path) -> None:
    assert env.database_config({"SQLITE_PATH": ""}, tmp_path)["NAME"] == tmp_path / "db.sqlite3"


def test_a_blank_redis_url_means_the_embedded_layer_and_cache() -> None:
    assert env.channel_layer_config({"REDIS_URL": ""}) == {
        "BACKEND": "config.channel_layer.PacedInMemoryChannelLayer"
    }
    assert env.cache_config({"REDIS_URL": ""}) == {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "shangrao-mahjong",
    }


def test_the_docstring_examples_hold() -> None:
    """pytest's doctest run covers tests/ and engine/ only; these examples are documentation."""
    import doctest

    result = doctest.testmod(env)
    assert result.attempted >= 3 and result.failed == 0


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
    assert env.channel_layer_config({}) == {
        "BACKEND": "config.channel_layer.PacedInMemoryChannelLayer"
    }


def test_redis_channel_layer_when_redis_url_set():
    config = env.channel_layer_config({"REDIS_URL": "redis://cache.example:6379/1"})
    assert config["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    (host,) = config["CONFIG"]["hosts"]
    assert host["address"] == "redis://cache.example:6379/1"
    assert host["socket_timeout"] == env.REDIS_COMMAND_SECONDS  # a hung Redis fails a command
    assert host["retry"].get_retries() == env.REDIS_RETRIES  # a stale connection is retried
    assert host["health_check_interval"] == env.REDIS_HEALTH_CHECK_SECONDS


def test_redis_cache_degrades_and_retries_when_redis_url_set():
    config = env.cache_config({"REDIS_URL": "redis://cache.example:6379/1"})
    assert config["BACKEND"] == "config.cache.ResilientRedisCache"
    assert config["LOCATION"] == "redis://cache.example:6379/1"
    assert config["OPTIONS"]["retry"].get_retries() == env.REDIS_RETRIES
    assert config["OPTIONS"]["socket_connect_timeout"] == env.REDIS_CONNECT_SECONDS


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


def test_sqlite_queues_writers_instead_of_failing(tmp_path: Path):
    options = env.database_config({}, tmp_path)["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE" and options["timeout"] >= 5


def test_an_sqlite_url_gets_the_same_options(tmp_path: Path):
    config = env.database_config({"DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3"}, tmp_path)
    assert config["OPTIONS"] == env.SQLITE_OPTIONS
    assert config["OPTIONS"] == env.database_config({}, tmp_path)["OPTIONS"]


def test_sqlite_keeps_a_write_ahead_log_synced_on_commit(tmp_path: Path):
    import sqlite3

    options = env.database_config({}, tmp_path)["OPTIONS"]
    with sqlite3.connect(tmp_path / "x.sqlite3") as db:
        db.executescript(options["init_command"])
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL


def test_sqlite_path_names_another_database_file(tmp_path: Path):
    config = env.database_config({"SQLITE_PATH": str(tmp_path / "x.sqlite3")}, tmp_path)
    assert config["NAME"] == str(tmp_path / "x.sqlite3")


def test_cache_is_shared_redis_when_redis_url_set():
    cache = env.cache_config({"REDIS_URL": "redis://127.0.0.1:6379/0"})
    assert cache["BACKEND"].endswith("RedisCache")
    assert cache["LOCATION"] == "redis://127.0.0.1:6379/0"
    assert env.cache_config({})["BACKEND"].endswith("LocMemCache")
