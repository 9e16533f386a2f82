"""A finished hand's result in words: who won with what, who paid whom and why, the hand's
totals and the next dealer. The table's overlay, a hand's record and the replay's last
frame show it, each from the engine's result and the seats' public melds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from tables.screen.melds import MeldView, melds_view, tile_codes

__all__ = ["Settlement", "TransferView", "WinnerView", "reason_label", "settlement_of"]


@dataclass
class WinnerView:
    name: str
    concealed: list[str]
    melds: list[MeldView]
    winning_tile: str | None
    pattern_name: str
    score: int
    breakdown: list[dict[str, Any]]


@dataclass
class TransferView:
    payer: str
    payee: str
    points: int
    reason: str


@dataclass
class Settlement:
    outcome: str
    winners: list[WinnerView]
    transfers: list[TransferView]
    hand_totals: list[tuple[str, int]]
    next_dealer: str
    revealed: list[tuple[str, list[str]]]
    staff_reason: str = ""
    """Why staff closed the hand (a 流局 nobody pays), as they gave it; "" for any other end."""


def reason_label(reason: str) -> str:
    """A transfer's reason in words."""
    labels = {
        "self_draw": _("self-drawn win"),
        "qiang_gang": _("robbing the kong"),
        "chengbao": _("pays for all (承包)"),
        "minggang": _("exposed kong"),
        "bugang": _("added kong"),
        "angang": _("concealed kong"),
        "liangbao": _("bao kong"),
        "peng_of_indicator": _("pong of the indicator"),
        "concealed_indicator_triple": _("three indicators held"),
        "sibao": _("four bao (四宝)"),
    }
    return labels.get(reason, reason)


def settlement_of(
    result: dict[str, Any], names: list[str], melds: list[list[dict[str, Any]]]
) -> Settlement:
    """A finished hand's result in words: ``names`` per seat, ``melds`` as in a seat view."""
    winners = []
    for w in result["winners"]:
        j = result["judgements"][str(w)]
        winners.append(
            WinnerView(
                name=names[w],
                concealed=tile_codes(result["hands"][w]),
                melds=melds_view(melds[w]),
                winning_tile=result["winning_tile"],
                pattern_name=j["name"],
                score=int(result["scores"][str(w)]),
                breakdown=list(j["breakdown"]),
            )
        )
    return Settlement(
        outcome=result["outcome"],
        winners=winners,
        transfers=[
            TransferView(
                names[t["payer"]], names[t["payee"]], t["points"], reason_label(t["reason"])
            )
            for t in result["transfers"]
        ],
        hand_totals=[(names[i], int(p)) for i, p in enumerate(result["totals"])],
        next_dealer=names[int(result["next_dealer"])],
        revealed=[(names[i], tile_codes(h)) for i, h in enumerate(result["hands"])],
        staff_reason=str(result.get("staff_reason", "")),
    )
