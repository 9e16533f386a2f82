"""Reads for accounts."""

from __future__ import annotations

from accounts.models import User


def user_get_by_username(username: str) -> User | None:
    """The user with this username (case-insensitive), or None."""
    return User.objects.filter(username__iexact=username).first()
