"""Writes for accounts: creating users and profile changes.

Failed logins are limited by django-axes (settings ``AXES_*``), not here.
"""

from __future__ import annotations

import secrets

from accounts.models import User

GUEST_PREFIX = "guest-"
"""Guests' usernames: the prefix and a random part, until they choose their own."""


def user_sign_up(*, username: str, password: str, display_name: str = "") -> User:
    """Create a player account. Password strength is checked by the sign-up form."""
    user = User(username=username, display_name=display_name.strip())
    user.set_password(password)
    user.full_clean()
    user.save()
    return user


def user_display_name_update(*, user: User, display_name: str) -> User:
    """Change what other players see; an empty name falls back to the username."""
    user.display_name = display_name.strip()
    user.full_clean()
    user.save(update_fields=["display_name"])
    return user


def guest_create(*, nickname: str) -> User:
    """A real account without a password, for a friend sitting down from an invite: what they
    play is booked to it like anyone's, and stays theirs once they claim it."""
    user = User(
        username=GUEST_PREFIX + secrets.token_hex(6),
        display_name=nickname.strip(),
        is_guest=True,
    )
    user.set_unusable_password()
    user.full_clean()
    user.save()
    return user


def guest_claim(*, user: User, username: str, password: str) -> User:
    """The guest becomes an ordinary account: their own username and a password (checked by
    the form). Same row, so every hand, entry and replay stays theirs."""
    if not user.is_guest:
        raise ValueError("only a guest account can be claimed")
    user.username = username
    user.set_password(password)
    user.is_guest = False
    user.full_clean()
    user.save()
    return user
