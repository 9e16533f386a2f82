"""Table-driven win detection with wild tiles (宝): sets plus one pair with k wilds.

A hand is *complete* when its tiles plus ``wilds`` wild tiles form sets (sequences
within a suit, or triplets) and exactly one pair. A wild may stand for any tile,
even a fifth copy of a kind.

Each suit is judged on its own: the fewest wilds that make the suit into sets only,
and the extra wilds needed to put the pair there too. For the three numbered suits
those two numbers are read from a table over every possible suit (5**9 count
vectors, one byte each), shipped xz-compressed in :mod:`engine.judging.suit_table`
(about 5 kB) and unpacked on first use in about ten milliseconds; :func:`build_suit_table`
regenerates it from :func:`fewest_wilds`, the one per-suit search that
:mod:`engine.judging.patterns` shares. A check then costs four slices, four dict look-ups
and a little arithmetic.

>>> from engine.tiles import counts_of, parse_tiles
>>> is_complete(counts_of(parse_tiles("123m456p789s11z")), 0)
True
>>> is_complete(counts_of(parse_tiles("123m456p789s1z")), 1)
True
>>> is_complete(counts_of(parse_tiles("123m456p789s12z")), 0)
False

``python -m engine.wincheck`` (:mod:`engine.cli.wincheck`) answers such questions on text.
"""

from __future__ import annotations

from base64 import b85decode
from collections.abc import Sequence
from functools import cache, lru_cache

from engine.judging.memo import Bounded, remembered
from engine.judging.suit_table import SUIT_TABLE_XZ

__all__ = [
    "build_suit_table",
    "fewest_wilds",
    "is_complete",
    "is_complete_bytes",
    "pack_costs",
    "sets_only",
    "suit_costs",
    "suit_table",
]


# --- the per-suit search ------------------------------------------------------------------


