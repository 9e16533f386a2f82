from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from accounts import selectors, services
from accounts.models import User

pytestmark = pytest.mark.django_db


def test_user_sign_up_hashes_password_and_keeps_display_name(password):
    user = services.user_sign_up(username="alice", password=password, display_name=" 小明 ")
    assert user.pk is not None
    assert user.check_password(password)
    assert user.password != password
    assert user.display_name == "小明"
    assert user.name == "小明"


def test_name_falls_back_to_username(make_user):
    user = make_user("bob")
    assert user.display_name == ""
    assert user.name == "bob"
    assert str(user) == "bob"


def test_user_sign_up_rejects_duplicate_username(make_user, password):
    make_user("alice")
    with pytest.raises(ValidationError):
        services.user_sign_up(username="alice", password=password)


def test_user_update_display_name(user):
    services.user_display_name_update(user=user, display_name="  庄家  ")
    user.refresh_from_db()
    assert user.display_name == "庄家"
    services.user_display_name_update(user=user, display_name="")
    user.refresh_from_db()
    assert user.name == "alice"


def test_user_update_display_name_too_long(user):
    with pytest.raises(ValidationError):
        services.user_display_name_update(user=user, display_name="x" * 31)


def test_user_get_by_username_is_case_insensitive(user):
    assert selectors.user_get_by_username("ALICE") == user
    assert selectors.user_get_by_username("nobody") is None


def test_login_failures_count_up_and_limit_after_five(settings):
    settings.LOGIN_RATE_LIMIT_ATTEMPTS = 5
    for expected in range(1, 5):
        assert services.login_failure_record(username="alice", ip="1.2.3.4") == expected
        assert not selectors.login_is_rate_limited("alice", "1.2.3.4")
    assert services.login_failure_record(username="alice", ip="1.2.3.4") == 5
    assert selectors.login_is_rate_limited("alice", "1.2.3.4")
    # Username case and surrounding spaces don't give extra attempts.
    assert selectors.login_is_rate_limited(" ALICE ", "1.2.3.4")


def test_login_failures_are_per_username_and_ip():
    for _ in range(5):
        services.login_failure_record(username="alice", ip="1.2.3.4")
    assert not selectors.login_is_rate_limited("alice", "5.6.7.8")
    assert not selectors.login_is_rate_limited("bob", "1.2.3.4")


def test_login_failure_clear():
    for _ in range(5):
        services.login_failure_record(username="alice", ip="1.2.3.4")
    services.login_failure_clear(username="alice", ip="1.2.3.4")
    assert selectors.login_failure_count("alice", "1.2.3.4") == 0


def test_login_failures_expire_after_window(settings, monkeypatch):
    from django.core.cache import cache

    timeouts = []
    real_add = cache.add

    def spy_add(key, value, timeout=None, version=None):
        timeouts.append(timeout)
        return real_add(key, value, timeout=timeout, version=version)

    monkeypatch.setattr(cache, "add", spy_add)
    services.login_failure_record(username="alice", ip="1.2.3.4")
    assert timeouts == [15 * 60]


def test_user_model_is_the_auth_user_model():
    from django.contrib.auth import get_user_model

    assert get_user_model() is User
