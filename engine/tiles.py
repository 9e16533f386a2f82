"""Tiles, tile kinds and the ``1m…9m 1p…9p 1s…9s 1z…7z`` notation.

A tile kind is an ``int`` from 0 to 33: 万 0–8, 筒 9–17, 条 18–26, then the honors
东 南 西 北 中 发 白 as 27–33. Plain ints keep the hot paths (win checks, scoring)
free of object overhead; this module is the one place that knows the layout: every
table over the kinds (:data:`BAO_OF`, :data:`TERMINAL_OR_HONOR`, :data:`SUIT_START`) and
the one pattern of the usual tile text (:data:`COMPACT_TILES`) live here.

>>> parse_tiles("123m55z")
[0, 1, 2, 31, 31]
>>> format_tiles([0, 1, 2, 31, 31])
'123m55z'
>>> format_tile(bao_of(parse_tile("9m")))
'1m'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

__all__ = [
    "BAMBOO",
    "BAO_OF",
    "CHARACTERS",
    "COMPACT_TILES",
    "DOTS",
    "HONORS",
    "KIND_COUNT",
    "SUIT_LETTERS",
    "SUIT_START",
    "TERMINAL_OR_HONOR",
    "TILE_NAMES_ZH",
    "TileError",
    "bao_of",
    "counts_of",
    "format_tile",
    "format_tiles",
    "is_honor",
    "is_terminal_or_honor",
    "parse_tile",
    "parse_tiles",
    "rank_of",
    "suit_of",
    "tiles_of_counts",
    "wild_counts",
]

KIND_COUNT = 34
"""Number of tile kinds; each kind has four copies, 136 tiles in all."""

CHARACTERS, DOTS, BAMBOO, HONORS = 0, 1, 2, 3
"""Suit numbers as returned by :func:`suit_of`: 万, 筒, 条 and 字."""

SUIT_LETTERS = "mpsz"

_HONOR_NAMES = "东南西北中发白"
_SUIT_NAMES = "万筒条"
_RANK_NAMES = "一二三四五六七八九"

TILE_NAMES_ZH: tuple[str, ...] = tuple(
    [_RANK_NAMES[r] + _SUIT_NAMES[s] for s in range(3) for r in range(9)] + list(_HONOR_NAMES)
)
"""Chinese name of each kind, e.g. ``TILE_NAMES_ZH[0] == "一万"``, ``TILE_NAMES_ZH[31] == "中"``."""


class TileError(ValueError):
    """Raised for tile text that does not parse, with a message saying what is wrong."""


def suit_of(kind: int) -> int:
    """Suit number of a kind: 0 万, 1 筒, 2 条, 3 字."""
    return kind // 9 if kind < 27 else HONORS


def rank_of(kind: int) -> int:
    """Rank 1–9 of a suited kind, or 1–7 for an honor (东=1 … 白=7)."""
    return kind % 9 + 1 if kind < 27 else kind - 26


def is_honor(kind: int) -> bool:
    return kind >= 27


def is_terminal_or_honor(kind: int) -> bool:
    """True for 1s, 9s and honors: the tiles a 九幺 hand is made of."""
    return TERMINAL_OR_HONOR[kind]


TERMINAL_OR_HONOR: tuple[bool, ...] = tuple(k >= 27 or k % 9 in (0, 8) for k in range(KIND_COUNT))
""":func:`is_terminal_or_honor` of each kind, as a table for the hot paths.

>>> [format_tile(k) for k in range(KIND_COUNT) if TERMINAL_OR_HONOR[k]][:4]
['1m', '9m', '1p', '9p']
"""

SUIT_START: tuple[int, ...] = tuple(9 * (k // 9) if k < 27 else 27 for k in range(KIND_COUNT))
"""The first kind of each kind's suit (0, 9, 18 or 27)."""


def bao_of(indicator: int) -> int:
    """The 宝 kind marked by an indicator (亮宝牌): the next kind in its cycle.

    Suits cycle 1→…→9→1, winds 东→南→西→北→东, dragons 中→发→白→中.

    >>> format_tile(bao_of(parse_tile("4z")))
    '1z'
    >>> format_tile(bao_of(parse_tile("7z")))
    '5z'
    """
    if indicator < 0 or indicator >= KIND_COUNT:
        raise TileError(f"no tile kind {indicator}")
    if indicator < 27:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if indicator < 31:
        return 27 + (indicator - 27 + 1) % 4
    return 31 + (indicator - 31 + 1) % 3


