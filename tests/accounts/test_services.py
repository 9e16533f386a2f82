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
