"""tables.rooms.forms: the room, rules and join forms validate clearly and build engine Rules."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django import forms

from engine.rules import OPTION_CHOICES, PROFILES, Rules, RulesError
from tables.rooms.forms import (
    BOOL_OPTIONS,
    CHOICE_OPTIONS,
    INT_OPTIONS,
    JoinForm,
    RoomForm,
    RulesForm,
    profile_defaults,
)
from tables.rooms.services import MATCH_LENGTH_MAX, TURN_SECONDS_MAX, TURN_SECONDS_MIN
from tables.screen.rule_labels import OPTION_LABELS
from tests.tables.factories import room_form_data

ENGINE_OPTIONS = [f.name for f in dataclasses.fields(Rules) if f.name != "profile"]


pytestmark = pytest.mark.usefixtures("english")


def rules_data(rules: Rules) -> dict[str, str]:
    """What a browser posts for ``rules``: an unticked box is simply absent."""
    data = {"profile": rules.profile}
    for name, value in rules.to_json().items():
        if name == "profile" or value is False:
            continue
        data[name] = "on" if value is True else str(value)
    return data


def room_data(**extra: Any) -> dict[str, Any]:
    data = room_form_data()
    data.update(extra)
    return data


def choices(field: forms.Field) -> list[tuple[Any, Any]]:
    assert isinstance(field, forms.ChoiceField)
    return list(field.choices)  # type: ignore[arg-type]


def errors(form: forms.Form, field: str) -> list[str]:
    return [str(e) for e in form.errors.get(field, [])]


# ---------------------------------------------------------------- every option, and Rules


def test_every_engine_option_has_a_field_of_its_kind() -> None:
    form = RulesForm()
    assert set(form.fields) == {"profile", *ENGINE_OPTIONS}
    assert sorted(BOOL_OPTIONS + CHOICE_OPTIONS + INT_OPTIONS) == sorted(ENGINE_OPTIONS)
    standard = PROFILES["standard"]
    for name in ENGINE_OPTIONS:
        field = form.fields[name]
        default = getattr(standard, name)
        if isinstance(default, bool):
            assert isinstance(field, forms.BooleanField) and not field.required, name
        elif isinstance(default, int):
            assert isinstance(field, forms.IntegerField), name
        else:
            assert isinstance(field, forms.ChoiceField), name
            assert [v for v, _ in choices(field)] == list(OPTION_CHOICES[name])
        assert field.label == OPTION_LABELS[name], name
    assert [v for v, _ in choices(form.fields["profile"])] == list(PROFILES)
    # The template's three groups list every option once.
    shown = [b.name for b in form.rule_choice_fields() + form.rule_bool_fields()]
    shown += [b.name for b in form.rule_int_fields()]
    assert sorted(shown) == sorted(ENGINE_OPTIONS)


@pytest.mark.parametrize("profile", list(PROFILES))
def test_posting_a_profile_builds_exactly_that_profile(profile: str) -> None:
    form = RulesForm(rules_data(PROFILES[profile]))
    assert form.is_valid(), form.errors
    assert form.rules() == PROFILES[profile]
    assert form.rules().overrides() == {}


def test_changed_options_become_overrides_of_the_chosen_profile() -> None:
    wanted = PROFILES["jiuyao_fan"].with_options(
        qiang_gang=False,
        angang_face_down=True,
        replacement="single_tile",
        sibao_points=0,
        min_win_points=7,
    )
    form = RulesForm(rules_data(wanted))
    assert form.is_valid(), form.errors
    built = form.rules()
    assert built == wanted and isinstance(built, Rules)
    assert built.overrides() == {
        "qiang_gang": False,
        "angang_face_down": True,
        "replacement": "single_tile",
        "sibao_points": 0,
        "min_win_points": 7,
    }
    assert Rules.from_json(built.to_json()) == built


def test_an_unticked_box_is_off() -> None:
    data = rules_data(PROFILES["standard"])
    assert data.pop("qiang_gang") == "on"
    form = RulesForm(data)
    assert form.is_valid(), form.errors
    assert form.rules().qiang_gang is False


def test_the_form_starts_from_the_rules_it_is_given() -> None:
    rules = PROFILES["jiuyao_fan"].with_options(qiang_gang=False, tian_di_points=9)
    form = RulesForm(rules=rules)
    assert form.fields["profile"].initial == "jiuyao_fan"
    for name in ENGINE_OPTIONS:
        assert form.fields[name].initial == getattr(rules, name), name
    assert RulesForm().fields["profile"].initial == "standard"


def test_profile_defaults_give_every_option_of_every_profile() -> None:
    defaults = profile_defaults()
    assert set(defaults) == set(PROFILES)
    for name, values in defaults.items():
        assert set(ENGINE_OPTIONS) <= set(values)
        assert Rules.from_json(values) == PROFILES[name]
    assert defaults["jiuyao_fan"]["scoring"] == "fan" and defaults["standard"]["scoring"] == (
        "standard"
    )


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("scoring", "chinese", "Select a valid choice"),
        ("profile", "house", "Select a valid choice"),
        ("min_win_points", "-1", "greater than or equal to 0"),
        ("sibao_points", "1000", "less than or equal to 999"),
        ("angang_points", "two", "Enter a whole number"),
        ("tian_di_points", "", "This field is required"),
    ],
)
def test_a_bad_option_is_an_error_on_that_field_not_a_crash(
    field: str, value: str, message: str
) -> None:
    data = rules_data(PROFILES["standard"])
    data[field] = value
    form = RulesForm(data)
    assert not form.is_valid()
    assert list(form.errors) == [field]
    assert message in errors(form, field)[0]


def test_a_rules_error_from_the_engine_becomes_a_form_error(monkeypatch: Any) -> None:
    def refuse(self: Any, **options: Any) -> Rules:
        raise RulesError("those options do not go together")

    monkeypatch.setattr(Rules, "with_options", refuse)
    form = RulesForm(rules_data(PROFILES["standard"]))
    assert not form.is_valid()
    assert form.non_field_errors() == ["those options do not go together"]


def test_a_room_form_with_good_settings() -> None:
    form = RoomForm(room_data(name="  Friday night  ", match_length="", turn_seconds="30"))
    assert form.is_valid(), form.errors
    data = form.cleaned_data
    assert data["name"] == "Friday night"
    assert data["match_length"] is None  # open-ended
    assert data["turn_seconds"] == 30 and data["is_public"] is True
    assert form.rules() == PROFILES["standard"]
    private = RoomForm(room_data(is_public="", match_length=str(MATCH_LENGTH_MAX)))
    assert private.is_valid(), private.errors
    assert private.cleaned_data["is_public"] is False
    assert private.cleaned_data["match_length"] == MATCH_LENGTH_MAX


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "   ", "This field is required"),
        ("name", "x" * 41, "at most 40 characters"),
        ("match_length", "0", "greater than or equal to 1"),
        ("match_length", str(MATCH_LENGTH_MAX + 1), f"less than or equal to {MATCH_LENGTH_MAX}"),
        ("turn_seconds", str(TURN_SECONDS_MIN - 1), f"greater than or equal to {TURN_SECONDS_MIN}"),
        ("turn_seconds", str(TURN_SECONDS_MAX + 1), f"less than or equal to {TURN_SECONDS_MAX}"),
        ("turn_seconds", "", "This field is required"),
    ],
)
def test_a_room_form_names_the_setting_that_is_wrong(field: str, value: str, message: str) -> None:
    form = RoomForm(room_data(**{field: value}))
    assert not form.is_valid()
    assert list(form.errors) == [field]
    assert message in errors(form, field)[0]


def test_the_room_form_has_every_rule_option_too() -> None:
    form = RoomForm()
    assert {"name", "is_public", "match_length", "turn_seconds", "profile"} <= set(form.fields)
    assert set(ENGINE_OPTIONS) <= set(form.fields)
    # Private by default (issue #36): a room is for the friends who get the link.
    assert form.fields["turn_seconds"].initial == 20 and form.fields["is_public"].initial is False
    assert not form.fields["match_length"].required


def test_every_rule_option_explains_itself_in_one_line() -> None:
    form = RoomForm()
    for name in ENGINE_OPTIONS:
        help_text = str(form.fields[name].help_text)
        assert help_text and "\n" not in help_text, name


# ---------------------------------------------------------------- join by number


@pytest.mark.parametrize("number", ["123456", " 654321 ", "000000"])
def test_join_accepts_six_digits_with_spaces_around(number: str) -> None:
    form = JoinForm({"number": number})
    assert form.is_valid(), form.errors
    # Spaces pass (a pasted number); the look-up (services.room_find) trims them.
    assert form.cleaned_data["number"].strip() == number.strip()


@pytest.mark.parametrize("number", ["12345", "1234567", "12a456", "123 456", "-12345"])
def test_join_refuses_anything_but_six_digits_with_a_clear_message(number: str) -> None:
    form = JoinForm({"number": number})
    assert not form.is_valid()
    assert errors(form, "number") == ["A room number is 6 digits."]


def test_join_needs_a_number() -> None:
    form = JoinForm({"number": ""})
    assert not form.is_valid()
    assert errors(form, "number") == ["This field is required."]


def test_join_with_full_width_digits_finds_the_ascii_number() -> None:
    form = JoinForm({"number": "１２３４５６"})
    assert form.is_valid() and form.cleaned_data["number"] == "123456"
    for other in ("١٢٣٤٥٦", "12345６７"):  # Arabic-Indic digits; seven once normalised
        assert not JoinForm({"number": other}).is_valid()


def test_rule_errors_only_for_the_rules() -> None:
    good = {"name": "x", "turn_seconds": 20, "profile": "standard", **Rules().to_json()}
    good = {k: v for k, v in good.items() if v is not False}
    assert not RoomForm({**good, "name": ""}).rule_errors()  # a room field: options stay shut
    assert RoomForm({**good, "min_win_points": "x"}).rule_errors()


@pytest.mark.parametrize(
    ("profile", "options", "field", "message"),
    [
        # the 番 table (§9) has no 长九幺: ticking it would change nothing
        ("jiuyao_fan", {"chang_jiuyao": "on"}, "chang_jiuyao", "does not use “长九幺 doubles”"),
        # with 抢杠 off no gang is robbed, so a changed settlement of one does nothing
        ("standard", {"rob_settlement": "fan"}, "rob_settlement", "while 抢杠 is off"),
    ],
)
def test_an_option_the_rules_would_ignore_is_refused_at_its_field(
    profile: str, options: dict[str, str], field: str, message: str
) -> None:
    data = rules_data(PROFILES[profile].with_options(qiang_gang=field != "rob_settlement"))
    data.update(options)
    room = {k: v for k, v in room_form_data().items() if k not in ENGINE_OPTIONS}
    for form in (RulesForm(data), RoomForm({**room, **data})):
        assert not form.is_valid()
        assert message in errors(form, field)[0]
        assert form.rule_errors()  # the options open to show it


@pytest.mark.parametrize("profile", list(PROFILES))
def test_each_profile_with_its_own_values_is_accepted(profile: str) -> None:
    # the profile's rob_settlement stays valid with 抢杠 off, and 长九幺 off is fine in §9
    rules = PROFILES[profile].with_options(qiang_gang=False)
    form = RulesForm(rules_data(rules))
    assert form.is_valid(), form.errors
    assert form.rules() == rules


def test_the_refusal_reads_in_chinese() -> None:
    from django.utils import translation

    data = rules_data(PROFILES["jiuyao_fan"])
    data["chang_jiuyao"] = "on"
    with translation.override("zh-hans"):
        form = RulesForm(data)
        assert not form.is_valid()
        assert errors(form, "chang_jiuyao") == [
            "番数计分（§9）不用“长九幺翻倍”：请关掉它，或改用标准分表。"
        ]


def test_the_room_form_sets_when_a_timeout_turns_on_tuoguan() -> None:
    assert RoomForm().fields["tuoguan_after"].initial == 2
    form = RoomForm(room_data(tuoguan_after="1"))
    assert form.is_valid(), form.errors
    assert form.cleaned_data["tuoguan_after"] == 1
    missing = RoomForm(room_data())
    assert missing.is_valid(), missing.errors
    assert missing.cleaned_data["tuoguan_after"] is None  # the view then uses the default
    assert not RoomForm(room_data(tuoguan_after="9")).is_valid()
