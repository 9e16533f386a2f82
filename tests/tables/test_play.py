"""The live table's services: dealing, moves, refusals, timers, 托管, booking a hand."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone, translation

from engine.hand import HandState, legal_actions, waiting_on
from engine.rules import Rules
from engine.tiles import parse_tile
from ledger.models import Entry
from tables import play, services
from tables.models import Hand, Room, Seat
from tables.play import PlayError
from tests.tables.factories import start_with_bots


@pytest.fixture(autouse=True)
def _english() -> Any:
    with translation.override("en"):
        yield


@pytest.fixture
def started(user: Any) -> Room:
    """alice in seat 0 (ready) and three bots; the match has started on a known deal."""
    return start_with_bots(user, seed="play-tests")


def hand_of(room: Room) -> HandState:
    room.refresh_from_db()
    assert room.state is not None
    return HandState.from_json(room.state["hand"])


def move_json(state: HandState, seat: int, index: int = 0) -> dict[str, Any]:
    action = legal_actions(state, seat)[index].to_json()
    return {"action": action.pop("type"), "step": state.step, **action}


def run_bots_until_human(room: Room, now: Any, limit: int = 400) -> HandState:
    """Let the table's clock run (bots move) until seat 0 must act or the hand ends."""
    for _ in range(limit):
        state = hand_of(room)
        if state.phase == "ended" or 0 in waiting_on(state):
            return state
        assert room.deadline is not None
        now = max(now, room.deadline)
        assert play.advance(room.number, now=now)
    raise AssertionError("the bots never handed over")


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
    play.act(started.number, user, move_json(state, 0))
    after = hand_of(started)
    assert after.step == state.step + 1 or after.phase != state.phase
    assert started.version == version + 1
    assert Hand.objects.get(room=started).actions[: len(state.log) + 1][-1][0] == 0


@pytest.mark.parametrize(
    "payload",
    [
        None,
        "discard",
        {"action": 5},
        {"action": "fly", "step": 0},
        {"action": "discard", "tile": "0m", "step": 0},
        {"action": "discard", "tile": "5m"},
        {"action": "chi", "tile": "5m", "tiles": "4m", "step": 0},
        {"action": "discard", "tile": "5m", "step": "x"},
    ],
)
def test_malformed_input_is_refused_and_changes_nothing(
    started: Room, user: Any, payload: Any
) -> None:
    before = (started.state, started.version)
    with pytest.raises(PlayError):
        play.act(started.number, user, payload)
    started.refresh_from_db()
    assert (started.state, started.version) == before


def test_out_of_turn_and_stale_moves_are_refused(started: Room, user: Any) -> None:
    state = hand_of(started)
    if 0 in waiting_on(state):
        stale = move_json(state, 0) | {"step": state.step - 1}
        with pytest.raises(PlayError, match="moved on"):
            play.act(started.number, user, stale)
    else:
        with pytest.raises(PlayError, match="not your turn"):
            play.act(started.number, user, {"action": "pass", "step": state.step})
    started.refresh_from_db()
    assert hand_of(started).step == state.step


def run_until_my_turn(room: Room, user: Any) -> HandState:
    """Seat 0 passes every claim until it is on its own turn."""
    for _ in range(100):
        state = run_bots_until_human(room, timezone.now())
        assert state.phase != "ended", "the hand ended before seat 0's turn"
        if state.phase == "turn":
            return state
        play.act(room.number, user, {"action": "pass", "step": state.step})
    raise AssertionError("seat 0 never got a turn")


def test_an_illegal_tile_is_refused(started: Room, user: Any) -> None:
    state = run_until_my_turn(started, user)
    assert state.turn == 0
    held = set(state.hands[0])
    missing = next(
        c for c in ("1z", "2z", "3z", "4z", "5z", "6z", "7z") if parse_tile(c) not in held
    )
    with pytest.raises(PlayError, match="not allowed"):
        play.act(started.number, user, {"action": "discard", "tile": missing, "step": state.step})
    assert hand_of(started).step == state.step


def test_a_spectator_cannot_move(started: Room, make_user: Any) -> None:
    bob = make_user("bob")
    with pytest.raises(PlayError, match="watching"):
        play.act(started.number, bob, {"action": "pass", "step": 0})


