"""The 算分器's page, open to everyone: the whole hand is in the query, so a result is a link."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from clubs.selectors import offline_recording
from tables.calculator.calculate import (
    MELD_KINDS_SHOWN,
    PICKER_ROWS,
    CalculatorForm,
    calculator_result,
    query_with_tile,
)
from tables.rooms.forms import profile_defaults


@require_http_methods(["GET"])
def calculator(request: HttpRequest) -> HttpResponse:
    """The 算分器, open to everyone: the whole hand is in the query, so a result is a link."""
    if "tile" in request.GET:  # a picker tap without JavaScript
        return redirect(f"{request.path}?{query_with_tile(request.GET)}")
    form = CalculatorForm(request.GET if request.GET else None)
    context = {
        "form": form,
        "result": calculator_result(form),
        "profile_defaults": profile_defaults(),
        "picker": PICKER_ROWS,
        "meld_kinds": MELD_KINDS_SHOWN,
        "offline": offline_recording(request.user, request.GET.get("club", "")),
    }
    return render(request, "tables/calculator.html", context)
