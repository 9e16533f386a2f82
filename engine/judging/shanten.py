"""宝-aware distance to a win (shanten), one idea over 400 lines: how far, and after which tile.

The distance and its per-discard/per-draw variants share the per-suit tables, for bots and hints.

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
from functools import lru_cache
from itertools import combinations, pairwise

from engine.judging.memo import Bounded, remembered
from engine.judging.shape import is_complete
from engine.tiles import KIND_COUNT, TERMINAL_OR_HONOR

__all__ = ["complete", "discard_distances", "distance", "draw_distances"]


@remembered
@lru_cache(maxsize=1 << 17)
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


SUIT_TABLES_LIMIT = 1 << 15
"""Every memo here is bounded: a server asks about new hands for weeks, and unbounded they
grew by 170 MB over 4,000 hands played by bots in one process (``docs/performance.md``)."""
_SUIT_TABLES: Bounded[tuple[int, ...], tuple[int, ...]] = remembered(Bounded(SUIT_TABLES_LIMIT))
"""One suit's counts to its kept tiles for 0-4 sets without and with a pair (index 2*sets+pair)."""


def _table(part: tuple[int, ...]) -> tuple[int, ...]:
    got = _SUIT_TABLES.get(part)
    if got is None:
        got = _SUIT_TABLES.keep(
            part, tuple(_kept(part, j, p == 1) for j in range(5) for p in range(2))
        )
    return got


