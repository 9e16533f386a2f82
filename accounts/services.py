"""Writes for accounts: creating users, profile changes, login rate limiting."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache

from accounts.models import User
from accounts.selectors import login_failure_cache_key


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


def window_count_add(*, key: str, window_seconds: int) -> int:
    """Add one to the counter ``key`` in the cache; returns the count in its window.

    The window starts at the first count and lasts ``window_seconds``; the cache is shared by
    every server process (Redis in production), so the limit holds across them.
    """
    cache.add(key, 0, timeout=window_seconds)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add() and incr()
        cache.set(key, 1, timeout=window_seconds)
        return 1


def login_failure_record(*, username: str, ip: str) -> int:
    """Count one failed login for this username + IP; returns the count in this window.

    The window starts at the first failure and lasts LOGIN_RATE_LIMIT_WINDOW_SECONDS.
    """
    window: int = settings.LOGIN_RATE_LIMIT_WINDOW_SECONDS
    return window_count_add(key=login_failure_cache_key(username, ip), window_seconds=window)


def login_failure_clear(*, username: str, ip: str) -> None:
    """Forget failed logins for this username + IP, e.g. after a successful login."""
    cache.delete(login_failure_cache_key(username, ip))
