"""What a 胡 would bring, asked before it is declared: the score shown on the 胡 button.

It plays the 胡 on a copy of the hand through the public :func:`engine.hand.apply` (which
never changes its input), so the preview is the judgement the engine would really make, not
a second reading of the rules.

>>> from engine.hand import new_hand, waiting_on
>>> from engine.rules import Rules
>>> state = new_hand(Rules(), dealer=0, seed=1)
>>> hu_preview(state, waiting_on(state)[0]) is None  # a dealt hand rarely wins at once
True
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.hand import HandState, apply, legal_actions, waiting_on

__all__ = ["hu_preview"]


def hu_preview(state: HandState, seat: int) -> dict[str, Any] | None:
    """``{"score": points, "judgement": {...}}`` if ``seat`` may declare 胡 now, else None.

    ``score`` is the win score: what each paying player pays for it (for 抢杠, what the
    robbed player pays), before the 番 profile's extra for a payer's own flown 宝;
    ``judgement`` has the Chinese ``name`` and the itemised ``breakdown``.
    """
    if not any(a.type == "hu" for a in legal_actions(state, seat)):
        return None
    after, _ = apply(state, seat, Action("hu"))
    # In a 抢杠 window the hand ends only when every robber has answered: let them pass.
    while after.phase == "rob":
        after, _ = apply(after, waiting_on(after)[0], Action("pass"))
    result = after.result
    if result is None or str(seat) not in result["scores"]:
        return None
    return {"score": result["scores"][str(seat)], "judgement": result["judgements"][str(seat)]}