@remembered
@lru_cache(maxsize=1 << 14)
def _conv(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Two suits' tables as one: the sets split any way, the pair in at most one of them.

    Kept counts never fall when a set or the pair is allowed but unused, so "at most" and
    "exactly" agree and a plain max-plus over the splits is enough.
    """
    out: list[int] = []
    for j in range(5):
        best0 = best1 = 0
        for i in range(j + 1):
            a0, a1, b0, b1 = a[2 * i], a[2 * i + 1], b[2 * (j - i)], b[2 * (j - i) + 1]
            if a0 + b0 > best0:
                best0 = a0 + b0
            pair = a1 + b0 if a1 + b0 > a0 + b1 else a0 + b1
            if pair > best1:
                best1 = pair
        out += (best0, best1)
    return tuple(out)


def _tables(counts: Sequence[int]) -> list[tuple[int, ...]]:
    return [
        _table(tuple(counts[0:9])),
        _table(tuple(counts[9:18])),
        _table(tuple(counts[18:27])),
        _table(tuple(counts[27:34])),
    ]


def _standard_kept(counts: Sequence[int], sets: int) -> int:
    t = _tables(counts)
    return _conv(_conv(t[0], t[1]), _conv(t[2], t[3]))[2 * sets + 1]


def _others(t: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """For each suit, the other three suits' tables combined."""
    t01, t23 = _conv(t[0], t[1]), _conv(t[2], t[3])
    return [_conv(t[1], t23), _conv(t[0], t23), _conv(t01, t[3]), _conv(t01, t[2])]


def _pairs_kept(counts: Sequence[int]) -> int:
    # four alike count as two pairs (豪华七对)
    if max(counts) > 4:  # only asked of hypothetical draws (a fifth copy): count it all
        return _pairs_value(sum(c // 2 for c in counts), sum(c % 2 for c in counts))
    threes = counts.count(3)
    pairs = counts.count(2) + threes + 2 * counts.count(4)
    return _pairs_value(pairs, counts.count(1) + threes)


def _pairs_value(pairs: int, singles: int) -> int:
    full = pairs if pairs < 7 else 7
    return 2 * full + (singles if singles < 7 - full else 7 - full)


def _lan_shapes() -> list[list[tuple[int, ...]]]:
    shapes: list[list[tuple[int, ...]]] = [[] for _ in range(4)]
    for size in range(4):
        for ranks in combinations(range(9), size):
            if all(b - a >= 3 for a, b in pairwise(ranks)):
                shapes[size].append(ranks)
    return shapes


_LAN_SHAPES = _lan_shapes()
_LAN_MASKS = [
    tuple(max(sum(1 for r in sh if mask >> r & 1) for sh in shapes) for shapes in _LAN_SHAPES)
    for mask in range(512)
]
"""Per suit presence mask: the most present ranks inside a legal 十三烂 shape of 0-3 tiles."""


def _mask(counts: Sequence[int], suit: int) -> int:
    m = 0
    for r in range(9):
        if counts[9 * suit + r]:
            m |= 1 << r
    return m


def _lan_value(m0: int, m1: int, m2: int, honors: int) -> int:
    """Most tiles a 十三烂 keeps: at most 3 per suit and 7 honors, so the suits hold 7-9."""
    s0, s1, s2 = _LAN_MASKS[m0], _LAN_MASKS[m1], _LAN_MASKS[m2]
    a3, b3, c3 = s0[3], s1[3], s2[3]
    a2, b2, c2 = s0[2], s1[2], s2[2]
    a1, b1, c1 = s0[1], s1[1], s2[1]
    nine = a3 + b3 + c3
    eight = max(a2 + b3 + c3, a3 + b2 + c3, a3 + b3 + c2)
    seven = max(a1 + b3 + c3, a3 + b1 + c3, a3 + b3 + c1, a3 + b2 + c2, a2 + b3 + c2, a2 + b2 + c3)
    return max(nine + min(honors, 5), eight + min(honors, 6), seven + min(honors, 7))


def _lan_kept(counts: Sequence[int]) -> int:
    honors = sum(1 for c in counts[27:34] if c)
    return _lan_value(_mask(counts, 0), _mask(counts, 1), _mask(counts, 2), honors)


def _terminal_kept(counts: Sequence[int]) -> int:
    c = counts
    return (
        c[0] + c[8] + c[9] + c[17] + c[18] + c[26]
        + c[27] + c[28] + c[29] + c[30] + c[31] + c[32] + c[33]
    )  # fmt: skip


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
    return _distance(_key(counts), wilds, melds, qidui, shisanlan, jiuyao, melds_terminal)


def _key(counts: Sequence[int]) -> Sequence[int]:
    """``counts`` as a memo key: 34 bytes rather than a tuple of 34 ints, a fifth of the
    memory (the distances' memo is the engine's largest); every count of a real hand fits."""
    try:
        return bytes(counts)
    except ValueError:  # a count out of range: refused by the search, still a valid key
        return tuple(counts)


@remembered
@lru_cache(maxsize=1 << 16)
def _distance(
    counts: Sequence[int],
    wilds: int,
    melds: int,
    qidui: bool,
    shisanlan: bool,
    jiuyao: bool,
    melds_terminal: bool,
) -> int:
    # Remembered: every change at a table asks again for each waiting seat's hints, whose
    # hand has not changed (20 us a 13-tile hand, against 1 us to look it up).
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


def _check_total(counts: Sequence[int], wilds: int, melds: int, extra: int) -> int:
    sets = 4 - melds
    total = sum(counts) + wilds
    if melds < 0 or sets < 0 or total != 3 * sets + extra:
        raise ValueError(f"{total} tiles with {melds} melds: expected {3 * sets + extra}")
    return sets


@remembered
@lru_cache(maxsize=1 << 14)
def _neighbours(part: tuple[int, ...], delta: int) -> tuple[tuple[int, ...] | None, ...]:
    """One suit's table once ``delta`` tiles are added at each rank (None: below zero)."""
    out: list[tuple[int, ...] | None] = []
    for r, c in enumerate(part):
        if c + delta < 0:
            out.append(None)
            continue
        changed = list(part)
        changed[r] = c + delta
        out.append(_table(tuple(changed)))
    return tuple(out)


@remembered
@lru_cache(maxsize=1 << 15)
def _suit_changes(
    others: tuple[int, ...], part: tuple[int, ...], sets: int, delta: int
) -> tuple[int, ...]:
    """Most kept tiles of the whole hand once ``delta`` tiles are added at each rank of one
    suit (``part``), the other suits combined in ``others``; -1 where a count would go
    negative."""
    out: list[int] = []
    pairs = [(others[2 * i + 1], others[2 * i], 2 * (sets - i)) for i in range(sets + 1)]
    for t in _neighbours(part, delta):
        if t is None:
            out.append(-1)
            continue
        best = 0
        for with_pair, without, j in pairs:
            got = with_pair + t[j]
            if got > best:
                best = got
            got = without + t[j + 1]
            if got > best:
                best = got
        out.append(best)
    return tuple(out)


def _standard_changes(counts: Sequence[int], sets: int, delta: int) -> list[int]:
    """Standard kept tiles after adding ``delta`` tiles of each of the 34 kinds."""
    parts = (
        tuple(counts[0:9]),
        tuple(counts[9:18]),
        tuple(counts[18:27]),
        tuple(counts[27:34]),
    )
    others = _others([_table(part) for part in parts])
    out: list[int] = []
    for s in range(4):
        out += _suit_changes(others[s], parts[s], sets, delta)
    return out


def _changes(
    counts: Sequence[int], wilds: int, melds: int, melds_terminal: bool, delta: int
) -> list[int]:
    """The distance after adding ``delta`` (1 or -1) tiles of each kind (a new list)."""
    return list(_changes_of(_key(counts), wilds, melds, melds_terminal, delta))


@remembered
@lru_cache(maxsize=1 << 13)
def _changes_of(
    counts: Sequence[int], wilds: int, melds: int, melds_terminal: bool, delta: int
) -> tuple[int, ...]:
    # Cached: a bot asks about the same hand on successive turns (draw a tile, throw it).
    sets = 4 - melds
    top = 3 * sets + 1 - wilds
    kept = _standard_changes(counts, sets, delta)
    plain = melds == 0
    if plain:
        ones, twos, threes = counts.count(1), counts.count(2), counts.count(3)
        pairs = twos + threes + 2 * counts.count(4)
        singles = ones + threes
        masks = [_mask(counts, 0), _mask(counts, 1), _mask(counts, 2)]
        honors = 7 - counts[27:34].count(0)
        # Pair counts move by kind parity: even -> odd adds a single, odd -> even a pair.
        if delta > 0:
            on_even = _pairs_value(pairs, singles + 1)
            on_odd = _pairs_value(pairs + 1, singles - 1)
        else:
            on_even = _pairs_value(pairs - 1, singles + 1)
            on_odd = _pairs_value(pairs, singles - 1)
        lan_same = _lan_value(masks[0], masks[1], masks[2], honors)
        edge = 0 if delta > 0 else 1  # the count at which a kind appears or disappears
        for kind, c in enumerate(counts):
            got = on_odd if c % 2 else on_even
            if got < kept[kind]:
                got = kept[kind]
            # A 十三烂 gains or loses at most the one tile, and only where a kind appears
            # or disappears; skip the look-up whenever it can't win.
            if c == edge and lan_same + (delta > 0) > got:
                if kind < 27:
                    m = list(masks)
                    m[kind // 9] ^= 1 << kind % 9
                    lan = _lan_value(m[0], m[1], m[2], honors)
                else:
                    lan = _lan_value(masks[0], masks[1], masks[2], honors + delta)
            else:
                lan = lan_same
            if lan > got:
                got = lan
            kept[kind] = got
    if plain or melds_terminal:
        terminal = _terminal_kept(counts)
        for kind in _TERMINALS:
            if terminal + delta > kept[kind]:
                kept[kind] = terminal + delta
        for kind in _MIDDLES:
            if terminal > kept[kind]:
                kept[kind] = terminal
    return tuple([top - k for k in kept])


_TERMINALS = [k for k in range(KIND_COUNT) if TERMINAL_OR_HONOR[k]]
_MIDDLES = [k for k in range(KIND_COUNT) if not TERMINAL_OR_HONOR[k]]


def discard_distances(
    counts: Sequence[int], wilds: int, melds: int = 0, *, melds_terminal: bool = False
) -> dict[int, int]:
    """The :func:`distance` after discarding one tile of each held kind, for a hand of
    ``3 * (4 - melds) + 2`` tiles (wilds not counted as kinds: discarding one is
    ``distance(counts, wilds - 1, melds)``). Much cheaper than one call per discard.

    >>> from engine.tiles import counts_of, format_tile, parse_tiles
    >>> d = discard_distances(counts_of(parse_tiles("123m456p789s11223z")), 0)
    >>> sorted(format_tile(k) for k, v in d.items() if v == 0)
    ['3z']
    """
    _check_total(counts, wilds, melds, 2)
    after = _changes(counts, wilds, melds, melds_terminal, -1)
    return {kind: after[kind] for kind, c in enumerate(counts) if c}


def draw_distances(
    counts: Sequence[int], wilds: int, melds: int = 0, *, melds_terminal: bool = False
) -> list[int]:
    """The :func:`distance` after drawing one natural tile of each of the 34 kinds, for a
    hand of ``3 * (4 - melds) + 1`` tiles (drawing a wild is ``distance(counts, wilds + 1)``).

    >>> from engine.tiles import counts_of, format_tile, parse_tiles
    >>> d = draw_distances(counts_of(parse_tiles("123m456p789s1122z")), 0)
    >>> [format_tile(k) for k in range(34) if d[k] == -1]
    ['1z', '2z']
    """
    _check_total(counts, wilds, melds, 1)
    return _changes(counts, wilds, melds, melds_terminal, 1)


def complete(
    counts: Sequence[int], wilds: int, melds: int = 0, *, melds_terminal: bool = False
) -> bool:
    """``distance(...) == -1`` for a hand of ``3 * (4 - melds) + 2`` tiles, but cheaper: the
    sets-and-pair shape goes through the tables of :mod:`engine.wincheck`.

    >>> from engine.tiles import counts_of, parse_tiles
    >>> complete(counts_of(parse_tiles("123m456p789s1122z")), 1)
    True
    >>> complete(counts_of(parse_tiles("147m258p369s1234z")), 1)  # 十三烂
    True
    >>> complete(counts_of(parse_tiles("19m19p19s1234z")), 1, 1)  # 九幺 needs terminal melds
    False
    >>> complete(counts_of(parse_tiles("19m19p19s1234z")), 1, 1, melds_terminal=True)
    True
    """
    sets = _check_total(counts, wilds, melds, 2)
    if is_complete(counts, wilds):
        return True
    need = 3 * sets + 2 - wilds  # real tiles a shape must keep
    if melds == 0 and (_pairs_kept(counts) >= need or _lan_kept(counts) >= need):
        return True
    return (melds == 0 or melds_terminal) and _terminal_kept(counts) >= need
