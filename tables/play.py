"""The live table: dealing, moves, timers and 托管. Every write to a running game is here.

Each public function locks the room row (``select_for_update``) for its whole transaction,
loads the engine state from ``room.state``, lets the engine judge the move, and commits the
new state together with the ``Hand`` and ``ledger.Entry`` rows before it returns. Only then does
the caller tell the table (``tables.notify``). Moves are serialised by that row lock, never
in process memory, so several server processes can share tables, and a restart loses
nothing that was committed.

Timers are plain data: ``room.deadline`` says when something is next due and
:func:`advance` does it. Whichever process calls :func:`advance` first after the deadline
acts; the others find the deadline moved on and do nothing, so each timer fires once.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from engine.actions import Action, ActionError
from engine.bots import choose_action
from engine.hand import HandState, IllegalAction, apply, waiting_on
from engine.match import Match
from engine.rules import Rules
from ledger import services as ledger
from tables.models import BOT_BASIC, Hand, Room, Seat
from tables.models import Match as MatchRecord
from tables.verify import seed_commitment

__all__ = [
    "MOVE_TYPES",
    "PlayError",
    "Table",
    "act",
    "advance",
    "begin_match",
    "connect",
    "disconnect",
    "load_table",
]

MOVE_TYPES = ("discard", "chi", "peng", "gang", "hu", "pass")
"""Moves the engine judges; ``ready``, ``tuoguan`` and ``end_match`` are the table's own."""

READY_SECONDS_MIN = 30


class PlayError(ValueError):
    """A refused input; the message is shown to that player only and nothing changed."""


@dataclass
class Table:
    """A room's running game as loaded for one transaction."""

    room: Room
    seats: list[Seat]
    match: Match
    hand: HandState | None
    hand_row: Hand | None

    @property
    def finished(self) -> bool:
        return self.room.status == Room.Status.FINISHED


def _bot_delay() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "TABLE_BOT_DELAY_SECONDS", 0.8)))


def _grace() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "TABLE_DISCONNECT_GRACE_SECONDS", 30)))


def heartbeat_interval() -> timedelta:
    """How often an open page's consumer reports that it is still there."""
    return timedelta(seconds=float(getattr(settings, "TABLE_HEARTBEAT_SECONDS", 15)))


def _stale_after() -> timedelta:
    return heartbeat_interval() * 2.5


def present(seat: Seat, now: datetime) -> bool:
    """Has this seat's player a page open? Open pages beat; a silent count is a crash's leftover."""
    if seat.connections <= 0:
        return False
    return seat.last_seen is None or now - seat.last_seen <= _stale_after()


def gone_since(seat: Seat, now: datetime) -> datetime | None:
    """Since when this seat's player has had no page open (None: connected, or a bot)."""
    if seat.bot or present(seat, now):
        return None
    if seat.connections > 0 and seat.last_seen is not None:
        return seat.last_seen + _stale_after()
    return seat.disconnected_at


def load_table(room: Room) -> Table | None:
    """The room's game as stored (no lock: for reading and rendering), or None before it starts."""
    if not room.state:
        return None
    seats = list(Seat.objects.filter(room=room).select_related("user").order_by("index"))
    match = Match.from_json(room.state["match"])
    hand_json = room.state.get("hand")
    hand = HandState.from_json(hand_json) if hand_json else None
    hand_id = room.state.get("hand_id")
    hand_row = Hand.objects.filter(pk=hand_id).first() if hand_id else None
    return Table(room=room, seats=seats, match=match, hand=hand, hand_row=hand_row)


def _locked(number: str) -> Table:
    room = Room.objects.select_for_update().filter(number=number).first()
    if room is None:
        raise PlayError(_("There is no room %(number)s.") % {"number": number})
    table = load_table(room)
    if table is None:
        raise PlayError(_("The match has not started yet."))
    return table


