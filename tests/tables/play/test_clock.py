"""tables.play.clock: deadlines and ``advance`` (bots' moves, turn timers, the grace period)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from engine.tiles import format_tile
from tables.models import Hand, Room, Seat
from tables.play import clock, inputs
from tables.play.protocol import parse_message
from tests.tables.factories import (
    hand_of,
    move_json,
    play_out_hand,
    run_bots_until_human,
    run_until_my_turn,
    send,
    step_shown,
)

pytestmark = pytest.mark.usefixtures("english")


def test_advance_does_nothing_before_the_deadline(started: Room) -> None:
    version = started.version
    assert started.deadline is not None
    assert not clock.advance(started.number, now=started.deadline - timedelta(seconds=0.1))
    started.refresh_from_db()
    assert started.version == version


def test_advance_says_which_deadline_it_met(started: Room) -> None:
    """Whatever deadline woke the caller, the change names the one it found due
    (tables.socket.deadline_once counts the tick for it)."""
    due = started.deadline
    assert due is not None
    change = clock.advance(started.number, now=due + timedelta(seconds=3))
    assert change and change.met == due
    assert change.room.deadline != due


def _lock_takes(monkeypatch: Any, module: Any, name: str, seconds: float) -> list[Any]:
    """The clock stands still but for ``module.name``, the room's lock, which takes
    ``seconds`` (another process held it): returns the clock's reading, [before, after]."""
    clock_at = [timezone.now()]
    monkeypatch.setattr(timezone, "now", lambda: clock_at[-1])
    locked = getattr(module, name)

    def waited(*args: Any) -> Any:
        result = locked(*args)
        clock_at.append(clock_at[0] + timedelta(seconds=seconds))
        return result

    monkeypatch.setattr(module, name, waited)
    return clock_at


def test_a_tick_reads_the_clock_once_the_room_is_locked(started: Room, monkeypatch: Any) -> None:
    """Deadlines are scheduled from when a change got the room's lock, so a change that
    waited for it sets none earlier than the changes committed before it
    (tables.socket.deadline_once counts a tick for the deadline it met, and must not skip a later
    one)."""
    assert started.deadline is not None
    clock_at = _lock_takes(monkeypatch, clock, "room_locked_with_seats", 30)
    clock_at[0] = started.deadline
    assert clock.advance(started.number)
    started.refresh_from_db()
    assert started.deadline is not None and started.deadline >= clock_at[1]


def test_an_input_reads_the_clock_once_the_room_is_locked(
    started: Room, user: Any, monkeypatch: Any
) -> None:
    state = run_until_my_turn(started, user)
    clock_at = _lock_takes(monkeypatch, inputs, "table_locked", 30)
    send(started, user, move_json(started, state, 0))
    started.refresh_from_db()
    assert started.deadline is not None and started.deadline >= clock_at[1]


def _tuoguan_at_first_timeout(room: Room) -> None:
    """The room option set so a single timeout turns 托管 on (the default forgives one)."""
    Room.objects.filter(pk=room.pk).update(tuoguan_after=1)
    room.refresh_from_db()


def test_the_turn_timer_puts_a_seat_on_tuoguan_and_the_bot_moves(started: Room, user: Any) -> None:
    _tuoguan_at_first_timeout(started)
    state = run_until_my_turn(started, user)
    assert state.phase != "ended", "the hand ended before seat 0 acted"
    assert started.turn_deadline is not None
    assert clock.advance(started.number, now=started.turn_deadline + timedelta(seconds=1))
    seat = Seat.objects.get(room=started, index=0)
    assert seat.tuoguan
    assert hand_of(started).step > state.step


def test_a_disconnected_player_is_played_after_the_grace_period(
    started: Room, user: Any, settings: Any
) -> None:
    settings.TABLE_DISCONNECT_GRACE_SECONDS = 5
    now = timezone.now()
    state = run_until_my_turn(started, user)
    assert state.phase != "ended", "the hand ended before seat 0 acted"
    assert inputs.seat_connect(number=started.number, user=user, now=now)
    assert inputs.seat_disconnect(number=started.number, user=user, now=now)
    started.refresh_from_db()
    assert started.deadline is not None
    assert started.deadline <= now + timedelta(seconds=5)
    assert clock.advance(started.number, now=now + timedelta(seconds=5))
    assert Seat.objects.get(room=started, index=0).tuoguan


def test_a_seat_out_of_time_in_a_claim_window_passes_without_tuoguan(started: Room) -> None:
    """托管 in a window would show every page that this seat was asked (D2): it passes."""
    for _ in range(100):
        state = run_bots_until_human(started, timezone.now())
        assert state.phase != "ended", "the hand ended before seat 0 was asked in a window"
        if state.phase == "claim":
            break
        send(started, started.owner, move_json(started, state, 0))
    assert started.turn_deadline is not None
    assert clock.advance(started.number, now=started.turn_deadline + timedelta(seconds=1))
    assert not Seat.objects.get(room=started, index=0).tuoguan
    after = hand_of(started)
    assert [0, {"type": "pass"}] in [list(e) for e in after.log[len(state.log) :]]


