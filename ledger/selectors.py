"""Reads of the 算子 book: one person's balances, a pair's history, their matches (战绩).

All-time figures come from the running totals (``ledger.tallies``): a page reads a row per
counterparty, day or match, not every entry. A period or room filter reads the entries it
covers, and a pair's history reads one page of them at a time, so the cost follows what is
shown, not how long the book is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db.models import (
    Case,
    F,
    IntegerField,
    Max,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from ledger.models import CLAIM_EXPIRES_AFTER, DayTally, Entry, PairBalance, SettlementClaim
from ledger.stats import PlayerStats, stats_of
from tables.models import Match, Room, Seat

__all__ = [
    "PERIODS",
    "Balance",
    "Book",
    "Counterparty",
    "LocalDate",
    "MatchRow",
    "book_for",
    "bot_label",
    "claims_to_answer",
    "entries_of",
    "live_claims",
    "match_rows",
    "matches_of",
    "my_room",
    "period_start",
    "signed",
]

PERIODS = ("week", "month", "settled", "all")


def _last_settlement(user: User, other: User | None = None) -> datetime | None:
    """When ``user`` last settled up (with ``other``, or with anyone)."""
    paid = Entry.objects.filter(kind=Entry.Kind.SETTLEMENT)
    if other is None:
        paid = paid.filter(Q(payer=user) | Q(payee=user))
    else:
        paid = paid.filter(Q(payer=user, payee=other) | Q(payer=other, payee=user))
    at: datetime | None = paid.aggregate(at=Max("created_at"))["at"]
    return at


def period_start(
    period: str, now: datetime | None = None, *, user: User | None = None, other: User | None = None
) -> datetime | None:
    """The first moment of this week (Monday) or month in local time; for ``settled`` the
    moment after ``user``'s last settle-up (with ``other`` if given); None for all time.

    >>> period_start("all") is None
    True
    """
    if period == "settled":
        last = _last_settlement(user, other) if user is not None else None
        return last + timedelta(microseconds=1) if last is not None else None
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


class LocalDate(TruncDate):
    """The local calendar day of a moment, ``hours_back`` hours earlier (a club's evening runs
    from noon to noon: 12). SQLite's own ``date()`` with today's UTC offset instead of
    Django's per-row Python function (most of a 10,000-hand page's time there); a DST change
    shifts the boundary by an hour for half a year, which a chart can bear."""

    def __init__(self, expression: Any, *, hours_back: int = 0, **extra: Any) -> None:
        self.hours_back = hours_back
        super().__init__(expression, **extra)

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, Any]:
        sql, params = compiler.compile(self.lhs)
        if self.hours_back:
            sql, params = f"({sql} - %s)", (*params, timedelta(hours=self.hours_back))
        cast: tuple[str, Any] = connection.ops.datetime_cast_date_sql(
            sql, tuple(params), self.get_tzname()
        )
        return cast

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, Any]:
        sql, params = compiler.compile(self.lhs)
        offset = timezone.localtime().utcoffset() or timedelta(0)
        minutes = int(offset.total_seconds() // 60) - 60 * self.hours_back
        return f"date({sql}, %s)", (*params, f"{minutes:+d} minutes")


def signed(user: User) -> Case:
    """An entry's points as ``user`` sees them: + owed to them (payee), - owed by them.
    One rule for every kind of entry (see :class:`~ledger.models.Entry`)."""
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


def my_room(user: User, number: str) -> Room | None:
    """The room of this number if ``user`` has points from it; None for any other number,
    existing or not, so an answer never tells which rooms exist."""
    if not number:
        return None
    played = DayTally.objects.filter(user=user, match__room__number=number)
    return Room.objects.filter(number=number, pk__in=played.values("match__room_id")).first()


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
    """One person's book: net against people and, apart, against bots; day by day; stats."""

    balances: list[Balance]
    """Against people, newest activity first."""
    bots: list[Balance]
    total: int
    """Against people only: what friends owe (+) or are owed (-)."""
    bots_total: int
    days: list[tuple[str, int, int]]
    """``(YYYY-MM-DD, net against people, net against bots)``, oldest first, for the chart."""
    stats: PlayerStats
    rooms: list[Room] = field(default_factory=list)
    """Every room the person has points from, for the room filter."""
    since: datetime | None = None


def _stored_balances(user: User) -> list[Balance]:
    rows = (
        PairBalance.objects.filter(user=user).select_related("other", "room").order_by("-last_at")
    )
    out = []
    for r in rows:
        if r.other is not None:
            party = Counterparty(user=r.other)
        else:
            party = Counterparty(room_number=r.room.number if r.room else "?", seat=r.seat)
        out.append(Balance(party=party, points=r.points, last=r.last_at))
    return out


