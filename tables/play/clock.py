"""The table's clock: when something is next due, and :func:`advance`, which does it.

Timers are plain data: ``room.deadline`` says when something is next due and
``room.turn_deadline`` is the countdown a page shows. Every open page's consumer keeps a
timer for the deadline it last rendered and calls :func:`advance` when it fires; whichever
process calls first after the deadline acts, the others find the deadline moved on and do
nothing, so each timer fires once.

One deadline is met without a commit: a held claim or 抢杠 window that nobody is still asked
in, whose close can't end the hand (:data:`WINDOW_CLOSE`). What the close does is fixed the
moment the last answer is in (the wall is dealt, the answers are given), so every reader
works it out alike: :func:`catch_up` closes it, as of its deadline, in the table it has just
read, and each process's pages are pushed from that at the deadline
(``tables.socket.consumer``). The next commit to the table saves it with its own change.
Before, a close was a transaction of its own, read, written and pushed like a move: about
four in ten of the changes at a table.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from engine.hand import HandState, close_window, waiting_on
from tables.models import Room, Seat
from tables.play import dissolve, events, windows
from tables.play.moves import (
    automatic_play,
    claim_pause,
    hand_book_if_ended,
    hand_deal_if_all_ready,
    holds_windows,
    seat_timed_out,
    tuoguan_set,
    window_close_if_due,
)
from tables.play.presence import gone_since
from tables.play.rows import room_locked_with_seats
from tables.play.table import (
    Table,
    VoteState,
    load_table,
    must_act,
    seat_automatic,
    table_save,
)
from tables.play.windows import WINDOW_PHASES

__all__ = [
    "READY_SECONDS_MIN",
    "WINDOW_CLOSE",
    "Committed",
    "advance",
    "catch_up",
    "catch_up_due",
    "committed",
    "schedule",
    "table_commit",
    "window_closes_at",
]

READY_SECONDS_MIN = 30
"""The settlement stays on screen at least this long before the clock readies a seat."""

WINDOW_CLOSE = "window_close"
"""``room.state`` key, set by :func:`schedule` when ``room.deadline`` is a held window's close
and nothing else: every reader closes it once the deadline has passed (:func:`catch_up`)."""


def _bot_delay() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "TABLE_BOT_DELAY_SECONDS", 0.8)))


def _grace() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "TABLE_DISCONNECT_GRACE_SECONDS", 30)))


def _decision_key(t: Table) -> list[Any]:
    """Changes exactly when a new decision starts, so answers in a claim window keep the clock."""
    h = t.hand
    if h is None:
        return []
    if h.phase == "turn":
        return [t.match.hand_no, "turn", h.step]
    if h.phase == "ended":
        return [t.match.hand_no, "ended"]
    assert h.pending is not None
    return [t.match.hand_no, h.phase, h.pending.frm, h.pending.tile, h.pending.kind]


def schedule(t: Table, now: datetime) -> None:
    """Set ``room.turn_deadline`` (a new decision gets a fresh countdown) and ``room.deadline``
    (the next bot beat, countdown's end or grace period's end, whichever comes first)."""
    room = t.room
    key = _decision_key(t)
    windows.counters_update(t, key)
    assert room.state is not None
    room.state.pop(WINDOW_CLOSE, None)
    vote = dissolve.vote_open(t)
    if vote is not None:
        # The table is paused for a 解散 vote: only its deadline is due; the countdown waits.
        room.deadline = vote.deadline
        return
    waiting = must_act(t)
    people = [i for i in waiting if not seat_automatic(t.seats[i])]
    assert room.state is not None
    if room.state.get("decision") != key:
        # When this decision began: every window closes the same pause after it opened.
        room.state["decision_at"] = now.timestamp()
    if room.state.get("decision") != key or (people and room.turn_deadline is None):
        seconds = room.turn_seconds
        if t.hand is not None and t.hand.phase == "ended":
            seconds = max(seconds, READY_SECONDS_MIN)
        room.turn_deadline = now + timedelta(seconds=seconds) if people else None
        room.state["decision"] = key
    if not people:
        room.turn_deadline = None
    due: list[datetime] = []
    if len(people) < len(waiting):
        due.append(now + _bot_delay())
    if people and room.turn_deadline is not None:
        due.append(room.turn_deadline)
    for i in people:
        gone = gone_since(t.seats[i], now)
        if gone is not None:
            due.append(gone + _grace())
    closes: datetime | None = None
    if t.hand is not None and t.hand.phase in WINDOW_PHASES and not waiting_on(t.hand):
        # Every held window closes after the same pause, whoever was asked (moves.claim_pause).
        opened = datetime.fromtimestamp(float(room.state["decision_at"]), tz=UTC)
        closes = max(now, opened + timedelta(seconds=claim_pause()))
        due.append(closes)
    room.deadline = min(due) if due else None
    if closes is not None and due == [closes] and not _close_ends_hand(t.hand):
        # A close that ends the hand books it, which only a commit can do: advance() does.
        room.state[WINDOW_CLOSE] = True


def _close_ends_hand(hand: HandState | None) -> bool:
    assert hand is not None
    closed, _events = close_window(hand)
    return closed.phase == "ended"


def window_closes_at(room: Room) -> datetime | None:
    """When the held window of a table read as ``room`` closes for its readers
    (:data:`WINDOW_CLOSE`), or None: the deadline is something else, or none."""
    return room.deadline if room.state and room.state.get(WINDOW_CLOSE) else None


def catch_up_due(room: Room, now: datetime) -> bool:
    """Whether a table read as ``room`` has a held window to close by :func:`catch_up`."""
    closes = window_closes_at(room)
    return closes is not None and now >= closes


def catch_up(t: Table, now: datetime) -> bool:
    """Bring a table just read up to ``now``: a held window whose pause has run
    (:data:`WINDOW_CLOSE`) closes, as of its deadline, with its deadlines and public counters
    (the public step and version move on by one, as its commit would have moved them), in
    ``t`` alone. The next commit of ``t`` saves it. True if anything closed.

    Deterministic: every process, and every read, closes it alike, so pages pushed from a
    table caught up here and pages pushed after the close was committed show the same."""
    caught_up = False
    while catch_up_due(t.room, now):
        hand = t.hand
        state = t.room.state
        assert hand is not None and state is not None and t.room.deadline is not None
        if hand.phase not in WINDOW_PHASES or waiting_on(hand):
            state.pop(WINDOW_CLOSE, None)  # not a window any more: nothing for a reader to do
            break
        t.hand, _events = close_window(hand)
        schedule(t, t.room.deadline)
        windows.version_uncommitted(t)
        caught_up = True
    return caught_up


def table_commit(t: Table, now: datetime) -> None:
    """Schedule the table's next deadlines and save it (inside the caller's transaction)."""
    schedule(t, now)
    table_save(t)


@dataclass(frozen=True)
class Committed:
    """A change as its transaction saved it: its event carries it to this process's pages,
    which are pushed from it without reading the table again (:mod:`tables.play.events`).

    Truthy, so ``if advance(...)`` still reads as "did anything change"."""

    room: Room
    """The room as saved, ``room.version`` included."""
    table: Table | None
    """Its game as saved; None before the match starts (the seats page)."""
    votes: VoteState
    """The 解散 vote as it stands in the same transaction."""
    read_at: float
    """``time.time()`` before the transaction began: every change committed earlier is in it."""
    met: datetime | None = None
    """The deadline :func:`advance` found due and acted on; None for a player's input."""

    @property
    def version(self) -> int:
        return self.room.version


