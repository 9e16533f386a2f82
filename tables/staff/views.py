"""The staff desk's pages (``/staff/tables/``).

The desk answers anyone but staff with 404: it should not even be seen to exist.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from tables.models import AuditEntry
from tables.play import events
from tables.staff import desk as staff_desk

View = Callable[..., HttpResponse]


def staff_only(view: View) -> View:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not (request.user.is_authenticated and request.user.is_staff):
            raise Http404
        return view(request, *args, **kwargs)

    return wrapped


@require_http_methods(["GET"])
@staff_only
def desk(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tables/staff_desk.html",
        {
            "rows": staff_desk.desk_rows(),
            "stuck_after": int(staff_desk.STUCK_AFTER.total_seconds()),
        },
    )


@require_POST
@staff_only
def desk_action(request: HttpRequest, number: str, action: str) -> HttpResponse:
    """One of the desk's actions on table ``number``, with the reason the form asked for."""
    user = request.user
    assert isinstance(user, User)
    reason = request.POST.get("reason", "")
    try:
        if action == AuditEntry.Action.DISSOLVE:
            staff_desk.staff_room_dissolve(staff=user, number=number, reason=reason)
        elif action == AuditEntry.Action.REPLACE:
            try:
                index = int(request.POST.get("seat", ""))
            except ValueError:
                index = -1
            staff_desk.staff_seat_replace(
                staff=user, number=number, seat_index=index, reason=reason
            )
        elif action == AuditEntry.Action.CLOSE_HAND:
            staff_desk.staff_hand_close(staff=user, number=number, reason=reason)
        elif action == AuditEntry.Action.REARM:
            staff_desk.staff_clock_rearm(staff=user, number=number, reason=reason)
        else:
            raise Http404
    except staff_desk.StaffError as exc:
        messages.error(request, f"{number}: {exc}")
    else:
        events.table_changed(number)
        done = AuditEntry.Action(action).label
        messages.success(
            request,
            _("%(room)s: %(action)s (written to the audit log).")
            % {"room": number, "action": done},
        )
    return redirect("staff_desk")
