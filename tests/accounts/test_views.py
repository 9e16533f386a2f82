from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def form_error_codes(response: Any, field: str = "__all__") -> list[str | None]:
    form = response.context["form"]
    return [error.code for error in form.errors.as_data().get(field, [])]


def login(client: Client, username: str, password: str, **extra: Any) -> Any:
    return client.post(
        reverse("accounts:login"), {"username": username, "password": password}, **extra
    )


def test_home_page_links_to_signup_and_login(client):
    response = client.get("/")
    assert response.status_code == 200
    content = response.content.decode()
    assert reverse("accounts:signup") in content
    assert reverse("accounts:login") in content
    assert "上饶麻将" in content
    assert 'name="viewport"' in content
    assert 'name="description"' in content
    assert 'rel="manifest"' in content
    assert "htmx-2.min.js" not in content  # only the room and replay pages use htmx


def test_pages_render(client):
    for name in ("accounts:signup", "accounts:login"):
        assert client.get(reverse(name)).status_code == 200


def test_signup_creates_user_and_logs_in(client, password):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "alice",
            "display_name": "小明",
            "password1": password,
            "password2": password,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    user = User.objects.get(username="alice")
    assert user.name == "小明"
    assert user.check_password(password)
    assert client.session["_auth_user_id"] == str(user.pk)


def test_signup_without_display_name_uses_username(client, password):
    client.post(
        reverse("accounts:signup"),
        {"username": "bob", "password1": password, "password2": password},
    )
    assert User.objects.get(username="bob").name == "bob"


def test_signup_password_mismatch_shows_error(client, password):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "alice", "password1": password, "password2": password + "x"},
    )
    assert response.status_code == 200
    assert form_error_codes(response, "password2") == ["password_mismatch"]
    assert not User.objects.exists()
    assert 'class="field-errors"' in response.content.decode()


def test_signup_weak_password_rejected_by_django_validators(client):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "alice", "password1": "12345", "password2": "12345"},
    )
    assert response.status_code == 200
    codes = form_error_codes(response, "password2")
    assert "password_too_short" in codes
    assert "password_entirely_numeric" in codes
    assert not User.objects.exists()


def test_signup_duplicate_username(client, user, password):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "alice", "password1": password, "password2": password},
    )
    assert response.status_code == 200
    assert form_error_codes(response, "username") == ["unique"]


def test_login_and_logout(client, user, password):
    response = login(client, "alice", password)
    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    assert client.session["_auth_user_id"] == str(user.pk)
    page = client.get("/").content.decode()
    assert reverse("accounts:logout") in page

    assert client.get(reverse("accounts:logout")).status_code == 405  # POST only
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_login_honours_next(client, user, password):
    response = client.post(
        reverse("accounts:login") + "?next=/accounts/profile/",
        {"username": "alice", "password": password, "next": "/accounts/profile/"},
    )
    assert response["Location"] == "/accounts/profile/"


def test_wrong_password_shows_error(client, user):
    response = login(client, "alice", "not-my-password")
    assert response.status_code == 200
    assert form_error_codes(response) == ["invalid_login"]
    assert 'class="form-errors"' in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_login_refused_after_five_failures_even_with_right_password(client, user, password):
    for _ in range(4):
        response = login(client, "alice", "wrong")
        assert form_error_codes(response) == ["invalid_login"]
    # The fifth failure locks the address out, and says so at once.
    assert form_error_codes(login(client, "alice", "wrong")) == ["rate_limited"]
    response = login(client, "alice", password)
    assert response.status_code == 429
    assert form_error_codes(response) == ["rate_limited"]
    assert "_auth_user_id" not in client.session


def test_one_guess_at_each_of_many_usernames_is_limited_per_address(client, make_user, password):
    """Spraying one password at 30 usernames was never limited (counted per username + IP)."""
    for i in range(30):
        make_user(f"player{i}")
    codes = [form_error_codes(login(client, f"player{i}", "wrong")) for i in range(30)]
    assert codes[:4] == [["invalid_login"]] * 4
    assert codes[4:] == [["rate_limited"]] * 26
    assert login(client, "player7", password, REMOTE_ADDR="10.0.0.9").status_code == 302


def test_a_proxy_header_counts_only_when_proxies_are_configured(client, user, settings):
    for i in range(5):
        login(client, "alice", "wrong", HTTP_X_FORWARDED_FOR=f"10.0.0.{i}")
    assert login(client, "alice", "wrong").status_code == 429  # the header was not believed
    settings.TRUSTED_PROXY_COUNT = 1
    assert login(client, "alice", "wrong", HTTP_X_FORWARDED_FOR="10.0.0.77").status_code == 200


def test_rate_limit_message_is_clear_in_english_and_chinese(client, user):
    for _ in range(5):
        login(client, "alice", "wrong")
    english = login(client, "alice", "wrong", headers={"accept-language": "en"})
    assert "Too many failed login attempts" in english.content.decode()
    chinese = login(client, "alice", "wrong", headers={"accept-language": "zh-hans"})
    # The Chinese text needs compiled catalogs (scripts/test runs compilemessages).
    text = chinese.content.decode()
    assert "登录失败次数过多" in text or "Too many failed login attempts" in text


def test_rate_limit_is_per_ip(client, user, password):
    for _ in range(5):
        login(client, "alice", "wrong", REMOTE_ADDR="10.0.0.1")
    response = login(client, "alice", password, REMOTE_ADDR="10.0.0.2")
    assert response.status_code == 302


def test_successful_login_resets_failures(client, user, password):
    for _ in range(4):
        login(client, "alice", "wrong")
    assert login(client, "alice", password).status_code == 302
    client.post(reverse("accounts:logout"))
    for _ in range(4):
        login(client, "alice", "wrong")
    assert login(client, "alice", password).status_code == 302


