"""What a table change pushes, read and rendered once per process and shared by its pages.

A change is read once per process, not once per open page: :class:`FrameCache` keeps, per
room, the last :class:`Snapshot` (the room, its :class:`~tables.play.table.Table` and what has
been rendered from it), and an :class:`asyncio.Lock` per room makes the pages woken by the
same group message await one read. The public part (:mod:`tables.screen.public`, the same
bytes for everyone) is rendered once per language; each seat's private part once per
language and CSRF token (a person's page normally has one of each).

A snapshot is fresh for a group message (:mod:`tables.play.events`) when its read began after the
message was sent (which is after the change was committed), or when it saw the room version
the message names: ``room.version`` goes up with every change to the game. A page that opens
needs a read begun after it joined the group: anything committed later sends another message.

The process that made a change reads nothing: the change's event hands it the table as saved
(:class:`tables.play.clock.Committed`, :mod:`tables.socket.delivery`), which
:meth:`FrameCache.offer` keeps as the room's snapshot, so its own pages are pushed from it and
only the other processes read the table.

A held window's close is not a change (:func:`tables.play.clock.catch_up`): once its deadline
has passed, the room's snapshot is caught up in memory (:func:`snapshot_caught_up`), in every
process alike, with no read.

Reads run where the table's moves run (:mod:`tables.socket.table_threads`); renders run on
the event loop itself, since they do no I/O and a hop to another thread costs more than it
saves under the GIL (``docs/web.md``).
"""

from __future__ import annotations

import copy
import dataclasses
import time
from dataclasses import dataclass, field
from datetime import datetime

from cachetools import LRUCache
from django.utils import timezone

from accounts.models import User
from tables.models import Room
from tables.play import clock
from tables.play.clock import Committed
from tables.play.dissolve import VoteState, vote_state_load
from tables.play.table import Table, load_table
from tables.rooms.table_page import clock_tag, table_root
from tables.screen.board import PrivateBoard, private_board, private_unmoved, seat_index_of
from tables.screen.memo import rendering_in
from tables.screen.private import render_private_board
from tables.screen.public import render_public
from tables.socket.loop_local import PerLoop, Rooms
from tables.socket.table_threads import table_thread_call

__all__ = [
    "FrameCache",
    "Shown",
    "Snapshot",
    "frame_cache",
    "renders_carry",
    "snapshot_load",
    "table_frame",
]

MAX_ROOMS = 4096
"""Rooms kept per process; the least recently pushed go first."""

OOB = ' hx-swap-oob="morph"'
"""Pushes morph the page (idiomorph) rather than replace it: a button under a finger survives."""


PrivateKey = tuple[int, str, str]
"""A seat's own part is rendered per seat, language and CSRF token."""

MAX_CARRIED = 16
"""Seats' parts carried from one read of a room to the next (four seats, a couple of
languages and tokens each)."""


@dataclass
class Snapshot:
    """One read of a room and what has been rendered from it."""

    loaded_at: float
    """``time.time()`` when the read began: it has every change committed before."""
    room: Room | None
    table: Table | None
    """None while the room waits for its match (or has no hand): the seats page instead."""
    votes: VoteState = field(default_factory=VoteState)
    """The 解散 vote as read with the table (the seats' own parts show it)."""
    public: dict[str, str] = field(default_factory=dict)
    private: dict[PrivateKey, str] = field(default_factory=dict)
    rendered: dict[PrivateKey, tuple[PrivateBoard, str]] = field(default_factory=dict)
    """The seats' parts as last rendered, carried from the room's previous snapshot: a seat
    whose view did not change (most seats, most moves) gets the same bytes without a render."""

    @property
    def deadline(self) -> datetime | None:
        return None if self.room is None else self.room.deadline

    @property
    def version(self) -> int | None:
        return None if self.room is None else self.room.version

    def closes_window_at(self, deadline: datetime) -> bool:
        """Whether ``deadline`` is a held window's close that readers apply
        (:func:`tables.play.clock.catch_up`): no commit will come of it."""
        return (
            self.room is not None
            and self.table is not None
            and clock.window_closes_at(self.room) == deadline
        )

    def fresh(self, after: float, version: int | None = None) -> bool:
        """Whether this read has a change sent at ``after`` (``time.time()``) that committed
        room version ``version`` (None: a change that is not the game's)."""
        if self.loaded_at >= after:
            return True
        return version is not None and self.version is not None and self.version >= version


