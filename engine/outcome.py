"""How a hand ends: the :class:`Result` and its payments (§2's next dealer, §8, §9's 番 extras).

Built from plain values (:class:`HandEnd`, the winners' judgements), not from the state machine,
which calls :func:`settle` once and stores :meth:`Result.to_json`: the dict logs, replays and
stored rooms carry. Every :class:`Payment` moves points from one seat to another, so a hand
always sums to zero.

>>> Payment(1, 0, 4, "self_draw").to_json()
{'payer': 1, 'payee': 0, 'points': 4, 'reason': 'self_draw'}
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.judging.win_check import WinCheck
from engine.melds import GANG_KINDS, Meld
from engine.rules import Rules
from engine.tiles import bao_of, format_tile, format_tiles

__all__ = [
    "GANG_REASONS",
    "WIN_REASONS",
    "HandEnd",
    "Outcome",
    "Payment",
    "Reason",
    "Result",
    "flyer_extra",
    "gang_payments",
    "self_draw_payments",
    "settle",
]

Outcome = Literal["self_draw", "rob_gang", "draw"]
Reason = Literal[
    "self_draw",
    "chengbao",
    "qiang_gang",
    "minggang",
    "bugang",
    "angang",
    "liangbao",
    "peng_of_indicator",
    "concealed_indicator_triple",
    "sibao",
]

WIN_REASONS: tuple[Reason, ...] = ("self_draw", "qiang_gang", "chengbao")
"""Payment reasons that pay a winner for the win itself."""
GANG_REASONS: tuple[Reason, ...] = (
    "minggang",
    "bugang",
    "angang",
    "liangbao",
    "peng_of_indicator",
    "concealed_indicator_triple",
    "sibao",
)
"""Payment reasons of gang points and 四宝 (§8): paid whoever wins."""


@dataclass(frozen=True, slots=True)
class Payment:
    """``points`` from ``payer`` to ``payee``, and why."""

    payer: int
    payee: int
    points: int
    reason: Reason

    def to_json(self) -> dict[str, Any]:
        return {"payer": self.payer, "payee": self.payee, "points": self.points,
                "reason": self.reason}  # fmt: skip


@dataclass(frozen=True)
class HandEnd:
    """What settling reads of a hand as it ends: the tiles where they lie, the 宝 flown."""

    rules: Rules
    dealer: int
    indicator: int
    hands: Sequence[Sequence[int]]
    melds: Sequence[Sequence[Meld]]
    flown: Sequence[int]
    last_drawer: int

    @property
    def bao(self) -> int:
        return bao_of(self.indicator)


@dataclass(frozen=True)
class Result:
    """A settled hand. ``wins``: each winner's seat and judgement, in the order they won."""

    outcome: Outcome
    wins: tuple[tuple[int, WinCheck], ...]
    robbed: int | None
    winning_tile: int | None
    payments: tuple[Payment, ...]
    next_dealer: int
    hands: tuple[tuple[int, ...], ...]

    @property
    def winners(self) -> list[int]:
        return [w for w, _ in self.wins]

    @property
    def totals(self) -> list[int]:
        totals = [0, 0, 0, 0]
        for p in self.payments:
            totals[p.payer] -= p.points
            totals[p.payee] += p.points
        return totals

    def to_json(self) -> dict[str, Any]:
        """The result dict of logs, replays and stored rooms (docs/engine.md)."""
        return {
            "outcome": self.outcome,
            "winners": self.winners,
            "robbed": self.robbed,
            "winning_tile": None if self.winning_tile is None else format_tile(self.winning_tile),
            "judgements": {str(w): copy.deepcopy(c.detail) for w, c in self.wins},
            "scores": {str(w): c.score for w, c in self.wins},
            "transfers": [p.to_json() for p in self.payments],
            "totals": self.totals,
            "next_dealer": self.next_dealer,
            "hands": [format_tiles(h) for h in self.hands],
        }


def settle(
    end: HandEnd,
    wins: Sequence[tuple[int, WinCheck]],
    *,
    win_by: Outcome,
    tile: int | None,
    robbed: int | None = None,
    cancelled: Collection[int] = (),
    bao_gang_robbed: bool = False,
) -> Result:
    """The result of a hand won by ``wins`` on ``tile`` (``win_by`` ``draw``, no wins: 流局).

    ``robbed``: the seat whose gang was robbed; ``cancelled``, ``bao_gang_robbed``: see
    :func:`gang_payments`."""
    payments: list[Payment] = []
    for w, check in wins:
        if win_by == "rob_gang":
            assert robbed is not None
            extra = flyer_extra(end.rules, end.flown, robbed, check.score)
            payments.append(Payment(robbed, w, extra, "qiang_gang"))
        else:
            payments.extend(self_draw_payments(end, w, check.score, flat=check.flat))
    payments.extend(gang_payments(end, robbed, cancelled, bao_gang_robbed))
    winners = [w for w, _ in wins]
    if winners:
        # with several robbers, the first in turn order after the robbed player deals
        next_dealer = winners[0] if robbed is None else first_after(robbed, winners)
    elif end.rules.draw_dealer == "next_seat":
        next_dealer = (end.dealer + 1) % 4
    else:
        next_dealer = end.last_drawer
    return Result(
        outcome=win_by if wins else "draw",
        wins=tuple(wins),
        robbed=robbed,
        winning_tile=tile,
        payments=tuple(payments),
        next_dealer=next_dealer,
        hands=tuple(tuple(h) for h in end.hands),
    )


