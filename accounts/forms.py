from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import DISPLAY_NAME_MAX_LENGTH, User


def _one_line_help(form: forms.BaseForm) -> None:
    # The form explains itself in one line a field; Django's validators still apply.
    form.fields["username"].help_text = _("What you log in with: letters, digits and @ . + - _")
    form.fields["password1"].help_text = _(
        "At least 8 characters, not only digits, not too like your username."
    )


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    """Username, password twice, optional display name; Django's password validators apply."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _one_line_help(self)

    class Meta:
        model = User
        fields = ("username", "display_name")


class LoginForm(AuthenticationForm):
    """Django's login form, saying so when django-axes refuses the attempt: too many failed
    logins from this address (settings ``AXES_*``)."""

    error_messages = {  # noqa: RUF012 (same shape as Django's own forms)
        **AuthenticationForm.error_messages,
        "rate_limited": _("Too many failed login attempts. Please wait 15 minutes and try again."),
    }

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except forms.ValidationError:
            if self.locked_out:
                raise forms.ValidationError(
                    self.error_messages["rate_limited"], code="rate_limited"
                ) from None
            raise

    @property
    def locked_out(self) -> bool:
        """Did django-axes refuse this attempt (it marks the request when it does)?"""
        return bool(getattr(self.request, "axes_locked_out", False))


class DisplayNameForm(forms.Form):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=DISPLAY_NAME_MAX_LENGTH,
        required=False,
        help_text=_("Shown to other players. Leave empty to use your username."),
    )


class GuestForm(forms.Form):
    """One field: the name the table shows."""

    nickname = forms.CharField(
        label=_("Nickname"),
        max_length=DISPLAY_NAME_MAX_LENGTH,
        help_text=_("What the others see at the table. You can save your account later."),
    )

    def clean_nickname(self) -> str:
        nickname = str(self.cleaned_data["nickname"]).strip()
        if not nickname:
            raise forms.ValidationError(_("Choose a nickname."), code="required")
        return nickname


class ClaimForm(UserCreationForm):  # type: ignore[type-arg]
    """A guest chooses a username and a password; the account and all it played stay."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _one_line_help(self)
        if self.instance.is_guest:  # not "guest-0c3e…": the guest chooses a name of their own
            self.initial["username"] = ""

    class Meta:
        model = User
        fields = ("username",)
