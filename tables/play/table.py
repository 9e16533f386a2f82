"""A room's running game, loaded from ``room.state`` and written back.

:func:`table_locked` loads it with the room row locked (``select_for_update``) for the
whole transaction: moves are serialised by that lock, never in process memory, so several
server processes can share tables, and a restart loses nothing that was committed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from engine.hand import HandState, waiting_on
from engine.match import Match
from engine.views import SeatInfo, seat_info
from tables.models import DissolveVote, Hand, Room, Seat
from tables.play.protocol import PlayError
from tables.play.rows import room_locked_with_seats, room_save, room_seats

__all__ = [
    "Table",
    "VoteState",
    "load_table",
    "must_act",
    "seat_automatic",
    "table_locked",
    "table_save",
]


@dataclass(frozen=True)
class VoteState:
    """What the 解散 panels are built from, read once for every seat of a table."""

    vote: DissolveVote | None = None
    """The vote under way, or None."""
    proposers: frozenset[int] = frozenset()
    """The seats that have already proposed during the hand in play."""
    answers: Mapping[int, bool] = field(default_factory=dict)
    """The vote's answers so far, seat → agreed. Read with the vote, not when a page is
    rendered: pages are rendered on the event loop, where the database is not reachable."""
    refused: tuple[int, ...] = ()
    """While no vote runs: the seats that refused this hand's last vote, so every page says
    who did (empty when it was not refused, e.g. staff closed it)."""


@dataclass
class Table:
    """A room's running game as loaded for one transaction.

    The hand's ``Hand`` row is read only when something asks for it (:attr:`hand_row`):
    most moves never do, since the log lives in ``room.state`` while the hand is played, and
    the table shows the hand's id and commitment, which ``room.state`` keeps beside it."""

    room: Room
    seats: list[Seat]
    match: Match
    hand: HandState | None
    hand_id: int | None = None
    seed_hash: str | None = None
    """The hand's commitment (``Hand.seed_hash``), shown on the table."""
    _hand_row: Hand | None = field(default=None, repr=False)
    votes: VoteState | None = field(default=None, repr=False)
    """The 解散 votes as :func:`tables.play.dissolve.votes_of` read them in this transaction (None:
    not read yet, or changed since), for hand :attr:`votes_hand`."""
    votes_hand: int | None = field(default=None, repr=False)
    _public_info: tuple[HandState, SeatInfo] | None = field(default=None, repr=False)

    def public_info(self) -> SeatInfo:
        """The spectators' view of the hand (:func:`engine.views.seat_info` with no seat),
        built once per hand state: the public part and every seat's own part read it."""
        assert self.hand is not None
        kept = self._public_info
        if kept is None or kept[0] is not self.hand:
            kept = self._public_info = (self.hand, seat_info(self.hand, None))
        return kept[1]

    @property
    def finished(self) -> bool:
        return self.room.status == Room.Status.FINISHED

    @property
    def hand_row(self) -> Hand | None:
        """The hand's record, read the first time it is asked for."""
        if self._hand_row is None and self.hand_id is not None:
            self._hand_row = Hand.objects.filter(pk=self.hand_id).order_by("pk").first()
        return self._hand_row

    @hand_row.setter
    def hand_row(self, row: Hand | None) -> None:
        self._hand_row = row
        self.hand_id = None if row is None else row.pk
        self.seed_hash = None if row is None else row.seed_hash


def load_table(room: Room, seats: list[Seat] | None = None) -> Table | None:
    """The room's game as stored (no lock: for reading and rendering), or None before it
    starts: one query, the room's seats with their users (none when ``seats`` are given, as
    read with the room), and none for the hand's row (:attr:`Table.hand_row` reads it when
    asked)."""
    if not room.state:
        return None
    if seats is None:
        seats = room_seats(room)
    match = Match.from_json(room.state["match"])
    hand_json = room.state.get("hand")
    hand = HandState.from_json(hand_json) if hand_json else None
    t = Table(room=room, seats=seats, match=match, hand=hand, hand_id=room.state.get("hand_id"))
    t.seed_hash = room.state.get("seed_hash")
    if t.seed_hash is None and t.hand_row is not None:  # a state saved before it kept the hash
        t.seed_hash = t.hand_row.seed_hash
    return t


def table_locked(number: str) -> Table:
    """Room ``number``'s game with the room row locked; :class:`PlayError` if there is none."""
    room, seats = room_locked_with_seats(number)
    if room is None:
        raise PlayError(_("There is no room %(number)s.") % {"number": number})
    table = load_table(room, seats)
    if table is None:
        raise PlayError(_("The match has not started yet."))
    return table


def table_save(t: Table) -> None:
    """Write the game back to ``room.state`` with its deadlines (set by the clock) and a new
    ``room.version``.

    The hand's action log is in ``room.state`` while it is played; its ``Hand`` row gets it
    when the hand ends (``moves.hand_book``) or is cut off (``services.room_close``), not on
    every move: rewriting a growing log per move was a second write per move."""
    room = t.room
    before = _progress(room.state or {})
    room.state = {
        **(room.state or {}),
        "match": t.match.to_json(),
        "hand": t.hand.to_json() if t.hand else None,
        "hand_id": t.hand_id,
        "seed_hash": t.seed_hash,
    }
    room.version += 1
    if _progress(room.state) != before or room.moved_at is None:
        room.moved_at = timezone.now()  # a move or a deal, not a page opening or a heartbeat
    room_save(room)


def _progress(state: dict[str, Any]) -> tuple[Any, ...]:
    hand = state.get("hand") or {}
    return state.get("hand_id"), hand.get("step"), hand.get("phase"), state.get("match_id")


def must_act(t: Table) -> list[int]:
    """Seats the table waits for: the engine's, or after a hand the seats not yet ready."""
    if t.hand is None or t.finished:
        return []
    if t.hand.phase != "ended":
        return waiting_on(t.hand)
    return [s.index for s in t.seats if not s.ready]


def seat_automatic(seat: Seat) -> bool:
    """A bot, or a person on 托管: the clock moves for this seat."""
    return bool(seat.bot) or seat.tuoguan
