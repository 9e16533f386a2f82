"""The staff desk: every table in play at a glance, and what staff may do to one of them.

Each action locks the table, changes it, commits it with its next deadline and writes an
:class:`~tables.models.AuditEntry` (who, when, what, why) in the same transaction; the caller
then tells the table (``tables.play.events``) so open pages update. Only staff may act
(:class:`StaffError` otherwise; the pages answer everyone else with 404).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from accounts.models import User
from engine.hand import abandon
from tables.models import BOT_BASIC, AuditEntry, Room
from tables.play import clock, dissolve, moves
from tables.play.presence import present
from tables.play.protocol import PlayError
from tables.play.staff_notice import notice_clear, notice_post
from tables.play.table import Table, load_table, must_act, table_locked
from tables.screen.board import seat_name

__all__ = [
    "REASON_MAX",
    "STUCK_AFTER",
    "DeskRow",
    "DeskSeat",
    "StaffError",
    "desk_rows",
    "staff_clock_rearm",
    "staff_hand_close",
    "staff_room_dissolve",
    "staff_seat_replace",
]

STUCK_AFTER = timedelta(minutes=2)
"""A table whose deadline is this far past with no page open is stuck: nothing will move it."""

REASON_MAX = 300

PHASES = {
    "turn": _lazy("a turn"),
    "claim": _lazy("claims on a discard"),
    "rob": _lazy("robbing a gang"),
    "ended": _lazy("between hands"),
}


class StaffError(ValueError):
    """A staff action that cannot be done; the message is shown on the desk."""


# ---------------------------------------------------------------- reading the desk


@dataclass
class DeskSeat:
    index: int
    name: str
    is_person: bool
    connected: bool
    heartbeat_age: int | None
    """Seconds since the seat's last heartbeat (None: never seen, or a bot)."""
    automatic: bool


@dataclass
class DeskRow:
    room: Room
    hand_no: int
    step: int
    phase: str
    turn: list[str]
    deadline: datetime | None
    deadline_overdue: int | None
    """Seconds the room's deadline is past (None: not past, or no deadline)."""
    since_move: int | None
    seats: list[DeskSeat]
    stuck: bool
    vote_running: bool


def _seconds(delta: timedelta) -> int:
    return int(delta.total_seconds())


def desk_rows(now: datetime | None = None) -> list[DeskRow]:
    """Every table in play, stuck ones first, then the longest without a move."""
    now = now or timezone.now()
    rows: list[DeskRow] = []
    for room in Room.objects.filter(status=Room.Status.PLAYING).order_by("number"):
        t = load_table(room)
        if t is None or t.hand is None:
            continue
        clock.catch_up(t, now)
        seats = [
            DeskSeat(
                index=s.index,
                name=seat_name(s),
                is_person=s.user_id is not None,
                connected=present(s, now),
                heartbeat_age=_seconds(now - s.last_seen) if s.last_seen and not s.bot else None,
                automatic=bool(s.bot) or s.tuoguan,
            )
            for s in t.seats
        ]
        overdue = _seconds(now - room.deadline) if room.deadline and room.deadline < now else None
        nobody = not any(s.connected for s in seats)
        stuck = nobody and (room.deadline is None or now - room.deadline > STUCK_AFTER)
        rows.append(
            DeskRow(
                room=room,
                hand_no=t.match.hand_no + 1,
                step=t.hand.step,
                phase=str(PHASES.get(t.hand.phase, t.hand.phase)),
                turn=[seat_name(t.seats[i]) for i in must_act(t)],
                deadline=room.deadline,
                deadline_overdue=overdue,
                since_move=_seconds(now - room.moved_at) if room.moved_at else None,
                seats=seats,
                stuck=stuck,
                vote_running=dissolve.vote_open(t) is not None,
            )
        )
    rows.sort(key=lambda r: (not r.stuck, -(r.since_move or 0)))
    return rows


# ---------------------------------------------------------------- acting


def _check(staff: User, reason: str) -> str:
    if not staff.is_staff:
        raise StaffError(_("Only staff can do that."))
    reason = reason.strip()
    if not reason:
        raise StaffError(_("Give a reason: it goes into the audit log."))
    if len(reason) > REASON_MAX:
        raise StaffError(_("Keep the reason under %(n)d characters.") % {"n": REASON_MAX})
    return reason


