"""The club's book for a period: each person's net (``ledger.settle_up.group_nets`` over the
club's entries), the fewest transfers that clear them (``who_pays_whom``), and the
leaderboard with its chart (``ledger.charts``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Q, Sum
from django.utils import timezone

from accounts.models import User
from clubs.models import Club, ClubClaim, OfflineHand
from clubs.selectors import EVENING_STARTS_AT, club_entries, club_people, club_period_start
from ledger.charts import cumulative_chart
from ledger.models import DayTally, SettlementClaim, Sitting
from ledger.selectors import LocalDate, live_claims
from ledger.settle_up import Payment, group_nets, is_exact, who_pays_whom
from tables.models import Hand

__all__ = ["ClubBook", "Leader", "club_book", "club_chart"]


@dataclass
class Leader:
    user: User
    net: int = 0
    hands: int = 0
    wins: int = 0
    big_winner: int = 0
    """Evenings (noon to noon) on which this person won the most."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.hands if self.hands else 0.0


@dataclass
class ClubBook:
    period: str
    since: datetime | None
    nets: dict[User, int]
    transfers: list[Payment[User]]
    exact: bool
    leaders: list[Leader] = field(default_factory=list)
    claims: list[SettlementClaim] = field(default_factory=list)
    """The club's settle-up claims still waiting for an answer."""
    days: dict[str, dict[int, int]] = field(default_factory=dict)
    """Each evening's (noon to noon, named by its first day) net per person id."""


def club_book(club: Club, period: str, now: datetime | None = None) -> ClubBook:
    """Everyone's net over the period, the transfers that clear it, and the leaderboard."""
    since = club_period_start(club, period, now)
    entries = club_entries(club, since)
    people = club_people(club, entries)
    nets = group_nets(people, within=entries)
    leaders = {u.pk: Leader(user=u, net=nets[u]) for u in people}
    days: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    # Summed in SQL per evening and pair: a long period is a few rows a day, not every entry.
    rows = (
        entries.filter(payer__isnull=False, payee__isnull=False)
        .annotate(evening=_EVENING)
        .values_list("evening", "payer_id", "payee_id")
        .annotate(points=Sum("points"))
        .order_by()
    )
    for evening, payer, payee, points in rows:
        day = evening.isoformat()
        days[day][payee] += points
        days[day][payer] -= points
    for per_person in days.values():
        top = max(per_person.items(), key=lambda kv: (kv[1], -kv[0]), default=None)
        if top is not None and top[1] > 0 and top[0] in leaders:
            leaders[top[0]].big_winner += 1
    _count_hands(club, since, leaders, whole_days=period in ("week", "month", "all"))
    waiting = SettlementClaim.objects.filter(
        live_claims(now or timezone.now()),
        pk__in=ClubClaim.objects.filter(club=club).values("claim_id"),
    ).select_related("payer", "payee", "recorded_by")
    return ClubBook(
        period=period,
        since=since,
        nets=nets,
        transfers=who_pays_whom(nets),
        exact=is_exact(nets),
        leaders=sorted(leaders.values(), key=lambda r: (-r.net, r.user.name.lower())),
        claims=list(waiting),
        days={d: dict(v) for d, v in sorted(days.items())},
    )


_EVENING = LocalDate("created_at", hours_back=EVENING_STARTS_AT)
"""The evening of an entry, named by the day it began: from noon to the next noon, as
:func:`clubs.selectors.club_period_start` counts tonight."""


def _count_hands(
    club: Club, since: datetime | None, leaders: dict[int, Leader], whole_days: bool
) -> None:
    """Hands and wins of the club's rooms and its physical hands. A period of whole days (a
    week, a month, all time) reads the day tallies of the club's matches; tonight or since a
    settle-up reads the sittings of the hands it covers."""
    if whole_days:
        tallies = DayTally.objects.filter(match__room__club=club)
        if since is not None:
            tallies = tallies.filter(day__gte=timezone.localtime(since).date())
        sums = tallies.values("user_id").annotate(h=Sum("hands"), w=Sum("wins"))
        for row in sums:
            if row["user_id"] in leaders:
                leaders[row["user_id"]].hands += row["h"] or 0
                leaders[row["user_id"]].wins += row["w"] or 0
    else:
        _count_sittings(club, since, leaders)
    offline = OfflineHand.objects.filter(club=club, status=OfflineHand.Status.CONFIRMED)
    if since is not None:
        offline = offline.filter(Q(created_at__gte=since))
    for players, winner in offline.values_list("players", "winner"):
        for seat, user_id in enumerate(players):
            if user_id in leaders:
                leaders[user_id].hands += 1
                leaders[user_id].wins += seat == winner


def _count_sittings(club: Club, since: datetime | None, leaders: dict[int, Leader]) -> None:
    hands = Hand.objects.filter(room__club=club, result__isnull=False)
    if since is not None:
        hands = hands.filter(ended_at__gte=since)
    winners = {pk: (r or {}).get("winners") or [] for pk, r in hands.values_list("pk", "result")}
    for hand_id, seat, user_id in Sitting.objects.filter(hand_id__in=list(winners)).values_list(
        "hand_id", "seat", "user_id"
    ):
        if user_id in leaders:
            leaders[user_id].hands += 1
            leaders[user_id].wins += seat in winners[hand_id]


def club_chart(book: ClubBook, title: str, x_title: str, y_title: str, most: int = 6) -> str:
    """The running net of the period's biggest movers, one line each, day by day."""
    if not book.days:
        return ""
    movers = sorted(book.leaders, key=lambda r: -abs(r.net))[:most]
    labels = list(book.days)
    series = [(r.user.name, [book.days[d].get(r.user.pk, 0) for d in labels]) for r in movers]
    return cumulative_chart(
        series=series, x_labels=labels, title=title, x_title=x_title, y_title=y_title
    )
