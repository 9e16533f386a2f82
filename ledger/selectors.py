"""Reads of the 算子 book: one person's balances, a pair's history, their matches (战绩).

Every figure is aggregated in the database (``values()`` + ``Sum``/``Count``), so a page costs
the same few queries whether the book holds ten hands or ten thousand.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db.models import (
    Case,
    Count,
    F,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from ledger.models import Entry
from ledger.stats import GANG_REASONS, WIN_REASONS, BiggestHand, PlayerStats
from tables.models import Hand, Match, Room, Seat

__all__ = [
    "PERIODS",
    "Book",
    "Counterparty",
    "MatchRow",
    "Pair",
    "PairRow",
    "book_for",
    "bot_label",
    "entries_of",
    "matches_of",
    "pair_between",
    "period_start",
]

PERIODS = ("week", "month", "all")


def period_start(period: str, now: datetime | None = None) -> datetime | None:
    """The first moment of this week (Monday) or month in local time; None for all time."""
    local = timezone.localtime(now)
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        return midnight - timedelta(days=midnight.weekday())
    if period == "month":
        return midnight.replace(day=1)
    return None


def bot_label(room_number: str, seat: int) -> str:
    """A bot is its own counterparty: one room's bot in one seat, never merged with a person."""
    return _("room %(number)s's bot (seat %(seat)d)") % {"number": room_number, "seat": seat + 1}


