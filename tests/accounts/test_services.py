from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db.models import Q

from accounts import services
from accounts.models import User
from engine.rules import Rules
from ledger.models import Entry
from tables.models import Seat
from tables.rooms.services import room_create, seat_take
from tests.tables.factories import played_hand

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


def waiting_room(owner: Any) -> Any:
    return room_create(
        owner=owner, name="周五", is_public=False, rules=Rules(), match_length=None, turn_seconds=20
    )


def _guest_and_account(make_user: Any) -> tuple[Any, Any]:
    guest = services.guest_create(nickname="小李")
    return guest, make_user("li", display_name="老李")


def test_a_linked_guest_s_seat_moves_to_the_account_and_the_guest_closes(make_user):
    guest, account = _guest_and_account(make_user)
    room = waiting_room(make_user("host"))
    seat_take(room=room, user=guest, index=2)
    services.guest_link(guest=guest, account=account)
    assert Seat.objects.get(room=room, index=2).user == account
    guest.refresh_from_db()
    assert not guest.is_active and guest.is_guest


def test_a_guest_with_points_in_the_book_is_not_linked_and_nothing_moves(make_user, english):
    guest, account = _guest_and_account(make_user)
    hand = played_hand(guest)
    assert Entry.objects.filter(Q(payer=guest) | Q(payee=guest)).exists()
    with pytest.raises(services.GuestLinkError, match="book"):
        services.guest_link(guest=guest, account=account)
    assert Seat.objects.get(room=hand.room, index=0).user == guest
    guest.refresh_from_db()
    assert guest.is_active


def test_only_a_guest_links_and_never_where_the_account_already_sits(make_user, english):
    guest, account = _guest_and_account(make_user)
    with pytest.raises(services.GuestLinkError):
        services.guest_link(guest=account, account=guest)
    with pytest.raises(services.GuestLinkError):
        services.guest_link(guest=guest, account=guest)
    room = waiting_room(make_user("host"))
    seat_take(room=room, user=guest, index=1)
    seat_take(room=room, user=account, index=2)
    with pytest.raises(services.GuestLinkError, match="same table"):
        services.guest_link(guest=guest, account=account)
    guest.refresh_from_db()
    assert guest.is_active