def snapshot_load(number: str) -> Snapshot:
    """Read room ``number`` for rendering: two queries (room, seats); the 解散 votes and
    their answers too while a vote runs (else ``room.state`` says who proposed)."""
    started = time.time()
    room = Room.objects.filter(number=number.strip()).first()
    if room is None:
        return Snapshot(loaded_at=started, room=None, table=None)
    table = load_table(room)
    if table is not None and table.hand is None:
        table = None
    if table is not None:
        clock.catch_up(table, timezone.now())
    votes = VoteState() if table is None else vote_state_load(room)
    return Snapshot(loaded_at=started, room=room, table=table, votes=votes)


def snapshot_committed(change: Committed) -> Snapshot:
    """What :func:`snapshot_load` would read right after ``change`` was committed, without
    reading it."""
    table = change.table if change.table is not None and change.table.hand is not None else None
    return Snapshot(
        loaded_at=change.read_at,
        room=change.room,
        table=table,
        votes=change.votes if table is not None else VoteState(),
    )


def snapshot_caught_up(snap: Snapshot, now: datetime) -> Snapshot:
    """``snap`` with the held window whose deadline has passed closed
    (:func:`tables.play.clock.catch_up`), as a read now would find it, without reading;
    ``snap`` itself is left as it was, and its renders are carried over."""
    assert snap.table is not None and snap.room is not None
    room = copy.copy(snap.room)
    room.state = dict(snap.room.state or {})
    table = dataclasses.replace(snap.table, room=room, _public_info=None)
    clock.catch_up(table, now)
    after = Snapshot(loaded_at=snap.loaded_at, room=room, table=table, votes=snap.votes)
    renders_carry(snap, after)
    held, closed = snap.table.hand, table.hand
    if held is not None and closed is not None:
        # The seats a plain draw leaves as they were get their parts as they are.
        after.private = {
            key: html for key, html in snap.private.items() if private_unmoved(held, closed, key[0])
        }
    return after


def renders_carry(before: Snapshot | None, after: Snapshot) -> None:
    """Give ``after`` the seats' parts rendered from ``before``, the room's previous read
    (each the latest render of its seat, language and token, whether made from ``before`` or
    carried into it: pages of one process are not all pushed from the same snapshot when a
    change offered is read again meanwhile). Past :data:`MAX_CARRIED` only those rendered for
    ``before`` are kept: pages that went away leave theirs behind."""
    if before is not None:
        carried = before.rendered
        if len(carried) > MAX_CARRIED:
            carried = {k: carried[k] for k in before.private if k in carried}
        after.rendered = dict(carried)