class _LocalDate(TruncDate):
    """The local calendar day of a moment. SQLite's own ``date()`` with today's UTC offset
    instead of Django's per-row Python function (most of a 10,000-hand page's time there);
    a DST change shifts the boundary by an hour for half a year, which a chart can bear."""

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, Any]:
        sql, params = compiler.compile(self.lhs)
        offset = timezone.localtime().utcoffset() or timedelta(0)
        minutes = int(offset.total_seconds() // 60)
        return f"date({sql}, %s)", (*params, f"{minutes:+d} minutes")


def _signed(user: User) -> Case:
    """An entry's points as ``user`` sees them: + received, - paid."""
    return Case(
        When(payee_id=user.pk, then=F("points")),
        default=-F("points"),
        output_field=IntegerField(),
    )


def entries_of(
    user: User, *, since: datetime | None = None, room: Room | None = None
) -> QuerySet[Entry]:
    """Every entry ``user`` paid or received, optionally from ``since`` on and in one room."""
    qs = Entry.objects.filter(Q(payer=user) | Q(payee=user)).exclude(payer=F("payee"))
    if since is not None:
        qs = qs.filter(created_at__gte=since)
    if room is not None:
        qs = qs.filter(room=room)
    return qs


@dataclass(frozen=True)
class Counterparty:
    """A person (``user``) or one room's bot seat (``room_number``, ``seat``)."""

    user: User | None = None
    room_number: str = ""
    seat: int | None = None

    @property
    def is_bot(self) -> bool:
        return self.user is None

    @property
    def label(self) -> str:
        if self.user is not None:
            return self.user.name
        return bot_label(self.room_number, self.seat or 0)


@dataclass
class Balance:
    party: Counterparty
    points: int
    last: datetime


@dataclass
class Book:
    """One person's book: net against everyone, day-by-day points and hand statistics."""

    balances: list[Balance]
    total: int
    days: list[tuple[str, int]]
    """``(YYYY-MM-DD, net points that day)``, oldest first, for the chart."""
    stats: PlayerStats
    rooms: list[Room] = field(default_factory=list)
    """Every room the person has entries in, for the room filter."""


def _balances(user: User, entries: QuerySet[Entry]) -> list[Balance]:
    received = Q(payee_id=user.pk)
    rows = (
        entries.annotate(
            cp_user=Case(When(received, then=F("payer_id")), default=F("payee_id")),
            cp_seat=Case(
                When(received & Q(payer__isnull=True), then=F("payer_seat")),
                When(~received & Q(payee__isnull=True), then=F("payee_seat")),
                default=Value(None),
                output_field=IntegerField(),
            ),
            cp_room=Case(
                When(cp_seat__isnull=False, then=F("room_id")),
                default=Value(None),
                output_field=IntegerField(),
            ),
        )
        .values("cp_user", "cp_room", "cp_seat")
        .annotate(net=Sum(_signed(user)), last=Max("created_at"))
        .order_by("-last")
    )
    rows_list = list(rows)
    # Subqueries, not id lists: an empty list would skip its query and the count would vary.
    parties = Q(pk__in=entries.values("payer_id")) | Q(pk__in=entries.values("payee_id"))
    people = {u.pk: u for u in User.objects.filter(parties)}
    bots = entries.filter(Q(payer__isnull=True) | Q(payee__isnull=True)).values("room_id")
    rooms = dict(Room.objects.filter(pk__in=bots).values_list("pk", "number"))
    out = []
    for r in rows_list:
        if r["cp_user"] is not None:
            party = Counterparty(user=people[r["cp_user"]])
        else:
            party = Counterparty(room_number=rooms.get(r["cp_room"], "?"), seat=r["cp_seat"])
        out.append(Balance(party=party, points=r["net"], last=r["last"]))
    return out


def _stats(user: User, entries: QuerySet[Entry], *, since: datetime | None) -> PlayerStats:
    hand_entries = entries.filter(kind=Entry.Kind.HAND)
    won = Q(payee_id=user.pk, reason__in=WIN_REASONS)
    agg = hand_entries.aggregate(
        net=Coalesce(Sum(_signed(user)), 0),
        wins=Count("hand", distinct=True, filter=won),
        self_draw=Count("hand", distinct=True, filter=won & Q(hand__result__outcome="self_draw")),
        robbed=Count("hand", distinct=True, filter=Q(payer_id=user.pk, reason="qiang_gang")),
        gang=Coalesce(Sum(_signed(user), filter=Q(reason__in=GANG_REASONS)), 0),
    )
    # Hands played: every finished hand of the matches the person was booked in (a 流局
    # without gangs books nothing, yet it was played).
    hands = Hand.objects.filter(match__in=hand_entries.values("match_id"), result__isnull=False)
    if since is not None:
        hands = hands.filter(ended_at__gte=since)
    wins = dict(hand_entries.filter(won).order_by().values_list("hand_id", "payee_seat").distinct())
    patterns: Counter[str] = Counter()
    won_hands = Hand.objects.filter(pk__in=hand_entries.filter(won).values("hand_id")).order_by()
    for hand_id, result in won_hands.values_list("pk", "result"):
        judgements: dict[str, Any] = (result or {}).get("judgements", {})
        patterns[judgements[str(wins[hand_id])]["name"]] += 1
    # The best hand by net points, grouped on the entry table alone; then its number and room.
    best = (
        hand_entries.values("hand_id").annotate(net=Sum(_signed(user))).order_by("-net", "-hand_id")
    )
    top = (
        Hand.objects.filter(pk=Subquery(best.values("hand_id")[:1]))
        .annotate(net=Subquery(best.values("net")[:1]))
        .values("pk", "number", "room__number", "net")
        .first()
    )
    biggest = None
    if top is not None and top["net"] > 0:
        biggest = BiggestHand(
            hand_id=top["pk"],
            number=top["number"],
            room_number=top["room__number"],
            points=top["net"],
        )
    return PlayerStats(
        hands=hands.count(),
        wins=agg["wins"],
        self_draw_wins=agg["self_draw"],
        robbed=agg["robbed"],
        points=agg["net"],
        gang_points=agg["gang"],
        patterns=patterns,
        biggest=biggest,
    )


def book_for(user: User, *, period: str = "all", room: Room | None = None) -> Book:
    """``user``'s book for a period (``week``/``month``/``all``), in one room or all rooms.

    ``total`` = the sum of the balances = the sum of ``days``.
    """
    since = period_start(period)
    entries = entries_of(user, since=since, room=room)
    balances = _balances(user, entries)
    days = [
        (d["day"].isoformat(), d["net"])
        for d in entries.annotate(day=_LocalDate("created_at"))
        .values("day")
        .annotate(net=Sum(_signed(user)))
        .order_by("day")
    ]
    rooms = list(
        Room.objects.filter(pk__in=entries_of(user).values("room_id"))
        .only("pk", "number", "name")
        .order_by("-created_at")
    )
    return Book(
        balances=balances,
        total=sum(b.points for b in balances),
        days=days,
        stats=_stats(user, entries, since=since),
        rooms=rooms,
    )


@dataclass
class PairRow:
    """A hand both played (its net between the two) or a settlement/correction between them."""

    kind: str
    when: datetime
    points: int
    """What ``me`` got from the other in this row (+) or paid (-)."""
    balance: int
    """``me``'s running net against the other up to and including this row."""
    hand_id: int | None = None
    hand_number: int | None = None
    room_number: str = ""
    note: str = ""


@dataclass
class Pair:
    party: Counterparty
    rows: list[PairRow]
    """Newest first."""
    total: int


def pair_between(me: User, party: Counterparty, *, room: Room | None = None) -> Pair:
    """Every hand and settlement between ``me`` and ``party`` with the running balance.

    A hand's several payments (the win, gang points) make one row.
    """
    if party.user is not None:
        other = Q(payer=party.user) | Q(payee=party.user)
        entries = entries_of(me).filter(other)
    else:
        bot = Q(payer__isnull=True, payer_seat=party.seat) | Q(
            payee__isnull=True, payee_seat=party.seat
        )
        entries = entries_of(me).filter(bot, room__number=party.room_number)
    if room is not None:
        entries = entries.filter(room=room)
    rows = (
        entries.values(
            "kind", "hand_id", "hand__number", "hand__room__number", "note", "created_at", "id"
        )
        .annotate(net=_signed(me))
        .order_by("created_at", "id")
    )
    out: list[PairRow] = []
    balance = 0
    for r in rows:
        balance += r["net"]
        last = out[-1] if out else None
        if last is not None and r["hand_id"] is not None and last.hand_id == r["hand_id"]:
            last.points += r["net"]
            last.balance = balance
            continue
        out.append(
            PairRow(
                kind=r["kind"],
                when=r["created_at"],
                points=r["net"],
                balance=balance,
                hand_id=r["hand_id"],
                hand_number=r["hand__number"],
                room_number=r["hand__room__number"] or "",
                note=r["note"],
            )
        )
    out.reverse()
    return Pair(party=party, rows=out, total=balance)


@dataclass
class MatchRow:
    match: Match
    hands: int
    points: int
    """The person's net points in the match (0 when nothing was booked to them)."""


def matches_of(user: User) -> list[MatchRow]:
    """战绩: every match the person was booked in or whose room they sit in, newest first,
    finished and closed rooms included."""
    booked = Entry.objects.filter(Q(payer=user) | Q(payee=user), match__isnull=False)
    net = (
        booked.filter(match=OuterRef("pk"))
        .values("match")
        .annotate(s=Sum(_signed(user)))
        .values("s")
    )
    hands = (
        Hand.objects.filter(match=OuterRef("pk"), result__isnull=False)
        .values("match")
        .annotate(n=Count("pk"))
        .values("n")
    )
    seated = Seat.objects.filter(user=user).values("room_id")
    matches = (
        Match.objects.filter(Q(pk__in=booked.values("match_id")) | Q(room__in=seated))
        .select_related("room")
        .annotate(
            net=Coalesce(Subquery(net, output_field=IntegerField()), 0),
            hand_count=Coalesce(Subquery(hands, output_field=IntegerField()), 0),
        )
        .order_by("-started_at", "-pk")
    )
    return [MatchRow(match=m, hands=m.hand_count, points=m.net) for m in matches]
