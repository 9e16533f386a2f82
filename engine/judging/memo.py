"""Every module-level memo of the engine, registered in one place, and one :func:`clear`.

The judge, the shape search, the distance search and the command-line tools remember answers
that depend only on their arguments. Each such store is registered here when its module is
imported, with :func:`remembered` (a plain ``dict``, or a ``functools.cache``/``lru_cache``
function), so :func:`clear` empties them all: to measure a cold start, or to free memory.
Clearing never changes an answer, only how fast it comes.

Every store a server reaches is bounded too (a ``maxsize``, or a :class:`Bounded` dict that
empties itself when full): a server judges new hands for weeks, and a store that only grows
would take its memory with it. :func:`unbounded` lists the stores that declare no bound; only
the command-line tools' may, since each of their runs is a process of its own.

>>> from functools import lru_cache
>>> @remembered
... @lru_cache(maxsize=64)
... def square(n: int) -> int:
...     return n * n
>>> square(3), square.cache_info().currsize
(9, 1)
>>> clear()
>>> square.cache_info().currsize
0
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing's: importing typing would add to every CLI's start
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    _Store = TypeVar("_Store")
    K = TypeVar("K")
    V = TypeVar("V")
    _Dict = dict[K, V]
else:  # the same class at run time, without typing's TypeVar: Bounded[...] is Bounded
    K = V = None

    class _Dict(dict):
        __slots__ = ()

        def __class_getitem__(cls, item):
            return cls


__all__ = ["Bounded", "Store", "clear", "registered", "remembered", "unbounded"]

_STORES: list[Store] = []


class Store:
    """A registered store: how to empty it, the module that registered it, and its bound."""

    __slots__ = ("clear", "limit", "module", "store")

    def __init__(
        self, store: object, clear: Callable[[], None], module: str, limit: int | None
    ) -> None:
        self.store, self.clear, self.module, self.limit = store, clear, module, limit

    def __repr__(self) -> str:
        name = getattr(self.store, "__qualname__", type(self.store).__name__)
        return f"<store {self.module}.{name}, limit {self.limit}>"


class Bounded(_Dict[K, V]):
    """A dict that empties itself when a new entry would take it past ``limit``: crude but
    cheap, since the hands in play refill it at once, and unlike an LRU it does no work
    on a hit. Read it as a dict; add with :meth:`keep`.

    >>> squares: Bounded[int, int] = Bounded(2)
    >>> [squares.keep(n, n * n) for n in (1, 2, 3)], squares
    ([1, 4, 9], {3: 9})
    """

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def keep(self, key: K, value: V) -> V:
        """Remember ``value`` for ``key`` (forgetting everything else first when full) and
        return it."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


def remembered(store: _Store, *, limit: int | None = None) -> _Store:
    """Register ``store`` (a ``dict``, or a function wrapped by ``functools.cache`` or
    ``lru_cache``) and return it unchanged: the hot paths use it as before. A
    :class:`Bounded`'s or a cached function's bound is its own (``limit``, ``maxsize``);
    ``limit`` is for a plain dict whose module keeps it bounded some other way."""
    clearer = getattr(store, "cache_clear", None) or getattr(store, "clear")  # noqa: B009
    module = str(_caller_globals().get("__name__", "?"))
    _STORES.append(Store(store, clearer, module, _bound(store, limit)))
    return store


def _caller_globals() -> dict[str, object]:
    return sys._getframe(2).f_globals  # remembered()'s caller: the module registering


def _bound(store: object, limit: int | None) -> int | None:
    if isinstance(store, Bounded):
        return store.limit
    info = getattr(store, "cache_info", None)
    if info is None:
        return limit
    maxsize: int | None = info().maxsize
    if maxsize is None:
        code = getattr(getattr(store, "__wrapped__", None), "__code__", None)
        if code is not None and code.co_argcount == 0:
            return 1  # a function of no arguments has one answer
    return maxsize


def unbounded() -> list[Store]:
    """The registered stores that declare no bound: they grow with every new question."""
    return [s for s in _STORES if s.limit is None]


def registered() -> int:
    """How many stores are registered."""
    return len(_STORES)


def clear() -> None:
    """Empty every registered store."""
    for store in _STORES:
        store.clear()
