"""A club's claim may be confirmed from the ledger's own settle-up page as well as from the
club's: whichever page it was, the confirmation that clears the club's period marks it settled.

The ledger knows nothing of clubs (clubs build on it), so the club listens for the claim's save.
"""

from __future__ import annotations

from typing import Any

from clubs.models import ClubClaim
from clubs.services import club_settled_if_square
from ledger.models import SettlementClaim

__all__ = ["claim_saved"]


def claim_saved(sender: type[SettlementClaim], instance: SettlementClaim, **kwargs: Any) -> None:
    if instance.status != SettlementClaim.Status.CONFIRMED:
        return
    link = ClubClaim.objects.filter(claim=instance).select_related("club").first()
    if link is None:
        return
    club_settled_if_square(link=link, by_id=instance.answered_by_id or instance.recorded_by_id)
