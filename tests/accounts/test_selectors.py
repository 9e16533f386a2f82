"""accounts.selectors: reads by username and the login rate-limit counters.

The counting itself (record, per username and IP, clear, expiry) is tested with the writes in
test_services.py; here: the key's shape, what the count reads, and the configured limit.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from accounts import selectors, services

pytestmark = pytest.mark.django_db


def test_the_cache_key_folds_case_and_spaces_and_keeps_the_ip() -> None:
    key = selectors.login_failure_cache_key("  Alice ", "10.0.0.1")
    assert key == "accounts:login-failures:alice:10.0.0.1"
    assert selectors.login_failure_cache_key("ALICE", "10.0.0.1") == key
    assert selectors.login_failure_cache_key("alice", "10.0.0.2") != key
    # casefold, not lower: ß and SS are the same name
    assert selectors.login_failure_cache_key("STRASSE", "ip") == (
        selectors.login_failure_cache_key("straße", "ip")
    )


def test_no_failures_count_zero() -> None:
    assert selectors.login_failure_count("alice", "10.0.0.1") == 0
    assert not selectors.login_is_rate_limited("alice", "10.0.0.1")


def test_the_count_reads_what_the_cache_holds_as_a_number() -> None:
    cache.set(selectors.login_failure_cache_key("alice", "ip"), "3")
    assert selectors.login_failure_count("ALICE", "ip") == 3


@pytest.mark.parametrize(
    ("limit", "failures", "limited"), [(3, 2, False), (3, 3, True), (1, 1, True)]
)
def test_the_limit_comes_from_the_settings(
    settings: Any, limit: int, failures: int, limited: bool
) -> None:
    settings.LOGIN_RATE_LIMIT_ATTEMPTS = limit
    for _ in range(failures):
        services.login_failure_record(username="alice", ip="ip")
    assert selectors.login_is_rate_limited("alice", "ip") is limited


def test_user_get_by_username_matches_whole_names_only(make_user: Any) -> None:
    alice = make_user("Alice")
    make_user("alice2")
    assert selectors.user_get_by_username("aLiCe") == alice
    assert selectors.user_get_by_username("ali") is None
    assert selectors.user_get_by_username("") is None
