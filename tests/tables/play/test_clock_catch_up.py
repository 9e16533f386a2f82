"""tables.play.clock.catch_up: a held window closes for its readers at its deadline, no commit.

The hands are dealt from the explicit walls of ``test_windows``: the dealer discards 东, which
nobody may claim (or which the seat across may 碰, and passes), and the seat after the dealer
draws 5p when the window closes. The expected tables are worked out from those walls and
from what a committed close (``clock.advance``) saves.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from engine.hand import HandState
from engine.tiles import parse_tile
from tables.models import Room, Seat
from tables.play import clock, inputs
from tables.play.protocol import PlayError, parse_message
from tables.play.table import Table, load_table
from tables.play.windows import public_step, public_version
from tests.tables.play.test_windows import ACROSS_NOTHING, ACROSS_PONG, scripted_table

pytestmark = pytest.mark.usefixtures("english")

PAUSE = 1.0


def _users(make_user: Any, prefix: str) -> list[Any]:
    return [make_user(f"{prefix}{i}") for i in range(4)]


def _seat_user(room: Room, index: int) -> Any:
    return Seat.objects.select_related("user").get(room=room, index=index).user


def _dealer_discards_dong(make_user: Any, settings: Any, across: str = ACROSS_NOTHING) -> Room:
    """The scripted table after the dealer's 东, its window held; the room as stored."""
    settings.TABLE_CLAIM_PAUSE_SECONDS = PAUSE
    room = scripted_table(_users(make_user, "c"), across)
    assert room.state is not None
    d = HandState.from_json(room.state["hand"]).dealer
    message = parse_message({"action": "discard", "tile": "1z", "step": str(public_step(room))})
    inputs.table_act(number=room.number, user=_seat_user(room, d), message=message)
    room.refresh_from_db()
    return room


def _read(room: Room, now: datetime) -> Table:
    t = load_table(Room.objects.get(pk=room.pk))
    assert t is not None
    clock.catch_up(t, now)
    return t


def test_a_window_nobody_may_answer_closes_for_its_readers_at_its_deadline(
    make_user: Any, settings: Any
) -> None:
    room = _dealer_discards_dong(make_user, settings)
    held = HandState.from_json(room.state["hand"])
    assert held.phase == "claim" and room.state[clock.WINDOW_CLOSE] is True
    closes = room.deadline
    assert closes is not None
    assert closes.timestamp() == pytest.approx(float(room.state["decision_at"]) + PAUSE)
    step, version = public_step(room), public_version(room)

    early = _read(room, closes - timedelta(milliseconds=1))
    assert early.hand is not None and early.hand.phase == "claim"
    assert public_step(early.room) == step and public_version(early.room) == version

    t = _read(room, closes + timedelta(milliseconds=500))  # a page's read, a little later
    assert t.hand is not None and t.hand.phase == "turn"
    assert t.hand.turn == (held.dealer + 1) % 4
    assert t.hand.drawn == parse_tile("5p")  # the wall's next tile (DRAWS)
    assert public_step(t.room) == step + 1 and public_version(t.room) == version + 1
    # The next seat's countdown starts when the window closed, not when it was read.
    assert t.room.turn_deadline == closes + timedelta(seconds=600)
    assert clock.WINDOW_CLOSE not in (t.room.state or {})

    # Nothing was written: the room still holds the window, at the same version.
    stored = Room.objects.get(pk=room.pk)
    assert stored.version == room.version and stored.deadline == closes
    assert HandState.from_json(stored.state["hand"]).phase == "claim"


def test_catching_up_shows_what_committing_the_close_saves(make_user: Any, settings: Any) -> None:
    room = _dealer_discards_dong(make_user, settings)
    closes = room.deadline
    assert closes is not None
    read = _read(room, closes)
    assert clock.advance(room.number, now=closes)  # the close committed as a change of its own
    stored = load_table(Room.objects.get(pk=room.pk))
    assert stored is not None and stored.hand is not None and read.hand is not None
    assert stored.hand.to_json() == read.hand.to_json()
    for counter in (public_step, public_version):
        assert counter(stored.room) == counter(read.room)
    assert stored.room.version == room.version + 1
    assert (stored.room.deadline, stored.room.turn_deadline) == (
        read.room.deadline,
        read.room.turn_deadline,
    )
    for key in ("decision", "decision_at", "public_decision", "public_step"):
        assert stored.room.state[key] == read.room.state[key]


def test_the_drawer_moves_on_the_caught_up_table_and_its_commit_saves_the_close(
    make_user: Any, settings: Any
) -> None:
    room = _dealer_discards_dong(make_user, settings)
    closes = room.deadline
    assert closes is not None
    step, version = public_step(room), public_version(room)
    drawer = (HandState.from_json(room.state["hand"]).dealer + 1) % 4
    later = closes + timedelta(seconds=2)
    message = parse_message({"action": "discard", "tile": "5p", "step": str(step + 1)})
    assert inputs.table_act(
        number=room.number, user=_seat_user(room, drawer), message=message, now=later
    )
    room.refresh_from_db()
    # The close and the discard: two decisions, two steps of the public counters, one commit.
    assert public_step(room) == step + 2 and public_version(room) == version + 2
    hand = HandState.from_json(room.state["hand"])
    assert hand.rivers[drawer][-1] == parse_tile("5p") and hand.phase == "claim"


def test_a_move_before_the_window_closes_changes_nothing(make_user: Any, settings: Any) -> None:
    room = _dealer_discards_dong(make_user, settings)
    closes = room.deadline
    assert closes is not None
    drawer = (HandState.from_json(room.state["hand"]).dealer + 1) % 4
    message = parse_message({"action": "discard", "tile": "5p", "step": str(public_step(room) + 1)})
    with pytest.raises(PlayError):
        inputs.table_act(
            number=room.number,
            user=_seat_user(room, drawer),
            message=message,
            now=closes - timedelta(milliseconds=100),
        )
    assert Room.objects.get(pk=room.pk).version == room.version


def test_a_window_with_a_seat_asked_closes_for_readers_once_it_has_answered(
    make_user: Any, settings: Any
) -> None:
    room = _dealer_discards_dong(make_user, settings, across=ACROSS_PONG)
    d = HandState.from_json(room.state["hand"]).dealer
    assert clock.WINDOW_CLOSE not in room.state  # the seat across is still asked
    message = parse_message({"action": "pass", "step": str(public_step(room))})
    inputs.table_act(number=room.number, user=_seat_user(room, (d + 2) % 4), message=message)
    room.refresh_from_db()
    assert room.state[clock.WINDOW_CLOSE] is True
    assert room.deadline is not None
    t = _read(room, room.deadline)
    assert t.hand is not None and t.hand.turn == (d + 1) % 4


def test_a_close_that_would_end_the_hand_is_left_to_a_commit(
    make_user: Any, settings: Any, monkeypatch: Any
) -> None:
    """A close that ends the hand books it (the ledger), which only a commit can do."""
    monkeypatch.setattr(clock, "_close_ends_hand", lambda hand: True)
    room = _dealer_discards_dong(make_user, settings)
    assert clock.WINDOW_CLOSE not in room.state
    assert room.deadline is not None
    t = _read(room, room.deadline + timedelta(seconds=1))
    assert t.hand is not None and t.hand.phase == "claim"  # readers leave it to advance()
    assert clock.advance(room.number, now=room.deadline)
    room.refresh_from_db()
    assert HandState.from_json(room.state["hand"]).phase == "turn"
