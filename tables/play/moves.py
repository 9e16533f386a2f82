"""What changes a running game: a seat's moves, judged by the engine, and the table's own
steps around them (dealing, booking a finished hand, 准备, 托管, ending the match).

Each function changes a :class:`~tables.play.table.Table` loaded with its room row locked; the
caller (``tables.rooms.services``, ``tables.play.clock``) commits it with its next deadline in
the same transaction. A refusal raises :class:`~tables.play.protocol.PlayError` before anything
is written.
"""

from __future__ import annotations

import random
import secrets
from datetime import datetime

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from engine.hand import IllegalAction, apply, close_window, waiting_on
from engine.match import Match
from engine.play.bots import choose_action
from engine.rules import Rules
from engine.views import seat_info
from ledger import services as ledger
from tables.models import BOT_BASIC, Hand, Room, Seat
from tables.models import Match as MatchRecord
from tables.play import dissolve
from tables.play.proof import seed_commitment
from tables.play.protocol import (
    AnswerDissolve,
    EndMatch,
    Message,
    Move,
    PlayError,
    ProposeDissolve,
    Ready,
    SetTuoguan,
)
from tables.play.rows import room_seats
from tables.play.staff_notice import notice_clear
from tables.play.table import Table
from tables.play.windows import WINDOW_PHASES, public_step

__all__ = [
    "automatic_play",
    "hand_book",
    "hand_book_if_ended",
    "hand_deal",
    "hand_deal_if_all_ready",
    "match_begin",
    "message_apply",
    "seat_playing",
    "tuoguan_set",
]


def match_begin(room: Room, *, first_seed: str | None = None) -> Table:
    """The room's match with its first hand dealt (the room row is locked by the caller).

    ``first_seed`` sets up a known first deal (tests); play always uses a fresh secret seed.
    """
    seats = room_seats(room)
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
    )
    room.state = {"match_id": record.pk}
    t = Table(room=room, seats=seats, match=match, hand=None)
    hand_deal(t, first_seed)
    return t


def hand_deal(t: Table, seed: str | None = None) -> None:
    """Deal the match's next hand (from a fresh secret seed) and record it; nobody is ready."""
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
    notice_clear(t)  # a staff notice stays until the next hand starts
    for seat in t.seats:
        seat.ready = False
        seat.timeouts = 0
    Seat.objects.filter(room=t.room).update(ready=False, timeouts=0)


def hand_deal_if_all_ready(t: Table) -> None:
    """After a hand, deal the next once every seat is ready (unless the match is over)."""
    if t.finished or t.hand is None or t.hand.phase != "ended":
        return
    if all(s.ready for s in t.seats):
        hand_deal(t)


def hand_book(t: Table, now: datetime) -> None:
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
    hand_deal_if_all_ready(t)


def hand_book_if_ended(t: Table, now: datetime) -> None:
    """Book the current hand if the last move ended it (once: a booked hand has ``ended_at``)."""
    if t.hand is not None and t.hand.phase == "ended" and t.hand_row and not t.hand_row.ended_at:
        hand_book(t, now)


def seat_playing(t: Table, user: User) -> Seat:
    """``user``'s seat at a match still in play; :class:`PlayError` for a spectator or a
    finished match."""
    seat = next((s for s in t.seats if s.user_id == user.pk), None)
    if seat is None:
        raise PlayError(_("You are watching this table, not playing at it."))
    if t.finished:
        raise PlayError(_("The match is over."))
    return seat


def message_apply(t: Table, seat: Seat, message: Message) -> bool:
    """What the player in ``seat`` sent (see :mod:`tables.play.protocol`); False if it asked for
    what already was (nothing changed, nothing to save or show)."""
    if isinstance(message, ProposeDissolve | AnswerDissolve):
        dissolve.vote_message_apply(t, seat.index, message, timezone.now())
        return True
    if not isinstance(message, SetTuoguan) and dissolve.vote_open(t) is not None:
        raise PlayError(_("The table is paused while the vote to dissolve the room runs."))
    if isinstance(message, SetTuoguan):
        return tuoguan_set(t, seat, message.on)
    if isinstance(message, EndMatch):
        _end_match(t, seat)
    elif isinstance(message, Ready):
        return _ready(t, seat)
    elif isinstance(message, Move):
        _move(t, seat, message)
    else:  # a phrase is chat, sent by the consumer without touching the table
        raise PlayError(_("That message is not a move."))
    return True


def _move(t: Table, seat: Seat, move: Move) -> None:
    hand = t.hand
    assert hand is not None
    if hand.phase == "ended":
        raise PlayError(_("This hand is over."))
    # Asked first: a seat not asked learns nothing from which steps are refused as stale.
    if seat.index not in waiting_on(hand):
        raise PlayError(_("It is not your turn."))
    # A move names the public step it was made on (tables.play.windows), not the engine's.
    if move.step != public_step(t.room):
        raise PlayError(_("The table moved on before your move arrived; look again."))
    window = hand.phase in WINDOW_PHASES
    try:
        t.hand, _events = apply(hand, seat.index, move.action, hold=holds_windows())
    except IllegalAction as exc:
        raise PlayError(_("That move is not allowed now (%(detail)s).") % {"detail": exc}) from None
    if seat.tuoguan and not window:
        # Playing a move by hand is taking control back (in a window it would show every
        # page that this seat was asked: it is taken back on the seat's own turn).
        tuoguan_set(t, seat, False)


