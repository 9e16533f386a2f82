"""The table's wire protocol: the typed messages a page may send, parsed and refused here.

A page sends JSON objects over its WebSocket (htmx's ``ws-send`` adds a ``HEADERS`` key,
ignored here). :func:`parse_message` turns one into a :data:`Message` or raises
:class:`MalformedMessage`, before anything reads or writes the database; the table's own
refusals later (not your turn, a stale step, an illegal tile) are :class:`PlayError` too, so
a page gets every refusal the same way.

>>> parse_message({"action": "discard", "tile": "5m", "step": "12"})
Move(action=Action(type='discard', tile=4, tiles=(), gang=None), step=12)
>>> parse_message({"action": "tuoguan", "on": "1"})
SetTuoguan(on=True)
>>> parse_message({"action": "phrase", "phrase": "2"})
Phrase(index=2)
>>> from django.utils import translation
>>> with translation.override("en"):  # refusals are worded in the page's language
...     parse_message({"action": "fly"})
Traceback (most recent call last):
...
tables.play.protocol.MalformedMessage: Unknown move fly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from engine.actions import Action, ActionError

__all__ = [
    "MOVE_TYPES",
    "AnswerDissolve",
    "EndMatch",
    "MalformedMessage",
    "Message",
    "Move",
    "Phrase",
    "PlayError",
    "ProposeDissolve",
    "Ready",
    "SetTuoguan",
    "parse_message",
    "parse_text",
    "printable",
]

MOVE_TYPES = ("discard", "chi", "peng", "gang", "hu", "pass")
"""Moves the engine judges; ``ready``, ``tuoguan`` and ``end_match`` are the table's own."""

MAX_MESSAGE_BYTES = 4096
"""A longer frame is refused unread: no message of this protocol is anywhere near it."""

UNKNOWN_SHOWN = 20
"""How much of an unknown action's name the refusal repeats back."""


class PlayError(ValueError):
    """A refused input; the message is shown to that player only and nothing changed."""


class MalformedMessage(PlayError):
    """What the page sent is not a message of this protocol; refused before any table work."""


@dataclass(frozen=True)
class Move:
    """A move for the engine to judge, made on the view of step ``step``."""

    action: Action
    step: int


@dataclass(frozen=True)
class Ready:
    """准备 after a hand."""


@dataclass(frozen=True)
class SetTuoguan:
    """托管 on or off (取消托管 takes control back)."""

    on: bool


@dataclass(frozen=True)
class EndMatch:
    """The owner ends the match between hands."""


@dataclass(frozen=True)
class ProposeDissolve:
    """解散: ask the others to end the match now (see :mod:`tables.play.dissolve`)."""


@dataclass(frozen=True)
class AnswerDissolve:
    """同意 (``agree``) or 拒绝 the 解散 vote under way."""

    agree: bool


@dataclass(frozen=True)
class Phrase:
    """A quick phrase (快捷语), by its index in ``tables.play.phrases.PHRASES``: chat."""

    index: int


Message = Move | Ready | SetTuoguan | EndMatch | ProposeDissolve | AnswerDissolve | Phrase

PHRASE_INDEX_MAX = 99
"""An index past this is refused here; ``tables.play.phrases`` checks it against the real list."""


def parse_message(payload: Any) -> Message:
    """The message in ``payload`` (a decoded JSON value); :class:`MalformedMessage` if none."""
    if not isinstance(payload, dict) or not isinstance(payload.get("action"), str):
        raise MalformedMessage(_("That message is not a move."))
    kind = payload["action"]
    if kind == "tuoguan":
        return SetTuoguan(on=str(payload.get("on", "0")) in ("1", "true", "on"))
    if kind == "end_match":
        return EndMatch()
    if kind == "ready":
        return Ready()
    if kind == "dissolve_propose":
        return ProposeDissolve()
    if kind == "dissolve_answer" and str(payload.get("agree")) in ("0", "1"):
        return AnswerDissolve(agree=payload["agree"] in (1, "1"))
    if kind == "phrase":
        return _phrase(payload)
    if kind in MOVE_TYPES:
        return _move(payload)
    raise MalformedMessage(_("Unknown move %(kind)s.") % {"kind": printable(kind[:UNKNOWN_SHOWN])})


def parse_text(text: str | None) -> Message:
    """The message in one WebSocket text frame (None: a binary frame).

    >>> parse_text('{"action": "ready"}')
    Ready()
    """
    if text is None or len(text) > MAX_MESSAGE_BYTES:
        raise MalformedMessage(_("That message is not a move."))
    try:
        payload = json.loads(text)
    except (json.JSONDecodeError, RecursionError):  # "[" * 3000 nests past the stack
        payload = None
    return parse_message(payload)


def printable(text: str) -> str:
    """``text`` as it can be sent back: JSON's ``\\ud800`` decodes to a lone surrogate, which
    no UTF-8 frame can carry; each becomes U+FFFD.

    >>> printable("fly\\ud800")
    'fly\ufffd'
    """
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _move(payload: dict[str, Any]) -> Move:
    try:
        step = int(str(payload.get("step", "")))
    except ValueError:
        raise MalformedMessage(
            _("That move came without the table's step; reload the page.")
        ) from None
    data = {k: payload[k] for k in ("tile", "tiles", "gang") if payload.get(k) not in (None, "")}
    try:
        action = Action.from_json({"type": payload["action"], **data})
    except ActionError as exc:
        raise MalformedMessage(_("That move is malformed: %(detail)s") % {"detail": exc}) from None
    return Move(action=action, step=step)


def _phrase(payload: dict[str, Any]) -> Phrase:
    raw = str(payload.get("phrase", ""))
    if not (raw.isascii() and raw.isdigit()) or int(raw) > PHRASE_INDEX_MAX:
        raise MalformedMessage(_("There is no such phrase."))
    return Phrase(index=int(raw))
