"""Rendered fragments remembered by what they show, per translation catalog.

A table push is mostly parts that did not change since the last one: the same tiles, the
seats nobody moved at, the rules pop-up that stays the same for a whole match. A fragment
is a pure function of its key and the language, so it is built once per process and kept
under that key. Keys are kept per translation catalog (the object gettext itself reads), so
a page in one language is never served another's labels, nor a page with no language
active (``deactivate_all``) anyone's.

>>> from django.utils.safestring import mark_safe
>>> remembered("doc", ("a",), lambda: mark_safe("<b>a</b>"))
'<b>a</b>'
>>> remembered("doc", ("a",), lambda: mark_safe("never built"))
'<b>a</b>'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from weakref import WeakKeyDictionary

from cachetools import LRUCache
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import trans_real

__all__ = ["MAX_KEPT", "compact", "forget", "remembered", "remembered_render", "rendering_in"]

MAX_KEPT = 1024
"""Fragments kept per kind and catalog; when full, the least recently used goes (a store
that started again when full would make every table in play re-render all its panels at
once). The seat-wise kinds (a seat's hand, river, hints) hold one live fragment per seat in
play, four per table, which a table looks up every couple of seconds; larger stores cost
memory per socket (its budget is in ``docs/performance.md``)."""

_Stores = dict[str, LRUCache[Hashable, SafeString]]

_kept: WeakKeyDictionary[object, _Stores] = WeakKeyDictionary()

_pinned: ContextVar[_Stores | None] = ContextVar("fragments_pinned", default=None)
"""The stores of the language :func:`rendering_in` activated, while it is active."""


def _active_stores() -> _Stores:
    return _kept.setdefault(trans_real.catalog(), {})


@contextmanager
def rendering_in(language: str) -> Iterator[None]:
    """``translation.override(language)``, with that language's stores looked up once for
    every fragment remembered inside rather than once a fragment: finding the active catalog
    is a context-local lookup, and a change asks for dozens of fragments. What runs inside
    must not switch the language again: its fragments would be kept under this one.

    >>> from django.utils.safestring import mark_safe
    >>> with rendering_in("en"):
    ...     remembered("doc-pinned", 1, lambda: mark_safe("en"))
    'en'
    >>> with rendering_in("zh-hans"):
    ...     remembered("doc-pinned", 1, lambda: mark_safe("zh"))
    'zh'
    """
    with translation.override(language):
        token = _pinned.set(_active_stores())
        try:
            yield
        finally:
            _pinned.reset(token)


_BETWEEN_TAGS = re.compile(r">\s+<")


def compact(html: str) -> SafeString:
    """``html`` (safe) without the whitespace between its tags, nor before its first tag or
    after its last (a fragment of whitespace alone is empty): what ``strip_spaces_between_tags``
    would take out of any frame it is put in, taken out once when a fragment is built rather
    than from every frame it is served in.

    >>> compact(" <p>\\n  <b>a b</b>\\n</p>\\n")
    '<p><b>a b</b></p>'
    >>> compact("a <b> c")
    'a <b> c'
    >>> compact("\\n  \\n")
    ''
    """
    # One pattern with a literal first character: the regex engine skips to each ">" in C.
    # Alternatives for the edges made it try every character, 170 M instructions per 200
    # changes of one table (callgrind), more than the frames' own stripping had cost.
    html = _BETWEEN_TAGS.sub("><", html)
    inner = html.strip()
    if inner[:1] == "<":
        html = html.lstrip()
    if inner[-1:] == ">":
        html = html.rstrip()
    return mark_safe(html if inner else "")


def remembered(kind: str, key: Hashable, build: Callable[[], SafeString]) -> SafeString:
    """The fragment of ``kind`` for ``key`` in the active language, built by ``build`` the
    first time it is asked for."""
    stores = _pinned.get()
    if stores is None:
        stores = _active_stores()
    store = stores.get(kind)
    if store is None:
        store = stores[kind] = LRUCache(maxsize=MAX_KEPT)
    html = store.get(key)
    if html is None:
        html = store[key] = build()
    return html


def remembered_render(
    template: str,
    name: str,
    view: object,
    *,
    holes: Mapping[str, int] | None = None,
    **extra: object,
) -> SafeString:
    """``template`` rendered with ``view`` as ``name`` (and ``extra``), remembered by
    ``view``: a frozen dataclass of plain values that holds all the template reads, so its
    repr is its content. A template that read anything else could be served stale.

    ``holes`` are numbers that change far more often than the rest of what the template
    shows (a countdown's end, the tiles left in the wall). The template reads each as a
    variable of that name; it is rendered once with a marker there, and every call fills
    the markers in. Numbers only, so nothing needs escaping, in text or in attributes.
    """
    if not holes:
        return remembered(
            template,
            repr(view),
            lambda: compact(render_to_string(template, {name: view, **extra})),
        )
    markers = {hole: mark_safe(f"\ue000{hole}\ue001") for hole in holes}
    html: str = remembered(
        template,
        (repr(view), tuple(sorted(holes))),
        lambda: compact(render_to_string(template, {name: view, **markers, **extra})),
    )
    for hole, value in holes.items():
        html = html.replace(markers[hole], str(int(value)))
    return mark_safe(html)


def forget() -> None:
    """Drop every kept fragment (tests that change a template or a translation)."""
    _kept.clear()