def _in_play(number: str, now: datetime | None) -> tuple[Table, datetime]:
    """Room ``number``'s match in play, locked, and the time: read once the room is locked
    (``tables.play.clock.advance`` says why), the table caught up to it (``clock.catch_up``)."""
    try:
        t = table_locked(number)
    except PlayError as exc:
        raise StaffError(str(exc)) from None
    if t.finished:
        raise StaffError(_("That match is over."))
    now = now or timezone.now()
    clock.catch_up(t, now)
    return t, now


def _audit(t: Table, staff: User, action: str, reason: str, detail: str, now: datetime) -> None:
    AuditEntry.objects.create(
        room=t.room, staff=staff, action=action, reason=reason, detail=detail, created_at=now
    )


def staff_room_dissolve(
    *, staff: User, number: str, reason: str, now: datetime | None = None
) -> None:
    """End the match now; the hand in play ends unpaid (a vote under way is cancelled)."""
    reason = _check(staff, reason)
    with transaction.atomic():
        t, now = _in_play(number, now)
        dissolve.vote_cancel(t, now)
        dissolve.match_dissolve(t, now)
        notice_post(t, "dissolve", reason)
        clock.table_commit(t, now)
        _audit(t, staff, AuditEntry.Action.DISSOLVE, reason, "", now)


def staff_seat_replace(
    *, staff: User, number: str, seat_index: int, reason: str, now: datetime | None = None
) -> None:
    """A basic bot plays the seat for the rest of the match; the person's earlier hands stay
    theirs, the seat's later hands are the bot's."""
    reason = _check(staff, reason)
    with transaction.atomic():
        t, now = _in_play(number, now)
        if not 0 <= seat_index < len(t.seats):
            raise StaffError(_("There is no such seat."))
        seat = t.seats[seat_index]
        if seat.user is None:
            raise StaffError(_("A bot already plays that seat."))
        name = seat.user.name
        detail = _("Seat %(n)d: %(name)s") % {"n": seat_index + 1, "name": name}
        seat.user = None
        seat.bot = BOT_BASIC
        seat.tuoguan = False
        seat.ready = True
        seat.connections = 0
        seat.disconnected_at = None
        seat.save(
            update_fields=["user", "bot", "tuoguan", "ready", "connections", "disconnected_at"]
        )
        moves.hand_deal_if_all_ready(t)
        # After the deal, if any: the hand this seat's bot plays is the one it is told in.
        notice_post(t, "replace", reason, seat=seat_index, name=name)
        clock.table_commit(t, now)
        _audit(t, staff, AuditEntry.Action.REPLACE, reason, detail, now)


STAFF_REASON_KEY = "staff_reason"
"""Where a hand closed by staff keeps the reason in its result, for the table to show."""


def staff_hand_close(*, staff: User, number: str, reason: str, now: datetime | None = None) -> None:
    """The hand in play ends as a draw nobody pays (no book entries); the match goes on."""
    reason = _check(staff, reason)
    with transaction.atomic():
        t, now = _in_play(number, now)
        if t.hand is None or t.hand.phase == "ended":
            raise StaffError(_("No hand is in play at that table."))
        dissolve.vote_cancel(t, now)
        hand_no = t.match.hand_no + 1
        t.hand = abandon(t.hand)
        # The players see why their hand stopped (the settlement and the record say so); the
        # engine's result is unchanged otherwise (a replay compares it without this key).
        assert t.hand.result is not None
        t.hand.result[STAFF_REASON_KEY] = reason
        moves.hand_book(t, now)
        notice_clear(t)  # the settlement says why, in place of an earlier notice
        clock.table_commit(t, now)
        _audit(
            t, staff, AuditEntry.Action.CLOSE_HAND, reason, _("Hand %(n)d") % {"n": hand_no}, now
        )


def staff_clock_rearm(
    *, staff: User, number: str, reason: str, now: datetime | None = None
) -> None:
    """Start the table's clock afresh: a new countdown for whoever must act, and whatever is
    already due is done now (as the next open page's timer would)."""
    reason = _check(staff, reason)
    with transaction.atomic():
        t, now = _in_play(number, now)
        assert t.room.state is not None
        t.room.state.pop("decision", None)  # a new decision for the clock: a fresh countdown
        t.room.turn_deadline = None
        notice_post(t, "rearm", reason)
        clock.table_commit(t, now)
        _audit(t, staff, AuditEntry.Action.REARM, reason, "", now)
    clock.advance(number, now)