def _save(t: Table, now: datetime) -> None:
    room = t.room
    room.state = {
        **(room.state or {}),
        "match": t.match.to_json(),
        "hand": t.hand.to_json() if t.hand else None,
        "hand_id": t.hand_row.pk if t.hand_row else None,
    }
    _schedule(t, now)
    room.version += 1
    room.save(update_fields=["state", "version", "deadline", "turn_deadline", "status"])
    if t.hand_row is not None and t.hand is not None:
        t.hand_row.actions = t.hand.log
        t.hand_row.save(update_fields=["actions"])


# ---------------------------------------------------------------- who acts, and when


def must_act(t: Table) -> list[int]:
    """Seats the table waits for: the engine's, or after a hand the seats not yet ready."""
    if t.hand is None or t.finished:
        return []
    if t.hand.phase != "ended":
        return waiting_on(t.hand)
    return [s.index for s in t.seats if not s.ready]


def _automatic(seat: Seat) -> bool:
    return bool(seat.bot) or seat.tuoguan


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
    return [t.match.hand_no, h.phase, h.pending["from"], h.pending["tile"], h.pending["kind"]]


def _schedule(t: Table, now: datetime) -> None:
    room = t.room
    waiting = must_act(t)
    people = [i for i in waiting if not _automatic(t.seats[i])]
    key = _decision_key(t)
    assert room.state is not None
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
    room.deadline = min(due) if due else None


# ---------------------------------------------------------------- starting and dealing


def begin_match(room: Room, now: datetime | None = None, *, first_seed: str | None = None) -> None:
    """Deal the first hand; called by ``services.start_match`` with the room row locked.

    ``first_seed`` sets up a known first deal (tests); play always uses a fresh secret seed.
    """
    now = now or timezone.now()
    seats = list(Seat.objects.filter(room=room).select_related("user").order_by("index"))
    owner_seat = next((s.index for s in seats if s.user_id == room.owner_id), 0)
    match = Match(
        Rules.from_json(room.rules),
        hands_total=room.match_length,
        # A known first deal comes with a known first dealer, so such a table is reproducible.
        seed=f"match:{first_seed}" if first_seed else secrets.token_hex(16),
        owner=owner_seat,
    )
    room.status = Room.Status.PLAYING
    # Each match of the room is scored from zero: its hands and book entries point to its row.
    record = MatchRecord.objects.create(
        room=room,
        number=MatchRecord.objects.filter(room=room).count() + 1,
        rules=room.rules,
        match_length=room.match_length,
        started_at=now,
    )
    room.state = {"match_id": record.pk}
    t = Table(room=room, seats=seats, match=match, hand=None, hand_row=None)
    _deal(t, first_seed)
    _save(t, now)


def _deal(t: Table, seed: str | None = None) -> None:
    seed = seed or secrets.token_hex(16)
    t.hand = t.match.start_hand(seed)
    t.hand_row = Hand.objects.create(
        room=t.room,
        # Numbered through the room, across its matches (the match's own count is hand_no).
        number=Hand.objects.filter(room=t.room).count() + 1,
        dealer=t.hand.dealer,
        seed=seed,
        seed_hash=seed_commitment(seed),
        rules=t.match.rules.to_json(),
        match_id=(t.room.state or {}).get("match_id"),
    )
    for seat in t.seats:
        seat.ready = False
    Seat.objects.filter(room=t.room).update(ready=False)


def _book_hand(t: Table, now: datetime) -> None:
    """A hand has ended: write its result and book its payments, then set up the next step."""
    assert t.hand is not None and t.hand.result is not None and t.hand_row is not None
    result = t.hand.result
    row = t.hand_row
    row.result = result
    row.ended_at = now
    row.actions = t.hand.log
    row.save(update_fields=["result", "ended_at", "actions"])
    ledger.hand_entries_create(
        hand=row, users=[s.user for s in t.seats], transfers=result["transfers"], now=now
    )
    t.match.finish_hand(result)
    if t.match.over:
        t.room.status = Room.Status.FINISHED
        MatchRecord.objects.filter(hands=row).update(ended_at=now)
    # Bots are ready at once; a seat on 托管 readies on the clock, after the settlement has
    # been on screen for a beat.
    for seat in t.seats:
        seat.ready = bool(seat.bot)
        seat.save(update_fields=["ready"])
    _deal_if_all_ready(t)


