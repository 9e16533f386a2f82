"""What a 胡 would bring, asked before it is declared: the score shown on the 胡 button.

It is read from the seat's own view: :attr:`engine.views.SeatInfo.win` is the judgement the
state machine settles that 胡 with (:func:`engine.hand.hu_check`), so the preview is the
judgement the engine would really make, not a second reading of the rules.

>>> from engine.hand import new_hand, waiting_on
>>> from engine.rules import Rules
>>> from engine.views import seat_info
>>> state = new_hand(Rules(), dealer=0, seed=1)
>>> hu_preview(seat_info(state, waiting_on(state)[0])) is None  # a dealt hand rarely wins
True
"""

from __future__ import annotations

import copy
from typing import Any

from engine.views import SeatInfo

__all__ = ["hu_preview"]


def hu_preview(info: SeatInfo) -> dict[str, Any] | None:
    """``{"score": points, "judgement": {...}}`` if ``info``'s seat may declare 胡 now, else None.

    ``score`` is the win score: what each paying player pays for it (for 抢杠, what the
    robbed player pays), before the 番 profile's extra for a payer's own flown 宝;
    ``judgement`` has the Chinese ``name`` and the itemised ``breakdown``: both as the
    hand's result will carry them once it is declared.
    """
    if info.win is None:
        return None
    return {"score": info.win.score, "judgement": copy.deepcopy(info.win.detail)}