def _ready(t: Table, seat: Seat) -> bool:
    if t.hand is None or t.hand.phase != "ended":
        raise PlayError(_("The hand is still being played."))
    if seat.ready:
        return False
    seat.ready = True
    seat.save(update_fields=["ready"])
    hand_deal_if_all_ready(t)
    return True


def _end_match(t: Table, seat: Seat) -> None:
    # Only between hands: a hand in play has tiles out and points at stake, and ending it
    # halfway would leave a ledger entry that no engine result explains.
    if t.room.owner_id != seat.user_id:
        raise PlayError(_("Only the room's owner can end the match."))
    if t.hand is None or t.hand.phase != "ended":
        raise PlayError(_("The match can be ended only between hands."))
    t.room.status = Room.Status.FINISHED
    MatchRecord.objects.filter(room=t.room, ended_at=None).update(ended_at=timezone.now())


def tuoguan_set(t: Table, seat: Seat, on: bool, reason: str = Seat.TuoguanReason.MANUAL) -> bool:
    """托管 on or off, and why (a ``Seat.TuoguanReason``); a seat put on 托管 after a hand is
    ready at once. False if the seat was already so (and, on 托管 after a hand, ready):
    nothing changed."""
    reason = reason if on else ""
    readies = on and t.hand is not None and t.hand.phase == "ended" and not seat.ready
    if seat.tuoguan == on and seat.tuoguan_reason == reason and not readies:
        return False
    if seat.tuoguan and not on:
        # Cancelled 托管 forgives no more in this hand: the next timeout turns it on again.
        seat.timeouts = max(seat.timeouts, t.room.tuoguan_after - 1)
    seat.tuoguan = on
    seat.tuoguan_reason = reason
    seat.save(update_fields=["tuoguan", "tuoguan_reason", "timeouts"])
    if readies:
        seat.ready = True
        seat.save(update_fields=["ready"])
        hand_deal_if_all_ready(t)
    return True


def claim_pause() -> float:
    """Seconds every claim or 抢杠 window stays open (``TABLE_CLAIM_PAUSE_SECONDS``)."""
    return float(getattr(settings, "TABLE_CLAIM_PAUSE_SECONDS", 1.0))


def holds_windows() -> bool:
    """Windows open after every discard and gang and wait for the clock to close them
    (:func:`engine.hand.close_window`); with no pause they close as the engine sees fit."""
    return claim_pause() > 0


def window_close_if_due(t: Table, now: datetime) -> None:
    """Close a held window once nobody is still asked and its pause has run (the table's
    clock calls this): the claim lands, or the next seat draws."""
    hand = t.hand
    assert t.room.state is not None
    opened = float(t.room.state.get("decision_at") or 0)
    if (
        hand is not None
        and hand.phase in ("claim", "rob")
        and not waiting_on(hand)
        and now.timestamp() >= opened + claim_pause()
    ):
        t.hand, _events = close_window(hand)


def seat_timed_out(t: Table, seat: Seat) -> None:
    """A player at the table let the turn clock run out: the room's ``tuoguan_after``-th
    timeout in a hand turns 托管 on; an earlier one plays one tile for them (the basic bot's
    choice) and their page warns them."""
    seat.timeouts += 1
    seat.save(update_fields=["timeouts"])
    if seat.timeouts >= max(1, t.room.tuoguan_after):
        tuoguan_set(t, seat, True, Seat.TuoguanReason.TIMEOUT)
    else:
        automatic_play(t, [seat.index])


def automatic_play(t: Table, seats: list[int]) -> None:
    """Bots and seats on 托管 in ``seats`` move (or, after a hand, get ready)."""
    hand = t.hand
    if hand is None or not seats:
        return
    if hand.phase == "ended":
        for i in seats:
            t.seats[i].ready = True
            t.seats[i].save(update_fields=["ready"])
        return  # the clock deals once everyone is ready, readied by it or not
    # One move a beat on a turn so people can follow; a claim window's answers come together.
    for i in seats[:1] if hand.phase == "turn" else seats:
        if i not in waiting_on(hand):
            continue
        bot = t.seats[i].bot or BOT_BASIC
        # Seeded from the hand's secret seed: a table replays move for move, and players
        # still can't predict the bots.
        rng = random.Random(f"{hand.seed}:{hand.step}:{i}")
        hand, _events = apply(
            hand, i, choose_action(bot, seat_info(hand, i), rng), hold=holds_windows()
        )
    t.hand = hand