def test_profile_requires_login(client):
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_profile_changes_display_name(client, user):
    client.force_login(user)
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 200
    response = client.post(reverse("accounts:profile"), {"display_name": "东风"}, follow=True)
    user.refresh_from_db()
    assert user.display_name == "东风"
    assert "东风" in response.content.decode()


def test_profile_display_name_too_long(client, user):
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), {"display_name": "x" * 31})
    assert response.status_code == 200
    assert form_error_codes(response, "display_name") == ["max_length"]
    user.refresh_from_db()
    assert user.display_name == ""


def test_password_change(client, user, password):
    client.force_login(user)
    url = reverse("accounts:password_change")
    assert client.get(url).status_code == 200
    new = "a-brand-new-secret-77"
    response = client.post(
        url, {"old_password": password, "new_password1": new, "new_password2": new}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile")
    user.refresh_from_db()
    assert user.check_password(new)
    # Still logged in after the change.
    assert client.get(reverse("accounts:profile")).status_code == 200


def test_password_change_wrong_old_password(client, user):
    client.force_login(user)
    response = client.post(
        reverse("accounts:password_change"),
        {
            "old_password": "nope",
            "new_password1": "x-new-secret-1",
            "new_password2": "x-new-secret-1",
        },
    )
    assert response.status_code == 200
    assert form_error_codes(response, "old_password") == ["password_incorrect"]


def test_language_switch_to_english(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert "Welcome to Shangrao Mahjong" in client.get("/").content.decode()


def test_default_language_is_chinese(client):
    response = client.get("/")
    assert response.content.decode().count('lang="zh-hans"') == 1


def test_signup_from_an_invite_comes_back_to_the_room(client, password):
    page = client.get(reverse("accounts:signup") + "?next=/r/123456/").content.decode()
    assert 'name="next" value="/r/123456/"' in page
    assert "?next=/r/123456/" in page  # the 登录 link keeps it too
    response = client.post(
        reverse("accounts:signup"),
        {"username": "bob", "password1": password, "password2": password, "next": "/r/123456/"},
    )
    assert response.status_code == 302
    assert response["Location"] == "/r/123456/"


def test_signup_ignores_a_next_on_another_site(client, password):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "eve", "password1": password, "password2": password, "next": "https://x.io/"},
    )
    assert response["Location"] == reverse("lobby")


def test_the_login_page_keeps_next_on_its_signup_link(client):
    page = client.get(reverse("accounts:login") + "?next=/r/123456/").content.decode()
    assert reverse("accounts:signup") + "?next=/r/123456/" in page


def test_signups_from_one_address_are_rate_limited(password: str, settings: Any) -> None:
    """Accounts are free, and each would bring fresh room-number guesses: five sign-ups an
    hour from one address; the sixth is refused (429) and makes no account, while another
    address still signs up."""
    from django.core.cache import cache

    cache.clear()
    settings.SIGNUP_RATE = "5/h"

    def sign_up(name: str, ip: str) -> Any:
        data = {"username": name, "password1": password, "password2": password}
        return Client().post(reverse("accounts:signup"), data, REMOTE_ADDR=ip)

    assert [sign_up(f"dorm{i}", "198.51.100.9").status_code for i in range(5)] == [302] * 5
    refused = sign_up("dorm5", "198.51.100.9")
    assert refused.status_code == 429
    assert not User.objects.filter(username="dorm5").exists()
    assert sign_up("elsewhere", "198.51.100.10").status_code == 302
    cache.clear()


def test_a_guest_sits_down_from_a_nickname_and_is_logged_in(client):
    response = client.post(reverse("accounts:guest"), {"nickname": "小王", "next": "/r/123456/"})
    assert response.status_code == 302 and response["Location"] == "/r/123456/"
    guest = User.objects.get(display_name="小王")
    assert guest.is_guest
    assert client.get(reverse("accounts:profile")).context["user"] == guest


def test_an_empty_nickname_makes_no_account(client):
    client.post(reverse("accounts:guest"), {"nickname": "   ", "next": "/r/123456/"})
    assert not User.objects.filter(is_guest=True).exists()


def test_a_guest_cannot_create_a_room_settle_or_correct_until_claimed(client, password):
    client.post(reverse("accounts:guest"), {"nickname": "小王"})
    for name in ("room_create", "ledger:settle", "ledger:correction"):
        response = client.get(reverse(name))
        assert response.status_code == 302, name
        assert response["Location"].startswith(reverse("accounts:claim")), name
    claim = client.post(
        reverse("accounts:claim"),
        {"username": "xiaowang", "password1": password, "password2": password},
    )
    assert claim.status_code == 302
    assert client.get(reverse("room_create")).status_code == 200
    assert not User.objects.get(username="xiaowang").is_guest


def test_a_guest_logs_in_with_an_existing_account_and_becomes_it(client, make_user, password):
    account = make_user("laoli", password=password, display_name="老李")
    client.post(reverse("accounts:guest"), {"nickname": "小李"})
    guest = User.objects.get(display_name="小李")
    page = client.get(reverse("accounts:claim"))
    assert 'id="id_link-username"' in page.content.decode()  # two forms, no id twice
    wrong = client.post(
        reverse("accounts:link"), {"link-username": "laoli", "link-password": "not it"}
    )
    assert wrong.status_code == 400
    assert client.get(reverse("accounts:profile")).context["user"] == guest
    linked = client.post(
        reverse("accounts:link"),
        {"link-username": "laoli", "link-password": password, "next": "/r/123456/"},
    )
    assert linked.status_code == 302 and linked["Location"] == "/r/123456/"
    assert client.get(reverse("accounts:profile")).context["user"] == account
    guest.refresh_from_db()
    assert not guest.is_active
