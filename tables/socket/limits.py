"""How much one socket may do: inputs per second (in the consumer's memory) and openings per
minute (in the shared cache). The slots a socket holds are :mod:`tables.play.page_leases`.

>>> bucket = TokenBucket(rate=10, burst=2, now=0.0)
>>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(0.1)]
[True, True, False, True]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings

from tables.rooms.lookup_limits import window_count_add

__all__ = [
    "TokenBucket",
    "connect_allowed",
]


@dataclass
class TokenBucket:
    """``rate`` inputs a second on average, ``burst`` at once; :meth:`take` says if one may pass."""

    rate: float
    burst: float
    now: float
    tokens: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.now) * self.rate)
        self.now = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def connect_allowed(*, user_id: int, number: str) -> bool:
    """One more socket opening by ``user_id`` at room ``number`` is within the rate: opening
    and closing pages is an input like any other (each may change the seat's presence)."""
    count = window_count_add(key=f"tables:connects:{user_id}:{number}", window_seconds=60)
    return count <= settings.TABLE_CONNECTS_PER_MINUTE
