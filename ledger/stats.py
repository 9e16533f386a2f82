"""One player's statistics (hands, wins, 自摸, robbed, patterns, biggest hand, gang points).

The same record serves the book (aggregated in SQL over every room) and a score sheet (one
match's hands, already loaded): only how it is filled differs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import Subquery, Sum
from django.utils import timezone

# The engine's payment reasons (one list, in engine.outcome), re-exported for the book's reads.
from engine.outcome import GANG_REASONS, WIN_REASONS
from ledger.models import DayTally, PatternTally
from tables.models import Hand

if TYPE_CHECKING:
    from accounts.models import User
    from tables.models import Room

__all__ = ["GANG_REASONS", "WIN_REASONS", "BiggestHand", "PlayerStats", "stats_of"]


@dataclass(frozen=True)
class BiggestHand:
    hand_id: int
    number: int
    room_number: str
    points: int


@dataclass
class PlayerStats:
    hands: int = 0
    wins: int = 0
    self_draw_wins: int = 0
    robbed: int = 0
    """Hands lost by having one's gang robbed (抢杠)."""
    points: int = 0
    """Net points over the hands counted (gang points included)."""
    gang_points: int = 0
    patterns: Counter[str] = field(default_factory=Counter)
    """The winning hands' names (有宝平胡, 十三烂 …), by how often each was won."""
    biggest: BiggestHand | None = None

    @property
    def win_rate(self) -> float:
        """Wins per hand played, 0-1.

        >>> PlayerStats(hands=8, wins=2).win_rate
        0.25
        """
        return self.wins / self.hands if self.hands else 0.0

    @property
    def average(self) -> float:
        """Net points per hand played.

        >>> PlayerStats(hands=4, points=-6).average
        -1.5
        """
        return self.points / self.hands if self.hands else 0.0

    @property
    def pattern_bars(self) -> list[tuple[str, int, int]]:
        """``(name, count, percent of the most frequent)`` for a small CSS histogram.

        >>> PlayerStats(patterns=Counter({"平胡": 4, "十三烂": 1})).pattern_bars
        [('平胡', 4, 100), ('十三烂', 1, 25)]
        """
        top = max(self.patterns.values(), default=0)
        return [(n, c, round(100 * c / top)) for n, c in self.patterns.most_common()]


def stats_of(user: User, *, since: datetime | None = None, room: Room | None = None) -> PlayerStats:
    """``user``'s statistics from the day tallies: from the local day of ``since`` on (a
    period starts at a midnight; a settle-up's day counts whole) and in ``room`` if given."""
    days = DayTally.objects.filter(user=user)
    patterns = PatternTally.objects.filter(user=user)
    if since is not None:
        first = timezone.localtime(since).date()
        days, patterns = days.filter(day__gte=first), patterns.filter(day__gte=first)
    if room is not None:
        days, patterns = days.filter(match__room=room), patterns.filter(match__room=room)
    sums = days.aggregate(
        hands=Sum("hands"),
        wins=Sum("wins"),
        self_draw=Sum("self_draw_wins"),
        robbed=Sum("robbed"),
        points=Sum("hand_points"),
        gang=Sum("gang_points"),
    )
    top = days.filter(best_hand__isnull=False).order_by("-best_points", "-best_hand_id")
    # One query whether or not there is a best hand, so a page's query count is fixed.
    best = (
        Hand.objects.filter(pk=Subquery(top.values("best_hand_id")[:1]))
        .annotate(points=Subquery(top.values("best_points")[:1]))
        .values_list("pk", "number", "room__number", "points")
        .first()
    )
    biggest = None
    if best is not None:
        biggest = BiggestHand(hand_id=best[0], number=best[1], room_number=best[2], points=best[3])
    counts = patterns.values("name").annotate(n=Sum("count")).values_list("name", "n")
    return PlayerStats(
        hands=sums["hands"] or 0,
        wins=sums["wins"] or 0,
        self_draw_wins=sums["self_draw"] or 0,
        robbed=sums["robbed"] or 0,
        points=sums["points"] or 0,
        gang_points=sums["gang"] or 0,
        patterns=Counter({name: n for name, n in counts if n}),
        biggest=biggest,
    )