BAO_OF: tuple[int, ...] = tuple(bao_of(k) for k in range(KIND_COUNT))
""":func:`bao_of` of each indicator kind, as a table for the hot paths."""


def format_tile(kind: int) -> str:
    """``format_tile(0) == "1m"``, ``format_tile(33) == "7z"``."""
    if not 0 <= kind < KIND_COUNT:
        raise TileError(f"no tile kind {kind}")
    return f"{rank_of(kind)}{SUIT_LETTERS[suit_of(kind)]}"


def parse_tile(text: str) -> int:
    """Parse one tile such as ``"5p"``; raises :class:`TileError` otherwise."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise TileError(f"expected one tile, got {text!r}")
    return tiles[0]


def parse_tiles(text: str) -> list[int]:
    """Parse compact tile text (``"123m55z"``, spaces allowed) into kinds, in order.

    >>> parse_tiles("19m 7z")
    [0, 8, 33]
    >>> parse_tiles("8z")
    Traceback (most recent call last):
    ...
    engine.tiles.TileError: no honor 8z in '8z': honors are 1z-7z (东南西北中发白)
    """
    if not isinstance(text, str):
        raise TileError(f"tiles must be text like '123m55z', got {type(text).__name__}")
    kinds: list[int] = []
    pending: list[int] = []
    for ch in text:
        if ch.isspace():
            continue
        if "0" <= ch <= "9":
            pending.append(ord(ch) - 48)
            continue
        suit = SUIT_LETTERS.find(ch)
        if suit < 0 or ch == "":
            raise TileError(f"unexpected {ch!r} in {text!r}: write tiles like '123m456p789s11z'")
        if not pending:
            raise TileError(f"suit letter {ch!r} without digits before it in {text!r}")
        for digit in pending:
            if suit == HONORS:
                if not 1 <= digit <= 7:
                    raise TileError(
                        f"no honor {digit}z in {text!r}: honors are 1z-7z (东南西北中发白)"
                    )
                kinds.append(27 + digit - 1)
            else:
                if digit == 0:
                    raise TileError(f"no tile 0{ch} in {text!r}: ranks are 1-9")
                kinds.append(suit * 9 + digit - 1)
        pending = []
    if pending:
        raise TileError(f"digits without a suit letter at the end of {text!r}")
    return kinds


COMPACT_TILES = re.compile(r"(?:([1-9]+)m)?(?:([1-9]+)p)?(?:([1-9]+)s)?(?:([1-7]+)z)?")
"""Tile text as hands are usually written: suits in order, each at most once, no spaces.

The fast paths read it a suit at a time (its four groups are the digits of 万, 筒, 条 and
字, None when absent) and send any other text through :func:`parse_tiles`.

>>> COMPACT_TILES.fullmatch("123m55z").groups()
('123', None, None, '55')
>>> COMPACT_TILES.fullmatch("55z123m") is None
True
"""


def format_tiles(kinds: Iterable[int]) -> str:
    """Compact text for kinds, sorted and grouped by suit: ``[31, 0, 31] -> "1m55z"``."""
    by_suit: list[list[int]] = [[], [], [], []]
    for k in sorted(kinds):
        if not 0 <= k < KIND_COUNT:
            raise TileError(f"no tile kind {k}")
        by_suit[suit_of(k)].append(rank_of(k))
    return "".join(
        "".join(str(r) for r in ranks) + SUIT_LETTERS[s] for s, ranks in enumerate(by_suit) if ranks
    )


def counts_of(kinds: Iterable[int]) -> list[int]:
    """A 34-long list of how many of each kind."""
    counts = [0] * KIND_COUNT
    for k in kinds:
        counts[k] += 1
    return counts


def wild_counts(kinds: Iterable[int], bao: int) -> tuple[list[int], int]:
    """Natural counts of ``kinds`` (34 long) and how many of them are the 宝 (wild).

    >>> counts, wilds = wild_counts([0, 0, 5, 31], bao=31)
    >>> counts[0], counts[5], counts[31], wilds
    (2, 1, 0, 1)
    """
    counts = [0] * KIND_COUNT
    wilds = 0
    for k in kinds:
        if k == bao:
            wilds += 1
        else:
            counts[k] += 1
    return counts, wilds


def tiles_of_counts(counts: Sequence[int]) -> list[int]:
    """The inverse of :func:`counts_of`: kinds in ascending order."""
    return [k for k in range(KIND_COUNT) for _ in range(counts[k])]
