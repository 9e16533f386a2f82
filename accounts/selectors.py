"""Reads for accounts."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache

from accounts.models import User


def user_get_by_username(username: str) -> User | None:
    """The user with this username (case-insensitive), or None."""
    return User.objects.filter(username__iexact=username).first()


def login_failure_cache_key(username: str, ip: str) -> str:
    """Cache key counting failed logins for one username from one IP address."""
    return f"accounts:login-failures:{username.strip().casefold()}:{ip}"


def login_failure_count(username: str, ip: str) -> int:
    """Failed logins for this username + IP within the current window."""
    value = cache.get(login_failure_cache_key(username, ip), 0)
    return int(value)


def login_is_rate_limited(username: str, ip: str) -> bool:
    """Whether further login attempts for this username + IP are refused for now."""
    limit: int = settings.LOGIN_RATE_LIMIT_ATTEMPTS
    return login_failure_count(username, ip) >= limit
