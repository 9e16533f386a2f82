"""The book as CSV: one row per entry, UTF-8 with a BOM so Excel reads the Chinese, streamed
as it is read so a long book never sits in memory whole.

No text cell is ever a formula: one that starts with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return gets a leading ``'`` (OWASP's advice for CSV injection), so a display name
like ``=HYPERLINK(...)`` reads as text in a spreadsheet. Numbers are written as numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest, StreamingHttpResponse
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from ledger.models import Entry
from ledger.selectors import bot_label
from tables.models import Match
from tables.screen.settlement import reason_label

__all__ = ["book_csv", "cell", "csv_response", "sheet_csv"]

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_ROWS_PER_CHUNK = 500


def cell(value: object) -> object:
    """A value as a CSV cell: text that a spreadsheet would run as a formula is quoted.

    >>> [cell(v) for v in ("=1+2", "-cmd", "@SUM(A1)", "\\tx", "小李", -8, 12)]
    ["'=1+2", "'-cmd", "'@SUM(A1)", "'\\tx", '小李', -8, 12]
    """
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


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


def _chunks(header: list[str], rows: Iterable[Sequence[object]], language: str) -> Iterator[str]:
    # Read after the view has returned: in the page's language still.
    with translation.override(language):
        yield from _written(header, rows)


def _written(header: list[str], rows: Iterable[Sequence[object]]) -> Iterator[str]:
    # A few hundred rows per chunk: one write per row to the response would be slower.
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    buffer.write("\ufeff")
    writer.writerow([cell(h) for h in header])
    for n, row in enumerate(rows, 1):
        writer.writerow([cell(v) for v in row])
        if n % _ROWS_PER_CHUNK == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def csv_response(
    filename: str, header: list[str], rows: Iterable[Sequence[object]]
) -> StreamingHttpResponse:
    chunks = _chunks(header, rows, translation.get_language())
    response = StreamingHttpResponse(chunks, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class _Reasons:
    """A transfer's reason in the page's language, translated once per reason."""

    def __init__(self) -> None:
        self.words: dict[str, str] = {}

    def __call__(self, reason: str) -> str:
        if reason not in self.words:
            self.words[reason] = str(reason_label(reason)) if reason else ""
        return self.words[reason]


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


def book_csv(request: HttpRequest, user: User, entries: QuerySet[Entry]) -> StreamingHttpResponse:
    """``user``'s entries: when, kind, room, match, hand, the other party, +/- points, why.

    Each row's points are what the other party owes ``user`` by it (+) or ``user`` owes
    (-), for every kind alike: a settlement that paid a debt of 8 reads +8 for who paid."""
    link = _hand_link(request)
    reasons = _Reasons()
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

    def rows() -> Iterator[list[object]]:
        for e in _values(entries):
            received = e["payee_id"] == user.pk
            room_number = e["room__number"] or ""
            yield [
                e["created_at"].astimezone(tz).isoformat(timespec="seconds"),
                kinds.get(e["kind"], e["kind"]),
                room_number,
                e["match__number"] or "",
                e["hand__number"] or "",
                parties.name(e, "payer" if received else "payee", room_number),
                e["points"] if received else -e["points"],
                reasons(e["reason"]),
                e["note"],
                link(e["hand_id"]),
            ]

    return csv_response("ledger.csv", header, rows())


def sheet_csv(request: HttpRequest, match: Match) -> StreamingHttpResponse:
    """A match's entries: hand, payer, payee, points, why, and the hand's link."""
    link = _hand_link(request)
    reasons = _Reasons()
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
    rows = (
        [
            e["created_at"].astimezone(tz).isoformat(timespec="seconds"),
            e["hand__number"] or "",
            parties.name(e, "payer", number),
            parties.name(e, "payee", number),
            e["points"],
            reasons(e["reason"]),
            link(e["hand_id"]),
        ]
        for e in _values(Entry.objects.filter(match=match))
    )
    return csv_response(f"sheet-{number}-{match.number}.csv", header, rows)
