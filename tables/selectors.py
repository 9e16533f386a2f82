"""Reads for rooms, seats and the points ledger."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from engine.replay import replay
from engine.rules import Rules
from engine.views import seat_view
from ledger.models import Entry
from tables.board import Settlement, seat_name, settlement_of
from tables.models import Hand, Room, Seat

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
    return list(Seat.objects.filter(room=room).select_related("user").order_by("index"))


def seat_of(room: Room, user: User) -> Seat | None:
    return Seat.objects.filter(room=room, user=user).first()


@dataclass
class HandPoints:
    hand: Hand
    points: int


@dataclass
class MatchPoints:
    """One room's match in a ledger: the user's net points and its hands, newest first."""

    room: Room
    points: int = 0
    hands: list[HandPoints] = field(default_factory=list)


@dataclass
class Ledger:
    against: list[tuple[User, int]] = field(default_factory=list)
    """Net points won (+) or lost (-) against each other player, biggest first."""
    against_bots: int = 0
    """Net points against bot seats (they have no account), so the rows add up to the total."""
    hands: list[HandPoints] = field(default_factory=list)
    """Each hand the user paid or was paid in, newest first, with the user's net points."""
    matches: list[MatchPoints] = field(default_factory=list)
    """The same hands by match, the most recently played match first."""
    total: int = 0


def ledger_for(user: User) -> Ledger:
    """The user's points, traced through every hand entry of the book.

    ``total`` = the sum of ``against`` and ``against_bots`` = the sum of the hands' points.
    """
    transfers = (
        Entry.objects.filter(Q(payer=user) | Q(payee=user), kind=Entry.Kind.HAND)
        .select_related("payer", "payee", "hand", "hand__room")
        .order_by("-hand__started_at", "-hand_id")
    )
    against: dict[int, int] = defaultdict(int)
    people: dict[int, User] = {}
    per_hand: dict[int, HandPoints] = {}
    against_bots = 0
    total = 0
    for t in transfers:
        if t.payee_id == user.pk and t.payer_id == user.pk:
            continue
        sign = 1 if t.payee_id == user.pk else -1
        other = t.payer if sign == 1 else t.payee
        total += sign * t.points
        assert t.hand is not None and t.hand_id is not None  # kind=hand always has one
        entry = per_hand.setdefault(t.hand_id, HandPoints(hand=t.hand, points=0))
        entry.points += sign * t.points
        if other is not None:
            people[other.pk] = other
            against[other.pk] += sign * t.points
        else:
            against_bots += sign * t.points
    matches: dict[int, MatchPoints] = {}
    for row in per_hand.values():
        match = matches.setdefault(row.hand.room_id, MatchPoints(room=row.hand.room))
        match.points += row.points
        match.hands.append(row)
    return Ledger(
        against=sorted(
            ((people[pk], pts) for pk, pts in against.items()), key=lambda x: (-abs(x[1]), x[0].pk)
        ),
        against_bots=against_bots,
        hands=list(per_hand.values()),
        matches=list(matches.values()),
        total=total,
    )


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

    @property
    def dealer_name(self) -> str:
        return self.names[self.hand.dealer]


def hand_record(hand: Hand) -> HandRecord:
    """A hand as the ledger shows it: who sat where, and its result rebuilt by the engine."""
    seats = room_with_seats(hand.room)
    names = [seat_name(s) for s in seats]
    state = replay(Rules.from_json(hand.rules), hand.seed, None, hand.actions, dealer=hand.dealer)
    view = seat_view(state, None)
    settlement = None
    if hand.result is not None:
        settlement = settlement_of(hand.result, names, view["melds"])
    return HandRecord(hand=hand, names=names, settlement=settlement, bao=view["bao"])


__all__ = [
    "HandRecord",
    "Ledger",
    "MatchPoints",
    "hand_record",
    "hand_visible_to",
    "ledger_for",
    "my_rooms",
    "public_rooms",
    "room_by_number",
    "room_with_seats",
    "rules_summary",
]
