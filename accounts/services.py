"""Writes for accounts: creating users and profile changes.

Failed logins are limited by django-axes (settings ``AXES_*``), not here.
"""

from __future__ import annotations

from accounts.models import User


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
