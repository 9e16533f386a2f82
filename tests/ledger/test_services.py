"""Writing the book: hands booked as the engine settled them, corrections, settling up."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db.models import Q
from django.utils import timezone

from ledger import services
from ledger.models import Entry, PairBalance, SettlementClaim
from ledger.services import LedgerError
from tables.models import Hand, Match, Room
from tables.rooms import services as room_services

pytestmark = pytest.mark.usefixtures("english")


@pytest.mark.parametrize("seed", ["book-1", "book-2"])
def test_every_hand_is_booked_as_the_engine_settled_it(user: Any, play: Any, seed: str) -> None:
    room = play(user, hands=3, seed=seed)
    assert room.state is not None
    match = Match.objects.get(room=room)
    assert match.number == 1 and match.ended_at is not None
    hands = list(Hand.objects.filter(room=room))
    assert len(hands) == 3 and all(h.match_id == match.pk for h in hands)
    assert Entry.objects.filter(hand=hands[0]).exists()  # the known first deal ends in a win
    seat_totals = [0, 0, 0, 0]
    for hand in hands:
        entries = list(Entry.objects.filter(hand=hand))
        assert hand.result is not None
        engine = sorted(
            (t["payer"], t["payee"], t["points"], t["reason"])
            for t in hand.result["transfers"]
            if t["points"] > 0 and t["payer"] != t["payee"]
        )
        booked = sorted((e.payer_seat, e.payee_seat, e.points, e.reason) for e in entries)
        assert booked == engine
        net = [0, 0, 0, 0]
        for e in entries:
            assert e.kind == Entry.Kind.HAND and e.match_id == match.pk and e.room_id == room.pk
            assert (e.payer_seat == 0) == (e.payer == user)
            assert (e.payee_seat == 0) == (e.payee == user)
            assert e.payer_seat is not None and e.payee_seat is not None
            net[e.payer_seat] -= e.points
            net[e.payee_seat] += e.points
        assert sum(net) == 0
        assert net == hand.result["totals"]
        seat_totals = [a + b for a, b in zip(seat_totals, net, strict=True)]
    # The totals the table shows (the engine's match) are the book's.
    assert seat_totals == room.state["match"]["totals"]


def test_a_rooms_next_match_starts_from_zero(user: Any, play: Any) -> None:
    room = play(user, hands=1, seed="book-3")
    # A second match in the same room (the owner's tool for it comes later): a new Match row.
    room.status = Room.Status.WAITING
    room.save(update_fields=["status"])
    room_services.seat_ready(room=room, user=user, ready=True)
    room_services.match_start(room=room, by_user=user, first_seed="book-4")
    room.refresh_from_db()
    assert [m.number for m in Match.objects.filter(room=room)] == [1, 2]
    second = Match.objects.get(room=room, number=2)
    assert room.state is not None and room.state["match"]["totals"] == [0, 0, 0, 0]
    assert Hand.objects.get(room=room, number=1).match.number == 1  # type: ignore[union-attr]
    assert Hand.objects.filter(match=second).count() == 1
    assert Hand.objects.get(match=second).number == 2  # hands are numbered through the room
    assert not Entry.objects.filter(match=second).exists()


# ---------------------------------------------------------------- corrections


def test_staff_record_a_correction_both_players_see(staff: Any, user: Any, bob: Any) -> None:
    entry = services.correction_create(
        staff=staff, payer=user, payee=bob, points=12, note="  hand 3 was mis-scored "
    )
    assert (entry.kind, entry.recorded_by, entry.note) == (
        "correction",
        staff,
        "hand 3 was mis-scored",
    )
    for who in (user, bob):
        assert Entry.objects.filter(Q(payer=who) | Q(payee=who)).get() == entry


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"points": 0}, "more than zero"),
        ({"note": "   "}, "why"),
        ({"payee": "payer"}, "two different"),
    ],
)
def test_a_bad_correction_writes_nothing(
    staff: Any, user: Any, bob: Any, fields: dict[str, Any], message: str
) -> None:
    args: dict[str, Any] = {"staff": staff, "payer": user, "payee": bob, "points": 5, "note": "x"}
    args.update({k: (user if v == "payer" else v) for k, v in fields.items()})
    with pytest.raises(LedgerError, match=message):
        services.correction_create(**args)
    assert not Entry.objects.exists()


def test_a_guest_is_corrected_only_once_claimed(staff: Any, user: Any, bob: Any) -> None:
    bob.is_guest = True
    bob.save(update_fields=["is_guest"])
    for payer, payee in ((user, bob), (bob, user)):
        with pytest.raises(LedgerError, match="guest"):
            services.correction_create(staff=staff, payer=payer, payee=payee, points=5, note="x")
    assert not Entry.objects.exists()
    bob.is_guest = False
    bob.save(update_fields=["is_guest"])
    services.correction_create(staff=staff, payer=bob, payee=user, points=5, note="x")
    assert Entry.objects.count() == 1


def test_nobody_but_staff_corrects_the_book(user: Any, bob: Any) -> None:
    with pytest.raises(LedgerError, match="staff"):
        services.correction_create(staff=user, payer=user, payee=bob, points=5, note="please")
    user.is_staff = True
    user.is_active = False
    with pytest.raises(LedgerError, match="staff"):
        services.correction_create(staff=user, payer=user, payee=bob, points=5, note="please")
    assert not Entry.objects.exists()


# ---------------------------------------------------------------- settling up


def owes(staff: Any, debtor: Any, creditor: Any, points: int) -> None:
    """Put a debt in the book the way staff would: ``debtor`` owes ``creditor`` ``points``."""
    services.correction_create(staff=staff, payer=debtor, payee=creditor, points=points, note="d")


def balance(user: Any, other: Any) -> int:
    """What ``other`` owes ``user`` by the raw entries: + owed to user, - user owes."""
    pair = Entry.objects.filter(Q(payer=user, payee=other) | Q(payer=other, payee=user))
    return sum(e.points if e.payee_id == user.pk else -e.points for e in pair)


def test_a_settlement_clears_the_debt_it_pays(staff: Any, user: Any, bob: Any) -> None:
    # alice owes bob 12; alice pays bob 12 in real life and records it; bob confirms.
    owes(staff, user, bob, 12)
    assert (balance(user, bob), balance(bob, user)) == (-12, 12)
    claim = services.settlement_claim_create(
        recorded_by=user, payer=user, payee=bob, points=12, note="WeChat"
    )
    assert claim.status == SettlementClaim.Status.PROPOSED
    assert Entry.objects.count() == 1  # nothing booked until bob answers
    with pytest.raises(LedgerError, match="other player"):
        services.settlement_claim_confirm(claim_id=claim.pk, user=user)
    entry = services.settlement_claim_confirm(claim_id=claim.pk, user=bob)
    claim.refresh_from_db()
    assert claim.status == SettlementClaim.Status.CONFIRMED and claim.entry == entry
    assert (claim.answered_by, entry.kind, entry.points, entry.note) == (
        bob,
        "settlement",
        12,
        "WeChat",
    )
    assert (balance(user, bob), balance(bob, user)) == (0, 0)
    # Answered once: a second answer finds nothing waiting.
    with pytest.raises(LedgerError):
        services.settlement_claim_confirm(claim_id=claim.pk, user=bob)
    assert Entry.objects.count() == 2


def test_a_part_payment_leaves_the_rest_owed(staff: Any, user: Any, bob: Any) -> None:
    # bob owes alice 29; bob pays 20 (alice records "they paid me"); alice... no: bob confirms.
    owes(staff, bob, user, 29)
    claim = services.settlement_claim_create(recorded_by=user, payer=bob, payee=user, points=20)
    services.settlement_claim_confirm(claim_id=claim.pk, user=bob)
    assert (balance(user, bob), balance(bob, user)) == (9, -9)


def test_a_disputed_settlement_stays_out_of_the_book(staff: Any, user: Any, bob: Any) -> None:
    owes(staff, user, bob, 8)
    claim = services.settlement_claim_create(recorded_by=bob, payer=user, payee=bob, points=8)
    disputed = services.settlement_claim_dispute(claim_id=claim.pk, user=user)
    assert disputed.status == SettlementClaim.Status.DISPUTED and disputed.answered_by == user
    with pytest.raises(LedgerError):
        services.settlement_claim_confirm(claim_id=claim.pk, user=user)
    assert Entry.objects.count() == 1 and balance(user, bob) == -8


def test_only_the_two_players_record_or_answer(
    staff: Any, user: Any, bob: Any, make_user: Any
) -> None:
    carol = make_user("carol")
    owes(staff, user, bob, 8)
    with pytest.raises(LedgerError, match="took part"):
        services.settlement_claim_create(recorded_by=carol, payer=user, payee=bob, points=5)
    with pytest.raises(LedgerError, match="two different"):
        services.settlement_claim_create(recorded_by=user, payer=user, payee=user, points=5)
    with pytest.raises(LedgerError, match="at most"):
        services.settlement_claim_create(
            recorded_by=user, payer=user, payee=bob, points=5, note="x" * 201
        )
    claim = services.settlement_claim_create(recorded_by=user, payer=user, payee=bob, points=5)
    for answer in (services.settlement_claim_confirm, services.settlement_claim_dispute):
        with pytest.raises(LedgerError):
            answer(claim_id=claim.pk, user=carol)
    claim.refresh_from_db()
    assert claim.status == SettlementClaim.Status.PROPOSED


def test_claims_only_between_people_with_points_together(
    staff: Any, user: Any, bob: Any, make_user: Any
) -> None:
    carol = make_user("carol")
    with pytest.raises(LedgerError, match="have points with"):
        services.settlement_claim_create(recorded_by=user, payer=user, payee=carol, points=5)
    assert not SettlementClaim.objects.exists()


def test_a_claim_is_bounded_by_the_balance_or_the_cap(staff: Any, user: Any, bob: Any) -> None:
    # alice owes bob 1500: she may clear it all; the cap (1000) does not stop her.
    owes(staff, user, bob, 1500)
    services.settlement_claim_create(recorded_by=user, payer=user, payee=bob, points=1500)
    with pytest.raises(LedgerError, match="at most 1500"):
        services.settlement_claim_create(recorded_by=user, payer=user, payee=bob, points=1501)
    # With a small balance the cap is the bound: 1,000,000 is refused.
    carol_debt = 4
    owes(staff, bob, user, carol_debt + 1496)  # the pair is now even: 1500 - 1500
    with pytest.raises(LedgerError, match="at most 1000"):
        services.settlement_claim_create(recorded_by=bob, payer=bob, payee=user, points=1_000_000)


def test_at_most_three_claims_wait_per_pair(staff: Any, user: Any, bob: Any) -> None:
    owes(staff, user, bob, 100)
    for _ in range(services.CLAIM_OPEN_PER_PAIR):
        services.settlement_claim_create(recorded_by=bob, payer=user, payee=bob, points=1)
    with pytest.raises(LedgerError, match="3 settlements"):
        services.settlement_claim_create(recorded_by=user, payer=user, payee=bob, points=1)
    # Answering one frees a place.
    first = SettlementClaim.objects.order_by("pk").first()
    assert first is not None
    services.settlement_claim_dispute(claim_id=first.pk, user=user)
    services.settlement_claim_create(recorded_by=user, payer=user, payee=bob, points=1)


def test_an_unanswered_claim_expires_after_14_days(staff: Any, user: Any, bob: Any) -> None:
    owes(staff, user, bob, 10)
    recorded = timezone.now() - timedelta(days=14, minutes=1)
    claim = services.settlement_claim_create(
        recorded_by=user, payer=user, payee=bob, points=10, now=recorded
    )
    with pytest.raises(LedgerError, match="no settlement waiting"):
        services.settlement_claim_confirm(claim_id=claim.pk, user=bob)
    assert services.settlement_claims_expire() == 1
    claim.refresh_from_db()
    assert claim.status == SettlementClaim.Status.EXPIRED and claim.entry is None
    assert balance(user, bob) == -10


def test_a_suggested_payment_needs_no_balance_of_the_pair_but_keeps_a_bound(
    user: Any, bob: Any, make_user: Any
) -> None:
    # A group's who-pays-whom may have alice pay carol, whom she never played: the 30 it
    # suggested (or the cap) bounds the claim instead of their balance.
    carol = make_user("carol")
    claim = services.settlement_claim_create(
        recorded_by=user, payer=user, payee=carol, points=30, suggested=30
    )
    assert (claim.payer, claim.payee, claim.points) == (user, carol, 30)
    with pytest.raises(LedgerError, match="at most 1000"):
        services.settlement_claim_create(
            recorded_by=user, payer=user, payee=carol, points=1001, suggested=30
        )


def test_a_physical_hand_books_its_payments_and_their_running_totals(
    user: Any, bob: Any, make_user: Any
) -> None:
    # carol won 4 from each of alice and bob at a physical table: she reads +8, each -4.
    carol = make_user("carol")
    entries = services.offline_entries_create(
        payments=[(user, carol, 4, "self_draw"), (bob, carol, 4, "self_draw"), (bob, bob, 9, "x")],
        recorded_by=carol,
        note="平胡",
    )
    assert [(e.kind, e.payer, e.payee, e.points) for e in entries] == [
        ("offline_hand", user, carol, 4),
        ("offline_hand", bob, carol, 4),
    ]
    balances = dict(PairBalance.objects.filter(user=carol).values_list("other__username", "points"))
    assert balances == {"alice": 4, "bob": 4}
