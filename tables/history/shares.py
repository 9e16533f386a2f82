"""Share links to a finished hand's replay: the room's owner creates and revokes them.

A link is a random token (``secrets.token_urlsafe``), so it can't be guessed; whoever holds it
sees that one hand's replay, nothing else, until it is revoked.
"""

from __future__ import annotations

import secrets
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from tables.models import Hand, ReplayShare
from tables.play.proof import hand_finished

__all__ = [
    "ShareError",
    "share_create",
    "share_hand",
    "share_revoke",
    "shares_of",
]

TOKEN_BYTES = 24


class ShareError(ValueError):
    """A refused share request; nothing changed."""


def _check_owner(hand: Hand, user: User) -> None:
    if hand.room.owner_id != user.pk:
        raise ShareError(_("Only the room's owner can share or unshare a replay."))


def share_create(*, hand: Hand, user: User) -> ReplayShare:
    """A new share link to ``hand``'s replay, made by the room's owner once the hand has ended."""
    _check_owner(hand, user)
    if not hand_finished(hand):
        raise ShareError(_("A hand can be shared only once it has ended."))
    return ReplayShare.objects.create(
        hand=hand, token=secrets.token_urlsafe(TOKEN_BYTES), created_by=user
    )


def share_revoke(*, hand: Hand, share_id: int, user: User, now: datetime | None = None) -> None:
    """Revoke one of ``hand``'s links: from now on it leads nowhere."""
    _check_owner(hand, user)
    share = ReplayShare.objects.filter(pk=share_id, hand=hand, revoked_at__isnull=True).first()
    if share is None:
        raise ShareError(_("That link is already revoked."))
    share.revoked_at = now or timezone.now()
    share.save(update_fields=["revoked_at"])


def shares_of(hand: Hand) -> list[ReplayShare]:
    """``hand``'s links still in force, oldest first."""
    return list(ReplayShare.objects.filter(hand=hand, revoked_at__isnull=True))


def share_hand(*, token: str) -> Hand | None:
    """The finished hand a link in force leads to, or None (unknown, revoked, or in play)."""
    share = (
        ReplayShare.objects.select_related("hand", "hand__room")
        .filter(token=token, revoked_at__isnull=True)
        .first()
    )
    if share is None or not hand_finished(share.hand):
        return None
    return share.hand
