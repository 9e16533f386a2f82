"""``python -m engine.wincheck``: is each line's ``<tiles> <wilds>`` a complete hand?

Reads ``<tiles> <wilds>`` lines and answers ``1`` or ``0`` for each one that is not blank
(blank lines are skipped, as ``python -m engine.score`` skips them), or ``error: …``::

    $ echo "123m456p789s1z 1" | python -m engine.wincheck
    1

The judging is :mod:`engine.judging.shape`'s. Text in the usual form goes a faster way:
each suit's digit text indexes the shape table directly, and whole inputs run as C-level
``map`` calls over per-suit columns. :func:`make_wincheck_input` makes benchmark input.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from functools import cache
from operator import add, itemgetter, sub

from engine.cli.arguments import stdin_only
from engine.judging.memo import remembered
from engine.judging.shape import fewest_wilds, is_complete, pack_costs, suit_table
from engine.tiles import (
    COMPACT_TILES,
    KIND_COUNT,
    TileError,
    counts_of,
    format_tiles,
    parse_tiles,
)

__all__ = ["check_line", "check_text", "main", "make_wincheck_input"]


def _digit_table(ranks: int, step: Sequence[Sequence[int]]) -> bytes:
    """Bytes over base-5 indexes of ``ranks`` counts, entry ``f(count vector)`` built as
    ``step[c][f(rest)]`` one rank at a time, with C-level ``translate`` (milliseconds)."""
    table = bytes([0])
    maps = [bytes(row) for row in step]
    for _ in range(ranks):
        table = b"".join([table.translate(row) for row in maps])
    return table


@remembered
@cache
def _tile_counts() -> bytes:
    """Tiles in each nine-rank count vector by base-5 index; a digit text whose index
    disagrees with its length had a rank five times (a carry)."""
    return _digit_table(9, [[(v + c) & 255 for v in range(256)] for c in range(5)])


@remembered
@cache
def _honor_table() -> bytes:
    """Packed costs (see :func:`_packed`) of every honor count vector by base-5 index."""
    # Honor kinds are independent: a kind with c copies needs (0, 2, 1, 0, 2)[c] wilds as
    # triplets, and any count not divisible by 3 can hold the pair one wild cheaper.
    sets = (0, 2, 1, 0, 2)
    return _digit_table(
        7,
        [[v + 8 * sets[c] + (c % 3 > 0 and not v & 1) & 255 for v in range(256)] for c in range(5)],
    )


_P5 = {str(r + 1): 5**r for r in range(9)}
"""Rank digit to its weight in a table index."""


def _packed(suit: int, digits: str) -> int:
    """``8 * sets + flag`` for one suit's digit text (-1: a rank has five copies).

    Packing works because a pair delta is -1 or 2: one bit says which. Summing four
    packed values adds the sets and counts the suits that could take the pair cheaply,
    with no carry (at most four flags).

    >>> _packed(0, "11"), _packed(0, "12"), _packed(3, "1"), _packed(0, "11111")
    (9, 8, 17, -1)
    """
    index: int = sum(map(_P5.__getitem__, digits))
    if index >= 5**9 or _tile_counts()[index] != len(digits):
        return -1
    if suit == 3:
        return _honor_table()[index]
    table = suit_table()
    if table is None:  # pragma: no cover - no lzma: search instead
        counts = [0] * 9
        for ch in digits:
            counts[ord(ch) - 49] += 1
        return pack_costs(fewest_wilds(tuple(counts)))
    return table[index]


def _wins(key: int) -> bool:
    """Whether ``key = 8 * wilds - (sum of four packed costs)`` is a win."""
    spare = -(-key // 8)  # wilds left after the sets: key = 8 * spare - flags, 0 <= flags <= 4
    r = spare - (-1 if 8 * spare - key else 2)
    return r >= 0 and r % 3 == 0


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
        m = COMPACT_TILES.fullmatch(tiles)
        if m is None:
            return _slow_line(tiles, wilds)
        key = 8 * wilds
        for suit, digits in enumerate(m.groups()):
            got = _COLUMNS[suit][digits or ""]
            if got < 0:
                return _slow_line(tiles, wilds)  # reports the five copies
            key -= got
        return "1" if _wins(key) else "0"
    except TileError as exc:
        return f"error: {exc}"


_BULK = re.compile(
    "^(?=[1-9])" + COMPACT_TILES.pattern.replace("]+)", "]++)") + " ([0-9]++)$", re.MULTILINE
)
"""A line of :data:`~engine.tiles.COMPACT_TILES` text and its wild count. Possessive runs: a
suit's digits never need to be given back (a shorter run is followed by a digit, not the
letter), and not retrying saves a third."""


class _Column(dict[str, int]):
    """Digit text of a suit to packed costs, filled on a miss during a C-level ``map``."""

    def __init__(self, suit: int) -> None:
        super().__init__({"": 0})
        self.suit = suit
        self.five = False  # set when some text had five copies of a rank

    def clear(self) -> None:
        super().clear()
        self[""] = 0  # an absent suit

    def __missing__(self, digits: str) -> int:
        got = _packed(self.suit, digits)
        if got < 0:
            self.five = True  # not stored, so that every later look-up says so again
        else:
            self[digits] = got
        return got


class _Wilds(dict[str, int]):
    def __missing__(self, text: str) -> int:
        got = self[text] = 8 * int(text)
        return got


class _Answers(dict[int, str]):
    def __missing__(self, key: int) -> str:
        got = self[key] = "1" if _wins(key) else "0"
        return got


_SUITED = remembered(_Column(0))
_COLUMNS = [_SUITED, _SUITED, _SUITED, remembered(_Column(3))]
"""万, 筒 and 条 share one column: the same digit text costs the same in each suit."""
_WILD_COLUMN = remembered(_Wilds())
_ANSWERS = remembered(_Answers())


def check_text(data: str) -> str:
    """Answers for every non-blank line of ``data``, one per line, each ending in a newline.

    When every line is in the canonical form (suits in order, each at most once),
    all the work runs as C-level ``map`` calls over columns; otherwise each line
    goes through :func:`check_line`.

    >>> check_text("123m456p789s1z 1\\n\\n1m 0\\n")
    '1\\n0\\n'
    """
    if not data:
        return ""
    matches = _BULK.findall(data)
    # Only "\n" can end a matched line, so if every "\n"-line matched there is no other
    # line break that splitlines would have seen, and the counts agree.
    if len(matches) == data.count("\n") + (not data.endswith("\n")):
        answers = _bulk_answers(matches)
        if answers is not None:
            return "\n".join(answers) + "\n"
    # blank lines are skipped, as ``python -m engine.score`` does: one answer per hand
    return "".join([check_line(line) + "\n" for line in data.splitlines() if line.strip()])


def _bulk_answers(matches: list[tuple[str, str, str, str, str]]) -> list[str] | None:
    # One fused pipeline of C-level maps over the columns, no intermediate lists: per
    # line four look-ups, three additions, a subtraction and the answer look-up.
    # zip(*matches) would be slower for long inputs.
    c0, c1, c2, c3 = _COLUMNS
    for column in _COLUMNS:
        column.five = False
    total = map(
        add,
        map(
            add,
            map(c0.__getitem__, map(itemgetter(0), matches)),
            map(c1.__getitem__, map(itemgetter(1), matches)),
        ),
        map(
            add,
            map(c2.__getitem__, map(itemgetter(2), matches)),
            map(c3.__getitem__, map(itemgetter(3), matches)),
        ),
    )
    keys = map(sub, map(_WILD_COLUMN.__getitem__, map(itemgetter(4), matches)), total)
    answers = list(map(_ANSWERS.__getitem__, keys))
    if c0.five or c1.five or c2.five or c3.five:
        return None  # five copies of a kind: let check_line word the error
    return answers


def main(argv: Sequence[str] | None = None) -> int:
    """Read all of stdin, write one answer per line; arguments are refused."""
    refused = stdin_only("python -m engine.wincheck", __doc__ or "", argv)
    if refused is not None:
        return refused
    sys.stdout.write(check_text(sys.stdin.read()))
    return 0


def make_wincheck_input(n: int, seed: int = 0) -> list[str]:
    """``n`` benchmark lines ``<tiles> <wilds>``: about half built to win, 0–4 wilds each.

    Winning lines are four random sets and a pair with some tiles swapped for wilds;
    the others are random 14-tile draws, which rarely win. No kind exceeds four copies.

    >>> make_wincheck_input(2, seed=1) == make_wincheck_input(2, seed=1)
    True
    """
    import random  # here, not at the top: the CLI starts faster without it

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
