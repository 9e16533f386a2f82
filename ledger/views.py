"""Pages of the book. Thin: forms validate, ``ledger.services`` writes, selectors read.

Read pages first (my balances, a pair's history, 战绩, score sheets, CSV), then the settle-up
and correction pages.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from ledger import selectors, services, settle_up
from ledger.charts import cumulative_chart
from ledger.export import book_csv, sheet_csv
from ledger.forms import CorrectionForm, SettleUpForm
from ledger.models import SettlementClaim
from ledger.services import LedgerError
from ledger.sheets import match_visible_to, sheet_for
from tables.models import Match, Room
from tables.selectors import room_by_number


def _me(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


PAIR_ROWS_PER_PAGE = 100
"""A pair's history is paged: a phone scrolls a hundred rows well, not thousands."""


def _filters(request: HttpRequest) -> tuple[str, Room | None]:
    period = request.GET.get("period", "all")
    if period not in selectors.PERIODS:
        period = "all"
    number = request.GET.get("room", "").strip()
    room = Room.objects.filter(number=number).first() if number else None
    return period, room


@login_required
@require_http_methods(["GET"])
def book(request: HttpRequest) -> HttpResponse:
    """My book: net against everyone, newest activity first, by period and room."""
    me = _me(request)
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
    pair = selectors.pair_between(_me(request), party, room=room)
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
    return render(request, "ledger/matches.html", {"rows": selectors.matches_of(_me(request))})


def _visible_match(request: HttpRequest, match_id: int) -> Match | HttpResponse:
    match = match_visible_to(match_id, _me(request))
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
    me = _me(request)
    return book_csv(request, me, selectors.entries_of(me))


# ---------------------------------------------------------------- settle up (结账)


def _suggestion(request: HttpRequest, me: User) -> dict[str, object]:
    """Who pays whom among the players of the room asked for (only a room ``me`` played in)."""
    number = request.GET.get("room", "")
    room = room_by_number(number) if number else None
    if room is None:
        return {}
    players = settle_up.room_players(room)
    if me not in players:
        return {}
    return {
        "suggest_room": room,
        "suggestion": settle_up.who_pays_whom(settle_up.group_nets(players)),
    }


@login_required
@require_http_methods(["GET", "POST"])
def settle(request: HttpRequest) -> HttpResponse:
    """Record a settlement, answer the ones others recorded, see who pays whom in a room."""
    me = _me(request)
    partners = settle_up.partners_of(me)
    form = SettleUpForm(request.POST or None, partners=partners)
    if request.method == "POST" and form.is_valid():
        payer, payee = form.payer_and_payee(me)
        try:
            services.settlement_claim_create(
                recorded_by=me,
                payer=payer,
                payee=payee,
                points=form.cleaned_data["points"],
                note=form.cleaned_data["note"],
            )
        except LedgerError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Recorded. It counts once the other player confirms it."))
            return redirect("ledger:settle")
    mine = SettlementClaim.objects.select_related("payer", "payee", "recorded_by")
    involving = mine.filter(payer=me) | mine.filter(payee=me)
    context = {
        "form": form,
        "partners": partners,
        "to_answer": involving.filter(status=SettlementClaim.Status.PROPOSED).exclude(
            recorded_by=me
        ),
        "waiting": involving.filter(status=SettlementClaim.Status.PROPOSED, recorded_by=me),
        "answered": involving.exclude(status=SettlementClaim.Status.PROPOSED)[:10],
        "rooms": settle_up.rooms_of(me),
        **_suggestion(request, me),
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "ledger/settle.html", context, status=status)


@login_required
@require_POST
def settle_answer(request: HttpRequest, claim_id: int) -> HttpResponse:
    """The other player's answer to a recorded settlement: ``answer`` confirm or dispute."""
    me = _me(request)
    answer = request.POST.get("answer")
    try:
        if answer == "confirm":
            services.settlement_claim_confirm(claim_id=claim_id, user=me)
            messages.success(request, _("Confirmed: the settlement is in both books."))
        elif answer == "dispute":
            services.settlement_claim_dispute(claim_id=claim_id, user=me)
            messages.success(request, _("Disputed: the settlement stays out of the book."))
        else:
            messages.error(request, _("Confirm or dispute the settlement."))
    except LedgerError as exc:
        messages.error(request, str(exc))
    return redirect("ledger:settle")


# ---------------------------------------------------------------- staff corrections


@login_required
@require_http_methods(["GET", "POST"])
def correction(request: HttpRequest) -> HttpResponse:
    """Staff only: set the book right with a ``correction`` entry (never by editing a row)."""
    me = _me(request)
    if not me.is_staff:
        raise PermissionDenied
    form = CorrectionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.correction_create(
                staff=me,
                payer=data["payer"],
                payee=data["payee"],
                points=data["points"],
                note=data["note"],
                hand=data["hand"],
            )
        except LedgerError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("The correction is in the book."))
            return redirect("ledger:correction")
    status = 400 if request.method == "POST" else 200
    return render(request, "ledger/correction.html", {"form": form}, status=status)
