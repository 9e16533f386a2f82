"""Reads for rooms, seats and hand records (the book's pages read ``ledger.selectors``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from engine.rules import Rules
from engine.views import seat_view
from ledger.models import Entry
from tables.history.replays import hand_replay
from tables.models import Hand, Room, Seat
from tables.play.rows import room_seats
from tables.screen.board import seat_name
from tables.screen.settlement import Settlement, settlement_of

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

PROFILE_LABELS: dict[str, _StrPromise] = {
    "standard": _("Standard (§1–8)"),
    "jiuyao_fan": _("九幺 番 scoring (§9)"),
}

OPTION_LABELS: dict[str, _StrPromise] = {
    "scoring": _("Scoring"),
    "first_dealer": _("First dealer"),
    "draw_dealer": _("Dealer after a drawn hand"),
    "break_offset": _("Wall break"),
    "replacement": _("Gang replacement tile"),
    "bugang_any_time": _("补杠 with a tile held from earlier"),
    "angang_face_down": _("暗杠 stays face down"),
    "bao_discard_claimable": _("A flown 宝 may be claimed"),
    "qiang_gang": _("抢杠 (robbing a gang)"),
    "chang_jiuyao": _("长九幺 doubles"),
    "strict_no_bao": _("Strict 无宝"),
    "min_score_all_patterns": _("Minimum score for 十三烂 and 九幺 too"),
    "min_win_points": _("Minimum 平胡 score"),
    "tian_di_points": _("天胡/地胡 points"),
    "chengbao": _("三凑牌承包"),
    "minggang_points": _("明杠 points"),
    "angang_points": _("暗杠 points"),
    "liangbao_gang_points": _("亮宝杠 points"),
    "sibao_points": _("四宝 points"),
    "rob_settlement": _("A robbed gang (抢杠) settles"),
}

VALUE_LABELS: dict[str, dict[str, _StrPromise]] = {
    "scoring": {"standard": _("standard table (§7)"), "fan": _("番 (§9)")},
    "first_dealer": {"owner_roll": _("owner's roll"), "highest_roll": _("highest roll")},
    "draw_dealer": {"last_drawer": _("who drew the last tile"), "next_seat": _("dealer's 下家")},
    "break_offset": {"standard": _("at stack U"), "plus_one": _("at stack U+1")},
    "replacement": {
        "burn_upper": _("lower tile, upper burned"),
        "single_tile": _("single tile, none burned"),
    },
    "rob_settlement": {
        "standard": _("the robbed gang scores nothing (§8)"),
        "fan": _("a 宝 gang keeps its 四宝, earlier gangs keep theirs (§9)"),
    },
}


def value_text(name: str, value: Any) -> str:
    """An option's value in words."""
    if isinstance(value, bool):
        return str(_("on") if value else _("off"))
    if name in VALUE_LABELS:
        return str(VALUE_LABELS[name].get(str(value), value))
    return str(value)


@dataclass
class RulesSummary:
    profile: str
    changes: list[tuple[str, str]]


def rules_summary(rules_json: dict[str, Any]) -> RulesSummary:
    """The profile's name and each option that differs from it, in words."""
    rules = Rules.from_json(rules_json)
    label = PROFILE_LABELS.get(rules.profile, rules.profile)
    return RulesSummary(
        profile=str(label),
        changes=[
            (str(OPTION_LABELS.get(k, k)), value_text(k, v)) for k, v in rules.overrides().items()
        ],
    )


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
    replayed = hand_replay(hand)
    view = seat_view(replayed.states[-1], None)
    return HandRecord(
        hand=hand,
        names=names,
        settlement=settlement_of(hand.result, names, view["melds"]),
        bao=view["bao"],
        earlier_ruling=replayed.earlier_ruling,
    )


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
    "HandRecord",
    "hand_record",
    "hand_visible_to",
    "my_rooms",
    "public_rooms",
    "room_by_number",
    "room_versions",
    "room_with_seats",
    "rules_summary",
]
