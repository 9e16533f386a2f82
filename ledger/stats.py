"""One player's statistics (hands, wins, 自摸, robbed, patterns, biggest hand, gang points).

The same record serves the book (aggregated in SQL over every room) and a score sheet (one
match's hands, already loaded): only how it is filled differs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

# The engine's payment reasons (one list, in engine.outcome), re-exported for the book's reads.
from engine.outcome import GANG_REASONS, WIN_REASONS

__all__ = ["GANG_REASONS", "WIN_REASONS", "BiggestHand", "PlayerStats"]


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
