"""``engine.actions``: every action kind through JSON, and a clear error for malformed input."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.actions import ACTION_TYPES, GANG_TYPES, Action, ActionError
from engine.tiles import parse_tile, parse_tiles

EVERY_KIND: list[tuple[Action, dict[str, Any]]] = [
    (Action("discard", tile=parse_tile("9m")), {"type": "discard", "tile": "9m"}),
    (
        Action("chi", tile=parse_tile("5p"), tiles=tuple(parse_tiles("46p"))),
        {"type": "chi", "tile": "5p", "tiles": "46p"},
    ),
    (
        Action("chi", tile=parse_tile("7s"), tiles=tuple(parse_tiles("89s"))),
        {"type": "chi", "tile": "7s", "tiles": "89s"},
    ),
    (Action("peng", tile=parse_tile("1z")), {"type": "peng", "tile": "1z"}),
    *[
        (Action("gang", tile=parse_tile("3m"), gang=g), {"type": "gang", "tile": "3m", "gang": g})
        for g in GANG_TYPES
    ],
    (Action("hu"), {"type": "hu"}),
    (Action("hu", tile=parse_tile("7z")), {"type": "hu", "tile": "7z"}),  # the drawn tile
    (Action("pass"), {"type": "pass"}),
]


def test_every_type_and_gang_kind_is_covered() -> None:
    kinds = {a.type for a, _ in EVERY_KIND}
    gangs = {a.gang for a, _ in EVERY_KIND if a.gang is not None}
    assert kinds == set(ACTION_TYPES) and gangs == set(GANG_TYPES)


@pytest.mark.parametrize(("action", "data"), EVERY_KIND)
def test_json_round_trip(action: Action, data: dict[str, Any]) -> None:
    assert action.to_json() == data
    # through text, as a log file or a websocket message carries it
    assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action
    assert Action.from_json(data) == action


def test_chi_tiles_are_read_in_any_order() -> None:
    a = Action.from_json({"type": "chi", "tile": "5m", "tiles": "64m"})
    assert a.tiles == (parse_tile("4m"), parse_tile("6m"))
    assert a.to_json()["tiles"] == "46m"


def test_absent_and_null_fields_are_the_same() -> None:
    a = Action.from_json({"type": "discard", "tile": "2s", "tiles": None, "gang": None})
    assert a == Action("discard", tile=parse_tile("2s"))
    assert Action.from_json({"type": "pass", "tile": None}) == Action("pass")


MALFORMED: list[tuple[Any, str]] = [
    (None, "an action is an object"),
    ("discard", "an action is an object"),
    ([0, {"type": "pass"}], "an action is an object"),
    ({}, "unknown action type None"),
    ({"type": "fly"}, "unknown action type 'fly'; expected one of discard, chi, peng"),
    ({"type": "DISCARD", "tile": "5m"}, "unknown action type 'DISCARD'"),
    ({"type": ["pass"]}, "unknown action type"),
    ({"type": "discard"}, "a discard action needs a tile"),
    ({"type": "discard", "tile": None}, "a discard action needs a tile"),
    ({"type": "peng"}, "a peng action needs a tile"),
    ({"type": "gang", "gang": "angang"}, "a gang action needs a tile"),
    ({"type": "discard", "tile": 4}, "tile must be text like '5m', got 4"),
    ({"type": "discard", "tile": ["5m"]}, "tile must be text"),
    ({"type": "discard", "tile": "8z"}, "bad tile in action: no honor 8z"),
    ({"type": "discard", "tile": "0m"}, "bad tile in action: no tile 0m"),
    ({"type": "discard", "tile": "55m"}, "bad tile in action: expected one tile"),
    ({"type": "discard", "tile": ""}, "bad tile in action: expected one tile"),
    ({"type": "discard", "tile": "5x"}, "bad tile in action: unexpected 'x'"),
    ({"type": "chi", "tile": "5m", "tiles": 46}, "tiles must be text like '46m', got 46"),
    ({"type": "chi", "tile": "5m", "tiles": "4"}, "bad tile in action: digits without a suit"),
    ({"type": "chi", "tile": "5m"}, "a chi action needs the claimed tile and two tiles"),
    ({"type": "chi", "tiles": "46m"}, "a chi action needs the claimed tile and two tiles"),
    ({"type": "chi", "tile": "5m", "tiles": "4m"}, "needs the claimed tile and two tiles"),
    ({"type": "chi", "tile": "5m", "tiles": "346m"}, "needs the claimed tile and two tiles"),
    ({"type": "gang", "tile": "1m"}, "gang must be one of minggang, bugang, angang, liangbao"),
    ({"type": "gang", "tile": "1m", "gang": "bigang"}, "gang must be one of .*got 'bigang'"),
    ({"type": "peng", "tile": "1m", "gang": "minggang"}, "only a gang action has 'gang'"),
    ({"type": "pass", "gang": "angang"}, "only a gang action has 'gang', not 'pass'"),
    ({"type": "discard", "tile": "5m", "tiles": "46m"}, "only a chi action has 'tiles'"),
    ({"type": "peng", "tile": "5m", "tiles": "55m"}, "only a chi action has 'tiles', not 'peng'"),
]


@pytest.mark.parametrize(("data", "message"), MALFORMED)
def test_malformed_input_is_a_clear_action_error(data: Any, message: str) -> None:
    with pytest.raises(ActionError, match=message):
        Action.from_json(data)


def test_action_error_is_a_value_error() -> None:
    # callers that catch ValueError (the replay tool, the web layer) catch it too
    with pytest.raises(ValueError, match="unknown action type"):
        Action.from_json({"type": "fly"})


def test_actions_are_immutable_and_hashable() -> None:
    a = Action("peng", tile=parse_tile("1z"))
    with pytest.raises(AttributeError):
        a.tile = 0  # type: ignore[misc]
    assert len({a, Action("peng", tile=parse_tile("1z")), Action("pass")}) == 2