def _after_move(t: Table, now: datetime) -> None:
    if t.hand is not None and t.hand.phase == "ended" and t.hand_row and not t.hand_row.ended_at:
        _book_hand(t, now)


def _deal_if_all_ready(t: Table) -> None:
    if t.finished or t.hand is None or t.hand.phase != "ended":
        return
    if all(s.ready for s in t.seats):
        _deal(t)


# ---------------------------------------------------------------- a player's input


def _parse_move(payload: dict[str, Any]) -> tuple[Action, int]:
    try:
        step = int(str(payload.get("step", "")))
    except ValueError:
        raise PlayError(_("That move came without the table's step; reload the page.")) from None
    data = {k: payload[k] for k in ("tile", "tiles", "gang") if payload.get(k) not in (None, "")}
    try:
        action = Action.from_json({"type": payload.get("action"), **data})
    except ActionError as exc:
        raise PlayError(_("That move is malformed: %(detail)s") % {"detail": exc}) from None
    return action, step


def act(number: str, user: User, payload: Any, now: datetime | None = None) -> None:
    """Apply one input of ``user`` at table ``number``; :class:`PlayError` changes nothing.

    ``payload`` is what the page sent: ``{"action": "discard", "tile": "5m", "step": 12}``,
    ``{"action": "ready"}`` after a hand, ``{"action": "tuoguan", "on": "0"}``, or the
    owner's ``{"action": "end_match"}`` between hands.
    """
    now = now or timezone.now()
    if not isinstance(payload, dict) or not isinstance(payload.get("action"), str):
        raise PlayError(_("That message is not a move."))
    kind = payload["action"]
    with transaction.atomic():
        t = _locked(number)
        seat = next((s for s in t.seats if s.user_id == user.pk), None)
        if seat is None:
            raise PlayError(_("You are watching this table, not playing at it."))
        if t.finished:
            raise PlayError(_("The match is over."))
        if kind == "tuoguan":
            _set_tuoguan(t, seat, str(payload.get("on", "0")) in ("1", "true", "on"))
        elif kind == "end_match":
            _end_match(t, user)
        elif kind == "ready":
            _ready(t, seat)
        elif kind in MOVE_TYPES:
            _move(t, seat, payload)
        else:
            raise PlayError(_("Unknown move %(kind)s.") % {"kind": kind[:20]})
        _after_move(t, now)
        _save(t, now)


def _move(t: Table, seat: Seat, payload: dict[str, Any]) -> None:
    action, step = _parse_move(payload)
    hand = t.hand
    assert hand is not None
    if hand.phase == "ended":
        raise PlayError(_("This hand is over."))
    if step != hand.step:
        raise PlayError(_("The table moved on before your move arrived; look again."))
    if seat.index not in waiting_on(hand):
        raise PlayError(_("It is not your turn."))
    try:
        t.hand, _events = apply(hand, seat.index, action, step=step)
    except IllegalAction as exc:
        raise PlayError(_("That move is not allowed now (%(detail)s).") % {"detail": exc}) from None
    if seat.tuoguan:
        # Playing a move by hand is taking control back.
        _set_tuoguan(t, seat, False)


def _ready(t: Table, seat: Seat) -> None:
    if t.hand is None or t.hand.phase != "ended":
        raise PlayError(_("The hand is still being played."))
    seat.ready = True
    seat.save(update_fields=["ready"])
    _deal_if_all_ready(t)


def _end_match(t: Table, user: User) -> None:
    # Only between hands: a hand in play has tiles out and points at stake, and ending it
    # halfway would leave a ledger entry that no engine result explains.
    if t.room.owner_id != user.pk:
        raise PlayError(_("Only the room's owner can end the match."))
    if t.hand is None or t.hand.phase != "ended":
        raise PlayError(_("The match can be ended only between hands."))
    t.room.status = Room.Status.FINISHED
    MatchRecord.objects.filter(room=t.room, ended_at=None).update(ended_at=timezone.now())