def committed(t: Table, read_at: float, met: datetime | None = None) -> Committed:
    """``t`` as just saved (inside its transaction, after :func:`table_commit`); its event is
    sent to the table's pages when the transaction commits (:mod:`tables.play.events`)."""
    change = Committed(room=t.room, table=t, votes=dissolve.votes_of(t), read_at=read_at, met=met)
    events.change_send_on_commit(change)
    return change


def advance(number: str, now: datetime | None = None) -> Committed | None:
    """Do whatever is due at the table: bots' moves, timed-out seats to 托管, the next deal.

    Returns what was committed, or None when nothing was due. Safe to call from every process
    at once.
    """
    read_at = time.time()
    with transaction.atomic():
        room, seats = room_locked_with_seats(number)
        # The clock is read once the room is locked, here and for every other change: a
        # change committed after this one then sets deadlines no earlier than this ``now``,
        # so a page's tick that counted for the deadline met here
        # (tables.socket.deadline_once) can't have skipped one of them.
        now = now or timezone.now()
        if room is None or room.deadline is None or now < room.deadline:
            return None
        met = room.deadline
        t = load_table(room, seats)
        if t is None:
            return None
        if catch_up(t, now) and (t.room.deadline is None or now < t.room.deadline):
            # Only the window's close was due, which readers apply without a commit: here
            # (a tick that found no table read, a test) it is committed as the close itself.
            windows.version_committed(t)
            table_commit(t, now)
            return committed(t, read_at, met)
        if dissolve.vote_tick(t, now):
            table_commit(t, now)
            return committed(t, read_at, met)
        waiting = must_act(t)
        for i in waiting:
            seat = t.seats[i]
            if seat_automatic(seat):
                continue
            timed_out = room.turn_deadline is not None and now >= room.turn_deadline
            since = gone_since(seat, now)
            gone = since is not None and now >= since + _grace()
            if timed_out and not gone and t.hand is not None and t.hand.phase == "ended":
                # A player still at the table who did not press 准备 in time is readied, not
                # put on 托管: the next hand's own turn timer decides whether they are away.
                seat.ready = True
                seat.save(update_fields=["ready"])
            elif (timed_out or gone) and t.hand is not None and t.hand.phase in WINDOW_PHASES:
                # 托管 now would show every page whom the window asked (tables.play.windows).
                windows.window_pass(t, i, holds_windows())
            elif gone:
                tuoguan_set(t, seat, True, Seat.TuoguanReason.DISCONNECTED)
            elif timed_out:
                seat_timed_out(t, seat)
        automatic_play(t, [i for i in waiting if seat_automatic(t.seats[i])])
        window_close_if_due(t, now)
        hand_deal_if_all_ready(t)
        hand_book_if_ended(t, now)
        table_commit(t, now)
        return committed(t, read_at, met)
