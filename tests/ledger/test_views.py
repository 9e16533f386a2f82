"""The settle-up page and the staff correction form."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from ledger.models import Entry, SettlementClaim
from ledger.settle_up import Payment
from tests.tables.factories import start_with_bots


@pytest.fixture
def played(user: Any, bob: Any) -> Any:
    """alice and bob shared a hand: bob paid alice 9."""
    room = start_with_bots(user, seed="views-played")
    Entry.objects.create(
        kind=Entry.Kind.HAND,
        hand=room.hands.get(),
        room=room,
        payer=bob,
        payee=user,
        payer_seat=1,
        payee_seat=0,
        points=9,
        reason="self_draw",
    )
    return room


def test_settle_up_needs_a_login(client: Client) -> None:
    assert client.get("/ledger/settle/").status_code == 302
    assert client.get("/ledger/correction/").status_code == 302


def test_record_then_the_other_confirms(client: Client, user: Any, bob: Any, played: Any) -> None:
    client.force_login(bob)
    page = client.get("/ledger/settle/", {"room": played.number})
    html = page.content.decode()
    assert page.status_code == 200 and 'name="points"' in html
    assert page.context["suggestion"] == [Payment(bob, user, 9)]
    reply = client.post(
        "/ledger/settle/", {"other": user.pk, "direction": "i_paid", "points": 9, "note": "cash"}
    )
    assert reply.status_code == 302
    claim = SettlementClaim.objects.get()
    assert (claim.payer, claim.payee, claim.recorded_by, claim.points) == (bob, user, bob, 9)
    # bob cannot answer his own claim; alice sees it waiting and confirms.
    client.post(f"/ledger/settle/{claim.pk}/", {"answer": "confirm"})
    claim.refresh_from_db()
    assert claim.status == "proposed"
    client.force_login(user)
    assert "cash" in client.get("/ledger/settle/").content.decode()
    assert client.post(f"/ledger/settle/{claim.pk}/", {"answer": "confirm"}).status_code == 302
    claim.refresh_from_db()
    assert claim.status == "confirmed"
    assert Entry.objects.filter(kind=Entry.Kind.SETTLEMENT, points=9).count() == 1


def test_dispute_keeps_it_out(client: Client, user: Any, bob: Any, played: Any) -> None:
    client.force_login(user)
    client.post("/ledger/settle/", {"other": bob.pk, "direction": "they_paid", "points": 5})
    claim = SettlementClaim.objects.get()
    assert (claim.payer, claim.payee) == (bob, user)
    client.force_login(bob)
    client.post(f"/ledger/settle/{claim.pk}/", {"answer": "dispute"})
    claim.refresh_from_db()
    assert claim.status == "disputed"
    assert not Entry.objects.filter(kind=Entry.Kind.SETTLEMENT).exists()


def test_one_can_settle_only_with_people_one_played_with(
    client: Client, user: Any, make_user: Any
) -> None:
    stranger = make_user("stranger")
    client.force_login(user)
    reply = client.post(
        "/ledger/settle/", {"other": stranger.pk, "direction": "i_paid", "points": 5}
    )
    assert reply.status_code == 400
    assert not SettlementClaim.objects.exists()


def test_only_staff_reach_the_correction_form(
    client: Client, user: Any, bob: Any, staff: Any
) -> None:
    data = {"payer": "alice", "payee": "bob", "points": 4, "note": "wrong 宝"}
    client.force_login(user)
    assert client.get("/ledger/correction/").status_code == 403
    assert client.post("/ledger/correction/", data).status_code == 403
    assert not Entry.objects.exists()
    client.force_login(staff)
    assert client.get("/ledger/correction/").status_code == 200
    assert client.post("/ledger/correction/", data).status_code == 302
    entry = Entry.objects.get()
    assert (entry.kind, entry.payer, entry.payee, entry.recorded_by) == (
        "correction",
        user,
        bob,
        staff,
    )
    assert entry.note == "wrong 宝"


def test_a_correction_between_one_player_and_themself_is_refused(
    client: Client, user: Any, staff: Any
) -> None:
    client.force_login(staff)
    data = {"payer": "alice", "payee": "alice", "points": 4, "note": "x"}
    reply = client.post("/ledger/correction/", data)
    assert reply.status_code == 400
    assert not Entry.objects.exists()
