"""The wall: seeded shuffle, dice, the break, head draws, tail replacement draws.

The 136 tiles form a ring of 68 stacks (墩) of two tiles. Ring stack ``i`` holds
``ring[2*i]`` (upper) and ``ring[2*i+1]`` (lower). Ring order is the drawing direction,
clockwise round the table, each wall taken from its right end (as its owner sees it) towards
its left, so the next wall is the owner's 上家's: stacks 0-16 are the dealer's wall, 17-33
the dealer's 上家's, 34-50 the 对家's, 51-67 the 下家's. The break (§3): T = sum of the break dice,
U = the smaller die; the wall of the T-th seat counted from the dealer (dealer = 1),
stack U from its right (``plus_one``: stack U+1) is the head. The tail is the stack
before the head, worked backwards by replacement draws.

Internally tiles are kept in *draw order*: position ``p`` is stack ``p // 2`` counted
from the head, upper tile when ``p`` is even.

>>> from engine.rules import Rules
>>> w = Wall.build(Rules(), seed=7)
>>> w.live_count()
136
>>> t = w.draw()
>>> w.live_count()
135
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from typing import Any

from engine.rules import Rules

__all__ = ["STACKS", "TILE_COUNT", "Wall", "WallError", "break_stack", "ring_from_draw_order"]

TILE_COUNT = 136
STACKS = 68


class WallError(ValueError):
    """A malformed explicit wall or dice, or a draw from an empty wall."""


def full_set() -> list[int]:
    """All 136 tiles, four of each kind, in kind order."""
    return [k for k in range(34) for _ in range(4)]


def break_stack(rules: Rules, break_dice: tuple[int, int]) -> int:
    """Ring index of the head stack for these break dice.

    >>> break_stack(Rules(), (3, 4))  # T = 7: the 对家 (seat 3 of 4 again), U = 3: stack 3
    36
    >>> break_stack(Rules(), (1, 1))  # T = 2: the 下家, whose wall is the ring's last
    51
    """
    total = break_dice[0] + break_dice[1]
    smaller = min(break_dice)
    # Seats count counter-clockwise from the dealer (下家 = 2), the ring runs clockwise.
    side = (1 - total) % 4
    offset = smaller - 1 + (1 if rules.break_offset == "plus_one" else 0)
    return (side * 17 + offset) % STACKS


def ring_from_draw_order(
    rules: Rules, draw_order: list[int], break_dice: tuple[int, int]
) -> list[int]:
    """The ring (explicit wall) that yields ``draw_order`` from the head after the break.

    Scripted tests write the tiles in the order they will be drawn; this undoes the break.

    >>> r = ring_from_draw_order(Rules(), list(range(136)), (1, 1))
    >>> r[2 * break_stack(Rules(), (1, 1))]
    0
    """
    if len(draw_order) != TILE_COUNT:
        raise WallError(f"a wall has {TILE_COUNT} tiles, got {len(draw_order)}")
    head = break_stack(rules, break_dice)
    ring = [0] * TILE_COUNT
    for p, tile in enumerate(draw_order):
        stack = (head + p // 2) % STACKS
        ring[2 * stack + p % 2] = tile
    return ring


def _check_dice(dice: tuple[int, ...]) -> tuple[int, int, int, int]:
    if len(dice) != 4 or any(not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
        raise WallError(f"dice are four numbers 1-6 (break pair, 宝 pair), got {dice!r}")
    return (dice[0], dice[1], dice[2], dice[3])


@dataclass
class Wall:
    """The live wall of one hand. Build with :meth:`build`."""

    seed: str | int | None
    ring: list[int]
    dice: tuple[int, int, int, int]
    tiles: list[int]
    """Tiles in draw order from the head."""
    gone: list[bool] = field(default_factory=lambda: [False] * TILE_COUNT)
    indicator_pos: int | None = None
    burned: list[int] = field(default_factory=list)
    """Positions of tiles turned face up and dead by 补牌 (public)."""

    @classmethod
    def build(
        cls,
        rules: Rules,
        seed: int | str | None = None,
        *,
        ring: list[int] | None = None,
        dice: tuple[int, int, int, int] | None = None,
    ) -> Wall:
        """A shuffled wall from ``seed`` (``None``: a fresh random seed, recorded), or an
        explicit ``ring`` of 136 tiles; dice from the seed unless given."""
        if ring is None and seed is None:
            # Play uses an unpredictable seed, but it is recorded so the hand can be replayed.
            seed = secrets.token_hex(8)
        rng = random.Random(seed if seed is not None else 0)
        if ring is None:
            ring = full_set()
            rng.shuffle(ring)
        else:
            ring = list(ring)
            if sorted(ring) != full_set():
                raise WallError("an explicit wall must hold each of the 34 kinds exactly 4 times")
        if dice is None:
            dice = (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
        dice = _check_dice(tuple(dice))
        head = break_stack(rules, (dice[0], dice[1]))
        tiles = [ring[(2 * ((head + p // 2) % STACKS)) + p % 2] for p in range(TILE_COUNT)]
        return cls(seed=seed, ring=ring, dice=dice, tiles=tiles)

    def _available(self, p: int) -> bool:
        return not self.gone[p] and p != self.indicator_pos

    def live_count(self) -> int:
        """Tiles that can still be drawn; the indicator does not count."""
        # list.count runs in C; this is asked on every turn.
        left = self.gone.count(False)
        ind = self.indicator_pos
        return left - 1 if ind is not None and not self.gone[ind] else left

    def draw(self) -> int:
        """Draw from the head, skipping the indicator (the tile under it is taken)."""
        try:
            p = self.gone.index(False)
            if p == self.indicator_pos:
                p = self.gone.index(False, p + 1)
        except ValueError:
            raise WallError("the wall is empty") from None
        self.gone[p] = True
        return self.tiles[p]

    def set_indicator(self) -> int:
        """亮宝: V stacks back from the tail (tail stack = 1), its top tile turns face up."""
        v = self.dice[2] + self.dice[3]
        stacks = [s for s in range(STACKS - 1, -1, -1) if not self.gone[2 * s + 1]]
        stack = stacks[v - 1]
        self.indicator_pos = 2 * stack
        return self.tiles[self.indicator_pos]

    @property
    def indicator(self) -> int | None:
        return None if self.indicator_pos is None else self.tiles[self.indicator_pos]

    def replacement(self, rules: Rules) -> int:
        """补牌 from the tail. ``burn_upper``: the lower tile, the upper one burned (dead,
        public), but at the indicator's stack the tile under it; ``single_tile``: one tile."""
        for s in range(STACKS - 1, -1, -1):
            up, lo = 2 * s, 2 * s + 1
            up_av, lo_av = self._available(up), self._available(lo)
            if not (up_av or lo_av):
                continue
            if rules.replacement == "single_tile":
                take = up if up_av else lo
            else:
                take = lo if lo_av else up
                if up_av and lo_av:
                    self.gone[up] = True
                    self.burned.append(up)
            self.gone[take] = True
            return self.tiles[take]
        raise WallError("the wall is empty")

    def burned_tiles(self) -> list[int]:
        return [self.tiles[p] for p in self.burned]

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "ring": list(self.ring),
            "dice": list(self.dice),
            "tiles": list(self.tiles),
            "gone": [p for p in range(TILE_COUNT) if self.gone[p]],
            "indicator_pos": self.indicator_pos,
            "burned": list(self.burned),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Wall:
        gone = [False] * TILE_COUNT
        for p in d["gone"]:
            gone[p] = True
        return cls(
            seed=d["seed"],
            ring=list(d["ring"]),
            dice=_check_dice(tuple(d["dice"])),
            tiles=list(d["tiles"]),
            gone=gone,
            indicator_pos=d["indicator_pos"],
            burned=list(d["burned"]),
        )
