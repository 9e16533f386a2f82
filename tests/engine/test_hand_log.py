"""``engine.hand_log``: a hand rebuilt from rules, seed (or wall), dice and its log ends the
same; a changed log or result is caught."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import selfplay
from engine.actions import ActionError
from engine.hand import HandState, IllegalAction
from engine.hand_log import check_record, replay
from engine.rules import Rules
from engine.tiles import format_tile

FAN = Rules.profile_named("jiuyao_fan")


def bot_hand(rules: Rules, dealer: int, seed: str) -> HandState:
    return selfplay.play_hand(
        rules, dealer, seed, ["basic", "random", "basic", "random"], random.Random(seed)
    )


@pytest.mark.parametrize(
    ("rules", "dealer", "seed"), [(Rules(), 0, "a"), (FAN, 3, "b"), (Rules(), 2, "c")]
)
def test_a_played_hand_replays_to_the_identical_end(rules: Rules, dealer: int, seed: str) -> None:
    state = bot_hand(rules, dealer, seed)
    assert state.phase == "ended" and len(state.log) > 10
    again = replay(rules, seed, state.wall.dice, state.log, dealer=dealer)
    assert again == state
    assert again.result == state.result
    # the dice follow from the seed, so they may be left out
    assert replay(rules, seed, None, state.log, dealer=dealer) == state


def test_the_explicit_ring_replays_the_same_hand() -> None:
    state = bot_hand(FAN, 1, "ring")
    again = replay(FAN, list(state.wall.ring), state.wall.dice, state.log, dealer=1)
    assert again.result == state.result
    assert (
        again.hands == state.hands and again.melds == state.melds and again.rivers == state.rivers
    )
    assert again.seed is None  # nothing was shuffled


def test_replay_returns_a_hand_part_way_through() -> None:
    state = bot_hand(Rules(), 0, "part")
    half = replay(Rules(), "part", None, state.log[:9], dealer=0)
    assert half.phase != "ended" and half.result is None and half.log == state.log[:9]


def refused_or_different(record: dict[str, Any]) -> bool:
    """The record no longer replays to its result: a difference, or an action refused."""
    try:
        return check_record(record) != []
    except IllegalAction:
        return True


def test_a_changed_log_is_refused_with_a_clear_error() -> None:
    state = bot_hand(Rules(), 0, "change")
    seat, first = state.log[0]
    assert (seat, first["type"]) == (0, "discard")
    opening = replay(Rules(), "change", None, [], dealer=0).hands[0]
    other = next(format_tile(k) for k in range(34) if k not in opening)
    log = [[0, {"type": "discard", "tile": other}], *state.log[1:]]
    with pytest.raises(IllegalAction, match=f"discard {other} is not legal for seat 0 now"):
        replay(Rules(), "change", None, log, dealer=0)
    with pytest.raises(IllegalAction, match="seat 1 is not asked to act now"):
        replay(Rules(), "change", None, [[1, first]], dealer=0)
    with pytest.raises(ActionError, match="unknown action type 'fly'"):
        replay(Rules(), "change", None, [[0, {"type": "fly"}]], dealer=0)
    with pytest.raises(IllegalAction, match="the hand is over"):
        replay(Rules(), "change", None, [*state.log, [0, {"type": "pass"}]], dealer=0)


@pytest.mark.parametrize(
    "change",
    [{"seed": "other"}, {"dealer": 1}, {"dice": [6, 6, 6, 6]}, {"rules": "jiuyao_fan"}],
)
def test_the_same_log_on_another_deal_does_not_reach_the_same_end(change: dict[str, Any]) -> None:
    record = record_of(bot_hand(Rules(), 0, "change"), "change")
    assert check_record(record) == []
    assert refused_or_different({**record, **change})


def record_of(state: HandState, seed: str) -> dict[str, Any]:
    """The hand's log line, as read back from a file."""
    record: dict[str, Any] = json.loads(json.dumps(selfplay.hand_record(state, seed)))
    return record


def test_check_record_lists_each_difference_by_its_path() -> None:
    state = bot_hand(Rules(), 0, "diff")
    record = record_of(state, "diff")
    assert check_record(record) == []
    result = record["result"]
    record["result"] = {**result, "next_dealer": 9, "totals": [7, *result["totals"][1:]]}
    assert check_record(record) == [
        f"result.next_dealer: expected 9, got {result['next_dealer']}",
        f"result.totals[0]: expected 7, got {result['totals'][0]}",
    ]
    # a hand that no longer ends: the whole result differs
    short = {**record_of(state, "diff"), "actions": state.log[:-1]}
    (problem,) = check_record(short)
    assert problem.startswith("result: expected {") and problem.endswith("got None")


def test_check_record_takes_a_wall_as_a_list_or_as_text() -> None:
    state = bot_hand(Rules(), 2, "walls")
    record = record_of(state, "walls")
    del record["seed"]
    tiles = [format_tile(k) for k in state.wall.ring]
    assert check_record({**record, "wall": tiles}) == []
    assert check_record({**record, "wall": " ".join(tiles)}) == []
    turned = [*tiles[2:], *tiles[:2]]  # the same tiles, one stack further round the ring
    assert refused_or_different({**record, "wall": turned})


def test_check_record_refuses_dice_that_are_not_four() -> None:
    record = record_of(bot_hand(Rules(), 0, "dice"), "dice")
    with pytest.raises(ValueError, match="dice must be four numbers"):
        check_record({**record, "dice": [1, 2, 3]})
