"""What the table page's htmx sends and receives over the socket, for the load clients.

A pushed frame is HTML: the whole ``#live`` fragment, or the table's public part with the
seat's private part when that changed (``#table-public``, ``#table-private``, each swapped out of
band), or an out-of-band error line. The controls a player may use are the elements carrying
``ws-send``, all in the private part (a frame without one leaves them as they were); htmx's
WebSocket extension sends the element's own ``name``/``value``, every ``hx-vals`` from the
element up through its ancestors (the nearest wins), and a ``HEADERS`` object, as one JSON text
frame.

>>> frame = parse_frame(
...     '<section data-version="7" data-step="3" data-phase="turn">'
...     '<div id="my-hand" hx-vals=\\'{"step": 3, "action": "discard"}\\'>'
...     '<button ws-send name="tile" value="5m">5m</button></div></section>'
... )
>>> frame.version, frame.phase, [c.message for c in frame.controls]
(7, 'turn', [{'step': 3, 'action': 'discard', 'tile': '5m'}])
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from html import unescape
from typing import Any

__all__ = ["Control", "Frame", "htmx_message", "parse_frame"]

# Elements that never hold children, so they never open a level of ancestry.
_VOID = frozenset({"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"})


@dataclass(frozen=True)
class Control:
    """One ``ws-send`` element: what htmx would send for it (without ``HEADERS``)."""

    message: dict[str, Any]
    element_id: str | None = None
    name: str | None = None
    drawn: bool = False

    @property
    def action(self) -> str:
        return str(self.message.get("action", ""))


@dataclass
class Frame:
    """What a load client needs from one pushed frame."""

    size: int
    version: int | None = None
    step: int | None = None
    phase: str | None = None
    hand: int | None = None
    error: bool = False
    finished: bool = False
    private: bool = False
    """The frame carries the seat's controls (its private part, or the whole ``#live``)."""
    controls: list[Control] = field(default_factory=list)


_TAG = re.compile(
    r"<!--.*?-->|<(/?)([a-zA-Z][^\s/>]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>", re.DOTALL
)
"""A comment, or a start or end tag with its attributes (a quoted value may hold ``>``)."""
_ATTRIBUTES = re.compile(r"""([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?""")
_SKIPPED = frozenset({"script", "style", "svg"})
"""Elements skipped whole, tags inside included: raw text, and the tiles' drawings (each tile
is an ``<svg>`` around a ``<use>``), which never hold a control: two tags in five of a seat's
own part, and 11 % less time to walk a hand's pushes."""
_READ = ("hx-vals", "ws-send", "data-version", "id=")
"""A tag without any of these is only a level of ancestry: its attributes are not read."""


def _attributes(body: str) -> dict[str, str]:
    """A start tag's attributes as ``html.parser`` gives them: names lowercased, values
    unescaped, a bare attribute as ""."""
    return {
        name.lower(): unescape(dq or sq or bare) for name, dq, sq, bare in _ATTRIBUTES.findall(body)
    }


def _parse_into(frame: Frame, html: str) -> None:
    """Walk ``html``'s tags, keeping each open element's ``hx-vals`` for the controls inside.

    A tokenizer of one regular expression, not ``html.parser``: the pages' markup is the
    server's own (quoted attributes, no stray ``<``), and ``html.parser`` was half of the load
    client's time at 400 tables, time taken from the servers it measures on this machine."""
    stack: list[tuple[str, dict[str, Any]]] = []
    pos = 0
    while True:
        m = _TAG.search(html, pos)
        if m is None:
            return
        pos = m.end()
        closing, name, body = m.group(1, 2, 3)
        if name is None:
            continue  # a comment
        tag = name.lower()
        if closing:
            for i in range(len(stack) - 1, -1, -1):
                if stack[i][0] == tag:
                    del stack[i:]
                    break
            continue
        if tag in _SKIPPED and not body.endswith("/"):
            close = html.find(f"</{tag}", pos)
            pos = len(html) if close < 0 else html.find(">", close) + 1 or len(html)
            continue
        vals: dict[str, Any] = {}
        lowered = body.lower()
        if any(marker in lowered for marker in _READ):
            vals = _start_tag(frame, stack, _attributes(body))
        if tag not in _VOID and not body.endswith("/"):
            stack.append((tag, vals))


def _start_tag(
    frame: Frame, stack: list[tuple[str, dict[str, Any]]], a: dict[str, str]
) -> dict[str, Any]:
    """Note what start tag ``a`` tells of the frame; its ``hx-vals`` (for what it holds)."""
    vals: dict[str, Any] = {}
    if "hx-vals" in a:
        try:
            loaded = json.loads(a["hx-vals"])
        except ValueError:
            loaded = {}
        if isinstance(loaded, dict):
            vals = loaded
    f = frame
    if "data-version" in a and f.version is None:
        _root(f, a)
    if a.get("id") in ("table-private", "live"):
        f.private = True
    if a.get("id") == "table-error":
        f.error = True
    if a.get("id") == "match-summary":
        f.finished = True
    if "ws-send" in a:
        message: dict[str, Any] = {}
        for _, outer in stack:
            message.update(outer)
        message.update(vals)
        f.controls.append(_control(message, a))
    return vals


def _control(inherited: dict[str, Any], a: dict[str, str]) -> Control:
    """The ``ws-send`` element with attributes ``a``, under the ``hx-vals`` ``inherited``."""
    message = dict(inherited)
    if a.get("name"):
        message[a["name"]] = a.get("value", "")
    return Control(
        message=message,
        element_id=a.get("id") or None,
        name=a.get("name") or None,
        drawn="tile--drawn" in a.get("class", "").split(),
    )


