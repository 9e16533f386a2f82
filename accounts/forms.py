from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts import selectors, services
from accounts.models import DISPLAY_NAME_MAX_LENGTH, User


def client_ip(request: HttpRequest | None) -> str:
    """The client's IP address as Django sees it (no proxy headers are trusted)."""
    if request is None:
        return "unknown"
    return str(request.META.get("REMOTE_ADDR") or "unknown")


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    """Username, password twice, optional display name; Django's password validators apply."""

    class Meta:
        model = User
        fields = ("username", "display_name")


class RateLimitedAuthenticationForm(AuthenticationForm):
    """Django's login form, refusing a username + IP after too many failures."""

    error_messages = {  # noqa: RUF012 (same shape as Django's own forms)
        **AuthenticationForm.error_messages,
        "rate_limited": _("Too many failed login attempts. Please wait 15 minutes and try again."),
    }

    def clean(self) -> dict[str, Any]:
        username = str(self.cleaned_data.get("username") or "")
        ip = client_ip(self.request)
        if username and selectors.login_is_rate_limited(username, ip):
            raise forms.ValidationError(self.error_messages["rate_limited"], code="rate_limited")
        try:
            cleaned = super().clean()
        except forms.ValidationError as error:
            if username and any(e.code == "invalid_login" for e in error.error_list):
                services.login_failure_record(username=username, ip=ip)
            raise
        if username:
            services.login_failure_clear(username=username, ip=ip)
        return cleaned


class DisplayNameForm(forms.Form):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=DISPLAY_NAME_MAX_LENGTH,
        required=False,
        help_text=_("Shown to other players. Leave empty to use your username."),
    )
