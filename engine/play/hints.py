"""听牌 hints for one seat: how far its hand is from a win, and what it waits on.

Built only from :class:`engine.views.SeatInfo`, the seat's own view, so a hint can't carry
anything the seat may not see: other hands and the wall enter only as the count of copies
it can't see (:func:`engine.views.unseen`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.judging.judge import WinContext, winning_tiles
from engine.judging.shanten import distance
from engine.melds import Meld, all_terminal
from engine.tiles import KIND_COUNT, wild_counts
from engine.views import SeatInfo, unseen

__all__ = ["Hints", "Wait", "hints", "hints_after_discard", "turn_distance"]


@dataclass(frozen=True)
class Wait:
    """One kind that completes the hand if drawn."""

    tile: int
    left: int
    """Copies this seat can't see: at most this many are still to be drawn."""
    score: int
    """What each other player would pay on the 自摸, this seat's 飞宝 included."""
    name: str


@dataclass(frozen=True)
class Hints:
    distance: int
    """Tiles to exchange before the hand waits: 0 is 听牌 (ready)."""
    waits: tuple[Wait, ...]
    """Every kind that would give a declarable win, when the hand is ready (all 34 when it
    waits 宝吊). A ready hand with none only forms wins below the minimum score."""

    @property
    def any_tile(self) -> bool:
        """宝吊: every kind completes the hand."""
        return len(self.waits) == KIND_COUNT

    @property
    def too_small(self) -> bool:
        """Ready, but every win it could make is below the minimum score (有宝平胡 2)."""
        return self.distance == 0 and not self.waits


def hints(info: SeatInfo) -> Hints | None:
    """The hints for ``info``'s seat while it waits (13 tiles with its melds), else None.

    On its own turn (a drawn tile in hand) the seat is choosing a discard, and its legal
    actions already say whether it may win, so there is no hint then.

    >>> from engine.hand import new_hand
    >>> from engine.rules import Rules
    >>> from engine.views import seat_info
    >>> state = new_hand(Rules(), dealer=0, seed=1)
    >>> hints(seat_info(state, 0)) is None  # the dealer holds 14: its turn
    True
    >>> h = hints(seat_info(state, 1))
    >>> h is not None and h.distance >= 0
    True
    """
    held = _held(info, 13)
    if held is None:
        return None
    seat, tiles, melds, away = held
    if away > 0:
        return Hints(away, ())
    left = unseen(info)
    context = WinContext(flown_bao=info.flown[seat])
    waits = tuple(
        Wait(kind, left[kind], j.score, j.name)
        for kind, j in winning_tiles(tiles, melds, info.indicator, info.rules, context)
    )
    return Hints(0, waits)


def turn_distance(info: SeatInfo) -> int | None:
    """How far ``info``'s seat, on its turn, is from a win, counted as :func:`hints` counts:
    ``-1`` complete, ``0`` when some discard leaves the hand ready, more when none does.
    None off its turn (not one tile more than a waiting hand).

    One count for the whole hand, against one :func:`hints` per tile it might discard: a
    kept tile stays kept whichever other tile goes, so no discard does better.

    >>> from engine.hand import new_hand
    >>> from engine.rules import Rules
    >>> from engine.views import seat_info
    >>> state = new_hand(Rules(), dealer=0, seed=1)
    >>> turn_distance(seat_info(state, 0)) >= -1  # the dealer holds 14
    True
    >>> turn_distance(seat_info(state, 1)) is None
    True
    """
    held = _held(info, 14)
    return None if held is None else held[3]


def hints_after_discard(info: SeatInfo, kind: int) -> Hints | None:
    """The :func:`hints` of ``info``'s seat, on its turn, after it discards ``kind``: that
    tile leaves its hand for its river, where the seat sees it like every other discard.

    >>> from engine.hand import new_hand
    >>> from engine.rules import Rules
    >>> from engine.views import seat_info
    >>> info = seat_info(new_hand(Rules(), dealer=0, seed=1), 0)
    >>> hints_after_discard(info, info.hand[0]).distance >= 0
    True
    """
    seat = info.seat
    assert seat is not None
    hand = list(info.hand)
    hand.remove(kind)
    rivers = tuple((*river, kind) if i == seat else river for i, river in enumerate(info.rivers))
    return hints(replace(info, hand=tuple(hand), drawn=None, rivers=rivers, phase="claim"))


def _held(info: SeatInfo, size: int) -> tuple[int, list[int], list[Meld], int] | None:
    """``info``'s seat, its concealed tiles, its declared melds and their :func:`distance`,
    when it holds ``size`` tiles (each meld counted as three) in a hand still played."""
    seat = info.seat
    if seat is None or info.phase == "ended":
        return None
    melds = [m for m in info.melds[seat] if m is not None]
    tiles = list(info.hand)
    if len(tiles) + 3 * len(melds) != size:
        return None
    counts, wilds = wild_counts(tiles, info.bao)
    return (
        seat,
        tiles,
        melds,
        distance(counts, wilds, len(melds), melds_terminal=all_terminal(melds)),
    )
