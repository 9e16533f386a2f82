"""The channel layers: the embedded setup's in-memory one, and Redis's for production.

**In memory** (:class:`PacedInMemoryChannelLayer`): Channels' in-memory layer with its
expiry sweep paced.
``InMemoryChannelLayer`` sweeps every channel and every group membership for expired
entries on each ``receive`` and each ``group_send``. With N pages open in the process, each
page's wait for its next message costs O(N), so one change pushed to a table's four pages
costs O(N) five times over. Expiry is coarse anyway (a message expires after a minute, a
group membership after a day), so here the sweep runs at most once per
:attr:`PacedInMemoryChannelLayer.sweep_seconds`; what it removes is the same.

**Redis**: channels_redis's own Pub/Sub layer, used as it ships
(:data:`config.env.REDIS_CHANNEL_LAYER` says why that one).

>>> layer = PacedInMemoryChannelLayer()
>>> layer.sweep_seconds
1.0
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer

__all__ = ["PacedInMemoryChannelLayer"]


class PacedInMemoryChannelLayer(InMemoryChannelLayer):  # type: ignore[misc]
    sweep_seconds = 1.0
    """Seconds between two sweeps for expired messages and group memberships."""

    _swept_at = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept_at < self.sweep_seconds:
            return
        self._swept_at = now
        super()._clean_expired()