def _set_tuoguan(t: Table, seat: Seat, on: bool) -> None:
    seat.tuoguan = on
    seat.save(update_fields=["tuoguan"])
    if on and t.hand is not None and t.hand.phase == "ended" and not seat.ready:
        seat.ready = True
        seat.save(update_fields=["ready"])
        _deal_if_all_ready(t)


# ---------------------------------------------------------------- timers, bots, 托管


def advance(number: str, now: datetime | None = None) -> bool:
    """Do whatever is due at the table: bots' moves, timed-out seats to 托管, the next deal.

    Returns whether anything changed. Safe to call from every process at once.
    """
    now = now or timezone.now()
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(number=number).first()
        if room is None or room.deadline is None or now < room.deadline:
            return False
        t = load_table(room)
        if t is None:
            return False
        waiting = must_act(t)
        for i in waiting:
            seat = t.seats[i]
            if _automatic(seat):
                continue
            timed_out = room.turn_deadline is not None and now >= room.turn_deadline
            since = gone_since(seat, now)
            gone = since is not None and now >= since + _grace()
            if timed_out and not gone and t.hand is not None and t.hand.phase == "ended":
                # A player still at the table who did not press 准备 in time is readied, not
                # put on 托管: the next hand's own turn timer decides whether they are away.
                seat.ready = True
                seat.save(update_fields=["ready"])
            elif timed_out or gone:
                seat.tuoguan = True
                seat.save(update_fields=["tuoguan"])
        _play_automatic(t, [i for i in waiting if _automatic(t.seats[i])])
        _deal_if_all_ready(t)
        _after_move(t, now)
        _save(t, now)
        return True


def _play_automatic(t: Table, seats: list[int]) -> None:
    hand = t.hand
    if hand is None or not seats:
        return
    if hand.phase == "ended":
        for i in seats:
            t.seats[i].ready = True
            t.seats[i].save(update_fields=["ready"])
        return  # advance deals once everyone is ready, readied by the clock or not
    # One move a beat on a turn so people can follow; a claim window's answers come together.
    for i in seats[:1] if hand.phase == "turn" else seats:
        if i not in waiting_on(hand):
            continue
        bot = t.seats[i].bot or BOT_BASIC
        # Seeded from the hand's secret seed: a table replays move for move, and players
        # still can't predict the bots.
        rng = random.Random(f"{hand.seed}:{hand.step}:{i}")
        hand, _events = apply(hand, i, choose_action(bot, hand, i, rng))
    t.hand = hand


# ---------------------------------------------------------------- connections


def heartbeat(number: str, user: User, now: datetime | None = None) -> None:
    """An open page of ``user`` is still there (called every :func:`heartbeat_interval`)."""
    Seat.objects.filter(room__number=number, user=user).update(last_seen=now or timezone.now())


def connect(number: str, user: User, now: datetime | None = None) -> bool:
    """A page of ``user`` opened the table; True if that changed what others see."""
    return _connection(number, user, +1, now or timezone.now())


def disconnect(number: str, user: User, now: datetime | None = None) -> bool:
    """A page of ``user`` closed; after the grace period its seat goes on 托管."""
    return _connection(number, user, -1, now or timezone.now())


def _connection(number: str, user: User, delta: int, now: datetime) -> bool:
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(number=number).first()
        if room is None or not user.is_authenticated:
            return False
        seat = Seat.objects.filter(room=room, user=user).first()
        if seat is None:
            return False
        if delta > 0 and not present(seat, now):
            seat.connections = 0  # left behind by a server that stopped without closing pages
        seat.connections = max(0, seat.connections + delta)
        seat.disconnected_at = now if seat.connections == 0 else None
        if delta > 0:
            seat.last_seen = now
        seat.save(update_fields=["connections", "disconnected_at", "last_seen"])
        t = load_table(room)
        if t is not None:
            waiting_on_me = seat.index in must_act(t) and not _automatic(seat)
            if delta > 0 and waiting_on_me and room.turn_deadline and room.turn_deadline < now:
                # Nobody's clock ran while no page was open (a restart): a fresh turn, not 托管.
                room.turn_deadline = now + timedelta(seconds=room.turn_seconds)
            _save(t, now)
        else:
            room.version += 1
            room.save(update_fields=["version"])
        return True