def _root(frame: Frame, a: dict[str, str]) -> None:
    """What the frame's root element (the one with ``data-version``) says of the table."""
    frame.version = _int(a.get("data-version"))
    frame.step = _int(a.get("data-step"))
    frame.phase = a.get("data-phase")
    frame.hand = _int(a.get("data-hand"))


def _int(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def parse_frame(html: str) -> Frame:
    """Read one pushed frame's version, phase and usable controls.

    Only what holds controls is parsed as HTML. A frame without controls (most pushes:
    another seat's move changes only the public part) is read from its root tag alone, and a
    frame that brings the seat's own part swapped out of band is parsed from that part on,
    its public part read from its root tag: the clients of a load run share one process, and
    parsing the whole of every frame made them, not the server, the slowest part of what is
    measured (the client's loop was busy 87 % of the time at 200 tables, 78 % of it in
    ``html.parser``)."""
    if not any(marker in html for marker in _NEEDS_PARSING):
        return _peek(html)
    if not html.startswith(_LIVE):
        start = html.find(_PRIVATE)
        if start >= 0:
            frame = _peek(html[:start], size=len(html.encode()))
            _read_private(frame, html[start:])
            return frame
    return _parse(html)


def _read_private(frame: Frame, html: str) -> None:
    """What :func:`_parse_into` reads of a seat's own part, from the few tags that carry
    ``hx-vals`` or ``ws-send`` rather than from every tag: each ``hx-vals`` holds for the
    span of its element, found by counting that element's own tag name in and out. Most of
    the part is tiles, and walking their tags was the load client's largest cost at 400
    tables. The tests hold it to :func:`_parse_into` on every push of whole hands. Markup
    where a tag's text may hide in something else (a comment, a script) is walked whole."""
    low = html.lower()
    if len(low) != len(html) or any(opaque in low for opaque in _OPAQUE):
        _parse_into(frame, html)
        return
    frame.private = True
    _note_marks(frame, html)
    scopes: list[tuple[int, int, dict[str, Any]]] = []
    for start, end, tag, a in _tags_with(html, low, "hx-vals"):
        try:
            loaded = json.loads(a["hx-vals"])
        except ValueError:
            continue
        if isinstance(loaded, dict) and loaded:
            scopes.append((start, _element_end(html, end, tag), loaded))
    for start, _end, _tag, a in _tags_with(html, low, "ws-send"):
        message: dict[str, Any] = {}
        for begin, end, vals in scopes:  # outermost first: the nearest is applied last
            if begin <= start < end:
                message.update(vals)
        frame.controls.append(_control(message, a))


def _tags_with(html: str, low: str, attribute: str) -> list[tuple[int, int, str, dict[str, str]]]:
    """The start tags that carry ``attribute`` (lower case; ``low`` is ``html`` lowered), in
    order: where each starts and ends, its name and its attributes."""
    found: list[tuple[int, int, str, dict[str, str]]] = []
    at = low.find(attribute)
    while at >= 0:
        start = html.rfind("<", 0, at)
        m = _TAG.match(html, start)
        if m is not None and not m.group(1) and m.group(2):
            a = _attributes(m.group(3))
            if attribute in a and (not found or found[-1][0] != start):
                found.append((start, m.end(), m.group(2).lower(), a))
        at = low.find(attribute, max(at + 1, m.end() if m is not None else 0))
    return found


def _element_end(html: str, tag_end: int, tag: str) -> int:
    """Where the element ``tag`` whose start tag ends at ``tag_end`` ends (the whole rest of
    ``html`` when it is left open); a void or self-closing element ends with its tag."""
    if tag in _VOID or html[tag_end - 2] == "/":
        return tag_end
    depth = 0
    pattern = re.compile(rf"<(/?){re.escape(tag)}[\s/>]", re.IGNORECASE)
    for t in pattern.finditer(html, tag_end):
        if not t.group(1):
            depth += 1
        elif depth:
            depth -= 1
        else:
            return t.start()
    return len(html)


_LIVE = '<div id="live"'
_PRIVATE = '<div id="table-private"'
"""The seat's own part as a push swaps it out of band: it holds every control, and no
``hx-vals`` of the public part before it applies to them (they are siblings)."""
_OPAQUE = ("<!--", "<script", "<style")
_NEEDS_PARSING = ("ws-send", 'id="table-private"', 'id="live"')
_VERSIONED = re.compile(r'<[a-z]+(\s[^>]*\bdata-version="[^"]*"[^>]*)>')


def _parse(html: str) -> Frame:
    frame = Frame(size=len(html.encode()))
    _parse_into(frame, html)
    return frame


def _peek(html: str, size: int | None = None) -> Frame:
    frame = Frame(size=len(html.encode()) if size is None else size)
    root = _VERSIONED.search(html)
    if root is not None:
        _root(frame, _attributes(root.group(1)))
    _note_marks(frame, html)
    return frame


def _note_marks(frame: Frame, html: str) -> None:
    """What ``html`` says of the frame without parsing: an error line, the match's end."""
    frame.error = frame.error or 'id="table-error"' in html
    frame.finished = frame.finished or 'id="match-summary"' in html


def htmx_message(control: Control, *, page_url: str) -> str:
    """The text frame htmx's ``ws-send`` sends for ``control``: its values plus ``HEADERS``."""
    headers = {
        "HX-Request": "true",
        "HX-Trigger": control.element_id,
        "HX-Trigger-Name": control.name,
        "HX-Target": control.element_id,
        "HX-Current-URL": page_url,
    }
    return json.dumps({**control.message, "HEADERS": headers}, ensure_ascii=False)
