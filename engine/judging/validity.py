"""Which hands can exist: the judge's input checks, each refusal a :class:`HandError`.

A hand is refused when no table could hold it (a fifth copy, a bad meld, the wrong tile
count) or when its context could not have happened with it (more 宝 flown than exist, a
杠开 without the gang, a 抢杠 of a kind the robber holds); ``docs/rules.md`` lists them all.

>>> from engine.tiles import counts_of, parse_tiles, parse_tile
>>> check_context(counts_of(parse_tiles("123m456m789p234s55z")), [], parse_tile("5z"),
...               parse_tile("9s"), WinContext(win_by="rob_gang"))
Traceback (most recent call last):
...
engine.judging.validity.HandError: a 抢杠 win on 5z with 1 more 5z in the hand: the robbed gang \
holds the other three, so the robber can hold none
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.judging.memo import remembered
from engine.judging.scoring import WinContext
from engine.melds import GANG_KINDS, MELD_KINDS, Meld
from engine.rules import Rules
from engine.tiles import BAO_OF, KIND_COUNT, format_tile

__all__ = [
    "HandError",
    "check_context",
    "check_hand",
    "check_meld",
    "check_win_context",
    "concealed_counts",
]


class HandError(ValueError):
    """A hand that cannot be judged: wrong tile count, a fifth copy, a bad meld …

    The message is English (the score CLI's answer); ``code`` and ``params`` say the same for
    a page that words it in its reader's language (the 算分器)."""

    def __init__(self, message: str, code: str = "", **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def concealed_counts(concealed: Sequence[int]) -> list[int]:
    """The concealed tiles as 34 counts; raises :class:`HandError` for a bad kind."""
    counts = [0] * KIND_COUNT
    try:
        for k in concealed:
            counts[k] += 1
    except (IndexError, TypeError):
        counts = []
    if not counts or (concealed and min(concealed) < 0):
        bad = [k for k in concealed if not isinstance(k, int) or not 0 <= k < KIND_COUNT]
        raise HandError(f"no tile kind {bad[0]!r} in the concealed tiles")
    return counts


def check_hand(
    counts: Sequence[int],
    n_concealed: int,
    melds: Sequence[Meld],
    winning_tile: int,
    indicator: int,
) -> None:
    """Raise :class:`HandError` unless the concealed ``counts`` (``n_concealed`` tiles),
    the melds and the indicator make a possible 14-tile hand holding ``winning_tile``."""
    if len(melds) > 4:
        raise HandError(f"{len(melds)} melds: a hand has at most four")
    if melds or max(counts) > 4 or counts[indicator] > 3:  # else no kind reaches five
        _check_copies(counts, melds, indicator)
    if n_concealed + 3 * len(melds) != 14:
        raise HandError(
            f"{n_concealed} concealed tiles with {len(melds)} melds: concealed + 3 per meld "
            "must be 14"
        )
    if not 0 <= winning_tile < KIND_COUNT or counts[winning_tile] == 0:
        raise HandError("the winning tile must be among the concealed tiles")


def _check_copies(counts: Sequence[int], melds: Sequence[Meld], indicator: int) -> None:
    """Check the melds, and that no kind has five copies counting the melds and the
    indicator."""
    seen = list(counts)
    seen[indicator] += 1
    for m in melds:
        check_meld(m, indicator)
        for k in m.tiles:
            seen[k] += 1
    if max(seen) > 4:
        k = seen.index(max(seen))
        extra = " (the indicator is one visible copy)" if k == indicator else ""
        raise HandError(
            f"{seen[k]} copies of {format_tile(k)}: only four exist{extra}",
            "copies",
            n=seen[k],
            tile=format_tile(k),
        )


def check_context(
    counts: Sequence[int],
    melds: Sequence[Meld],
    winning_tile: int,
    indicator: int,
    context: WinContext,
    rules: Rules | None = None,
) -> None:
    """Raise :class:`HandError` unless ``context`` could have happened with this hand
    (under ``rules``, when given: a 抢杠 win needs ``qiang_gang``).

    Only after a memo miss: an answer in the memo was checked when it was made.
    """
    check_win_context(melds, context, rules)
    if context.flown_bao:
        bao = BAO_OF[indicator]
        held = counts[bao] + sum(m.tiles.count(bao) for m in melds)
        if held + context.flown_bao > 4:
            raise HandError(
                f"flown_bao {context.flown_bao} with {held} 宝 ({format_tile(bao)}) among the 14 "
                "tiles: only four 宝 exist",
                "too_many_bao",
                flown=context.flown_bao,
                held=held,
                bao=format_tile(bao),
            )
    if context.win_by == "rob_gang":
        _check_robbed_kind(counts, melds, winning_tile, indicator)


def check_win_context(melds: Sequence[Meld], context: WinContext, rules: Rules | None) -> None:
    """The part of :func:`check_context` that needs no concealed tile: it holds for every
    tile a 13-tile hand might win on, or for none (so a list of waits can say why it is
    empty)."""
    if context.win_by == "rob_gang" and rules is not None and not rules.qiang_gang:
        raise HandError(
            "a 抢杠 win (win_by rob_gang) can't happen under these rules: the option qiang_gang "
            "is off, so nobody may rob a gang and every win is self-drawn",
            "qiang_gang_off",
        )
    if not 0 <= context.flown_bao <= 4 or not 0 <= context.gang_draws <= 4:
        # only four 宝 exist and a hand holds at most four gangs
        raise HandError("flown_bao and gang_draws must each be between 0 and 4")
    if context.win_by not in ("self_draw", "rob_gang"):
        raise HandError(f"win_by must be self_draw or rob_gang, not {context.win_by!r}")
    if context.gang_draws:
        if context.win_by == "rob_gang":
            raise HandError(
                "gang_draws is for a win on a replacement draw, not a 抢杠 win", "gang_draws_robbed"
            )
        # each replacement draw of a 杠开 chain follows one of the hand's own gangs
        gangs = sum(1 for m in melds if m.kind in GANG_KINDS)
        if context.gang_draws > gangs:
            raise HandError(
                f"gang_draws {context.gang_draws} with {gangs} gang meld(s) that draw a "
                "replacement (明杠, 补杠, 暗杠; not 亮宝杠)",
                "gang_draws_gangs",
                draws=context.gang_draws,
                gangs=gangs,
            )
    if context.heavenly or context.earthly:
        _check_tian_di(melds, context)


def _check_robbed_kind(
    counts: Sequence[int], melds: Sequence[Meld], robbed: int, indicator: int
) -> None:
    """Raise :class:`HandError` unless the robbed kind's other three copies can be the
    ganger's: a 明杠 is three from hand and the claimed discard, a 补杠 the 碰's three and
    the added tile, a 暗杠 four from hand, so the robber holds no other tile of that kind
    (§4), and none of them can be the indicator (its kind gangs only as 亮宝杠, which can't be
    robbed)."""
    held = counts[robbed] - 1 + sum(m.tiles.count(robbed) for m in melds)
    if held:
        raise HandError(
            f"a 抢杠 win on {format_tile(robbed)} with {held} more {format_tile(robbed)} in the "
            "hand: the robbed gang holds the other three, so the robber can hold none",
            "rob_held",
            tile=format_tile(robbed),
            held=held,
        )
    if robbed == indicator:
        raise HandError(
            f"a 抢杠 win on {format_tile(robbed)}, the indicator's kind: with the indicator "
            "showing, only three are left, and they gang only as 亮宝杠, which can't be robbed",
            "rob_indicator",
            tile=format_tile(robbed),
        )


def _check_tian_di(melds: Sequence[Meld], context: WinContext) -> None:
    """天胡 is the dealer's first 14 tiles, 地胡 a non-dealer's first draw before any 吃/碰/杠:
    both are self-drawn before the winner's first discard, with no meld at all (a 暗杠 or
    亮宝杠 is a declared meld too, and a 暗杠's replacement is not the first draw)."""
    if context.heavenly and context.earthly:
        raise HandError("heavenly and earthly can't both be true: 天胡 is the dealer's, 地胡 not")
    name = "heavenly (天胡)" if context.heavenly else "earthly (地胡)"
    if context.win_by != "self_draw":
        raise HandError(f"{name} is self-drawn, not {context.win_by}", "tian_di_robbed")
    if melds:
        raise HandError(f"{name} has no declared melds, not even a 暗杠 or 亮宝杠", "tian_di_melds")
    if context.flown_bao:
        raise HandError(
            f"{name} comes before the winner's first discard: flown_bao must be 0",
            "tian_di_flown",
        )


@remembered
@lru_cache(maxsize=1 << 12)
def check_meld(m: Meld, indicator: int) -> None:
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
        raise HandError("bad meld: 亮宝杠 is three tiles of the indicator's kind", "liangbao_kind")