def test_advance_does_nothing_before_the_deadline(started: Room) -> None:
    version = started.version
    assert started.deadline is not None
    assert not play.advance(started.number, now=started.deadline - timedelta(seconds=0.1))
    started.refresh_from_db()
    assert started.version == version


def test_the_turn_timer_puts_a_seat_on_tuoguan_and_the_bot_moves(started: Room) -> None:
    state = run_bots_until_human(started, timezone.now())
    assert state.phase != "ended", "the hand ended before seat 0 acted"
    assert started.turn_deadline is not None
    assert play.advance(started.number, now=started.turn_deadline + timedelta(seconds=1))
    seat = Seat.objects.get(room=started, index=0)
    assert seat.tuoguan
    assert hand_of(started).step > state.step


def test_taking_back_control_clears_tuoguan(started: Room, user: Any) -> None:
    Seat.objects.filter(room=started, index=0).update(tuoguan=True)
    play.act(started.number, user, {"action": "tuoguan", "on": "0"})
    assert not Seat.objects.get(room=started, index=0).tuoguan


def test_a_disconnected_player_is_played_after_the_grace_period(
    started: Room, user: Any, settings: Any
) -> None:
    settings.TABLE_DISCONNECT_GRACE_SECONDS = 5
    now = timezone.now()
    state = run_bots_until_human(started, now)
    assert state.phase != "ended", "the hand ended before seat 0 acted"
    assert play.connect(started.number, user, now=now)
    assert play.disconnect(started.number, user, now=now)
    started.refresh_from_db()
    assert started.deadline is not None
    assert started.deadline <= now + timedelta(seconds=5)
    assert play.advance(started.number, now=now + timedelta(seconds=5))
    assert Seat.objects.get(room=started, index=0).tuoguan


def test_two_tabs_count_as_connected_until_both_close(started: Room, user: Any) -> None:
    play.connect(started.number, user)
    play.connect(started.number, user)
    play.disconnect(started.number, user)
    seat = Seat.objects.get(room=started, index=0)
    assert seat.connections == 1 and seat.disconnected_at is None
    play.disconnect(started.number, user)
    seat.refresh_from_db()
    assert seat.connections == 0 and seat.disconnected_at is not None


def play_out_hand(room: Room, user: Any, now: Any) -> HandState:
    """Seat 0 always takes its first legal action; the bots play the rest."""
    for _ in range(600):
        state = run_bots_until_human(room, now)
        if state.phase == "ended":
            return state
        play.act(room.number, user, move_json(state, 0))
    raise AssertionError("the hand never ended")


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
    play.act(started.number, user, {"action": "ready"})
    started.refresh_from_db()
    assert Hand.objects.filter(room=started).count() == 2
    nxt = hand_of(started)
    assert nxt.phase == "turn" and nxt.dealer == state.result["next_dealer"]


def test_ready_during_a_hand_is_refused(started: Room, user: Any) -> None:
    with pytest.raises(PlayError, match="still being played"):
        play.act(started.number, user, {"action": "ready"})


def test_the_match_ends_after_its_hands(user: Any) -> None:
    room = start_with_bots(user, hands=1)
    play_out_hand(room, user, timezone.now())
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    with pytest.raises(PlayError, match="over"):
        play.act(room.number, user, {"action": "ready"})


def test_state_survives_a_reload_from_the_database(started: Room) -> None:
    """A restart loses nothing: the stored JSON is the whole game."""
    first = hand_of(started)
    again = Room.objects.get(pk=started.pk)
    table = play.load_table(again)
    assert table is not None and table.hand is not None
    assert table.hand.to_json() == first.to_json()


def test_a_count_left_by_a_crashed_server_goes_stale(
    started: Room, user: Any, settings: Any
) -> None:
    settings.TABLE_HEARTBEAT_SECONDS = 10
    now = timezone.now()
    play.connect(started.number, user, now=now)
    seat = Seat.objects.get(room=started, index=0)
    assert play.present(seat, now + timedelta(seconds=20))
    # The server died without closing the page: no heartbeat, no disconnect.
    later = now + timedelta(seconds=26)
    assert not play.present(seat, later)
    assert play.gone_since(seat, later) == now + timedelta(seconds=25)
    # The page reconnects to a new server: the old count does not linger.
    play.connect(started.number, user, now=later)
    seat.refresh_from_db()
    assert seat.connections == 1 and play.present(seat, later)


