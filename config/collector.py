"""The garbage collector of a serving process, set once the server listens.

By the time daphne listens, the process holds what it will keep until it exits: Django's
apps and URL resolvers, the compiled templates, the engine's lookup tables. CPython's
generation-2 collection walks every one of those objects each time it runs, and on a live
server it ran for up to about 0.1 s with the event loop stopped, which every page waiting for
a push felt as a p99 spike. :func:`settle` moves them out of the collector's sight
(``gc.freeze``: they are never freed anyway) and lets the youngest generation grow larger
before it is collected, since a change's short-lived objects (the parsed state, the rendered
fragments) die by reference count, not by the collector.

A busy server also holds a large population that lives for seconds: each table's latest
snapshot and the views rendered from it, and each open socket's receive tasks, replaced at
every change. At 200 tables (800 sockets) that was about 120,000 objects, and every young
collection walked all of them, since all had been made since the last one: 65-120 ms with
the loop stopped, every 15 s or so, and each left dozens of moves over 100 ms. A
:class:`Pacer` freezes what survives each second, so the collector never walks that
population; those objects still die by reference count, which is how nearly all of them die.
What it costs is the cycles: a cycle that becomes garbage once frozen waits for the pacer's
full collection, run when the frozen population has grown by a quarter since the last one
(the bound CPython itself keeps for its oldest generation). A server at steady load made
almost none, so that collection is rare.

Example (for a serving process only: a test process should not freeze)::

    >>> import gc
    >>> pacer = settle()  # doctest: +SKIP
    >>> gc.get_freeze_count() > 0 and gc.get_threshold()[0] == YOUNG_THRESHOLD  # doctest: +SKIP
    True
    >>> pacer.tick()  # doctest: +SKIP   (once a second, from the server's loop)
"""

from __future__ import annotations

import gc
import logging
import time

__all__ = ["RECLAIM_EVERY", "RECLAIM_GROWTH", "TICK_SECONDS", "YOUNG_THRESHOLD", "Pacer", "settle"]

logger = logging.getLogger(__name__)

YOUNG_THRESHOLD = 20_000
"""Allocations (less deallocations) before a generation-0 collection; CPython's default is 700."""

TICK_SECONDS = 1.0
"""How often the :class:`Pacer` freezes what has survived since its last tick."""

RECLAIM_EVERY = 600
"""Ticks between the :class:`Pacer`'s looks at the frozen population: a full collection stops
the loop for about 0.25 s at 200 tables, so it comes at most once in ten minutes."""

RECLAIM_GROWTH = 0.25
"""Growth of the frozen population, since the last full collection, that calls for another."""


class Pacer:
    """Keeps the collector from walking what lives for seconds, and reclaims its cycles.

    >>> pacer = Pacer()  # doctest: +SKIP
    >>> pacer.tick()  # doctest: +SKIP
    """

    def __init__(self) -> None:
        self.ticks = 0
        self.reclaims = 0
        self.frozen_after_reclaim = gc.get_freeze_count()

    def tick(self) -> None:
        """Freeze every tracked object (O(1): the generations' lists are spliced); every
        :data:`RECLAIM_EVERY` ticks, :meth:`reclaim_if_grown`."""
        gc.freeze()
        self.ticks += 1
        if self.ticks % RECLAIM_EVERY == 0:
            self.reclaim_if_grown()

    def reclaim_if_grown(self) -> bool:
        """A full collection of everything, frozen included, if the frozen population has
        grown by :data:`RECLAIM_GROWTH` since the last one; then freeze again."""
        if gc.get_freeze_count() < self.frozen_after_reclaim * (1 + RECLAIM_GROWTH):
            return False
        started = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.frozen_after_reclaim = gc.get_freeze_count()
        self.reclaims += 1
        logger.info(
            "full collection: %d unreachable, %d objects kept, %.0f ms",
            found,
            self.frozen_after_reclaim,
            1000 * (time.perf_counter() - started),
        )
        return True


def settle() -> Pacer:
    """Collect once, freeze what is left, and raise the young generation's threshold.

    Returns the :class:`Pacer` the server should :meth:`~Pacer.tick` every
    :data:`TICK_SECONDS`."""
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
    return Pacer()
