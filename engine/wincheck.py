"""Table-driven win detection with wild tiles (宝).

A hand is *complete* when its tiles plus ``wilds`` wild tiles form sets (sequences
within a suit, or triplets) and exactly one pair. A wild may stand for any tile,
even a fifth copy of a kind.

Each suit is judged on its own from a table keyed by the suit's nine counts (as
``bytes``): the fewest wilds that make the suit into sets only, and the extra
wilds needed to put the pair there too. Entries are built lazily and kept, so a
check costs four slices, four dict look-ups and a little arithmetic.

>>> from engine.tiles import counts_of, parse_tiles
>>> is_complete(counts_of(parse_tiles("123m456p789s11z")), 0)
True
>>> is_complete(counts_of(parse_tiles("123m456p789s1z")), 1)
True
>>> is_complete(counts_of(parse_tiles("123m456p789s12z")), 0)
False

The command line reads ``<tiles> <wilds>`` lines and answers ``1`` or ``0``::

    $ echo "123m456p789s1z 1" | python -m engine.wincheck
    1
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Sequence
from functools import cache
from itertools import repeat
from operator import add, itemgetter, sub

from engine.tiles import KIND_COUNT, TileError, counts_of, format_tiles, parse_tiles

__all__ = [
    "check_line",
    "check_text",
    "is_complete",
    "main",
    "make_wincheck_input",
    "sets_only",
    "suit_costs",
]

_INF = 1 << 20
"""Stands for "impossible"; large enough that no real wild count reaches it."""


@cache
def _suit_min(counts: tuple[int, ...], pair: bool) -> int:
    """Fewest wilds turning one suit's ``counts`` into sets (and a pair if ``pair``).

    Only the lowest present rank is branched on: it must sit in some group. Taking
    every real tile a group can use is never worse than filling that slot with a
    wild (a wild can swap places with the real tile wherever it went), so each
    group is tried once, which keeps the search and the cache small.
    """
    i = 0
    n = len(counts)
    while i < n and counts[i] == 0:
        i += 1
    if i == n:
        return 2 if pair else 0
    c = counts[i]
    best = _INF
    rest = list(counts)

    take = 3 if c >= 3 else c
    rest[i] = c - take
    best = min(best, 3 - take + _suit_min(tuple(rest), pair))
    rest[i] = c

    if pair:
        take = 2 if c >= 2 else c
        rest[i] = c - take
        best = min(best, 2 - take + _suit_min(tuple(rest), False))
        rest[i] = c

    if n == 9:
        # A sequence holding rank i uses the window i..i+2, or 6..8 near the top.
        lo = i if i <= 6 else 6
        used = 0
        for r in range(lo, lo + 3):
            if rest[r] > 0:
                rest[r] -= 1
                used += 1
        best = min(best, 3 - used + _suit_min(tuple(rest), pair))
    return best


def _honor_costs(counts: bytes) -> tuple[int, int]:
    # Honors never form sequences, so each kind is independent.
    sets = 0
    delta = 2  # a pair made of two wilds
    for c in counts:
        s = (3 - c % 3) % 3
        p = (3 - (c - 2) % 3) % 3 if c >= 2 else 2 - c
        sets += s
        if p - s < delta:
            delta = p - s
    return sets, delta


_SUIT_TABLE: dict[bytes, tuple[int, int]] = {}
_HONOR_TABLE: dict[bytes, tuple[int, int]] = {}


def suit_costs(counts: bytes | Sequence[int], honors: bool = False) -> tuple[int, int]:
    """``(sets, delta)`` for one suit's counts: wilds for sets only, extra wilds for the pair.

    ``delta`` is always 2 modulo 3 (a pair of wilds costs 2).

    >>> suit_costs([1, 1, 0, 0, 0, 0, 0, 0, 0])  # 12m: one wild for 123m, two for the pair
    (1, 2)
    >>> suit_costs([2, 0, 0, 0, 0, 0, 0, 0, 0])  # 11m: a wild for 111m, or the pair as is
    (1, -1)
    >>> suit_costs([0] * 7, honors=True)
    (0, 2)
    """
    key = bytes(counts)
    table = _HONOR_TABLE if honors else _SUIT_TABLE
    got = table.get(key)
    if got is None:
        got = _build(key, honors)
    return got


def _build(key: bytes, honors: bool) -> tuple[int, int]:
    if honors:
        got = _honor_costs(key)
        _HONOR_TABLE[key] = got
    else:
        t = tuple(key)
        s = _suit_min(t, False)
        got = (s, _suit_min(t, True) - s)
        _SUIT_TABLE[key] = got
    return got


def _lookup(table: dict[bytes, tuple[int, int]], key: bytes, honors: bool) -> tuple[int, int]:
    got = table.get(key)
    return got if got is not None else _build(key, honors)


def is_complete(counts: Sequence[int], wilds: int) -> bool:
    """True if ``counts`` (34 kinds) plus ``wilds`` wild tiles make sets and exactly one pair.

    Totals that are not 3n+2 are never complete.

    >>> from engine.tiles import counts_of, parse_tiles
    >>> is_complete(counts_of(parse_tiles("1m")), 1)
    True
    >>> is_complete(counts_of(parse_tiles("147m")), 2)
    False
    """
    st = _SUIT_TABLE
    s0, d0 = st.get(k := bytes(counts[0:9])) or _build(k, False)
    s1, d1 = st.get(k := bytes(counts[9:18])) or _build(k, False)
    s2, d2 = st.get(k := bytes(counts[18:27])) or _build(k, False)
    s3, d3 = _HONOR_TABLE.get(k := bytes(counts[27:34])) or _build(k, True)
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
    st = _SUIT_TABLE
    s0 = (st.get(k := bytes(counts[0:9])) or _build(k, False))[0]
    s1 = (st.get(k := bytes(counts[9:18])) or _build(k, False))[0]
    s2 = (st.get(k := bytes(counts[18:27])) or _build(k, False))[0]
    s3 = (_HONOR_TABLE.get(k := bytes(counts[27:34])) or _build(k, True))[0]
    r = wilds - s0 - s1 - s2 - s3
    return r >= 0 and r % 3 == 0


# --- command line -------------------------------------------------------------------------

_CANONICAL = re.compile(r"(?:([1-9]+)m)?(?:([1-9]+)p)?(?:([1-9]+)s)?(?:([1-7]+)z)?")
"""Suits in order, each at most once: the common case, read without building counts."""

_GROUP_COSTS: list[dict[str | None, tuple[int, int] | None]] = [
    {None: (0, 2), "": (0, 2)} for _ in range(4)
]
"""Per suit, digit text (as written) to its costs, or None when a rank has five copies."""


def _group_costs(suit: int, digits: str) -> tuple[int, int] | None:
    n = 7 if suit == 3 else 9
    counts = [0] * n
    for ch in digits:
        counts[ord(ch) - 49] += 1
    got = None if max(counts) > 4 else suit_costs(counts, honors=suit == 3)
    _GROUP_COSTS[suit][digits] = got
    return got


def _slow_line(tiles: str, wilds: int) -> str:
    counts = counts_of(parse_tiles(tiles))
    for kind in range(KIND_COUNT):
        if counts[kind] > 4:
            raise TileError(f"{counts[kind]} copies of {format_tiles([kind])}; a kind has four")
    return "1" if is_complete(counts, wilds) else "0"


def check_line(line: str) -> str:
    """Answer one input line: ``"1"``, ``"0"`` or ``"error: <message>"``.

    >>> check_line("123m456p789s1z 1"), check_line("19m 0"), check_line("1x 0")
    ('1', '0', "error: unexpected 'x' in '1x': write tiles like '123m456p789s11z'")
    """
    tiles, _, k = line.strip().rpartition(" ")
    try:
        if not tiles:
            raise TileError(f"expected '<tiles> <wilds>', got {line.strip()!r}")
        if not (k.isdigit() and k.isascii()):
            raise TileError(f"wild count must be a whole number >= 0, got {k!r}")
        wilds = int(k)
        m = _CANONICAL.fullmatch(tiles)
        if m is None:
            return _slow_line(tiles, wilds)
        g0, g1, g2, g3 = m.groups()
        gc = _GROUP_COSTS
        c0 = gc[0].get(g0) if g0 in gc[0] else _group_costs(0, g0)
        c1 = gc[1].get(g1) if g1 in gc[1] else _group_costs(1, g1)
        c2 = gc[2].get(g2) if g2 in gc[2] else _group_costs(2, g2)
        c3 = gc[3].get(g3) if g3 in gc[3] else _group_costs(3, g3)
        if c0 is None or c1 is None or c2 is None or c3 is None:
            return _slow_line(tiles, wilds)  # reports the five copies
        r = wilds - c0[0] - c1[0] - c2[0] - c3[0] - min(c0[1], c1[1], c2[1], c3[1])
        return "1" if r >= 0 and r % 3 == 0 else "0"
    except TileError as exc:
        return f"error: {exc}"


_BULK = re.compile(
    r"^(?=[1-9])(?:([1-9]+)m)?(?:([1-9]+)p)?(?:([1-9]+)s)?(?:([1-7]+)z)? ([0-9]+)$", re.MULTILINE
)
_BULK_MAX_WILDS = 10_000
"""Above this many wilds on a line the bulk answer table would be too big; go line by line."""


def check_text(data: str) -> str:
    """Answers for every line of ``data``, one per line, each ending in a newline.

    When every line is in the canonical form (suits in order, each at most once),
    all the work runs as C-level ``map`` calls over columns; otherwise each line
    goes through :func:`check_line`.

    >>> check_text("123m456p789s1z 1\\n1m 0\\n")
    '1\\n0\\n'
    """
    lines = data.splitlines()
    if not lines:
        return ""
    matches = _BULK.findall(data)
    if len(matches) == len(lines):
        answers = _bulk_answers(matches)
        if answers is not None:
            return "\n".join(answers) + "\n"
    return "".join([check_line(line) + "\n" for line in lines])


def _bulk_answers(matches: list[tuple[str, str, str, str, str]]) -> list[str] | None:
    # Each group's costs are packed into one int, 8 * sets + (1 if its pair delta is -1),
    # since a delta is always -1 or 2 (a pair saves at most the one wild that would have
    # made it a triplet, and costs at most two). A line then needs three additions and
    # one look-up, all as C-level maps: zip(*matches) would be slow for long inputs.
    wild_col = list(map(itemgetter(4), matches))
    for text in set(wild_col).difference(_BULK_WILDS):
        _BULK_WILDS[text] = 8 * int(text)
    most = max(map(_BULK_WILDS.__getitem__, wild_col)) // 8
    if most > _BULK_MAX_WILDS:
        return None
    packed: list[list[int]] = []
    for suit in range(4):
        table = _BULK_PACKED[suit]
        col = list(map(itemgetter(suit), matches))
        for digits in set(col).difference(table):
            got = _group_costs(suit, digits)
            if got is None:
                return None  # five copies of a kind: let check_line word the error
            table[digits] = 8 * got[0] + (got[1] == -1)
        packed.append(list(map(table.__getitem__, col)))
    total = map(add, map(add, packed[0], packed[1]), map(add, packed[2], packed[3]))
    keys = map(sub, map(_BULK_WILDS.__getitem__, wild_col), total)
    return list(map(_winning_keys(most).get, keys, repeat("0")))


def _winning_keys(most: int) -> dict[int, str]:
    # key = 8 * (wilds - sets) - (number of suits whose pair delta is -1)
    winning: dict[int, str] = {}
    for spare in range(-1, most + 1):
        for minus in range(5):
            r = spare - (-1 if minus else 2)
            if r >= 0 and r % 3 == 0:
                winning[8 * spare - minus] = "1"
    return winning


_BULK_PACKED: list[dict[str, int]] = [{"": 0} for _ in range(4)]
_BULK_WILDS: dict[str, int] = {}


def main() -> None:
    """Read all of stdin, write one answer per line."""
    sys.stdout.write(check_text(sys.stdin.read()))


def make_wincheck_input(n: int, seed: int = 0) -> list[str]:
    """``n`` benchmark lines ``<tiles> <wilds>``: about half built to win, 0–4 wilds each.

    Winning lines are four random sets and a pair with some tiles swapped for wilds;
    the others are random 14-tile draws, which rarely win. No kind exceeds four copies.

    >>> make_wincheck_input(2, seed=1) == make_wincheck_input(2, seed=1)
    True
    """
    rng = random.Random(seed)
    lines: list[str] = []
    wall = [k for k in range(KIND_COUNT) for _ in range(4)]
    while len(lines) < n:
        wilds = rng.randint(0, 4)
        if rng.random() < 0.5:
            tiles = rng.sample(wall, 14)
        else:
            counts = [0] * KIND_COUNT
            tiles = []
            pair = rng.randrange(KIND_COUNT)
            groups = [[pair, pair]]
            for _ in range(4):
                start = rng.randrange(KIND_COUNT)
                if start < 27 and start % 9 <= 6 and rng.random() < 0.7:
                    groups.append([start, start + 1, start + 2])
                else:
                    groups.append([start] * 3)
            for g in groups:
                tiles.extend(g)
            for k in tiles:
                counts[k] += 1
            if max(counts) > 4:
                continue
        rng.shuffle(tiles)
        lines.append(f"{format_tiles(tiles[wilds:])} {wilds}")
    return lines


if __name__ == "__main__":
    main()
