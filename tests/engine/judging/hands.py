"""Random hands for the judging tests: near wins of every shape."""

from __future__ import annotations

import random

from engine.melds import Meld
from engine.tiles import TERMINAL_OR_HONOR, bao_of

__all__ = ["near_win"]


def near_win(rng: random.Random) -> tuple[list[int], list[Meld], int]:
    """A 14-tile hand that often wins: a shape, some tiles swapped for the 宝 or at random."""
    indicator = rng.randrange(34)
    shape = rng.choice(["standard", "qidui", "lan", "jiuyao"])
    melds: list[Meld] = []
    tiles: list[int] = []
    if shape == "standard":
        for _ in range(4):
            if rng.random() < 0.5:
                lo = rng.randrange(3) * 9 + rng.randrange(7)
                group = (lo, lo + 1, lo + 2)
                kind = "chi"
            else:
                k = rng.randrange(34)
                group = (k, k, k)
                kind = "peng"
            if rng.random() < 0.3:
                melds.append(Meld(kind, group))
            else:
                tiles.extend(group)
        tiles.extend([rng.randrange(34)] * 2)
    elif shape == "qidui":
        for _ in range(7):
            tiles.extend([rng.randrange(34)] * 2)
    elif shape == "lan":
        for suit in range(3):
            start = rng.randrange(3)
            tiles.extend(suit * 9 + r for r in range(start, 9, 3))
        tiles.extend(rng.sample(range(27, 34), 14 - len(tiles)))
    else:
        terminals = [k for k in range(34) if TERMINAL_OR_HONOR[k]]
        tiles.extend(rng.choice(terminals) for _ in range(14))
    tiles = tiles[: 14 - 3 * len(melds)]
    for _ in range(rng.choice([0, 0, 1, 2])):
        tiles[rng.randrange(len(tiles))] = (
            bao_of(indicator) if rng.random() < 0.7 else rng.randrange(34)
        )
    return sorted(tiles), melds, indicator
