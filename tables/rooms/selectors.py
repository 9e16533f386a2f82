"""Reads for rooms and seats (the book's pages read ``ledger.selectors``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Count, Q, QuerySet

from accounts.models import User
from tables.models import Room, Seat
from tables.play.rows import room_seats
from tables.screen.rule_labels import RulesSummary, rules_summary

if TYPE_CHECKING:
    pass


def _with_counts(rooms: QuerySet[Room]) -> QuerySet[Room]:
    return rooms.select_related("owner").annotate(
        seated=Count("seats", filter=Q(seats__user__isnull=False) | ~Q(seats__bot=""))
    )


def public_rooms() -> QuerySet[Room]:
    """Public rooms still waiting or playing, newest first, each with ``seated`` (0-4)."""
    return _with_counts(
        Room.objects.filter(is_public=True, status__in=[Room.Status.WAITING, Room.Status.PLAYING])
    )


def my_rooms(user: User) -> QuerySet[Room]:
    """Unfinished rooms the user owns or sits in, with ``seated``."""
    ids = Seat.objects.filter(user=user).values("room_id")
    return _with_counts(
        Room.objects.filter(Q(owner=user) | Q(pk__in=ids))
        .exclude(status=Room.Status.FINISHED)
        .distinct()
    )


@dataclass
class RoomRow:
    """A room as a lobby list shows it: the room (with ``seated``) and its rules in words."""

    room: Room
    rules: RulesSummary


def room_rows(rooms: QuerySet[Room]) -> list[RoomRow]:
    """Lobby rows for ``rooms`` (from :func:`public_rooms` or :func:`my_rooms`)."""
    return [RoomRow(room, rules_summary(room.rules)) for room in rooms]


def room_by_number(number: str) -> Room | None:
    return Room.objects.select_related("owner").filter(number=number.strip()).first()


def room_with_seats(room: Room) -> list[Seat]:
    """The room's four seats in order, with their users loaded."""
    return room_seats(room)


def seat_of(room: Room, user: User) -> Seat | None:
    return Seat.objects.filter(room=room, user=user).first()


def room_versions(numbers: Iterable[str]) -> dict[str, int]:
    """The version of each room of ``numbers`` that exists.

    >>> room_versions([])
    {}
    """
    numbers = list(numbers)
    if not numbers:
        return {}
    return dict(Room.objects.filter(number__in=numbers).values_list("number", "version"))


__all__ = [
    "my_rooms",
    "public_rooms",
    "room_by_number",
    "room_versions",
    "room_with_seats",
]
