"""The judgement API: validate a finished hand, find its readings, price the best.

Pattern analysis lives in :mod:`engine.patterns`, score tables in :mod:`engine.scoring`.

>>> from engine.tiles import parse_tiles, parse_tile
>>> j = judge(parse_tiles("123m456m789p234s55z"), [], parse_tile("5z"), parse_tile("9s"),
...           WinContext(), Rules())
>>> j.score, j.name, j.bao_status
(4, '平胡', 'wubao')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.melds import GANG_KINDS, MELD_KINDS, Meld
from engine.patterns import candidates
from engine.rules import Rules
from engine.scoring import BreakdownItem, Candidate, WinContext, score_candidate
from engine.tiles import KIND_COUNT, bao_of, format_tile

__all__ = [
    "BreakdownItem",
    "Candidate",
    "HandError",
    "Judgement",
    "WinContext",
    "judge",
    "winning_tiles",
]


class HandError(ValueError):
    """A hand that cannot be judged: wrong tile count, a fifth copy, a bad meld …"""


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


def _validate(
    concealed: Sequence[int], melds: Sequence[Meld], winning_tile: int, indicator: int
) -> list[int]:
    """Check the hand and return the concealed counts; raises :class:`HandError`."""
    if not 0 <= indicator < KIND_COUNT:
        raise HandError(f"no tile kind {indicator} for the indicator")
    counts = [0] * KIND_COUNT
    try:
        for k in concealed:
            counts[k] += 1
    except (IndexError, TypeError):
        counts = []
    if not counts or (concealed and min(concealed) < 0):
        bad = [k for k in concealed if not isinstance(k, int) or not 0 <= k < KIND_COUNT]
        raise HandError(f"no tile kind {bad[0]!r} in the concealed tiles")
    if len(melds) > 4:
        raise HandError(f"{len(melds)} melds: a hand has at most four")
    counts[indicator] += 1
    for m in melds:
        _check_meld(m, indicator)
        for k in m.tiles:
            counts[k] += 1
    if max(counts) > 4:
        k = counts.index(max(counts))
        extra = " (the indicator is one visible copy)" if k == indicator else ""
        raise HandError(f"{counts[k]} copies of {format_tile(k)}: only four exist{extra}")
    # back to the concealed counts only
    counts[indicator] -= 1
    for m in melds:
        for k in m.tiles:
            counts[k] -= 1
    if len(concealed) + 3 * len(melds) != 14:
        raise HandError(
            f"{len(concealed)} concealed tiles with {len(melds)} melds: concealed + 3 per meld "
            "must be 14"
        )
    if not 0 <= winning_tile < KIND_COUNT or counts[winning_tile] == 0:
        raise HandError("the winning tile must be among the concealed tiles")
    return counts


@lru_cache(maxsize=1 << 12)
def _check_meld(m: Meld, indicator: int) -> None:
    """Raise :class:`HandError` unless ``m`` is a legal meld (memoised: melds repeat)."""
    if m.kind not in MELD_KINDS:
        raise HandError(f"bad meld kind {m.kind!r}")
    t = m.tiles
    size = 4 if m.kind in GANG_KINDS else 3
    if any(not isinstance(k, int) or not 0 <= k < KIND_COUNT for k in t) or len(t) != size:
        raise HandError(f"bad meld {m.kind} of {len(t)} tiles")
    if m.kind == "chi":
        s = sorted(t)
        if s[0] >= 27 or s[0] // 9 != s[2] // 9 or s != [s[0], s[0] + 1, s[0] + 2]:
            raise HandError("bad meld: 吃 is three consecutive tiles of one suit")
    elif len(set(t)) != 1:
        raise HandError(f"bad meld: {m.kind} is {size} identical tiles")
    if m.kind == "liangbao" and t[0] != indicator:
        raise HandError("bad meld: 亮宝杠 is three tiles of the indicator's kind")


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
    counts = _validate(concealed, melds, winning_tile, indicator)
    if not 0 <= context.flown_bao <= 4 or not 0 <= context.gang_draws <= 4:
        # only four 宝 exist and a hand holds at most four gangs
        raise HandError("flown_bao and gang_draws must each be between 0 and 4")
    if context.win_by not in ("self_draw", "rob_gang"):
        raise HandError(f"win_by must be self_draw or rob_gang, not {context.win_by!r}")
    bao = bao_of(indicator)
    meld_tiles = [k for m in melds for k in m.tiles[:3]]
    cands, patterns = candidates(counts, meld_tiles, melds, winning_tile, bao, context, rules)
    if not cands:
        return Judgement(patterns, False, 0, "", (), "wubao", reason=_NO_WIN)
    best: Judgement | None = None
    best_key = (False, -1, -1)
    for c in cands:
        p = score_candidate(c, context, rules, len(melds))
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

    >>> from engine.tiles import parse_tiles, parse_tile
    >>> [(format_tile(k), j.score) for k, j in
    ...  winning_tiles(parse_tiles("123m456m789p234s5z"), [], parse_tile("9s"), Rules())]
    [('5z', 4)]
    """
    hand = list(concealed13)
    out: list[tuple[int, Judgement]] = []
    for k in range(KIND_COUNT):
        try:
            j = judge([*hand, k], melds, k, indicator, context, rules)
        except HandError:
            continue  # a fifth copy can't be drawn
        if j.win:
            out.append((k, j))
    return out
