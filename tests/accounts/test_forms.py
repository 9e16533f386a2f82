"""accounts.forms: sign-up, the login form (refusing what django-axes locks out), the display
name form."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import RequestFactory

from accounts.forms import DisplayNameForm, LoginForm, SignupForm

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def request_from(ip: str | None = "10.1.2.3", **meta: Any) -> Any:
    request = RequestFactory().post("/accounts/login/", **meta)
    if ip is None:
        del request.META["REMOTE_ADDR"]
    else:
        request.META["REMOTE_ADDR"] = ip
    return request


def login_form(username: str, password: str, ip: str | None = "10.1.2.3") -> Any:
    return LoginForm(request_from(ip), data={"username": username, "password": password})


# ---------------------------------------------------------------- sign-up


def test_signup_form_creates_a_user_with_a_hashed_password(password: str) -> None:
    form = SignupForm(
        {"username": "carol", "display_name": "小红", "password1": password, "password2": password}
    )
    assert form.is_valid(), form.errors
    user = form.save()
    assert user.pk is not None and user.name == "小红"
    assert user.check_password(password) and user.password != password
    assert list(SignupForm().fields) == ["username", "display_name", "password1", "password2"]


def test_signup_refuses_a_username_that_differs_only_in_case(user: Any, password: str) -> None:
    form = SignupForm({"username": "ALICE", "password1": password, "password2": password})
    assert not form.is_valid()
    assert [e.code for e in form.errors.as_data()["username"]] == ["unique"]


def test_signup_display_name_is_limited_to_thirty_characters(password: str) -> None:
    data = {"username": "dave", "password1": password, "password2": password}
    assert SignupForm({**data, "display_name": "x" * 30}).is_valid()
    form = SignupForm({**data, "display_name": "x" * 31})
    assert not form.is_valid() and list(form.errors) == ["display_name"]


def test_signup_password_similar_to_the_username_is_refused() -> None:
    form = SignupForm(
        {"username": "mahjongfan", "password1": "mahjongfan1", "password2": "mahjongfan1"}
    )
    assert not form.is_valid()
    assert "password_too_similar" in [e.code for e in form.errors.as_data()["password2"]]


# ---------------------------------------------------------------- login (django-axes)


def test_a_wrong_password_is_an_invalid_login(user: Any) -> None:
    form = login_form("alice", "wrong", ip="10.0.0.5")
    assert not form.is_valid() and not form.locked_out
    assert [e.code for e in form.non_field_errors().as_data()] == ["invalid_login"]


def test_once_locked_out_even_the_right_password_is_refused(user: Any, password: str) -> None:
    for _ in range(5):
        assert not login_form("alice", "wrong").is_valid()
    form = login_form("alice", password)
    assert not form.is_valid() and form.locked_out
    assert [e.code for e in form.non_field_errors().as_data()] == ["rate_limited"]
    assert "Too many failed login attempts" in form.non_field_errors()[0]
    assert form.get_user() is None
    assert login_form("alice", password, ip="10.1.2.4").is_valid()  # another address may


def test_the_right_password_logs_in(user: Any, password: str) -> None:
    form = login_form("alice", password)
    assert form.is_valid(), form.errors
    assert form.get_user() == user


# ---------------------------------------------------------------- display name


@pytest.mark.parametrize(("raw", "cleaned"), [("  东风  ", "东风"), ("", ""), ("x" * 30, "x" * 30)])
def test_display_name_form_is_optional_and_trims(raw: str, cleaned: str) -> None:
    form = DisplayNameForm({"display_name": raw})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["display_name"] == cleaned


def test_display_name_form_refuses_too_long_names() -> None:
    form = DisplayNameForm({"display_name": "x" * 31})
    assert not form.is_valid()
    assert [e.code for e in form.errors.as_data()["display_name"]] == ["max_length"]
