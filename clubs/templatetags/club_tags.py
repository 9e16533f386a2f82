"""The club's display value of a point, next to the points (only a display: no money moves)."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()

_VALUE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(.*)$")


@register.filter
def point_value(points: int, value: str) -> str:
    """``points`` in the club's unit: "1 元" a point makes -12 read "-12 元"; "" if unset.

    >>> point_value(-12, "0.5 元"), point_value(3, ""), point_value(3, "元")
    ('-6 元', '', '3 元')
    """
    if not value or not value.strip():
        return ""
    match = _VALUE.match(value)
    if match is None:
        return f"{points} {value.strip()}"
    try:
        amount = Decimal(match.group(1)) * points
    except InvalidOperation:
        return ""
    text = f"{amount.normalize():f}" if amount != amount.to_integral() else f"{int(amount)}"
    return f"{text} {match.group(2).strip()}".strip()


ACTIONS = {
    "create": _("created the club"),
    "join": _("joined the club"),
    "admit": _("admitted"),
    "refuse": _("refused"),
    "leave": _("left"),
    "mute": _("muted"),
    "unmute": _("unmuted"),
    "suspend": _("suspended"),
    "reinstate": _("reinstated"),
    "remove": _("removed"),
    "admin": _("made an admin"),
    "member": _("made a plain member"),
    "forbid": _("forbade at one table"),
    "allow": _("allowed at one table again"),
    "announce": _("changed the announcement"),
    "join_mode": _("changed how to join"),
    "new_link": _("replaced the invite link"),
    "point_value": _("set the value of a point"),
    "preset": _("added a preset"),
    "seat": _("seated"),
    "close_room": _("closed a room"),
    "settled": _("settled the club's book"),
}
"""What each audit action reads as; an unknown one reads as its code."""


@register.filter
def audit_action(code: str) -> str:
    return str(ACTIONS.get(code, code))
