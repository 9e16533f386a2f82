"""``engine.replay``: a hand rebuilt from rules, seed (or wall), dice and its log ends the same;
a changed log or result is caught, and ``python -m engine.replay`` says so."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import simulate
from engine.actions import ActionError
from engine.hand import HandState, IllegalAction
from engine.replay import check_record, main, replay
from engine.rules import Rules
from engine.tiles import format_tile

FAN = Rules.profile_named("jiuyao_fan")


def logged(tmp_path: Path, hands: int, seed: str, rules: str = "standard") -> Path:
    log = tmp_path / "hands.jsonl"
    assert (
        simulate.main(["--hands", str(hands), "--seed", seed, "--rules", rules, "--log", str(log)])
        == 0
    )
    return log


def records(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def bot_hand(rules: Rules, dealer: int, seed: str) -> HandState:
    return simulate.play_hand(
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
    record: dict[str, Any] = json.loads(json.dumps(simulate.hand_record(state, seed)))
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


def test_cli_accepts_a_simulated_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = logged(tmp_path, 5, "cli", rules="jiuyao_fan")
    capsys.readouterr()
    assert main([str(log)]) == 0
    assert capsys.readouterr().out == "5 replayed identically, 0 differ\n"


def test_cli_prints_each_difference_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = logged(tmp_path, 4, "tamper")
    lines = records(log)
    lines[0]["result"]["next_dealer"] = (lines[0]["result"]["next_dealer"] + 1) % 4
    lines[2]["actions"] = [*lines[2]["actions"][:3], [0, {"type": "fly"}]]
    del lines[3]["dice"]  # the dice follow from the seed: still identical
    log.write_text("\n".join(json.dumps(r) for r in lines) + "\n\n")  # a blank line is skipped
    capsys.readouterr()
    assert main([str(log)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("hand 1: result.next_dealer: expected ")
    assert out[1].startswith("hand 3: can't replay: unknown action type 'fly'")
    assert out[-1] == "2 replayed identically, 2 differ"
    assert len(out) == 3


def test_cli_usage() -> None:
    assert main([]) == 2
    assert main(["a", "b"]) == 2
    assert main(["--help"]) == 0


def test_cli_a_missing_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "nowhere.jsonl")]) == 2
    assert "can't read" in capsys.readouterr().err


def test_python_m_engine_replay(tmp_path: Path) -> None:
    log = logged(tmp_path, 3, "subprocess")
    run = [sys.executable, "-m", "engine.replay", str(log)]
    ok = subprocess.run(run, capture_output=True, text=True, check=False, timeout=60)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.endswith("3 replayed identically, 0 differ\n")
    lines = records(log)
    winners = lines[1]["result"]["winners"]
    lines[1]["result"]["winners"] = [*winners, 9]
    log.write_text("".join(json.dumps(r) + "\n" for r in lines))
    bad = subprocess.run(run, capture_output=True, text=True, check=False, timeout=60)
    assert bad.returncode == 1
    assert f"hand 2: result.winners: expected {[*winners, 9]!r}, got {winners!r}\n" in bad.stdout
    assert bad.stdout.endswith("2 replayed identically, 1 differ\n")
