"""The admin: rooms can be closed; seats, hands and transfers are read, never edited."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tables.models import Hand, Room
from tests.tables.factories import start_with_bots


@pytest.fixture
def staff(make_user: Any) -> Any:
    admin = make_user("boss")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    return admin


def test_a_hand_in_play_shows_no_action_log(client: Client, staff: Any, user: Any) -> None:
    room = start_with_bots(user)
    hand = Hand.objects.get(room=room)
    client.force_login(staff)
    page = client.get(f"/admin/tables/hand/{hand.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert hand.seed not in html
    assert "field-actions" not in html and "field-result" not in html
    # Read-only: an edit is refused and the log stays as the engine wrote it.
    before = (hand.dealer, hand.actions)
    reply = client.post(f"/admin/tables/hand/{hand.pk}/change/", {"dealer": 3, "actions": "[]"})
    assert reply.status_code == 403
    hand.refresh_from_db()
    assert (hand.dealer, hand.actions) == before


def test_the_room_page_hides_the_live_state_and_keeps_seats(
    client: Client, staff: Any, user: Any
) -> None:
    room = start_with_bots(user)
    client.force_login(staff)
    html = client.get(f"/admin/tables/room/{room.pk}/change/").content.decode()
    assert room.state is not None
    assert '"wall"' not in html and Hand.objects.get(room=room).seed not in html
    assert 'name="seats-0-user"' not in html  # seats are not editable


def test_the_close_action_finishes_rooms(client: Client, staff: Any, user: Any) -> None:
    room = start_with_bots(user)
    client.force_login(staff)
    client.post(
        "/admin/tables/room/",
        {"action": "close_rooms", "_selected_action": [room.pk]},
    )
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    assert Hand.objects.get(room=room).ended_at is not None


def test_a_started_rooms_number_owner_and_rules_are_read_only(
    client: Client, staff: Any, user: Any
) -> None:
    room = start_with_bots(user)
    client.force_login(staff)
    html = client.get(f"/admin/tables/room/{room.pk}/change/").content.decode()
    assert 'name="owner"' not in html and 'name="number"' not in html
    assert 'name="rules"' not in html and "field-rules_words" in html
    before = (room.number, room.owner_id, room.rules)
    client.post(
        f"/admin/tables/room/{room.pk}/change/",
        {
            "number": "999999",
            "owner": staff.pk,
            "rules": "{}",
            "name": "Renamed",
            "is_public": "on",
            "turn_seconds": 20,
            "tuoguan_after": 2,
            "seats-TOTAL_FORMS": 0,
            "seats-INITIAL_FORMS": 0,
            "audit_entries-TOTAL_FORMS": 0,
            "audit_entries-INITIAL_FORMS": 0,
        },
    )
    room.refresh_from_db()
    assert (room.number, room.owner_id, room.rules) == before


def test_the_admin_form_refuses_a_started_rooms_owner_or_rules(user: Any, make_user: Any) -> None:
    from tables.admin import RoomAdminForm

    room = start_with_bots(user)
    other = make_user("bob")
    data = {
        "number": room.number,
        "owner": other.pk,
        "name": room.name,
        "is_public": "on",
        "rules": '{"profile": "standard"}',
        "turn_seconds": 20,
        "tuoguan_after": 2,
        "status": room.status,
        "version": room.version,
    }
    form = RoomAdminForm(data=data, instance=room)
    assert not form.is_valid()
    assert "owner" in form.errors and "rules" in form.errors
    waiting = Room.objects.create(number="123456", name="w", owner=user, rules=room.rules)
    assert RoomAdminForm(data={**data, "number": "123456"}, instance=waiting).is_valid()


def test_rules_show_in_words_and_models_in_chinese(client: Client, staff: Any, user: Any) -> None:
    room = start_with_bots(user)
    client.force_login(staff)
    html = client.get(f"/admin/tables/room/{room.pk}/change/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    text = html.content.decode()
    assert '"profile"' not in text  # no raw JSON
    index = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    for name in ("房间与牌桌", "房间", "比赛", "解散投票", "管理日志", "算子账本"):
        assert name in index, name


def test_every_model_and_app_has_a_chinese_name() -> None:
    from django.apps import apps
    from django.utils import translation

    def names(label: str, language: str) -> list[str]:
        config = apps.get_app_config(label)
        with translation.override(language):
            return [str(config.verbose_name)] + [
                str(n)
                for m in config.get_models()
                for n in (m._meta.verbose_name, m._meta.verbose_name_plural)
            ]

    for label in ("accounts", "tables", "ledger"):
        english, chinese = names(label, "en"), names(label, "zh-hans")
        untranslated = [e for e, c in zip(english, chinese, strict=True) if e == c]
        assert untranslated == [], label


def test_votes_matches_and_the_audit_log_are_read_only(
    client: Client, staff: Any, user: Any
) -> None:
    room = start_with_bots(user)
    client.force_login(staff)
    for model in ("match", "dissolvevote", "auditentry", "hand"):
        assert client.get(f"/admin/tables/{model}/add/").status_code == 403
    match = room.matches.get()
    assert (
        client.post(f"/admin/tables/match/{match.pk}/delete/", {"post": "yes"}).status_code == 403
    )
