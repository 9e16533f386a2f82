"""Room forms: settings, rules (a profile plus every option), join by number."""

from __future__ import annotations

import dataclasses
import unicodedata
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.rules import OPTION_CHOICES, PROFILES, Rules, RulesError
from tables.models import TUOGUAN_AFTER_DEFAULT
from tables.rooms.services import MATCH_LENGTH_MAX, TURN_SECONDS_MAX, TURN_SECONDS_MIN
from tables.screen.rule_labels import OPTION_LABELS, PROFILE_LABELS, VALUE_LABELS

RULE_FIELDS = [f.name for f in dataclasses.fields(Rules) if f.name != "profile"]
BOOL_OPTIONS = [n for n in RULE_FIELDS if isinstance(getattr(PROFILES["standard"], n), bool)]
CHOICE_OPTIONS = [n for n in RULE_FIELDS if n in OPTION_CHOICES]
INT_OPTIONS = [n for n in RULE_FIELDS if n not in BOOL_OPTIONS and n not in CHOICE_OPTIONS]


UNUSED_OPTION = {
    "chang_jiuyao": _(
        "The 番 score table (§9) does not use “%(option)s”: turn it off, or choose the "
        "standard score table."
    ),
    "rob_settlement": _(
        "“%(option)s” does nothing while 抢杠 is off, since no gang is robbed: leave it at the "
        "profile's value, or turn 抢杠 on."
    ),
}
"""Why each option :meth:`engine.rules.Rules.unused_options` names would be ignored."""


OPTION_HELP = {
    "scoring": _("Which table turns a winning hand into points."),
    "first_dealer": _("Who deals the first hand of the match."),
    "draw_dealer": _("Who deals after a hand that nobody wins."),
    "break_offset": _("Where the wall is opened, counted from the dice."),
    "replacement": _("Which tile a player takes after a gang."),
    "bugang_any_time": _("A 碰 can be made a gang later with a tile already in the hand."),
    "angang_face_down": _("The others do not see which four tiles a concealed gang holds."),
    "bao_discard_claimable": _("A discarded 宝 can be taken with 吃, 碰 or 杠 as a plain tile."),
    "qiang_gang": _("A player waiting on the tile someone adds to a 碰 may win on it."),
    "chang_jiuyao": _("A 九幺 hand with no 碰 or 杠 scores double."),
    "strict_no_bao": _("无宝 counts only when the hand holds no 宝 at all, not even as itself."),
    "min_score_all_patterns": _("十三烂 and 九幺 must also reach the minimum score to win."),
    "min_win_points": _(
        "A 平胡 below this score cannot be declared. Example: 4 means a 2-point hand must wait."
    ),
    "tian_di_points": _("Points for winning on the deal (天胡) or on the first discard (地胡)."),
    "chengbao": _(
        "Who fed the winner three melds pays everyone's share. Example: 12 instead of 4."
    ),
    "minggang_points": _("What each other player pays for an exposed gang."),
    "angang_points": _("What each other player pays for a concealed gang."),
    "liangbao_gang_points": _("What each other player pays for a gang of the shown 宝 tile."),
    "sibao_points": _("What each other player pays the one holding all four 宝."),
    "rob_settlement": _("What happens to the gang points when a gang is robbed."),
}
"""One line per option, in plain words, under its field."""


def profile_defaults() -> dict[str, dict[str, Any]]:
    """Each profile's option values, for the form's script that resets options on a switch."""
    return {name: rules.to_json() for name, rules in PROFILES.items()}


