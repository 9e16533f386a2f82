"""A staff notice (:mod:`tables.play.staff_notice`) in words, in the page's language."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tables.models import SEAT_WINDS
from tables.play.staff_notice import StaffNotice

__all__ = ["notice_text"]


def notice_text(notice: StaffNotice | None) -> str:
    """What staff did and why, as one line for every seat and spectator; "" for no notice."""
    if notice is None:
        return ""
    reason = str(notice["reason"])
    action = notice["action"]
    if action == "dissolve":
        return _("Staff dissolved the match: %(reason)s") % {"reason": reason}
    if action == "rearm":
        return _("Staff restarted the clock: %(reason)s") % {"reason": reason}
    seat = int(notice["seat"])
    wind = SEAT_WINDS[seat] if 0 <= seat < len(SEAT_WINDS) else str(seat + 1)
    return _("Staff had a bot take over the %(wind)s seat, %(name)s: %(reason)s") % {
        "wind": wind,
        "name": notice["name"],
        "reason": reason,
    }