class FrameCache:
    """Per process (per event loop): the last snapshot of each room and a lock per room."""

    def __init__(self, max_rooms: int = MAX_ROOMS) -> None:
        self.rooms: Rooms[Snapshot] = Rooms(max_rooms)
        self.loads = 0
        """Reads done (for the operator's curiosity and the cache's tests)."""

    @property
    def snapshots(self) -> LRUCache[str, Snapshot]:
        """The last snapshot of each room kept."""
        return self.rooms.values

    async def snapshot(
        self, number: str, fresh_after: float, version: int | None = None
    ) -> Snapshot:
        """Room ``number`` as read after ``fresh_after`` (``time.time()``) or at ``version``
        or later (:meth:`Snapshot.fresh`); one read for all the pages that ask at once."""
        async with self.rooms.locked(number):
            snap = self.rooms.get(number)
            if snap is None or not snap.fresh(fresh_after, version):
                snap = await table_thread_call(snapshot_load)(number)
                self.loads += 1
                self._keep(number, snap)
            elif snap.room is not None and clock.catch_up_due(snap.room, now := timezone.now()):
                snap = snapshot_caught_up(snap, now)
                self.rooms.put(number, snap)
            else:
                self.rooms.used(number)
            return snap

    def kept(self, number: str) -> Snapshot | None:
        """Room ``number``'s snapshot as kept, however old (None: none kept)."""
        return self.rooms.get(number)

    def offer(self, number: str, change: Committed) -> None:
        """Keep the table this process has just committed as room ``number``'s snapshot,
        unless the one kept already has a later version."""
        snap = snapshot_committed(change)
        kept = self.rooms.get(number)
        if kept is not None and (kept.version or 0) >= (snap.version or 0):
            return
        self._keep(number, snap)

    def _keep(self, number: str, snap: Snapshot) -> None:
        kept = self.rooms.get(number)
        if kept is not None and (kept.version or 0) > (snap.version or 0):
            self.rooms.used(number)
            return  # a change offered while this read was under way is newer
        renders_carry(kept, snap)
        self.rooms.put(number, snap)


_caches = PerLoop(FrameCache)


def frame_cache() -> FrameCache:
    """This process's cache (one per event loop: its locks belong to that loop)."""
    return _caches.get()


def _public(snap: Snapshot, language: str) -> str:
    html = snap.public.get(language)
    if html is None:
        assert snap.table is not None
        with rendering_in(language):
            html = snap.public[language] = render_public(snap.table)
    return html


def _private(snap: Snapshot, seat: int | None, language: str, csrf_token: str) -> str:
    if seat is None:
        return '<div id="table-private" class="table-private"></div>'
    key = (seat, language, csrf_token)
    html = snap.private.get(key)
    if html is None:
        assert snap.table is not None
        with rendering_in(language):
            board = private_board(snap.table, seat, votes=snap.votes)
            before = snap.rendered.get(key)
            if before is not None and before[0] == board:
                html = before[1]
            else:
                html = render_private_board(board, csrf_token=csrf_token)
        snap.private[key] = html
        snap.rendered[key] = (board, html)
    return html


def _oob(html: str) -> str:
    """``html``'s root element swapped out of band by htmx (it replaces the one with its id)."""
    end = html.index(">")
    return html[:end] + OOB + html[end:]


@dataclass
class Shown:
    """What one page shows now, so a push sends only what it lacks."""

    table: bool = False
    """The page has the table's two parts (else the next push replaces all of ``#live``)."""
    public: str = ""
    private: str = ""
    version: int | None = None
    """The room's version the page's last push was made from (None: none yet). The beat
    compares it with the room's (:mod:`tables.socket.heartbeat`)."""

    def forget_table(self) -> None:
        """The page was sent something else in place of the table (the seats page)."""
        self.table, self.public, self.private = False, "", ""


def table_frame(
    snap: Snapshot, viewer: User | None, *, language: str, csrf_token: str, shown: Shown
) -> str:
    """The push for one page: what changed of its two parts, out of band, or the whole
    ``#live`` when the page does not show the table yet; "" when nothing changed for it (an
    answer in a window changes only the answering seat's part). ``shown`` is updated."""
    table = snap.table
    assert table is not None
    seat = seat_index_of(table, viewer)
    public = _public(snap, language)
    private = _private(snap, seat, language, csrf_token)
    if not shown.table:
        root = table_root(seat, public, private, room_name=table.room.name)
        frame = f'<div id="live"{OOB}>{root}</div>'

    else:
        frame = "" if public == shown.public else _oob(public)
        frame += "" if private == shown.private else _oob(private)
        if frame:
            frame += _oob(clock_tag())
    shown.table, shown.public, shown.private = True, public, private
    return frame
