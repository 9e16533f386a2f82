from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from accounts import services
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


def test_user_model_is_the_auth_user_model():
    from django.contrib.auth import get_user_model

    assert get_user_model() is User


def test_a_guest_is_a_real_account_without_a_password():
    guest = services.guest_create(nickname="  小王 ")
    assert guest.pk is not None and guest.is_guest
    assert guest.name == "小王"
    assert not guest.has_usable_password()
    assert guest.username.startswith(services.GUEST_PREFIX)


def test_two_guests_with_one_nickname_are_two_accounts():
    a, b = services.guest_create(nickname="小王"), services.guest_create(nickname="小王")
    assert a.pk != b.pk and a.username != b.username


def test_a_claimed_guest_keeps_the_row_and_logs_in_with_the_password(password):
    guest = services.guest_create(nickname="小王")
    claimed = services.guest_claim(user=guest, username="xiaowang", password=password)
    fresh = User.objects.get(pk=guest.pk)
    assert claimed.pk == fresh.pk
    assert fresh.username == "xiaowang" and not fresh.is_guest
    assert fresh.check_password(password)
    assert fresh.name == "小王"  # the nickname stays what the table shows


def test_only_a_guest_can_be_claimed(user, password):
    with pytest.raises(ValueError):
        services.guest_claim(user=user, username="other", password=password)
