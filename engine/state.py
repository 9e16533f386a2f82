"""One hand's state: :class:`HandState`, its open :class:`Window` and their JSON.

The fields are listed once, on the dataclass; :meth:`HandState.to_json`, :meth:`HandState.from_json`
and :meth:`HandState.copy` are driven by that list, with a codec for each field that is not a plain
JSON value. The JSON is what
rooms store and logs carry, so its shape is a contract: every key and value as it always was.
The transitions live in :mod:`engine.hand`.

>>> from engine.hand import new_hand
>>> from engine.rules import Rules
>>> s = new_hand(Rules(), dealer=0, seed=1)
>>> HandState.from_json(s.to_json()) == s
True
>>> list(s.to_json())[:5]
['rules', 'dealer', 'wall', 'hands', 'melds']
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Literal, cast

from engine.actions import Action
from engine.melds import Meld
from engine.rules import Rules
from engine.tiles import BAO_OF
from engine.wall import Wall

__all__ = ["HandState", "Phase", "Window", "WindowKind"]

Phase = Literal["turn", "claim", "rob", "ended"]
"""``turn``: the turn seat acts; ``claim``: the window on a discard; ``rob``: the 抢杠 window on a
declared gang; ``ended``: the result is known."""
WindowKind = Literal["claim", "rob"]


@dataclass(frozen=True, slots=True)
class Window:
    """An open claim (on a discard) or 抢杠 (on a gang) window.

    ``eligible``: the seats asked, in turn order after ``frm``; ``answers``: per seat 0-3, the
    answer given (None: not yet, or not asked). A rob window also names the ``gang`` kind and,
    for a 明杠, the seat whose discard it claims (``claimed_from``).

    >>> w = Window("claim", frm=0, tile=2, eligible=(2,), answers=(None,) * 4)
    >>> w.to_json()
    {'kind': 'claim', 'from': 0, 'tile': 2, 'eligible': [2], 'answers': [None, None, None, None]}
    >>> Window.from_json(w.to_json()) == w
    True
    """

    kind: WindowKind
    frm: int
    tile: int
    eligible: tuple[int, ...]
    answers: tuple[Action | None, ...]
    gang: str | None = None
    claimed_from: int | None = None

    @property
    def given(self) -> int:
        """How many answers have been given (each is logged, and moved the step on)."""
        return sum(a is not None for a in self.answers)

    def answered(self, seat: int, action: Action) -> Window:
        """This window with ``seat``'s answer recorded."""
        answers = list(self.answers)
        answers[seat] = action
        return Window(
            self.kind, self.frm, self.tile, self.eligible, tuple(answers), self.gang,
            self.claimed_from,
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "from": self.frm, "tile": self.tile}
        if self.kind == "rob":
            d["gang"] = self.gang
            d["claimed_from"] = self.claimed_from
        d["eligible"] = list(self.eligible)
        d["answers"] = [None if a is None else a.to_json() for a in self.answers]
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Window:
        kind = d["kind"]
        if kind not in ("claim", "rob"):
            raise ValueError(f"a window is a claim or a rob window, got {kind!r}")
        return cls(
            kind=cast(WindowKind, kind),
            frm=d["from"],
            tile=d["tile"],
            eligible=tuple(d["eligible"]),
            answers=tuple(None if a is None else Action.from_json(a) for a in d["answers"]),
            gang=d.get("gang"),
            claimed_from=d.get("claimed_from"),
        )


@dataclass(frozen=True, slots=True)
class _Codec:
    """How one field goes to JSON, comes back, and is copied for a new state."""

    dump: Callable[[Any], Any]
    load: Callable[[Any], Any]
    copy: Callable[[Any], Any]


def _same(value: Any) -> Any:
    return value


def _lists(rows: Any) -> Any:
    return [list(r) for r in rows]


def _copy_wall(w: Wall) -> Wall:
    # The ring and the draw order are never written after the deal: shared, not copied.
    return Wall(
        seed=w.seed, ring=w.ring, dice=w.dice, tiles=w.tiles, gone=list(w.gone),
        indicator_pos=w.indicator_pos, burned=list(w.burned),
    )  # fmt: skip


