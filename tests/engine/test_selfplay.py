"""engine.selfplay: bots play hands to their end; records replay; statistics add up."""

from __future__ import annotations

import io
import json
import random

from engine.hand_log import check_record
from engine.rules import Rules
from engine.selfplay import hand_record, play_hand, simulate


def test_a_played_hand_ends_and_its_record_replays() -> None:
    state = play_hand(
        Rules(), 2, "self:1", ["basic", "random", "basic", "random"], random.Random(1)
    )
    assert state.phase == "ended" and state.result is not None
    record = json.loads(json.dumps(hand_record(state, "self:1")))
    assert set(record) == {"rules", "dealer", "seed", "dice", "actions", "result"}
    assert record["dealer"] == 2 and record["seed"] == "self:1"
    assert check_record(record) == []


def test_simulate_counts_every_hand_and_logs_each() -> None:
    log = io.StringIO()
    stats = simulate(5, "stats", ["basic"] * 4, Rules.profile_named("jiuyao_fan"), log)
    assert stats["hands"] == 5 and stats["zero_sum"] and sum(stats["points"]) == 0
    assert sum(stats["wins"].values()) + stats["draws"] >= 5 - stats["robbed"]
    lines = log.getvalue().splitlines()
    assert len(lines) == 5 and all(check_record(json.loads(x)) == [] for x in lines)
    again = simulate(5, "stats", ["basic"] * 4, Rules.profile_named("jiuyao_fan"))
    assert {k: v for k, v in again.items() if "second" not in k} == {
        k: v for k, v in stats.items() if "second" not in k
    }