def _balances(user: User, entries: QuerySet[Entry]) -> list[Balance]:
    """Balances summed from ``entries`` (a period's or a room's)."""
    received = Q(payee_id=user.pk)
    rows = list(
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
        .annotate(net=Sum(signed(user)), last=Max("created_at"))
        .order_by("-last")
    )
    # Subqueries, not id lists: an empty list would skip its query and the count would vary.
    parties = Q(pk__in=entries.values("payer_id")) | Q(pk__in=entries.values("payee_id"))
    people = {u.pk: u for u in User.objects.filter(parties)}
    bots = entries.filter(Q(payer__isnull=True) | Q(payee__isnull=True)).values("room_id")
    rooms = dict(Room.objects.filter(pk__in=bots).values_list("pk", "number"))
    out = []
    for r in rows:
        if r["cp_user"] is not None:
            party = Counterparty(user=people[r["cp_user"]])
        else:
            party = Counterparty(room_number=rooms.get(r["cp_room"], "?"), seat=r["cp_seat"])
        out.append(Balance(party=party, points=r["net"], last=r["last"]))
    return out


def _days(
    user: User, since: datetime | None, room: Room | None, exact: bool
) -> list[tuple[str, int, int]]:
    if exact:
        # Since a settle-up (not a midnight): the entries after it, a day at a time.
        people = Q(payer__isnull=False, payee__isnull=False)
        rows: Any = (
            entries_of(user, since=since, room=room)
            .annotate(day=LocalDate("created_at"))
            .values("day")
            .annotate(p=Sum(signed(user), filter=people), b=Sum(signed(user), filter=~people))
            .order_by("day")
        )
    else:
        tallies = DayTally.objects.filter(user=user)
        if since is not None:
            tallies = tallies.filter(day__gte=timezone.localtime(since).date())
        if room is not None:
            tallies = tallies.filter(match__room=room)
        rows = tallies.values("day").annotate(p=Sum("people"), b=Sum("bots")).order_by("day")
    return [(r["day"].isoformat(), r["p"] or 0, r["b"] or 0) for r in rows if r["p"] or r["b"]]


def book_for(user: User, *, period: str = "all", room: Room | None = None) -> Book:
    """``user``'s book for a period (``week``/``month``/``settled``/``all``), in one room or
    all rooms. ``total`` = the sum of the people's balances = the sum of ``days``' people."""
    since = period_start(period, user=user)
    if since is None and room is None:
        balances = _stored_balances(user)
    else:
        balances = _balances(user, entries_of(user, since=since, room=room))
    people = [b for b in balances if not b.party.is_bot]
    bots = [b for b in balances if b.party.is_bot]
    played = DayTally.objects.filter(user=user, match__isnull=False).values("match__room_id")
    rooms = list(
        Room.objects.filter(pk__in=played).only("pk", "number", "name").order_by("-created_at")
    )
    return Book(
        balances=people,
        bots=bots,
        total=sum(b.points for b in people),
        bots_total=sum(b.points for b in bots),
        days=_days(user, since, room, exact=period == "settled"),
        stats=stats_of(user, since=since, room=room),
        rooms=rooms,
        since=since,
    )


# ---------------------------------------------------------------- 战绩


@dataclass
class MatchRow:
    match: Match
    hands: int
    points: int
    """The person's net points in the match (0 when nothing was booked to them)."""


def matches_of(user: User) -> QuerySet[Match]:
    """战绩: every match the person played or whose room they sit in, newest first, finished
    and closed rooms included. A queryset, for the page to slice; :func:`match_rows` adds
    each match's figures."""
    seated = Seat.objects.filter(user=user).values("room_id")
    played = DayTally.objects.filter(user=user, match__isnull=False).values("match_id")
    return (
        Match.objects.filter(Q(pk__in=played) | Q(room__in=seated))
        .select_related("room")
        .defer("rules", "room__rules", "room__state")
        .order_by("-started_at", "-pk")
    )


def match_rows(user: User, matches: Iterable[Match]) -> list[MatchRow]:
    """The person's hands and net points in each of ``matches`` (one page), in one query."""
    page = list(matches)
    sums = {
        r["match_id"]: r
        for r in DayTally.objects.filter(user=user, match__in=[m.pk for m in page])
        .values("match_id")
        .annotate(net=Sum(F("people") + F("bots")), hands=Sum("hands"))
    }
    empty = {"net": 0, "hands": 0}
    return [
        MatchRow(match=m, hands=sums.get(m.pk, empty)["hands"], points=sums.get(m.pk, empty)["net"])
        for m in page
    ]


def claims_to_answer(user: User, now: datetime | None = None) -> QuerySet[SettlementClaim]:
    """Claims the other recorded that still wait for ``user``'s answer (not lapsed)."""
    return (
        SettlementClaim.objects.filter(Q(payer=user) | Q(payee=user))
        .filter(live_claims(now or timezone.now()))
        .exclude(recorded_by=user)
    )


def live_claims(now: datetime) -> Q:
    """A claim still waiting and not yet lapsed."""
    return Q(status=SettlementClaim.Status.PROPOSED, created_at__gt=now - CLAIM_EXPIRES_AFTER)
