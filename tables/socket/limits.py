"""How much one socket may do: inputs per second (in the consumer's memory) and openings per
minute (in the shared cache); and how many one process takes (:class:`ProcessLoad`). The
slots a socket holds are :mod:`tables.play.page_leases`.

>>> bucket = TokenBucket(rate=10, burst=2, now=0.0)
>>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(0.1)]
[True, True, False, True]
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from django.conf import settings

from tables.rooms.lookup_limits import window_count_add
from tables.socket.loop_local import PerLoop

__all__ = [
    "ProcessLoad",
    "TokenBucket",
    "connect_allowed",
    "process_load",
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


LAG_PROBE_SECONDS = 0.25
"""How often the event loop's lateness is sampled."""

LAG_FORGET = 0.8
"""Each sample keeps this share of the lateness seen before: a stall is remembered for a few
seconds, not for good."""


class ProcessLoad:
    """How full this process is: its open table sockets, and how late its event loop runs
    (sampled every :data:`LAG_PROBE_SECONDS`, the worst of the last few seconds).

    A process past ``TABLE_PROCESS_SOCKETS`` sockets or ``TABLE_PROCESS_LAG_SECONDS`` of
    lateness takes no new page that has no seat at the table: those are refused with "try
    again later" (1013), and the page retries with backoff, before the seated players'
    sockets suffer. A seated player's page is refused only past a quarter more sockets or
    four times the lateness, so that load alone does not keep them out long enough for their
    seat to go on 托管.

    >>> load = ProcessLoad(sockets=4, lag_seconds=0.25)
    >>> load.open = 4
    >>> load.full(seated=False), load.full(seated=True)
    (True, False)
    """

    def __init__(self, *, sockets: int | None = None, lag_seconds: float | None = None) -> None:
        self.sockets = sockets if sockets is not None else settings.TABLE_PROCESS_SOCKETS
        self.lag_seconds = (
            lag_seconds if lag_seconds is not None else settings.TABLE_PROCESS_LAG_SECONDS
        )
        self.open = 0
        self.lag = 0.0
        self.probe: asyncio.Task[None] | None = None

    def full(self, *, seated: bool) -> bool:
        if seated:
            return self.open >= self.sockets * 1.25 or self.lag > 4 * self.lag_seconds
        return self.open >= self.sockets or self.lag > self.lag_seconds

    def opened(self) -> None:
        self.open += 1
        if self.probe is None or self.probe.done():
            self.probe = asyncio.ensure_future(self._sample())

    def closed(self) -> None:
        self.open = max(0, self.open - 1)

    def late(self, seconds: float) -> None:
        """One sample: the loop ran ``seconds`` later than asked."""
        self.lag = max(seconds, self.lag * LAG_FORGET)

    async def _sample(self) -> None:
        while self.open:
            asked = time.monotonic() + LAG_PROBE_SECONDS
            await asyncio.sleep(LAG_PROBE_SECONDS)
            self.late(max(0.0, time.monotonic() - asked))
        self.lag = 0.0


_loads = PerLoop(ProcessLoad)


def process_load() -> ProcessLoad:
    """This process's load (one per event loop)."""
    return _loads.get()