def first_after(seat: int, seats: Sequence[int]) -> int:
    """The seat of ``seats`` first in turn order after ``seat``.

    >>> first_after(2, [1, 3])
    3
    """
    return min(seats, key=lambda o: (o - seat) % 4)


def _count(hand: Sequence[int], kind: int) -> int:
    return sum(1 for t in hand if t == kind)


def flyer_extra(rules: Rules, flown: Sequence[int], payer: int, score: int) -> int:
    """What ``payer`` pays for a win worth ``score``: in the 番 profile a payer who flew 宝 and
    did not win pays one extra 番 per 宝 flown (§9), whether the win was drawn or robbed.

    >>> flyer_extra(Rules.profile_named("jiuyao_fan"), [0, 2, 0, 0], 1, 4)
    16
    """
    return score * 2 ** flown[payer] if rules.scoring == "fan" else score


def self_draw_payments(end: HandEnd, w: int, score: int, *, flat: bool = False) -> list[Payment]:
    """What each other seat pays a self-drawn win; ``flat``: 天胡/地胡, nothing else counted."""
    others = [(w + i) % 4 for i in range(1, 4)]
    share: dict[int, int] = {}
    for o in others:
        share[o] = score if flat else flyer_extra(end.rules, end.flown, o, score)
    payer_of = {o: o for o in others}
    if end.rules.chengbao:
        fed: dict[int, int] = {}
        for m in end.melds[w]:
            if m.claimed_from is not None:
                fed[m.claimed_from] = fed.get(m.claimed_from, 0) + 1
        big = [p for p, n in fed.items() if n >= 3]
        if big:
            p = big[0]
            fourth = [q for q, n in fed.items() if q != p]
            for o in others:
                # 三凑牌承包: the feeder pays for everyone, except a fourth feeder pays its own.
                payer_of[o] = o if fourth and o == fourth[0] else p
    return [
        Payment(payer_of[o], w, share[o], "self_draw" if payer_of[o] == o else "chengbao")
        for o in others
    ]


def gang_payments(
    end: HandEnd,
    robbed: int | None = None,
    cancelled: Collection[int] = (),
    bao_gang_robbed: bool = False,
) -> list[Payment]:
    """Gang points and 四宝 of every seat (§8), settled when the hand ends.

    A robbed gang never lands, so it scores nothing by itself. Under §9's robbed-chain rule
    (``rob_settlement = fan``) the ``robbed`` seat's earlier gangs of the kinds in ``cancelled``
    score nothing either, and with ``bao_gang_robbed`` (the robbed gang was of the four 宝) it
    keeps that gang's 四宝 points (seed 001: 开杠分取消, 宝开杠除外).
    """
    out: list[Payment] = []
    ind, bao = end.indicator, end.bao
    r = end.rules
    for p in range(4):
        values: list[tuple[int, Reason]] = []
        for m in end.melds[p]:
            if p == robbed and m.kind in GANG_KINDS and m.tiles[0] in cancelled:
                continue  # a robber's hand wins on it too: it goes with the robbed chain
            if m.kind == "minggang":
                values.append((r.minggang_points, "minggang"))
            elif m.kind == "bugang":
                values.append((r.minggang_points, "bugang"))
            elif m.kind == "angang":
                values.append((r.angang_points, "angang"))
            elif m.kind == "liangbao":
                values.append((r.liangbao_gang_points, "liangbao"))
            elif m.kind == "peng" and m.tiles[0] == ind:
                values.append((r.minggang_points, "peng_of_indicator"))
        if _count(end.hands[p], ind) == 3:
            values.append((r.angang_points, "concealed_indicator_triple"))
        held_bao = _count(end.hands[p], bao) + sum(_count(m.tiles, bao) for m in end.melds[p])
        if held_bao == 4 or (p == robbed and bao_gang_robbed):
            values.append((r.sibao_points, "sibao"))
        for pts, why in values:
            if pts:
                out.extend(Payment(o, p, pts, why) for o in range(4) if o != p)
    return out