class RulesFieldsMixin(forms.Form):
    """Adds ``profile`` and one field per rule option; ``rules()`` builds the Rules."""

    def add_rule_fields(self, rules: Rules) -> None:
        self.fields["profile"] = forms.ChoiceField(
            label=_("Rules profile"),
            choices=[(name, PROFILE_LABELS.get(name, name)) for name in PROFILES],
            initial=rules.profile,
            help_text=_("Start from a preset; change single options under “Custom”."),
        )
        for name in CHOICE_OPTIONS:
            self.fields[name] = forms.ChoiceField(
                label=OPTION_LABELS.get(name, name),
                choices=[(v, VALUE_LABELS.get(name, {}).get(v, v)) for v in OPTION_CHOICES[name]],
                initial=getattr(rules, name),
                help_text=OPTION_HELP.get(name, ""),
            )
        for name in BOOL_OPTIONS:
            self.fields[name] = forms.BooleanField(
                label=OPTION_LABELS.get(name, name),
                required=False,
                initial=getattr(rules, name),
                help_text=OPTION_HELP.get(name, ""),
            )
        for name in INT_OPTIONS:
            self.fields[name] = forms.IntegerField(
                label=OPTION_LABELS.get(name, name),
                min_value=0,
                max_value=999,
                initial=getattr(rules, name),
                help_text=OPTION_HELP.get(name, ""),
            )

    def presets_as_buttons(self) -> None:
        """The profiles as one-tap presets (the room forms), not a drop-down."""
        field = self.fields["profile"]
        field.widget = forms.RadioSelect(choices=list(field.widget.choices))

    def rules(self) -> Rules:
        data = self.cleaned_data
        base = Rules.profile_named(data["profile"])
        return base.with_options(**{name: data[name] for name in RULE_FIELDS})

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not self.errors:
            try:
                rules = self.rules()
            except RulesError as exc:
                raise forms.ValidationError(str(exc)) from None
            # an option these rules would never read is refused at its field, never ignored
            for name in rules.unused_options():
                self.add_error(name, UNUSED_OPTION[name] % {"option": OPTION_LABELS[name]})
        return cleaned

    def rule_errors(self) -> bool:
        """Whether the rules went wrong: the options then open (other errors leave them shut)."""
        return bool(self.non_field_errors()) or any(n in self.errors for n in RULE_FIELDS)

    def rule_choice_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in CHOICE_OPTIONS]

    def rule_bool_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in BOOL_OPTIONS]

    def rule_int_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in INT_OPTIONS]


class RoomForm(RulesFieldsMixin):
    name = forms.CharField(label=_("Room name"), max_length=40)
    is_public = forms.BooleanField(
        label=_("Public: listed in the lobby"),
        required=False,
        initial=False,
        help_text=_("Off: only people with the invite link or the number can join."),
    )
    match_length = forms.IntegerField(
        label=_("Number of hands"),
        required=False,
        min_value=1,
        max_value=MATCH_LENGTH_MAX,
        initial=8,
        help_text=_("Leave empty for an open-ended match."),
    )
    turn_seconds = forms.IntegerField(
        label=_("Seconds per turn"),
        min_value=TURN_SECONDS_MIN,
        max_value=TURN_SECONDS_MAX,
        initial=20,
    )

    tuoguan_after = forms.TypedChoiceField(
        label=_("Auto-play (托管) after a timeout"),
        coerce=int,
        required=False,
        empty_value=None,  # a form posted without it (older pages) keeps the default
        choices=[
            (1, _("at the first timeout")),
            (2, _("at the second timeout in a hand")),
            (3, _("at the third timeout in a hand")),
        ],
        initial=TUOGUAN_AFTER_DEFAULT,
        help_text=_("Before that, a timeout plays one tile for the player and warns them."),
    )

    def __init__(self, *args: Any, rules: Rules | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.add_rule_fields(rules or PROFILES["standard"])
        self.presets_as_buttons()


class RulesForm(RulesFieldsMixin):
    def __init__(self, *args: Any, rules: Rules | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.add_rule_fields(rules or PROFILES["standard"])
        self.presets_as_buttons()


class JoinForm(forms.Form):
    number = forms.CharField(
        label=_("Room number"),
        max_length=20,
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "placeholder": "123456"}
        ),
    )

    def clean_number(self) -> str:
        # Chinese input methods often type full-width digits (１２３４５６): NFKC makes them
        # the ASCII digits room numbers are made of, so they find the room.
        number = unicodedata.normalize("NFKC", self.cleaned_data["number"]).strip()
        if not (len(number) == 6 and number.isascii() and number.isdigit()):
            raise forms.ValidationError(_("A room number is 6 digits."), code="invalid")
        return number
