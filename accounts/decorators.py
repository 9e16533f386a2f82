"""What a guest may not do until they save their account: create rooms, settle up, correct."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

View = Callable[..., HttpResponse]


def claimed_required(view: View) -> View:
    """Send a guest to save their account first (and back here after); others pass."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if getattr(request.user, "is_guest", False):
            messages.info(request, _("Save your account first: guests can play, not do this."))
            back = urlencode({"next": request.get_full_path()})
            return redirect(f"{reverse('accounts:claim')}?{back}")
        return view(request, *args, **kwargs)

    return wrapped
