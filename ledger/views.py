"""The book's read pages: my balances, a pair's history, 战绩, score sheets, CSV. Thin:
selectors read, templates lay out."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.models import User
from ledger import selectors
from ledger.charts import cumulative_chart
from ledger.export import book_csv, sheet_csv
from ledger.sheets import match_visible_to, sheet_for
from tables.models import Match, Room

PAIR_ROWS_PER_PAGE = 100
"""A pair's history is paged: a phone scrolls a hundred rows well, not thousands."""


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


def _filters(request: HttpRequest) -> tuple[str, Room | None]:
    period = request.GET.get("period", "all")
    if period not in selectors.PERIODS:
        period = "all"
    number = request.GET.get("room", "").strip()
    room = Room.objects.filter(number=number).first() if number else None
    return period, room


@login_required
@require_http_methods(["GET"])
def ledger(request: HttpRequest) -> HttpResponse:
    """My book: net against everyone, newest activity first, by period and room."""
    me = _user(request)
    period, room = _filters(request)
    book = selectors.book_for(me, period=period, room=room)
    chart = ""
    if book.days:
        chart = cumulative_chart(
            series=[(me.name, [net for _day, net in book.days])],
            x_labels=[day[5:] for day, _net in book.days],
            title=_("Cumulative points"),
            x_title=_("Day"),
            y_title=_("Points"),
        )
    return render(
        request,
        "ledger/book.html",
        {
            "book": book,
            "chart": chart,
            "period": period,
            "room": room,
            "periods": [
                ("week", _("This week")),
                ("month", _("This month")),
                ("all", _("All time")),
            ],
        },
    )


def _pair(request: HttpRequest, party: selectors.Counterparty) -> HttpResponse:
    _period, room = _filters(request)
    pair = selectors.pair_between(_user(request), party, room=room)
    page = Paginator(pair.rows, PAIR_ROWS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "ledger/pair.html", {"pair": pair, "page": page, "room": room})


@login_required
@require_http_methods(["GET"])
def pair_person(request: HttpRequest, user_id: int) -> HttpResponse:
    """Me and one other person: every hand and settlement, with the running balance."""
    return _pair(request, selectors.Counterparty(user=get_object_or_404(User, pk=user_id)))


@login_required
@require_http_methods(["GET"])
def pair_bot(request: HttpRequest, number: str, seat: int) -> HttpResponse:
    """Me and one room's bot seat."""
    room = get_object_or_404(Room, number=number)
    return _pair(request, selectors.Counterparty(room_number=room.number, seat=seat))


@login_required
@require_http_methods(["GET"])
def matches(request: HttpRequest) -> HttpResponse:
    """战绩: my matches, finished and closed rooms included, each linking to its sheet."""
    return render(request, "ledger/matches.html", {"rows": selectors.matches_of(_user(request))})


def _visible_match(request: HttpRequest, match_id: int) -> Match | HttpResponse:
    match = match_visible_to(match_id, _user(request))
    if match is None:
        return render(request, "ledger/not_found.html", status=404)
    return match


@login_required
@require_http_methods(["GET"])
def score_sheet(request: HttpRequest, match_id: int) -> HttpResponse:
    """记分表: the match's hands as rows, its seats as columns, running totals, a chart."""
    match = _visible_match(request, match_id)
    if isinstance(match, HttpResponse):
        return match
    sheet = sheet_for(match)
    chart = ""
    if sheet.rows:
        chart = cumulative_chart(
            series=[
                (name, [row.points[seat] for row in sheet.rows])
                for seat, name in enumerate(sheet.players)
            ],
            x_labels=[str(row.number) for row in sheet.rows],
            title=_("Cumulative points"),
            x_title=_("Hand"),
            y_title=_("Points"),
        )
    return render(request, "ledger/sheet.html", {"sheet": sheet, "chart": chart})


@login_required
@require_http_methods(["GET"])
def score_sheet_csv(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _visible_match(request, match_id)
    if isinstance(match, HttpResponse):
        return match
    return sheet_csv(request, match)


@login_required
@require_http_methods(["GET"])
def export(request: HttpRequest) -> HttpResponse:
    """My whole book as CSV, one row per entry."""
    me = _user(request)
    return book_csv(request, me, selectors.entries_of(me))