def test_heartbeats_keep_a_page_present(started: Room, user: Any, settings: Any) -> None:
    settings.TABLE_HEARTBEAT_SECONDS = 10
    now = timezone.now()
    play.connect(started.number, user, now=now)
    play.heartbeat(started.number, user, now=now + timedelta(seconds=20))
    seat = Seat.objects.get(room=started, index=0)
    assert play.present(seat, now + timedelta(seconds=40))


def test_reconnecting_after_downtime_gives_a_fresh_turn(started: Room, user: Any) -> None:
    state = run_bots_until_human(started, timezone.now())
    assert state.phase != "ended", "the hand ended before seat 0 acted"
    assert started.turn_deadline is not None
    much_later = started.turn_deadline + timedelta(minutes=5)
    play.connect(started.number, user, now=much_later)
    started.refresh_from_db()
    assert started.turn_deadline == much_later + timedelta(seconds=started.turn_seconds)
    assert not Seat.objects.get(room=started, index=0).tuoguan


def test_the_owner_ends_an_open_ended_match_between_hands(user: Any, make_user: Any) -> None:
    room = start_with_bots(user, hands=None)
    with pytest.raises(PlayError, match="between hands"):
        play.act(room.number, user, {"action": "end_match"})
    play_out_hand(room, user, timezone.now())
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING  # open-ended: nothing ends it by itself
    play.act(room.number, user, {"action": "end_match"})
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    assert room.deadline is None and room.turn_deadline is None
    assert Hand.objects.filter(room=room).count() == 1  # no next hand was dealt
    with pytest.raises(PlayError, match="over"):
        play.act(room.number, user, {"action": "ready"})


def test_only_the_owner_may_end_the_match(user: Any, make_user: Any) -> None:
    bob = make_user("bob")
    room = services.create_room(user, "Friday", True, Rules(), None, 20)
    services.take_seat(room, bob, 1)
    for i in (2, 3):
        services.add_bot(room, user, i)
    services.set_ready(room, user, True)
    services.set_ready(room, bob, True)
    services.start_match(room, user)
    Seat.objects.filter(room=room).update(tuoguan=True)
    room.refresh_from_db()
    now = timezone.now()
    for _ in range(800):
        if hand_of(room).phase == "ended":
            break
        assert room.deadline is not None
        now = max(now, room.deadline)
        play.advance(room.number, now=now)
    assert hand_of(room).phase == "ended"
    before = room.version
    with pytest.raises(PlayError, match="owner"):
        play.act(room.number, bob, {"action": "end_match"})
    room.refresh_from_db()
    assert room.version == before and room.status == Room.Status.PLAYING


def test_missing_the_ready_timer_readies_without_tuoguan(started: Room, user: Any) -> None:
    play_out_hand(started, user, timezone.now())
    started.refresh_from_db()
    play.connect(started.number, user)  # the player is at the table, just slow
    started.refresh_from_db()
    assert started.turn_deadline is not None
    assert play.advance(started.number, now=started.turn_deadline + timedelta(seconds=1))
    seat = Seat.objects.get(room=started, index=0)
    assert not seat.tuoguan
    assert Hand.objects.filter(room=started).count() == 2  # the next hand was dealt
    assert hand_of(started).phase != "ended"


def test_a_player_gone_past_the_grace_period_is_readied_on_tuoguan(
    started: Room, user: Any, settings: Any
) -> None:
    settings.TABLE_DISCONNECT_GRACE_SECONDS = 5
    play_out_hand(started, user, timezone.now())
    now = timezone.now()
    play.connect(started.number, user, now=now)
    play.disconnect(started.number, user, now=now)
    assert play.advance(started.number, now=now + timedelta(seconds=6))
    assert Seat.objects.get(room=started, index=0).tuoguan