@remembered
@lru_cache(maxsize=1 << 15)
def fewest_wilds(counts: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Fewest wilds turning one suit into sets, indexed ``2 * pair + seq``.

    ``counts`` holds nine ranks (万, 筒 or 条: sequences allowed) or seven (honors:
    triplets only). The four answers are: triplets only; sets with at least one
    sequence; triplets and one pair; sets, a pair and at least one sequence. So the
    fewest for sets is ``min(costs[0], costs[1])`` and with the pair
    ``min(costs[2], costs[3])``. Groups made only of wilds count, so every answer is
    finite (an honor "sequence" is three wilds). Counts may exceed four (the search
    does not care), but the table behind :func:`suit_costs` covers only 0-4 copies.

    >>> fewest_wilds((1, 1, 1, 0, 0, 0, 0, 0, 0))  # 123: as 111 222 333 it needs six wilds
    (6, 0, 5, 2)
    >>> fewest_wilds((2, 0, 0, 0, 0, 0, 0, 0, 0))  # 11: 111 with a wild, or the pair itself
    (1, 4, 0, 3)
    >>> fewest_wilds((0, 0, 0, 0, 0, 0, 1))  # one 白: 白白白 with two wilds, or 白白
    (2, 5, 1, 4)

    Only the lowest present rank is branched on: it must sit in some group. Taking
    every real tile a group can use is never worse than filling that slot with a
    wild (a wild can swap places with the real tile wherever it went), and a
    sequence through the lowest rank may as well start there (or at rank 7 near the
    top), so each kind of group is tried once and the cache stays small.
    """
    i = 0
    n = len(counts)
    while i < n and counts[i] == 0:
        i += 1
    if i == n:
        return (0, 3, 2, 5)  # nothing; three wilds make a sequence, two the pair
    c = counts[i]
    rest = list(counts)

    take = 3 if c >= 3 else c
    rest[i] = c - take
    s0, s1, s2, s3 = fewest_wilds(tuple(rest))
    wild = 3 - take
    b0, b1, b2, b3 = s0 + wild, s1 + wild, s2 + wild, s3 + wild

    take = 2 if c >= 2 else c
    rest[i] = c - take
    s0, s1, _, _ = fewest_wilds(tuple(rest))
    wild = 2 - take
    b2 = min(b2, s0 + wild)
    b3 = min(b3, s1 + wild)
    rest[i] = c

    if n == 9:
        lo = i if i <= 6 else 6
        wild = 3
        for r in range(lo, lo + 3):
            if rest[r] > 0:
                rest[r] -= 1
                wild -= 1
        s0, s1, s2, s3 = fewest_wilds(tuple(rest))
        b1 = min(b1, s0 + wild, s1 + wild)
        b3 = min(b3, s2 + wild, s3 + wild)
    return (b0, b1, b2, b3)


def build_suit_table() -> bytes:
    """Packed costs of every nine-rank suit with at most four copies a rank.

    Byte ``sum(counts[r] * 5**r)`` holds ``8 * sets + (1 if delta == -1 else 0)``
    (see :func:`suit_costs`). Filled bottom-up in index order with the recursion of
    :func:`fewest_wilds` (taking tiles only lowers the index), in about ten seconds;
    the xz-compressed result is :data:`engine.judging.suit_table.SUIT_TABLE_XZ`.

    >>> table = build_suit_table()  # doctest: +SKIP
    >>> table == suit_table()  # doctest: +SKIP
    True
    """
    size = 5**9
    p5 = [5**r for r in range(10)]
    t0 = [0] * size
    t1 = [0] * size
    t2 = [0] * size
    t3 = [0] * size
    t0[0], t1[0], t2[0], t3[0] = fewest_wilds((0,) * 9)
    out = bytearray(size)
    out[0] = 8 * t0[0] + (min(t2[0], t3[0]) - min(t0[0], t1[0]) == -1)
    for idx in range(1, size):
        i = 0
        x = idx
        while x % 5 == 0:
            x //= 5
            i += 1
        c = x % 5
        p = p5[i]
        take = 3 if c >= 3 else c
        j = idx - take * p
        wild = 3 - take
        b0, b1, b2, b3 = t0[j] + wild, t1[j] + wild, t2[j] + wild, t3[j] + wild
        take = 2 if c >= 2 else c
        j = idx - take * p
        wild = 2 - take
        b2 = min(b2, t0[j] + wild)
        b3 = min(b3, t1[j] + wild)
        lo = i if i <= 6 else 6
        j = idx
        wild = 3
        for r in range(lo, lo + 3):
            if idx // p5[r] % 5:
                j -= p5[r]
                wild -= 1
        b1 = min(b1, t0[j] + wild, t1[j] + wild)
        b3 = min(b3, t2[j] + wild, t3[j] + wild)
        t0[idx], t1[idx], t2[idx], t3[idx] = b0, b1, b2, b3
        sets = min(b0, b1)
        out[idx] = 8 * sets + (min(b2, b3) - sets == -1)
    return bytes(out)


@remembered
@cache
def suit_table() -> bytes | None:
    """The unpacked table of :func:`build_suit_table`, or None if ``lzma`` is missing."""
    # Unpacked on first use, not at import: the bots import this module for is_complete
    # and mostly hit the dict caches. None (search instead) if lzma is missing.
    try:
        import lzma
    except ImportError:  # pragma: no cover - a Python built without liblzma
        return None
    table = lzma.decompress(b85decode(SUIT_TABLE_XZ))
    return table if len(table) == 5**9 else None


def pack_costs(costs: tuple[int, int, int, int]) -> int:
    """One byte for :func:`fewest_wilds`' answers: ``8 * sets + (1 if delta == -1 else 0)``.

    >>> pack_costs((1, 4, 0, 3))  # 11: a wild for 111, or the pair as it is
    9
    """
    sets = min(costs[0], costs[1])
    return 8 * sets + (min(costs[2], costs[3]) - sets == -1)


def _unpack(packed: int) -> tuple[int, int]:
    return packed >> 3, -1 if packed & 1 else 2


COSTS_LIMIT = 1 << 16
"""Suits remembered of each kind: a server judges new hands for weeks."""
_SUIT_COSTS: Bounded[bytes, tuple[int, int]] = remembered(Bounded(COSTS_LIMIT))
_HONOR_COSTS: Bounded[bytes, tuple[int, int]] = remembered(Bounded(COSTS_LIMIT))


def suit_costs(counts: bytes | Sequence[int], honors: bool = False) -> tuple[int, int]:
    """``(sets, delta)`` for one suit's counts: wilds for sets only, extra wilds for the pair.

    ``delta`` is always -1 or 2: a pair saves at most the wild that would have made
    it a triplet, and costs at most two wilds.

    >>> suit_costs([1, 1, 0, 0, 0, 0, 0, 0, 0])  # 12m: one wild for 123m, two for the pair
    (1, 2)
    >>> suit_costs([2, 0, 0, 0, 0, 0, 0, 0, 0])  # 11m: a wild for 111m, or the pair as is
    (1, -1)
    >>> suit_costs([0] * 7, honors=True)
    (0, 2)
    """
    key = bytes(counts)
    got = (_HONOR_COSTS if honors else _SUIT_COSTS).get(key)
    return got if got is not None else _build(key, honors)


def _build(key: bytes, honors: bool) -> tuple[int, int]:
    table = None if honors or max(key, default=0) > 4 else suit_table()
    if table is not None:
        index = 0
        for r in range(8, -1, -1):
            index = 5 * index + key[r]
        got = _unpack(table[index])
    else:
        got = _unpack(pack_costs(fewest_wilds(tuple(key))))
    return (_HONOR_COSTS if honors else _SUIT_COSTS).keep(key, got)


def is_complete(counts: Sequence[int], wilds: int) -> bool:
    """True if ``counts`` (34 kinds) plus ``wilds`` wild tiles make sets and exactly one pair.

    Totals that are not 3n+2 are never complete.

    >>> from engine.tiles import counts_of, parse_tiles
    >>> is_complete(counts_of(parse_tiles("1m")), 1)
    True
    >>> is_complete(counts_of(parse_tiles("147m")), 2)
    False
    """
    # one conversion: slicing bytes is cheaper than slicing the list four times
    return is_complete_bytes(bytes(counts), wilds)


def is_complete_bytes(counts: bytes, wilds: int) -> bool:
    """:func:`is_complete` for counts already packed as 34 bytes.

    >>> is_complete_bytes(bytes([1, 1, 1] + [0] * 30 + [2]), 0)
    True
    """
    st = _SUIT_COSTS
    s0, d0 = st.get(k := counts[0:9]) or _build(k, False)
    s1, d1 = st.get(k := counts[9:18]) or _build(k, False)
    s2, d2 = st.get(k := counts[18:27]) or _build(k, False)
    s3, d3 = _HONOR_COSTS.get(k := counts[27:34]) or _build(k, True)
    # Every delta is 2 mod 3, so r % 3 == 0 also checks that the total is 3n+2.
    r = wilds - s0 - s1 - s2 - s3 - min(d0, d1, d2, d3)
    return r >= 0 and r % 3 == 0


def sets_only(counts: Sequence[int], wilds: int) -> bool:
    """True if ``counts`` plus ``wilds`` wild tiles make sets with no pair (totals 3n).

    >>> from engine.tiles import counts_of, parse_tiles
    >>> sets_only(counts_of(parse_tiles("13m555z")), 1)
    True
    >>> sets_only(counts_of(parse_tiles("13m55z")), 1)
    False
    """
    b = bytes(counts)
    st = _SUIT_COSTS
    s0 = (st.get(k := b[0:9]) or _build(k, False))[0]
    s1 = (st.get(k := b[9:18]) or _build(k, False))[0]
    s2 = (st.get(k := b[18:27]) or _build(k, False))[0]
    s3 = (_HONOR_COSTS.get(k := b[27:34]) or _build(k, True))[0]
    r = wilds - s0 - s1 - s2 - s3
    return r >= 0 and r % 3 == 0
