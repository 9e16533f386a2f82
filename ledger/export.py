"""The book as CSV: one row per entry, UTF-8 with a BOM so Excel reads the Chinese."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Sequence

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from ledger.models import Entry
from ledger.selectors import bot_label
from tables.models import Match

__all__ = ["book_csv", "csv_response", "sheet_csv"]

_PLACEHOLDER = 987654321


def _hand_link(request: HttpRequest) -> Callable[[int | None], str]:
    """Absolute hand links, reversed once: a row costs a string format, not a URL lookup."""
    pattern = request.build_absolute_uri(reverse("hand_detail", args=[_PLACEHOLDER]))
    head, tail = pattern.split(str(_PLACEHOLDER))
    return lambda hand_id: "" if hand_id is None else f"{head}{hand_id}{tail}"


def _party(user: User | None, room_number: str | None, seat: int | None) -> str:
    if user is not None:
        return user.name
    return bot_label(room_number or "?", seat or 0)


def csv_response(
    filename: str, header: list[str], rows: Iterable[Sequence[object]]
) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    writer = csv.writer(response)
    writer.writerow(header)
    writer.writerows(rows)
    return response


def _selected(qs: QuerySet[Entry]) -> QuerySet[Entry]:
    return qs.select_related("payer", "payee", "hand", "room", "match").order_by("created_at", "pk")


def book_csv(request: HttpRequest, user: User, entries: QuerySet[Entry]) -> HttpResponse:
    """``user``'s entries: when, kind, room, match, hand, the other party, +/- points, why."""
    link = _hand_link(request)
    header = [
        _("Time"),
        _("Kind"),
        _("Room"),
        _("Match"),
        _("Hand"),
        _("Other party"),
        _("Points"),
        _("Reason"),
        _("Note"),
        _("Hand link"),
    ]
    rows = []
    for e in _selected(entries):
        received = e.payee_id == user.pk
        other, seat = (e.payer, e.payer_seat) if received else (e.payee, e.payee_seat)
        room_number = e.room.number if e.room is not None else ""
        rows.append(
            [
                timezone.localtime(e.created_at).isoformat(timespec="seconds"),
                e.get_kind_display(),
                room_number,
                e.match.number if e.match is not None else "",
                e.hand.number if e.hand is not None else "",
                _party(other, room_number, seat),
                e.points if received else -e.points,
                e.reason,
                e.note,
                link(e.hand_id),
            ]
        )
    return csv_response("ledger.csv", header, rows)


def sheet_csv(request: HttpRequest, match: Match) -> HttpResponse:
    """A match's entries: hand, payer, payee, points, why, and the hand's link."""
    link = _hand_link(request)
    number = match.room.number
    header = [
        _("Time"),
        _("Hand"),
        _("Payer"),
        _("Payee"),
        _("Points"),
        _("Reason"),
        _("Hand link"),
    ]
    rows = [
        [
            timezone.localtime(e.created_at).isoformat(timespec="seconds"),
            e.hand.number if e.hand is not None else "",
            _party(e.payer, number, e.payer_seat),
            _party(e.payee, number, e.payee_seat),
            e.points,
            e.reason,
            link(e.hand_id),
        ]
        for e in _selected(Entry.objects.filter(match=match))
    ]
    return csv_response(f"sheet-{number}-{match.number}.csv", header, rows)