def _optional(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else f(value)


_PLAIN = _Codec(_same, _same, _same)
_FLAT = _Codec(list, list, list)
_ROWS = _Codec(_lists, _lists, _lists)
_RULES = _Codec(Rules.to_json, Rules.from_json, _same)
_WALL = _Codec(Wall.to_json, Wall.from_json, _copy_wall)
_MELDS = _Codec(
    lambda rows: [[m.to_json() for m in ms] for ms in rows],
    lambda rows: [[Meld.from_json(m) for m in ms] for ms in rows],
    _lists,  # melds are immutable
)
_WINDOW = _Codec(_optional(Window.to_json), _optional(Window.from_json), _same)  # frozen
# Entries ([seat, action]) never change once logged: a new list of the same entries will do,
# where copying them deeply showed in every move's profile (each load and each save).
_LOG = _Codec(list, list, list)
_RESULT = _Codec(copy.deepcopy, copy.deepcopy, copy.deepcopy)
_SPECIAL = {
    "rules": _RULES,
    "wall": _WALL,
    "hands": _ROWS,
    "melds": _MELDS,
    "rivers": _ROWS,
    "flown": _FLAT,
    "draws": _FLAT,
    "pending": _WINDOW,
    "log": _LOG,
    "result": _RESULT,
}
"""The fields that are not plain JSON values; every other field is written as it is."""


@dataclass
class HandState:
    """Everything about one hand. Seats are 0-3 in turn order (下家 of ``s`` is ``s+1``)."""

    rules: Rules
    dealer: int
    wall: Wall
    hands: list[list[int]]
    melds: list[list[Meld]] = field(default_factory=lambda: [[], [], [], []])
    rivers: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    flown: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """宝 flown (飞宝) by each seat: public."""
    phase: Phase = "turn"
    turn: int = 0
    drawn: int | None = None
    """The tile the turn player just drew (None after a claim and on the dealer's first turn)."""
    after_claim: bool = False
    gang_draws: int = 0
    """Replacement draws in a row in this turn (杠开 chain length)."""
    draws: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    any_discard: bool = False
    any_meld: bool = False
    last_drawer: int = 0
    pending: Window | None = None
    """The open claim or 抢杠 window."""
    log: list[list[Any]] = field(default_factory=list)
    """``[seat, action_json]`` in order: enough for :func:`engine.hand_log.replay`."""
    step: int = 0
    result: dict[str, Any] | None = None
    """The settled hand, as :meth:`engine.outcome.Result.to_json` gives it."""

    @property
    def seed(self) -> int | str | None:
        """The shuffle seed (a fresh one is generated and kept when none was given)."""
        return self.wall.seed

    @property
    def indicator(self) -> int:
        pos = self.wall.indicator_pos
        assert pos is not None
        return self.wall.tiles[pos]

    @property
    def bao(self) -> int:
        return BAO_OF[self.indicator]  # asked several times per action: a table, not a call

    def to_json(self) -> dict[str, Any]:
        return {name: codec.dump(getattr(self, name)) for name, codec in _CODECS}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> HandState:
        return cls(**{name: codec.load(d[name]) for name, codec in _CODECS})

    def copy(self) -> HandState:
        """A copy that :func:`engine.hand.apply` may change freely: every list it mutates is new.

        Much cheaper than ``copy.deepcopy``: the rules, melds and window are immutable, and so
        are the wall's ring and draw order after the deal and log entries once logged.
        """
        values = dict(self.__dict__)  # every field, the immutable ones shared as they are
        for name, codec in _COPIED:
            values[name] = codec.copy(values[name])
        new = object.__new__(HandState)
        new.__dict__.update(values)
        return new


_CODECS: tuple[tuple[str, _Codec], ...] = tuple(
    (f.name, _SPECIAL.get(f.name, _PLAIN)) for f in fields(HandState)
)
_COPIED = tuple((name, codec) for name, codec in _CODECS if codec.copy is not _same)
