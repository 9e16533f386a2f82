"""The book as CSV: one row per entry, UTF-8 with a BOM so Excel reads the Chinese."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from typing import Any

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


class _Parties:
    """Names on entry rows; a bot's label is translated once per seat, not once per row."""

    def __init__(self) -> None:
        self.bots: dict[tuple[str, int], str] = {}

    def name(self, row: dict[str, Any], side: str, room_number: str) -> str:
        if row[f"{side}_id"] is not None:
            return str(row[f"{side}__display_name"]).strip() or str(row[f"{side}__username"])
        key = (room_number or "?", row[f"{side}_seat"] or 0)
        if key not in self.bots:
            self.bots[key] = bot_label(*key)
        return self.bots[key]


def csv_response(
    filename: str, header: list[str], rows: Iterable[Sequence[object]]
) -> HttpResponse:
    # Written to a buffer, then handed over at once: the response's own write() is slower per row.
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _values(qs: QuerySet[Entry]) -> Iterable[dict[str, Any]]:
    """Plain rows, not model instances: a hand's JSON (its moves, its result) never loads."""
    rows: Iterable[dict[str, Any]] = (
        qs.order_by("created_at", "pk")
        .values(
            "created_at",
            "kind",
            "points",
            "reason",
            "note",
            "hand_id",
            "hand__number",
            "room__number",
            "match__number",
            *(f"{side}{f}" for side in ("payer", "payee") for f in _PARTY_FIELDS),
        )
        .iterator(chunk_size=2000)
    )
    return rows


_PARTY_FIELDS = ("_id", "_seat", "__display_name", "__username")


def book_csv(request: HttpRequest, user: User, entries: QuerySet[Entry]) -> HttpResponse:
    """``user``'s entries: when, kind, room, match, hand, the other party, +/- points, why."""
    link = _hand_link(request)
    tz = timezone.get_current_timezone()
    parties = _Parties()
    kinds = {k: str(label) for k, label in Entry.Kind.choices}
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
    for e in _values(entries):
        received = e["payee_id"] == user.pk
        room_number = e["room__number"] or ""
        rows.append(
            [
                e["created_at"].astimezone(tz).isoformat(timespec="seconds"),
                kinds.get(e["kind"], e["kind"]),
                room_number,
                e["match__number"] or "",
                e["hand__number"] or "",
                parties.name(e, "payer" if received else "payee", room_number),
                e["points"] if received else -e["points"],
                e["reason"],
                e["note"],
                link(e["hand_id"]),
            ]
        )
    return csv_response("ledger.csv", header, rows)


def sheet_csv(request: HttpRequest, match: Match) -> HttpResponse:
    """A match's entries: hand, payer, payee, points, why, and the hand's link."""
    link = _hand_link(request)
    tz = timezone.get_current_timezone()
    parties = _Parties()
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
            e["created_at"].astimezone(tz).isoformat(timespec="seconds"),
            e["hand__number"] or "",
            parties.name(e, "payer", number),
            parties.name(e, "payee", number),
            e["points"],
            e["reason"],
            link(e["hand_id"]),
        ]
        for e in _values(Entry.objects.filter(match=match))
    ]
    return csv_response(f"sheet-{number}-{match.number}.csv", header, rows)
