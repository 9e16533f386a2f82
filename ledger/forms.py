"""Forms of the book's writes: settling up (结账) and staff corrections."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from ledger.models import SettlementClaim
from tables.models import Hand

POINTS_MAX = 1_000_000


class PlayerChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: Any) -> str:
        assert isinstance(obj, User)
        return obj.name if obj.name == obj.username else f"{obj.name} ({obj.username})"


class SettleUpForm(forms.Form):
    """One side of a settlement: with whom, which way the money went, how much."""

    I_PAID = "i_paid"
    THEY_PAID = "they_paid"

    other = PlayerChoiceField(label=_("With"), queryset=User.objects.none())
    direction = forms.ChoiceField(
        label=_("Who paid"),
        choices=[(I_PAID, _("I paid them")), (THEY_PAID, _("They paid me"))],
        widget=forms.RadioSelect,
        initial=I_PAID,
    )
    points = forms.IntegerField(label=_("Points"), min_value=1, max_value=POINTS_MAX)
    note = forms.CharField(
        label=_("Note"),
        required=False,
        max_length=SettlementClaim._meta.get_field("note").max_length,
        help_text=_("For example: paid by WeChat on Friday."),
    )
    room = forms.CharField(required=False, widget=forms.HiddenInput)
    """The room number of the who-pays-whom it came from, if any."""

    def __init__(self, *args: Any, partners: Sequence[User], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["other"]
        assert isinstance(field, PlayerChoiceField)
        field.queryset = User.objects.filter(pk__in=[u.pk for u in partners])

    def payer_and_payee(self, me: User) -> tuple[User, User]:
        other = self.cleaned_data["other"]
        return (me, other) if self.cleaned_data["direction"] == self.I_PAID else (other, me)


class CorrectionForm(forms.Form):
    """Staff set the book right with a new entry; nothing already booked changes."""

    payer = forms.ModelChoiceField(
        label=_("Payer's username"),
        queryset=User.objects.all(),
        to_field_name="username",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    payee = forms.ModelChoiceField(
        label=_("Payee's username"),
        queryset=User.objects.all(),
        to_field_name="username",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    points = forms.IntegerField(label=_("Points"), min_value=1, max_value=POINTS_MAX)
    hand = forms.ModelChoiceField(
        label=_("Hand number in the book"),
        queryset=Hand.objects.all(),
        required=False,
        widget=forms.NumberInput,
        help_text=_("The hand this corrects, if any (the number in its address /hands/…/)."),
    )
    note = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Both players see it in their books, with your name."),
    )
