"""宝-aware distance to a win (shanten), for bots and hints.

Convention (the usual shanten one): ``-1`` complete, ``0`` tenpai (one tile from a
win), ``n`` means ``n + 1`` draws are needed at best. Counts are the concealed tiles
(13 or 14 minus 3 per declared meld) without the 宝 used as wild; ``wilds`` counts those.

>>> from engine.tiles import counts_of, parse_tiles
>>> distance(counts_of(parse_tiles("123m456p789s11222z")), 0)
-1
>>> distance(counts_of(parse_tiles("123m456p789s1122z")), 0)
0
>>> distance(counts_of(parse_tiles("123m456p789s12z")), 2)
0
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, pairwise

__all__ = ["distance"]


@cache
def _kept(counts: tuple[int, ...], sets: int, pair: bool) -> int:
    """Most real tiles of one suit that ``sets`` groups (and a pair) can hold, wilds filling in.

    As in engine.wincheck, a group on the lowest tile takes every real tile it can use;
    the only other choice is to give that tile up (it will be exchanged).
    """
    i = 0
    n = len(counts)
    while i < n and counts[i] == 0:
        i += 1
    if i == n or (sets == 0 and not pair):
        return 0
    c = counts[i]
    rest = list(counts)
    rest[i] = c - 1
    best = _kept(tuple(rest), sets, pair)  # give the tile up
    if sets:
        take = min(c, 3)
        rest[i] = c - take
        best = max(best, take + _kept(tuple(rest), sets - 1, pair))
        rest[i] = c
        if n == 9:
            lo = i if i <= 6 else 6
            used = 0
            for r in range(lo, lo + 3):
                if rest[r] > 0:
                    rest[r] -= 1
                    used += 1
            best = max(best, used + _kept(tuple(rest), sets - 1, pair))
            rest = list(counts)
    if pair:
        take = min(c, 2)
        rest[i] = c - take
        best = max(best, take + _kept(tuple(rest), sets, False))
    return best


def _standard_kept(counts: Sequence[int], sets: int) -> int:
    parts = (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]), tuple(counts[27:34]))
    # best[j][p]: most kept tiles over the suits so far with j sets and p pairs used
    best = [[0, -1] for _ in range(sets + 1)]
    best[0][1] = -1
    for part in parts:
        nxt = [[-1, -1] for _ in range(sets + 1)]
        for j in range(sets + 1):
            for p in range(2):
                if best[j][p] < 0:
                    continue
                for dj in range(sets - j + 1):
                    for dp in range(2 - p):
                        got = best[j][p] + _kept(part, dj, dp == 1)
                        if got > nxt[j + dj][p + dp]:
                            nxt[j + dj][p + dp] = got
        best = nxt
    return max(max(row) for row in best)


def _pairs_kept(counts: Sequence[int]) -> int:
    pairs = sum(c // 2 for c in counts)  # four alike count as two pairs (豪华七对)
    singles = sum(c % 2 for c in counts)
    full = min(pairs, 7)
    return 2 * full + min(singles, 7 - full)


def _lan_shapes() -> list[list[tuple[int, ...]]]:
    shapes: list[list[tuple[int, ...]]] = [[] for _ in range(4)]
    for size in range(4):
        for ranks in combinations(range(9), size):
            if all(b - a >= 3 for a, b in pairwise(ranks)):
                shapes[size].append(ranks)
    return shapes


_LAN_SHAPES = _lan_shapes()


def _lan_kept(counts: Sequence[int]) -> int:
    # per suit, the most present tiles inside some legal shape of each size 0..3
    per_suit = []
    for s in range(3):
        suit = counts[9 * s : 9 * s + 9]
        per_suit.append(
            [max(sum(1 for r in sh if suit[r]) for sh in shapes) for shapes in _LAN_SHAPES]
        )
    honors = sum(1 for c in counts[27:34] if c)
    best = 0
    for a in range(4):
        for b in range(4):
            for c in range(4):
                h = 14 - a - b - c
                if 0 <= h <= 7:
                    got = per_suit[0][a] + per_suit[1][b] + per_suit[2][c] + min(honors, h)
                    best = max(best, got)
    return best


def _terminal_kept(counts: Sequence[int]) -> int:
    return sum(counts[k] for k in range(34) if k >= 27 or k % 9 in (0, 8))


def distance(
    counts: Sequence[int],
    wilds: int,
    melds: int = 0,
    *,
    qidui: bool = True,
    shisanlan: bool = True,
    jiuyao: bool = True,
    melds_terminal: bool = False,
) -> int:
    """Fewest tile exchanges to a win, minus one: ``-1`` complete, ``0`` tenpai.

    Standard hands (sets + pair) always count; 七对 and 十三烂 only with no melds;
    九幺 with no melds, or with melds if ``melds_terminal`` (all declared melds are
    1s, 9s or honors, which the counts cannot show).

    >>> from engine.tiles import counts_of, parse_tiles
    >>> distance(counts_of(parse_tiles("1122334455667z")), 0)  # 七对 tenpai
    0
    >>> distance(counts_of(parse_tiles("147m258p369s12345z")), 0)  # 十三烂
    -1
    >>> distance(counts_of(parse_tiles("147m258p369s12345z")), 0, shisanlan=False, jiuyao=False)
    6
    """
    sets = 4 - melds
    total = sum(counts) + wilds
    if melds < 0 or sets < 0 or total not in (3 * sets + 1, 3 * sets + 2):
        raise ValueError(
            f"{total} tiles with {melds} melds: expected {3 * sets + 1} or {3 * sets + 2}"
        )
    # Every kept real tile and every wild is in the final hand; the rest are drawn.
    top = 3 * sets + 1 - wilds
    best = top - _standard_kept(counts, sets)
    if melds == 0:
        if qidui:
            best = min(best, top - _pairs_kept(counts))
        if shisanlan:
            best = min(best, top - _lan_kept(counts))
    if jiuyao and (melds == 0 or melds_terminal):
        best = min(best, top - _terminal_kept(counts))
    return best
