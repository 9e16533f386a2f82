"""Reads for a finished hand's page: who may see it, and its record as booked."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from accounts.models import User
from engine.views import seat_view
from ledger.models import Entry
from tables.history.replays import hand_replayed
from tables.models import Hand, Seat
from tables.rooms.selectors import room_with_seats
from tables.screen.board import seat_name
from tables.screen.settlement import Settlement, settlement_of

__all__ = [
    "HandRecord",
    "hand_record",
    "hand_visible_to",
]


def hand_visible_to(hand_id: int, user: User) -> Hand | None:
    """A hand, if ``user`` may look at it: they sat at its table, own the room, or are staff."""
    hand = Hand.objects.select_related("room").filter(pk=hand_id).first()
    if hand is None:
        return None
    room = hand.room
    if user.is_staff or room.owner_id == user.pk:
        return hand
    seated = Seat.objects.filter(room=room, user=user).exists()
    paid = Entry.objects.filter(Q(payer=user) | Q(payee=user), hand=hand).exists()
    return hand if seated or paid else None


@dataclass
class HandRecord:
    hand: Hand
    names: list[str]
    settlement: Settlement | None
    bao: str
    earlier_ruling: bool = False
    """Today's engine would judge the hand otherwise: what is shown is still the booked result."""

    @property
    def dealer_name(self) -> str:
        return self.names[self.hand.dealer]


def hand_record(hand: Hand) -> HandRecord:
    """A hand as the ledger shows it: who sat where, and its result as booked, the melds and
    the 宝 re-played by the engine (as far as today's engine accepts the log)."""
    names = [seat_name(s) for s in room_with_seats(hand.room)]
    if hand.result is None:
        return HandRecord(hand=hand, names=names, settlement=None, bao="")
    replayed = hand_replayed(hand)
    view = seat_view(replayed.states[-1], None)
    return HandRecord(
        hand=hand,
        names=names,
        settlement=settlement_of(hand.result, names, view["melds"]),
        bao=view["bao"],
        earlier_ruling=replayed.earlier_ruling,
    )
