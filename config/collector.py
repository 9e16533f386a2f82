"""The garbage collector of a serving process, set once the server listens.

By the time daphne listens, the process holds what it will keep until it exits: Django's
apps and URL resolvers, the compiled templates, the engine's lookup tables. CPython's
generation-2 collection walks every one of those objects each time it runs, and on a live
server it ran for up to about 0.1 s with the event loop stopped, which every page waiting for
a push felt as a p99 spike. :func:`settle` moves them out of the collector's sight
(``gc.freeze``: they are never freed anyway) and lets the youngest generation grow larger
before it is collected, since a change's short-lived objects (the parsed state, the rendered
fragments) die by reference count, not by the collector.

Example (for a serving process only: a test process should not freeze)::

    >>> import gc
    >>> settle()  # doctest: +SKIP
    >>> gc.get_freeze_count() > 0 and gc.get_threshold()[0] == YOUNG_THRESHOLD  # doctest: +SKIP
    True
"""

from __future__ import annotations

import gc

__all__ = ["YOUNG_THRESHOLD", "settle"]

YOUNG_THRESHOLD = 20_000
"""Allocations (less deallocations) before a generation-0 collection; CPython's default is 700."""


def settle() -> None:
    """Collect once, freeze what is left, and raise the young generation's threshold."""
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
