"""What a claim window shows everyone but the seats asked: nothing (D2).

Every discard and gang holds a window open for the same pause (``tables.play.moves.claim_pause``),
whoever may answer. The answers are logged as they come, each in its own commit, but what
the pages show must not count them. So the table keeps two public counters of its own in
``room.state``, apart from the engine's step and the room's version:

- the **public step** (``data-step``, and the step every move names) moves on by one with
  each new decision: a turn, a window opening, a window closing, the hand's end. Answers
  inside a window are not decisions, so a window's close moves it on by exactly one, whether
  nobody was asked or three seats answered.
- the **public version** (``data-version``) is the room's version less the commits that only
  logged answers in a window still open (:func:`answers_only`); so it too moves on by one
  when the window closes.

The engine's step and the room's version go on as before: the log, its replays and the
frame caches (``tables.socket.pushes``, ``tables.socket.heartbeat``) are unchanged.

A timed-out or departed seat asked in a window passes there rather than going on 托管, and
answering a window by hand does not take a seat off 托管: either would change a badge every
page shows, in the middle of a window, for the seat asked alone.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.hand import apply
from tables.models import Room
from tables.play.table import Table

__all__ = [
    "WINDOW_PHASES",
    "answers_only",
    "counters_update",
    "public_step",
    "public_version",
    "version_committed",
    "version_uncommitted",
    "window_pass",
]

WINDOW_PHASES = ("claim", "rob")


def public_step(room: Room) -> int:
    """The step the pages show and every move names."""
    return int((room.state or {}).get("public_step", 0))


def public_version(room: Room) -> int:
    """The version the pages show: the room's, less the commits that only logged answers."""
    return room.version - int((room.state or {}).get("hidden_versions", 0))


def answers_only(t: Table, key: list[Any]) -> bool:
    """Whether the change about to be saved only logged answers in the window that was
    already open (``key`` is the decision the table is at now, ``tables.play.clock``)."""
    state = t.room.state or {}
    before = state.get("hand") or {}
    return (
        t.hand is not None
        and t.hand.phase in WINDOW_PHASES
        and state.get("public_decision") == key
        and before.get("step") != t.hand.step
    )


def counters_update(t: Table, key: list[Any]) -> None:
    """Move the public counters on for the change about to be saved (before ``table_save``,
    which adds one to the room's version)."""
    state = t.room.state
    assert state is not None
    if state.get("public_decision") != key:
        state["public_decision"] = key
        state["public_step"] = public_step(t.room) + 1
    elif answers_only(t, key):
        _hidden_versions_add(t, +1)


def version_uncommitted(t: Table) -> None:
    """A window closed by a reader (``tables.play.clock.catch_up``), not by a commit: the
    public version moves on by one all the same, as the close's own commit would have moved
    it, and the commit that later saves the close moves it on again for its own change."""
    _hidden_versions_add(t, -1)


def version_committed(t: Table) -> None:
    """Undo :func:`version_uncommitted` for a commit that saves nothing but the close: that
    commit's own step of the room's version is the close's."""
    _hidden_versions_add(t, +1)


def _hidden_versions_add(t: Table, delta: int) -> None:
    """The commits :func:`public_version` leaves out of the room's version, ``delta`` more."""
    state = t.room.state
    assert state is not None
    state["hidden_versions"] = int(state.get("hidden_versions", 0)) + delta


def window_pass(t: Table, seat: int, hold: bool) -> None:
    """``seat``, asked in a window and out of time (or gone), passes."""
    assert t.hand is not None
    t.hand, _events = apply(t.hand, seat, Action("pass"), hold=hold)
