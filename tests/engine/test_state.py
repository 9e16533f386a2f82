"""``engine.state``: one field list drives the JSON and the copy; stored hands load unchanged.

``data/stored_hands.json`` holds states written before the window became a typed value: one in
a 抢杠 window with an answer given, one in a claim window, one ended. Rooms keep this JSON.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from engine.actions import Action
from engine.hand import apply, waiting_on
from engine.melds import Meld
from engine.state import HandState, Window
from engine.tiles import parse_tile
from tests.deals import ROB_ACTIONS, ROBBED_BY_TWO, deal, hand_record, play

STORED: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "stored_hands.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("name", sorted(STORED))
def test_stored_json_loads_and_is_written_back_exactly(name: str) -> None:
    stored = STORED[name]
    state = HandState.from_json(stored)
    assert json.dumps(state.to_json(), ensure_ascii=False) == json.dumps(stored, ensure_ascii=False)


def test_a_stored_rob_window_is_typed_and_plays_on() -> None:
    state = HandState.from_json(STORED["rob_window"])
    assert state.pending == Window(
        "rob",
        frm=0,
        tile=parse_tile("9p"),
        eligible=(1, 3),
        answers=(None, Action("hu", tile=parse_tile("9p")), None, None),
        gang="angang",
        claimed_from=None,
    )
    assert waiting_on(state) == [3]
    ended, _ = apply(state, 3, Action("hu"))
    assert ended.result == STORED["ended"]["result"]


def test_the_json_keys_are_the_fields_in_order() -> None:
    state = deal(ROBBED_BY_TWO)
    assert list(state.to_json()) == [f.name for f in fields(HandState)]


def test_every_state_of_a_hand_round_trips_through_json_text() -> None:
    record = hand_record(ROBBED_BY_TWO, [])
    state = play(record)
    for seat, action in ROB_ACTIONS:
        back = HandState.from_json(json.loads(json.dumps(state.to_json())))
        assert back == state
        state, _ = apply(state, seat, Action.from_json(action))
    assert HandState.from_json(json.loads(json.dumps(state.to_json()))) == state


def test_a_copy_shares_nothing_that_apply_changes() -> None:
    state = deal(ROBBED_BY_TWO)
    before = state.to_json()
    twin = state.copy()
    assert twin == state and twin is not state
    twin.hands[0].pop()
    twin.rivers[1].append(0)
    twin.melds[2].append(Meld("peng", (0, 0, 0), 1))
    twin.flown[3] += 1
    twin.draws[0] += 1
    twin.log.append([0, {"type": "pass"}])
    twin.wall.draw()
    twin.wall.replacement(twin.rules)
    assert state.to_json() == before


def test_a_window_records_an_answer_in_a_new_window() -> None:
    window = Window("claim", frm=0, tile=2, eligible=(1, 2), answers=(None,) * 4)
    answered = window.answered(2, Action("pass"))
    assert window.answers == (None,) * 4
    assert answered.answers == (None, None, Action("pass"), None)
    assert answered.to_json()["answers"] == [None, None, {"type": "pass"}, None]
    with pytest.raises(ValueError, match="claim or a rob window"):
        Window.from_json({**window.to_json(), "kind": "fly"})


def test_the_bao_follows_the_indicator() -> None:
    state = deal(ROBBED_BY_TWO)
    assert (state.indicator, state.bao) == (parse_tile("7z"), parse_tile("5z"))