def test_missing_the_ready_timer_readies_without_tuoguan(started: Room, user: Any) -> None:
    play_out_hand(started, user, timezone.now())
    started.refresh_from_db()
    inputs.seat_connect(number=started.number, user=user)  # the player is at the table, just slow
    started.refresh_from_db()
    assert started.turn_deadline is not None
    assert clock.advance(started.number, now=started.turn_deadline + timedelta(seconds=1))
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
    inputs.seat_connect(number=started.number, user=user, now=now)
    inputs.seat_disconnect(number=started.number, user=user, now=now)
    assert clock.advance(started.number, now=now + timedelta(seconds=6))
    assert Seat.objects.get(room=started, index=0).tuoguan


def test_the_timeout_is_recorded_as_the_reason_and_asks_still_there(
    started: Room, user: Any
) -> None:
    from tables.play.table import load_table
    from tables.screen.board import private_board

    _tuoguan_at_first_timeout(started)
    state = run_until_my_turn(started, user)
    assert state.phase != "ended", "the hand ended before seat 0 acted"
    assert started.turn_deadline is not None
    clock.advance(started.number, now=started.turn_deadline + timedelta(seconds=1))
    seat = Seat.objects.get(room=started, index=0)
    assert seat.tuoguan and seat.tuoguan_reason == Seat.TuoguanReason.TIMEOUT
    started.refresh_from_db()
    table = load_table(started)
    assert table is not None
    banner = private_board(table, 0).banner
    assert banner is not None and banner.tuoguan_reason == "timeout"
    inputs.table_act(
        number=started.number, user=user, message=parse_message({"action": "tuoguan", "on": "0"})
    )
    seat.refresh_from_db()
    assert not seat.tuoguan and seat.tuoguan_reason == ""


def test_a_disconnection_is_recorded_as_the_reason(started: Room, user: Any, settings: Any) -> None:
    settings.TABLE_DISCONNECT_GRACE_SECONDS = 5
    now = timezone.now()
    state = run_until_my_turn(started, user)
    assert state.phase != "ended", "the hand ended before seat 0 acted"
    inputs.seat_connect(number=started.number, user=user, now=now)
    inputs.seat_disconnect(number=started.number, user=user, now=now)
    assert clock.advance(started.number, now=now + timedelta(seconds=5))
    seat = Seat.objects.get(room=started, index=0)
    assert seat.tuoguan_reason == Seat.TuoguanReason.DISCONNECTED


def test_every_discard_holds_a_window_for_the_same_pause(
    started: Room, user: Any, settings: Any
) -> None:
    """With a claim pause, each discard opens a window (whoever may claim), and the clock
    closes it once the pause has run: never earlier, for nobody's answers."""
    settings.TABLE_CLAIM_PAUSE_SECONDS = 1.0
    state = run_until_my_turn(started, user)
    tile = state.hands[0][-1]
    send(
        started, user, {"action": "discard", "tile": format_tile(tile), "step": step_shown(started)}
    )
    started.refresh_from_db()
    held = hand_of(started)
    assert held.phase == "claim"  # even if nobody may claim it
    assert started.state is not None and started.deadline is not None
    opened = float(started.state["decision_at"])
    for _ in range(10):  # bots answer on their beat; the window stays open
        if started.deadline.timestamp() >= opened + 1.0:
            break
        clock.advance(started.number, now=started.deadline)
        started.refresh_from_db()
        assert hand_of(started).phase == "claim"
    assert started.deadline.timestamp() == pytest.approx(opened + 1.0)
    assert clock.advance(started.number, now=started.deadline)
    assert hand_of(started).phase != "claim"


def _time_out(room: Room, user: Any) -> int:
    """Seat 0's turn comes and its clock runs out; the step it timed out at."""
    state = run_until_my_turn(room, user)
    assert state.phase != "ended", "the hand ended before seat 0 acted"
    room.refresh_from_db()
    assert room.turn_deadline is not None
    assert clock.advance(room.number, now=room.turn_deadline + timedelta(seconds=1))
    return state.step


def test_the_first_timeout_plays_one_tile_and_warns_the_second_turns_on_tuoguan(
    started: Room, user: Any
) -> None:
    from tables.play.table import load_table
    from tables.screen.board import private_board

    assert started.tuoguan_after == 2  # the default: the second timeout in a hand
    step = _time_out(started, user)
    seat = Seat.objects.get(room=started, index=0)
    assert not seat.tuoguan and seat.timeouts == 1
    assert hand_of(started).step > step  # a tile was played for seat 0
    table = load_table(started)
    assert table is not None
    assert private_board(table, 0).prompt.timed_out
    _time_out(started, user)
    seat = Seat.objects.get(room=started, index=0)
    assert seat.tuoguan and seat.tuoguan_reason == Seat.TuoguanReason.TIMEOUT


def test_after_tuoguan_is_cancelled_the_next_timeout_turns_it_on_again(
    started: Room, user: Any
) -> None:
    _time_out(started, user)
    _time_out(started, user)
    assert Seat.objects.get(room=started, index=0).tuoguan
    send(started, user, {"action": "tuoguan", "on": "0"})
    assert not Seat.objects.get(room=started, index=0).tuoguan
    _time_out(started, user)
    assert Seat.objects.get(room=started, index=0).tuoguan
