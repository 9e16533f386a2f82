"""A room's record: its matches and hands, its 解散 votes with every answer, and what staff
did to it (the audit log). Read-only; shown at ``/r/<number>/record/``."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from accounts.models import User
from ledger.models import Entry
from tables.models import AuditEntry, DissolveVote, Hand, Match, Room, Seat

__all__ = ["RecordedMatch", "RoomRecord", "room_record", "room_record_visible"]


@dataclass
class RecordedMatch:
    match: Match
    hands: list[Hand]
    votes: list[DissolveVote]
    dissolved_hand_ids: set[int] = field(default_factory=set)


@dataclass
class RoomRecord:
    room: Room
    matches: list[RecordedMatch]
    audit: list[AuditEntry]


def room_record_visible(room: Room, user: User) -> bool:
    """Staff, the owner, and whoever sits (or sat, by their book entries) in the room."""
    if user.is_staff or room.owner_id == user.pk:
        return True
    if Seat.objects.filter(room=room, user=user).exists():
        return True
    return Entry.objects.filter(Q(payer=user) | Q(payee=user), room=room).exists()


def room_record(room: Room) -> RoomRecord:
    """Everything the record page shows, oldest match first."""
    votes = list(
        DissolveVote.objects.filter(room=room)
        .select_related("proposer", "hand")
        .prefetch_related("answers__user")
        .order_by("started_at")
    )
    matches = []
    for m in Match.objects.filter(room=room).order_by("number"):
        mine = [v for v in votes if v.match_id == m.pk]
        matches.append(
            RecordedMatch(
                match=m,
                hands=list(m.hands.order_by("number")),
                votes=mine,
                # A vote passed between hands leaves the last hand as it was booked.
                dissolved_hand_ids={
                    v.hand_id
                    for v in mine
                    if v.outcome == DissolveVote.Outcome.PASSED and v.hand.result is None
                },
            )
        )
    audit = list(AuditEntry.objects.filter(room=room).select_related("staff"))
    return RoomRecord(room=room, matches=matches, audit=audit)
