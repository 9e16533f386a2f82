"""Pages of the book. Thin: forms validate, ``ledger.services`` writes, selectors read.

Read pages first (my balances, a pair's history, 战绩, score sheets, CSV), then the settle-up
and correction pages.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.decorators import claimed_required
from accounts.models import User
from ledger import pairs, selectors, services, settle_up
from ledger.charts import cumulative_chart
from ledger.export import book_csv, sheet_csv
from ledger.forms import CorrectionForm, SettleUpForm
from ledger.models import PairBalance, SettlementClaim
from ledger.services import LedgerError
from ledger.sheets import match_visible_to, sheet_for
from tables.models import Match, Room


def _me(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


MATCHES_PER_PAGE = 20
SHEET_ROWS_PER_PAGE = 100


def _filters(request: HttpRequest) -> tuple[str, Room | None]:
    """The period asked for, and the room if it is one ``me`` played in (any other number,
    existing or not, is ignored alike)."""
    period = request.GET.get("period", "all")
    if period not in selectors.PERIODS:
        period = "all"
    return period, selectors.my_room(_me(request), request.GET.get("room", "").strip())


def _periods() -> list[tuple[str, str]]:
    return [
        ("week", _("This week")),
        ("month", _("This month")),
        ("settled", _("Since the last settle-up")),
        ("all", _("All time")),
    ]


@login_required
@require_http_methods(["GET"])
def book(request: HttpRequest) -> HttpResponse:
    """My book: net against people (and bots apart), newest activity first, by period/room."""
    me = _me(request)
    period, room = _filters(request)
    book = selectors.book_for(me, period=period, room=room)
    chart = ""
    # One line, so it needs no legend: against people (the headline), or against bots for
    # someone who has only played bots.
    people = [p for _d, p, _b in book.days]
    against = _("Against people")
    steps = people
    if not any(people):
        against, steps = _("Against bots"), [b for _d, _p, b in book.days]
    if any(steps):
        chart = cumulative_chart(
            series=[(against, steps)],
            x_labels=[day[5:] for day, _p, _b in book.days],
            title=f"{_('Cumulative points')} · {against}",
            x_title=_("Day"),
            y_title=_("Points"),
        )
    return render(
        request,
        "ledger/book.html",
        {"book": book, "chart": chart, "period": period, "room": room, "periods": _periods()},
    )


def _pair(
    request: HttpRequest, party: selectors.Counterparty, other: User | None = None
) -> HttpResponse:
    me = _me(request)
    period, room = _filters(request)
    since = selectors.period_start(period, user=me, other=other)
    pair = pairs.pair_between(
        me, party, room=room, since=since, before=request.GET.get("before", "")
    )
    context = {
        "pair": pair,
        "room": room,
        "period": period,
        "periods": [p for p in _periods() if p[0] in ("settled", "all")],
        "before": request.GET.get("before", ""),
    }
    return render(request, "ledger/pair.html", context)


@login_required
@require_http_methods(["GET"])
def pair_person(request: HttpRequest, user_id: int) -> HttpResponse:
    """Me and one other person: every hand and settlement, with the running balance."""
    other = get_object_or_404(User, pk=user_id)
    return _pair(request, selectors.Counterparty(user=other), other)


@login_required
@require_http_methods(["GET"])
def pair_bot(request: HttpRequest, number: str, seat: int) -> HttpResponse:
    """Me and one room's bot seat: only for someone who played that bot. Anyone else gets
    the same 404 as for a room that does not exist, so the page tells no room's number."""
    me = _me(request)
    played = PairBalance.objects.filter(
        user=me, other__isnull=True, room__number=number, seat=seat
    ).exists()
    if not played:
        raise Http404
    return _pair(request, selectors.Counterparty(room_number=number, seat=seat))


@login_required
@require_http_methods(["GET"])
def matches(request: HttpRequest) -> HttpResponse:
    """战绩: my matches, finished and closed rooms included, each linking to its sheet."""
    me = _me(request)
    page = Paginator(selectors.matches_of(me), MATCHES_PER_PAGE).get_page(request.GET.get("page"))
    rows = selectors.match_rows(me, page.object_list)
    return render(request, "ledger/matches.html", {"rows": rows, "page": page})


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
    page = Paginator(sheet.rows, SHEET_ROWS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "ledger/sheet.html", {"sheet": sheet, "chart": chart, "page": page})


@login_required
@require_http_methods(["GET"])
def score_sheet_csv(request: HttpRequest, match_id: int) -> HttpResponse | StreamingHttpResponse:
    match = _visible_match(request, match_id)
    if isinstance(match, HttpResponse):
        return match
    return sheet_csv(request, match)


@login_required
@require_http_methods(["GET"])
def export(request: HttpRequest) -> StreamingHttpResponse:
    """My book as CSV, one row per entry, for the period and room my page shows."""
    me = _me(request)
    period, room = _filters(request)
    since = selectors.period_start(period, user=me)
    return book_csv(request, me, selectors.entries_of(me, since=since, room=room))


# ---------------------------------------------------------------- settle up (结账)


def _payments(me: User, nets: dict[User, int]) -> dict[str, object]:
    return {
        "suggestion": settle_up.who_pays_whom(nets),
        "exact": settle_up.is_exact(nets),
    }


def _suggestion(request: HttpRequest, me: User, partners: list[User]) -> dict[str, object]:
    """Who pays whom: among the players of a room ``me`` played in, by that room's points;
    or among any people ``me`` picks (the group view), by all their points together."""
    picked = set(request.GET.getlist("people"))
    if picked:
        group = [me, *(u for u in partners if str(u.pk) in picked)]
        return {"group": group, **_payments(me, settle_up.group_nets(group))}
    room = selectors.my_room(me, request.GET.get("room", "").strip())
    if room is None:
        return {}
    players = settle_up.room_players(room)
    return {"suggest_room": room, **_payments(me, settle_up.group_nets(players, room=room))}


@login_required
@claimed_required
@require_http_methods(["GET", "POST"])
def settle(request: HttpRequest) -> HttpResponse:
    """Record a settlement, answer the ones others recorded, see who pays whom in a room."""
    me = _me(request)
    services.settlement_claims_expire()
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
                room=selectors.my_room(me, form.cleaned_data["room"]),
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
        **_suggestion(request, me, partners),
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "ledger/settle.html", context, status=status)


@login_required
@claimed_required
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
@claimed_required
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
