"""The judgement API: validate a finished hand, find its readings, price the best.

What hands can exist is :mod:`engine.judging.validity`'s, pattern analysis lives in
:mod:`engine.judging.patterns`, score tables in :mod:`engine.judging.scoring`.

>>> from engine.tiles import parse_tiles, parse_tile
>>> j = judge(parse_tiles("123m456m789p234s55z"), [], parse_tile("5z"), parse_tile("9s"),
...           WinContext(), Rules())
>>> j.score, j.name, j.bao_status
(4, '平胡', 'wubao')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.judging.memo import Bounded, remembered
from engine.judging.patterns import candidates, may_form_pattern
from engine.judging.scoring import BreakdownItem, Candidate, WinContext, score_candidate
from engine.judging.shape import suit_costs
from engine.judging.validity import (
    HandError,
    check_context,
    check_hand,
    check_meld,
    concealed_counts,
)
from engine.melds import Meld
from engine.rules import Rules
from engine.tiles import BAO_OF, KIND_COUNT, SUIT_START, TERMINAL_OR_HONOR

__all__ = [
    "BreakdownItem",
    "Candidate",
    "HandError",
    "Judgement",
    "WinContext",
    "judge",
    "judge_counts",
    "winning_tiles",
]


@dataclass(frozen=True)
class Judgement:
    patterns: frozenset[str]
    win: bool
    score: int
    name: str
    breakdown: tuple[BreakdownItem, ...]
    bao_status: str
    fan: int = 0
    base: int = 0
    reason: str = ""


# ---------------------------------------------------------------- the judgement

_SELF_DRAW = WinContext()
_STATUS_RANK = {"wubao": 2, "baodiao": 1, "youbao": 0}
_NO_WIN = "the 14 tiles form no winning pattern under any reading of the 宝"


def judge(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    winning_tile: int,
    indicator: int,
    context: WinContext,
    rules: Rules,
) -> Judgement:
    """Judge a finished 14-tile hand; ``concealed`` includes the winning tile.

    >>> from engine.tiles import parse_tiles, parse_tile
    >>> j = judge(parse_tiles("111m555p999s222z77z"), [], parse_tile("7z"), parse_tile("3m"),
    ...           WinContext(flown_bao=2), Rules())
    >>> j.score, j.name, sorted(j.patterns)
    (64, '碰碰胡', ['pengpenghu'])
    """
    if not 0 <= indicator < KIND_COUNT:
        raise HandError(f"no tile kind {indicator} for the indicator")
    counts = concealed_counts(concealed)
    return judge_counts(counts, len(concealed), melds, winning_tile, indicator, context, rules)


def judge_counts(
    counts: Sequence[int],
    n_concealed: int,
    melds: Sequence[Meld],
    winning_tile: int,
    indicator: int,
    context: WinContext,
    rules: Rules,
) -> Judgement:
    """:func:`judge` for concealed tiles given as 34 counts (``n_concealed`` tiles in all),
    for callers that count anyway; the same checks and the same answer.

    Whole judgements are memoised: bots and the table judge the same hands again and
    again. The key is everything the answer depends on.

    >>> from engine.tiles import counts_of, parse_tiles, parse_tile
    >>> j = judge_counts(counts_of(parse_tiles("111m555p999s222z77z")), 14, [],
    ...                  parse_tile("7z"), parse_tile("3m"), WinContext(flown_bao=2), Rules())
    >>> j.score, j.name
    (64, '碰碰胡')
    """
    if not 0 <= indicator < KIND_COUNT:
        raise HandError(f"no tile kind {indicator} for the indicator")
    setting = _setting(context, rules)
    try:
        packed: Sequence[int] = bytes(counts)  # a no-op for bytes, and a cheap key
    except ValueError:  # a count above 255: refused below, but still a valid key
        packed = tuple(counts)
    key = (packed, n_concealed, tuple(melds), winning_tile, indicator, setting)
    got = _MEMO.get(key)
    if got is not None:
        return got
    check_hand(counts, n_concealed, melds, winning_tile, indicator)
    check_context(counts, melds, winning_tile, indicator, context, rules)
    return _MEMO.keep(
        key, _judge(list(counts), melds, winning_tile, indicator, context, rules, setting)
    )


_MEMO_SIZE = 1 << 16
_MEMO: Bounded[tuple[object, ...], Judgement] = remembered(Bounded(_MEMO_SIZE))


def _setting(context: WinContext, rules: Rules) -> int:
    """A small int for the value of ``(context, rules)``, found by identity when these very
    objects were seen before: hashing the two dataclasses costs more than the rest of a
    memo key. Equal pairs get equal ints, so memo entries are shared by equal settings."""
    seen = _SETTING_BY_ID.get((id(context), id(rules)))
    if seen is not None and seen[0] is context and seen[1] is rules:
        return seen[2]
    if len(_SETTINGS) >= _MEMO_SIZE:  # ints are about to be reused: forget what used them
        _SETTINGS.clear()
        _MEMO.clear()
        _BEST.clear()
        _WAITS.clear()
    if len(_SETTING_BY_ID) >= 1024 or len(_SETTINGS) == 0:
        _SETTING_BY_ID.clear()
    token = _SETTINGS.setdefault((context, rules), len(_SETTINGS))
    # the entry holds both objects, so their ids can't be reused while it exists
    _SETTING_BY_ID[(id(context), id(rules))] = (context, rules, token)
    return token


_SETTINGS: dict[tuple[WinContext, Rules], int] = remembered({}, limit=_MEMO_SIZE)
_SETTING_BY_ID: dict[tuple[int, int], tuple[WinContext, Rules, int]] = remembered({}, limit=1024)


def _judge(
    counts: list[int],
    melds: Sequence[Meld],
    winning_tile: int,
    indicator: int,
    context: WinContext,
    rules: Rules,
    setting: int,
) -> Judgement:
    bao = BAO_OF[indicator]
    meld_tiles = [k for m in melds for k in m.tiles[:3]] if melds else []
    cands, patterns = candidates(counts, meld_tiles, melds, winning_tile, bao, context, rules)
    if not cands:
        return _NOTHING
    # The same few readings come up again and again: price each list of them once.
    key = (tuple(cands), patterns, len(melds), setting)
    got = _BEST.get(key)
    if got is None:
        got = _BEST.keep(key, _best(cands, patterns, len(melds), context, rules))
    return got


_NOTHING = Judgement(frozenset(), False, 0, "", (), "wubao", reason=_NO_WIN)
_BEST: Bounded[tuple[object, ...], Judgement] = remembered(Bounded(_MEMO_SIZE))


def _best(
    cands: list[Candidate],
    patterns: frozenset[str],
    n_melds: int,
    context: WinContext,
    rules: Rules,
) -> Judgement:
    best: Judgement | None = None
    best_key = (False, -1, -1)
    for c in cands:
        p = score_candidate(c, context, rules, n_melds)
        # ties go to the cleaner 宝 status (无宝 over 宝吊 over 有宝), then the first found
        key = (p.win, p.score, _STATUS_RANK[c.status])
        if key > best_key:
            best_key = key
            best = Judgement(
                patterns, p.win, p.score, p.name, p.breakdown, c.status, p.fan, p.base, p.reason
            )
    assert best is not None
    if context.heavenly or context.earthly:  # flat, nothing else counted
        label = "天胡" if context.heavenly else "地胡"
        pts = rules.tian_di_points
        return Judgement(
            patterns,
            True,
            pts,
            label,
            (BreakdownItem(label, pts, "base"),),
            best.bao_status,
            0,
            pts,
        )
    return best


def winning_tiles(
    concealed13: Sequence[int],
    melds: Sequence[Meld],
    indicator: int,
    rules: Rules,
    context: WinContext = _SELF_DRAW,
) -> list[tuple[int, Judgement]]:
    """听牌: every tile kind that would win if drawn, with its judgement.

    >>> from engine.tiles import format_tile, parse_tiles, parse_tile
    >>> [(format_tile(k), j.score) for k, j in
    ...  winning_tiles(parse_tiles("123m456m789p234s5z"), [], parse_tile("9s"), Rules())]
    [('5z', 4)]
    """
    if not 0 <= indicator < KIND_COUNT:
        return []  # judge would refuse every tile
    try:
        counts = concealed_counts(concealed13)
        if len(melds) > 4:
            raise HandError("too many melds")
        for m in melds:
            check_meld(m, indicator)
    except HandError:
        return []  # judge would refuse every tile for the same reason
    n = len(concealed13) + 1
    key = (tuple(counts), n, tuple(melds), indicator, _setting(context, rules))
    got = _WAITS.get(key)
    if got is None:
        got = _WAITS.keep(key, tuple(_winning_tiles(counts, n, melds, indicator, rules, context)))
    return list(got)


_WAITS: Bounded[tuple[object, ...], tuple[tuple[int, Judgement], ...]] = remembered(
    Bounded(_MEMO_SIZE)
)


def _winning_tiles(
    counts: list[int],
    n: int,
    melds: Sequence[Meld],
    indicator: int,
    rules: Rules,
    context: WinContext,
) -> list[tuple[int, Judgement]]:
    out: list[tuple[int, Judgement]] = []
    for k in _may_win(counts, melds, BAO_OF[indicator]):
        counts[k] += 1
        try:
            j = judge_counts(counts, n, melds, k, indicator, context, rules)
        except HandError:
            continue  # a fifth copy can't be drawn
        finally:
            counts[k] -= 1
        if j.win:
            out.append((k, j))
    return out


def _may_win(counts: list[int], melds: Sequence[Meld], bao: int) -> list[int]:
    """The kinds whose draw may form some pattern (:func:`may_form_pattern` of each 14-tile
    hand, as :func:`candidates` would filter), found cheaply from the 13 tiles: a drawn
    tile changes one suit's shape costs, one kind's parity, one kind's count.

    >>> from engine.tiles import counts_of, format_tiles, parse_tiles
    >>> format_tiles(_may_win(counts_of(parse_tiles("123m456m789p234s5z")), [], 33))  # 7z: 宝
    '57z'
    """
    wilds = counts[bao]
    nat = list(counts)
    nat[bao] = 0
    b = bytes(nat)
    meld_tiles = [k for m in melds for k in m.tiles[:3]]
    costs = [
        suit_costs(b[0:9]),
        suit_costs(b[9:18]),
        suit_costs(b[18:27]),
        suit_costs(b[27:34], honors=True),
    ]
    sets = sum(c[0] for c in costs)
    delta_without = [min(c[1] for i, c in enumerate(costs) if i != s) for s in range(4)]
    single = max(b) <= 1
    odd = b.count(1) + b.count(3)
    middles = sum(nat[k] for k in range(KIND_COUNT) if not TERMINAL_OR_HONOR[k])
    free = not meld_tiles  # 七对 and 十三烂 need no declared melds
    terminal_melds = all(map(TERMINAL_OR_HONOR.__getitem__, meld_tiles))
    out: list[int] = []
    for k in range(KIND_COUNT):
        if k == bao:  # one more wild, the shape as it is
            r = wilds + 1 - sets - min(c[1] for c in costs)
            if (r >= 0 and r % 3 == 0) or may_form_pattern(nat, wilds + 1, meld_tiles):
                out.append(k)
            continue
        suit = (k // 9) if k < 27 else 3
        start = SUIT_START[k]
        piece = bytearray(b[start : start + (9 if k < 27 else 7)])
        piece[k - start] += 1
        grown = suit_costs(bytes(piece), honors=suit == 3)
        r = wilds - (sets - costs[suit][0] + grown[0]) - min(grown[1], delta_without[suit])
        if r >= 0 and r % 3 == 0:
            out.append(k)  # 平胡 / 碰碰胡 shape
            continue
        c = nat[k]
        maybe = (
            (free and odd + (1 if c % 2 == 0 else -1) <= wilds)  # 七对
            or (free and c == 0 and single)  # 十三烂
            or (terminal_melds and middles == 0 and TERMINAL_OR_HONOR[k])  # 九幺
        )
        if maybe:
            nat[k] += 1
            if may_form_pattern(nat, wilds, meld_tiles):
                out.append(k)
            nat[k] -= 1
    return out
