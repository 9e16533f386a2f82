"""config.env: what test_settings.py leaves untested (defaults, blanks, spaces, messages)."""

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


def test_a_blank_sqlite_path_means_the_default_file(tmp_path: Path) -> None:
    assert env.database_config({"SQLITE_PATH": ""}, tmp_path)["NAME"] == tmp_path / "db.sqlite3"


def test_a_blank_redis_url_means_the_embedded_layer_and_cache() -> None:
    assert env.channel_layer_config({"REDIS_URL": ""}) == {
        "BACKEND": "channels.layers.InMemoryChannelLayer"
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
