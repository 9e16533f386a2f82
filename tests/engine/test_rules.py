from __future__ import annotations

import json

import pytest

from engine.rules import OPTION_CHOICES, PROFILES, Rules, RulesError


def test_profiles_differ_where_section_9_says() -> None:
    fan = Rules.profile_named("jiuyao_fan")
    assert fan.scoring == "fan" and fan.chengbao and fan.draw_dealer == "next_seat"
    assert fan.rob_settlement == "fan"
    std = Rules.profile_named("standard")
    assert std.scoring == "standard" and not std.chengbao and std.draw_dealer == "last_drawer"
    assert std.rob_settlement == "standard"


@pytest.mark.parametrize("profile", list(PROFILES))
def test_json_round_trip_is_exact(profile: str) -> None:
    rules = Rules.profile_named(profile).with_options(qiang_gang=False, tian_di_points=20)
    text = json.dumps(rules.to_json())
    assert Rules.from_json(json.loads(text)) == rules
    assert Rules.from_json(text) == rules


def test_every_option_is_individually_overridable() -> None:
    base = Rules()
    for name, value in base.to_json().items():
        if name == "profile":
            continue
        if isinstance(value, bool):
            new: object = not value
        elif isinstance(value, int):
            new = value + 1
        else:
            new = (
                OPTION_CHOICES[name][-1]
                if value == OPTION_CHOICES[name][0]
                else OPTION_CHOICES[name][0]
            )
        changed = base.with_options(**{name: new})
        assert getattr(changed, name) == new
        assert changed.overrides() == {name: new}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("mahjong", "unknown rules profile"),
        ({"profile": "standard", "nope": True}, "unknown rule option 'nope'"),
        ({"qiang_gang": "yes"}, "takes true or false"),
        ({"tian_di_points": -1}, "whole number"),
        ({"replacement": "two_tiles"}, "takes one of burn_upper, single_tile"),
        ("{not json", "not valid JSON"),
        (42, "profile name or an object"),
    ],
)
def test_bad_rules_are_refused_clearly(data: object, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_json(data)  # type: ignore[arg-type]


def test_the_same_options_give_the_same_rules_object() -> None:
    stored = Rules().with_options(qiang_gang=False).to_json()
    first = Rules.from_json(dict(stored))
    assert Rules.from_json(dict(reversed(list(stored.items())))) is first
    assert Rules.from_json({**stored, "qiang_gang": True}) is not first


@pytest.mark.parametrize(
    ("accepted", "refused"),
    [
        ({"min_win_points": 1}, {"min_win_points": True}),
        ({"qiang_gang": True}, {"qiang_gang": 1}),
    ],
)
def test_a_value_equal_to_an_accepted_one_is_still_checked(
    accepted: dict[str, object], refused: dict[str, object]
) -> None:
    Rules.from_json(accepted)  # remembered: True == 1, but only one of them is a yes/no
    with pytest.raises(RulesError):
        Rules.from_json(refused)


def test_an_unhashable_value_is_refused_as_a_rule_error() -> None:
    with pytest.raises(RulesError, match="qiang_gang"):
        Rules.from_json({"qiang_gang": [True]})


@pytest.mark.parametrize(
    ("options", "unused"),
    [
        # §9 has no 长九幺: the 番 score table never reads chang_jiuyao (seed 002's option)
        ({"profile": "jiuyao_fan", "chang_jiuyao": True}, ("chang_jiuyao",)),
        ({"scoring": "fan", "chang_jiuyao": True}, ("chang_jiuyao",)),
        ({"chang_jiuyao": True}, ()),  # the standard table doubles 长九幺
        ({"profile": "jiuyao_fan", "chang_jiuyao": False}, ()),  # off: nothing is ignored
        # without 抢杠 no gang is robbed, so a changed settlement of a robbed gang does nothing
        ({"qiang_gang": False, "rob_settlement": "fan"}, ("rob_settlement",)),
        ({"profile": "jiuyao_fan", "qiang_gang": False}, ()),  # the profile's own value stays
        (
            {"profile": "jiuyao_fan", "qiang_gang": False, "rob_settlement": "standard"},
            ("rob_settlement",),
        ),
    ],
)
def test_options_the_rules_never_read_are_named(
    options: dict[str, object], unused: tuple[str, ...]
) -> None:
    rules = Rules.from_json(options)  # stored rules load whatever they hold
    assert rules.unused_options() == unused
    if unused:
        with pytest.raises(RulesError, match=f"rule option '{unused[0]}' is not used"):
            rules.check_in_use()
    else:
        assert rules.check_in_use() is rules


@pytest.mark.parametrize("profile", list(PROFILES))
def test_every_profile_uses_all_its_own_options(profile: str) -> None:
    assert PROFILES[profile].unused_options() == ()
