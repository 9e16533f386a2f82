"""tables.play.moves: dealing, a seat's moves judged by the engine, 准备, 托管, ending the match and
booking a finished hand, driven as a page drives them (parsed, then ``inputs.table_act``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from engine.hand import waiting_on
from engine.rules import Rules
from engine.tiles import format_tile, parse_tile
from ledger.models import Entry
from tables.models import Hand, Room, Seat
from tables.play.protocol import PlayError
from tables.rooms import services
from tests.tables.factories import (
    hand_of,
    move_json,
    play_out_hand,
    run_bots_until_human,
    run_clock_until_hand_ends,
    run_until_my_turn,
    send,
    start_with_bots,
    step_shown,
)

pytestmark = pytest.mark.usefixtures("english")


def test_start_deals_a_hand_and_records_it(started: Room) -> None:
    state = hand_of(started)
    assert started.status == Room.Status.PLAYING
    assert state.phase == "turn" and len(state.hands[state.dealer]) == 14
    hand = Hand.objects.get(room=started)
    assert hand.number == 1 and hand.dealer == state.dealer and hand.seed == state.seed
    assert started.deadline is not None


def test_a_legal_move_is_applied_and_logged(started: Room, user: Any) -> None:
    state = run_bots_until_human(started, timezone.now())
    assert state.phase != "ended", "the bots finished the hand before seat 0 acted"
    version = started.version
    send(started, user, move_json(started, state, 0))
    after = hand_of(started)
    assert after.step == state.step + 1 or after.phase != state.phase
    assert started.version == version + 1
    assert after.log[len(state.log)][0] == 0  # logged in room.state; the record at the end


def test_out_of_turn_and_stale_moves_are_refused(started: Room, user: Any) -> None:
    state = hand_of(started)
    if 0 in waiting_on(state):
        stale = move_json(started, state, 0) | {"step": step_shown(started) - 1}
        with pytest.raises(PlayError, match="moved on"):
            send(started, user, stale)
    else:
        with pytest.raises(PlayError, match="not your turn"):
            send(started, user, {"action": "pass", "step": step_shown(started)})
    started.refresh_from_db()
    assert hand_of(started).step == state.step


def test_an_illegal_tile_is_refused(started: Room, user: Any) -> None:
    state = run_until_my_turn(started, user)
    assert state.turn == 0
    held = set(state.hands[0])
    missing = next(
        c for c in ("1z", "2z", "3z", "4z", "5z", "6z", "7z") if parse_tile(c) not in held
    )
    with pytest.raises(PlayError, match="not allowed"):
        send(started, user, {"action": "discard", "tile": missing, "step": step_shown(started)})
    assert hand_of(started).step == state.step


def test_a_spectator_cannot_move(started: Room, make_user: Any) -> None:
    bob = make_user("bob")
    with pytest.raises(PlayError, match="watching"):
        send(started, bob, {"action": "pass", "step": 0})


def test_taking_back_control_clears_tuoguan(started: Room, user: Any) -> None:
    Seat.objects.filter(room=started, index=0).update(tuoguan=True)
    send(started, user, {"action": "tuoguan", "on": "0"})
    assert not Seat.objects.get(room=started, index=0).tuoguan


def test_a_whole_hand_is_booked_with_zero_sum_entries(started: Room, user: Any) -> None:
    state = play_out_hand(started, user, timezone.now())
    hand = Hand.objects.get(room=started, number=1)
    assert hand.ended_at is not None and hand.result == state.result
    assert state.result is not None
    transfers = list(Entry.objects.filter(hand=hand))
    assert len(transfers) == len(state.result["transfers"])
    net = [0, 0, 0, 0]
    for t in transfers:
        assert t.payer_seat is not None and t.payee_seat is not None
        net[t.payer_seat] -= t.points
        net[t.payee_seat] += t.points
        if t.payer_seat == 0:
            assert t.payer == user
        if t.payee_seat != 0:
            assert t.payee is None  # bots have no account
    assert net == state.result["totals"] and sum(net) == 0
    seats = list(Seat.objects.filter(room=started).order_by("index"))
    assert [s.ready for s in seats] == [False, True, True, True]


def test_everyone_ready_deals_the_next_hand(started: Room, user: Any) -> None:
    state = play_out_hand(started, user, timezone.now())
    assert state.result is not None
    send(started, user, {"action": "ready"})
    started.refresh_from_db()
    assert Hand.objects.filter(room=started).count() == 2
    nxt = hand_of(started)
    assert nxt.phase == "turn" and nxt.dealer == state.result["next_dealer"]


def test_ready_during_a_hand_is_refused(started: Room, user: Any) -> None:
    with pytest.raises(PlayError, match="still being played"):
        send(started, user, {"action": "ready"})


def test_the_match_ends_after_its_hands(user: Any) -> None:
    room = start_with_bots(user, hands=1)
    play_out_hand(room, user, timezone.now())
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    with pytest.raises(PlayError, match="over"):
        send(room, user, {"action": "ready"})


def test_the_owner_ends_an_open_ended_match_between_hands(user: Any, make_user: Any) -> None:
    room = start_with_bots(user, hands=None)
    with pytest.raises(PlayError, match="between hands"):
        send(room, user, {"action": "end_match"})
    play_out_hand(room, user, timezone.now())
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING  # open-ended: nothing ends it by itself
    send(room, user, {"action": "end_match"})
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    assert room.deadline is None and room.turn_deadline is None
    assert Hand.objects.filter(room=room).count() == 1  # no next hand was dealt
    with pytest.raises(PlayError, match="over"):
        send(room, user, {"action": "ready"})


def test_only_the_owner_may_end_the_match(user: Any, make_user: Any) -> None:
    bob = make_user("bob")
    room = services.room_create(
        owner=user, name="Friday", is_public=True, rules=Rules(), match_length=None, turn_seconds=20
    )
    services.seat_take(room=room, user=bob, index=1)
    for i in (2, 3):
        services.bot_add(room=room, by_user=user, index=i)
    services.seat_ready(room=room, user=user, ready=True)
    services.seat_ready(room=room, user=bob, ready=True)
    services.match_start(room=room, by_user=user)
    Seat.objects.filter(room=room).update(tuoguan=True)
    room.refresh_from_db()
    run_clock_until_hand_ends(room)
    before = room.version
    with pytest.raises(PlayError, match="owner"):
        send(room, bob, {"action": "end_match"})
    room.refresh_from_db()
    assert room.version == before and room.status == Room.Status.PLAYING


def test_a_seat_not_asked_learns_nothing_from_the_step_it_names(
    started: Room, user: Any, settings: Any
) -> None:
    """D2: in a window alice is not asked (she discarded); whatever step she names, the
    current one, an old one or the engine's own (which counts the answers), the refusal is
    the same, so probing steps tells her nothing about who was asked."""
    state = run_until_my_turn(started, user)
    settings.TABLE_CLAIM_PAUSE_SECONDS = 1.0  # the window stays open until the clock closes it
    tile = format_tile(state.drawn if state.drawn is not None else state.hands[0][-1])
    discard = {"action": "discard", "tile": tile, "step": step_shown(started)}
    send(started, user, discard)
    held = hand_of(started)
    assert held.phase == "claim" and 0 not in waiting_on(held)
    shown = step_shown(started)
    for step in (shown, shown - 1, held.step, held.step + 1):
        with pytest.raises(PlayError, match="not your turn"):
            send(started, user, {"action": "pass", "step": step})
