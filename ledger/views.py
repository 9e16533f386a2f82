"""Pages of the book. Thin: forms validate, ``ledger.services`` writes, selectors read."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from ledger import services, settle_up
from ledger.forms import CorrectionForm, SettleUpForm
from ledger.models import SettlementClaim
from ledger.services import LedgerError
from tables.selectors import room_by_number


def _me(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


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
