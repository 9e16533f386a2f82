"""What staff last did to a table and why, kept in ``room.state`` for every page to show.

A staff action (:mod:`tables.staff.desk`) leaves a notice here: which action, the reason
given, and for a seat handed to a bot, which seat and whose it was. It is data, not words:
each page says it in its own language (:mod:`tables.screen.staff_notice`). Kept in the
room's state, it survives a restart and is read with the table (no query of its own). It
goes when the next hand is dealt (:func:`tables.play.moves.hand_deal`) or the next staff
action replaces it. Closing a hand takes it away too: that hand's settlement says why.

Every function runs inside the caller's transaction with the room row locked.
"""

from __future__ import annotations

from typing import Any

from tables.play.table import Table

__all__ = ["NOTICE_KEY", "StaffNotice", "notice_clear", "notice_of", "notice_post"]

NOTICE_KEY = "staff_notice"

StaffNotice = dict[str, Any]
"""``{"action": "dissolve" | "replace" | "rearm", "reason": str}``, with ``"seat"`` (its
index) and ``"name"`` (the person's display name then) for ``"replace"``."""

ACTIONS = ("dissolve", "replace", "rearm")


def notice_post(
    t: Table, action: str, reason: str, *, seat: int | None = None, name: str = ""
) -> None:
    """Staff did ``action`` for ``reason``: the table says so, in place of any earlier notice."""
    assert action in ACTIONS and t.room.state is not None
    notice: StaffNotice = {"action": action, "reason": reason}
    if seat is not None:
        notice |= {"seat": seat, "name": name}
    t.room.state[NOTICE_KEY] = notice


def notice_clear(t: Table) -> None:
    """The table no longer shows a staff notice (a new hand, or a hand closed by staff)."""
    if t.room.state is not None:
        t.room.state.pop(NOTICE_KEY, None)


def notice_of(state: dict[str, Any] | None) -> StaffNotice | None:
    """The notice a room's state holds, or None."""
    notice = (state or {}).get(NOTICE_KEY)
    return notice if isinstance(notice, dict) and notice.get("action") in ACTIONS else None
