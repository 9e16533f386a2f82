"""Payments of a finished hand (§8, and §9's 番 extras): payer → payee transfers.

Every transfer moves points from one seat to another, so a hand always sums to zero.

>>> transfer(1, 0, 4, "self_draw")
{'payer': 1, 'payee': 0, 'points': 4, 'reason': 'self_draw'}
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

from engine.melds import GANG_KINDS

if TYPE_CHECKING:
    from engine.hand import HandState

__all__ = ["flyer_extra", "gang_payments", "self_draw_payments", "transfer"]


def _count(hand: Sequence[int], kind: int) -> int:
    return sum(1 for t in hand if t == kind)


def transfer(payer: int, payee: int, points: int, reason: str) -> dict[str, Any]:
    return {"payer": payer, "payee": payee, "points": points, "reason": reason}


def flyer_extra(s: HandState, payer: int, score: int) -> int:
    """What ``payer`` pays for a win worth ``score``: in the 番 profile a payer who flew 宝 and
    did not win pays one extra 番 per 宝 flown (§9), whether the win was drawn or robbed."""
    return score * 2 ** s.flown[payer] if s.rules.scoring == "fan" else score


def self_draw_payments(
    s: HandState, w: int, score: int, *, flat: bool = False
) -> list[dict[str, Any]]:
    """What each other seat pays a self-drawn win; ``flat``: 天胡/地胡, nothing else counted."""
    others = [(w + i) % 4 for i in range(1, 4)]
    share: dict[int, int] = {}
    for o in others:
        share[o] = score if flat else flyer_extra(s, o, score)
    payer_of = {o: o for o in others}
    if s.rules.chengbao:
        fed: dict[int, int] = {}
        for m in s.melds[w]:
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
        transfer(payer_of[o], w, share[o], "self_draw" if payer_of[o] == o else "chengbao")
        for o in others
    ]


def gang_payments(
    s: HandState,
    robbed: int | None = None,
    cancelled: Collection[int] = (),
    bao_gang_robbed: bool = False,
) -> list[dict[str, Any]]:
    """Gang points and 四宝 of every seat (§8), settled when the hand ends.

    A robbed gang never lands, so it scores nothing by itself. Under §9's robbed-chain rule
    (``rob_settlement = fan``) the ``robbed`` seat's earlier gangs of the kinds in ``cancelled``
    score nothing either, and with ``bao_gang_robbed`` (the robbed gang was of the four 宝) it
    keeps that gang's 四宝 points (seed 001: 开杠分取消, 宝开杠除外).
    """
    out: list[dict[str, Any]] = []
    ind, bao = s.indicator, s.bao
    r = s.rules
    for p in range(4):
        values: list[tuple[int, str]] = []
        for m in s.melds[p]:
            if p == robbed and m.kind in GANG_KINDS and m.tiles[0] in cancelled:
                continue  # a robber's hand wins on it too: it goes with the robbed chain
            if m.kind in ("minggang", "bugang"):
                values.append((r.minggang_points, m.kind))
            elif m.kind == "angang":
                values.append((r.angang_points, "angang"))
            elif m.kind == "liangbao":
                values.append((r.liangbao_gang_points, "liangbao"))
            elif m.kind == "peng" and m.tiles[0] == ind:
                values.append((r.minggang_points, "peng_of_indicator"))
        if _count(s.hands[p], ind) == 3:
            values.append((r.angang_points, "concealed_indicator_triple"))
        held_bao = _count(s.hands[p], bao) + sum(_count(m.tiles, bao) for m in s.melds[p])
        if held_bao == 4 or (p == robbed and bao_gang_robbed):
            values.append((r.sibao_points, "sibao"))
        for pts, why in values:
            if pts:
                out.extend(transfer(o, p, pts, why) for o in range(4) if o != p)
    return out
