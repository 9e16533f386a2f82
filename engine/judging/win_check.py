"""Can a seat declare a win now? The state machine's door to :mod:`engine.judging.judge`.

:mod:`engine.hand` asks at every self-draw and every gang that may be robbed. Most of those
tiles form no winning shape, so :func:`could_win` turns them away cheaply; the rest go to
:func:`judge_win` once per distinct question and are remembered (:func:`judged`), since the
same question comes back to offer the win, to check the answer and for each seat view.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.judging.judge import WinContext, judge
from engine.judging.memo import Bounded, remembered
from engine.judging.shanten import complete
from engine.melds import Meld, all_terminal
from engine.rules import Rules
from engine.tiles import bao_of, wild_counts

__all__ = ["WinCheck", "could_win", "judge_win", "judged"]


@dataclass(frozen=True)
class WinCheck:
    """What the state machine needs from the judge: does it win, for how much, the details."""

    win: bool
    score: int
    detail: dict[str, Any]
    flat: bool = False
    """天胡/地胡: a flat score, nothing else counted (no 番 from the others' 飞宝 either)."""


def judge_win(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    winning_tile: int,
    indicator: int,
    rules: Rules,
    context: WinContext,
) -> WinCheck:
    """The judge's answer as the state machine needs it; most non-wins are turned away by
    :func:`could_win` before the judge is asked.

    >>> from engine.tiles import parse_tile, parse_tiles
    >>> check = judge_win(parse_tiles("123m456m789p234s55z"), [], parse_tile("5z"),
    ...                   parse_tile("9s"), Rules(), WinContext())
    >>> check.win, check.score, check.detail["name"]
    (True, 4, '平胡')
    """
    if not could_win(concealed, melds, indicator):
        return WinCheck(False, 0, {"reason": "no winning shape"})
    j = judge(list(concealed), list(melds), winning_tile, indicator, context, rules)
    detail: dict[str, Any] = {
        "name": j.name,
        "score": j.score,
        "patterns": sorted(j.patterns),
        "bao_status": j.bao_status,
        "fan": j.fan,
        "base": j.base,
        "reason": j.reason,
        "breakdown": [dataclasses.asdict(b) for b in j.breakdown],
    }
    return WinCheck(j.win, j.score, detail, flat=context.heavenly or context.earthly)


def could_win(concealed: Sequence[int], melds: Sequence[Meld], indicator: int) -> bool:
    """A cheap necessary condition for a win: the 14 tiles are a complete shape (sets and a
    pair, 七对, 十三烂 or 九幺) when every 宝 may be anything. Most draws fail it, and then the
    full judgement (every reading of every 宝, priced) need not run.

    >>> from engine.tiles import parse_tile, parse_tiles
    >>> could_win(parse_tiles("123m456m789p234s55z"), [], parse_tile("9s"))
    True
    >>> could_win(parse_tiles("123m456m789p234s56z"), [], parse_tile("9s"))
    False
    """
    if len(concealed) + 3 * len(melds) != 14 or len(melds) > 4:
        return True  # not a hand the shape check knows; let the judge explain
    counts, wilds = wild_counts(concealed, bao_of(indicator))
    return complete(counts, wilds, len(melds), melds_terminal=all_terminal(melds))


_JUDGED_LIMIT = 1 << 14
_JUDGED: Bounded[tuple[Any, ...], WinCheck] = remembered(Bounded(_JUDGED_LIMIT))
"""Judgements are asked for again and again: once to offer the win, once more when the action
comes back to be checked, once per seat view. They depend only on the key, so keep them."""


def judged(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    winning_tile: int,
    indicator: int,
    rules: Rules,
    context: WinContext,
) -> WinCheck:
    """:func:`judge_win`, remembered by its whole question."""
    key = (tuple(concealed), tuple(melds), winning_tile, indicator, rules, context)
    got = _JUDGED.get(key)
    if got is None:
        got = _JUDGED.keep(
            key, judge_win(concealed, melds, winning_tile, indicator, rules, context)
        )
    return got
