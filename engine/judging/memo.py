"""Every module-level memo of the engine, registered in one place, and one :func:`clear`.

The judge, the shape search, the distance search and the command-line tools remember answers
that depend only on their arguments. Each such store is registered here when its module is
imported, with :func:`remembered` (a plain ``dict``, or a ``functools.cache``/``lru_cache``
function), so :func:`clear` empties them all: to measure a cold start, or to free memory.
Clearing never changes an answer, only how fast it comes.

>>> from functools import cache
>>> @remembered
... @cache
... def square(n: int) -> int:
...     return n * n
>>> square(3), square.cache_info().currsize
(9, 1)
>>> clear()
>>> square.cache_info().currsize
0
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing would add to every CLI's start
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    _Store = TypeVar("_Store")

__all__ = ["clear", "registered", "remembered"]

_CLEARERS: list[Callable[[], None]] = []


def remembered(store: _Store) -> _Store:
    """Register ``store`` (a ``dict``, or a function wrapped by ``functools.cache`` or
    ``lru_cache``) and return it unchanged: the hot paths use it as before."""
    clearer = getattr(store, "cache_clear", None) or getattr(store, "clear")  # noqa: B009
    _CLEARERS.append(clearer)
    return store


def registered() -> int:
    """How many stores are registered."""
    return len(_CLEARERS)


def clear() -> None:
    """Empty every registered store."""
    for clearer in _CLEARERS:
        clearer()
