"""Bots play whole hands: one hand to its end, its record, and statistics over many.

:func:`simulate` is what ``python -m engine.simulate`` (:mod:`engine.cli.simulate`) runs and
``python -m engine.bench`` times; :func:`hand_record` is one line of its ``--log``.
"""

from __future__ import annotations

import gc
import json
import random
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from engine.hand import HandState, apply, new_hand, waiting_on
from engine.play.bots import choose_action
from engine.rules import Rules
from engine.views import seat_info

__all__ = ["hand_record", "play_hand", "simulate"]


def play_hand(
    rules: Rules, dealer: int, seed: str, bots: Sequence[str], rng: random.Random
) -> HandState:
    """Play one hand to its end, every seat by its bot; returns the ended state."""
    state = new_hand(rules, dealer, seed)
    while state.phase != "ended":
        seat = waiting_on(state)[0]
        state, _ = apply(state, seat, choose_action(bots[seat], seat_info(state, seat), rng))
    return state


def hand_record(state: HandState, seed: str) -> dict[str, Any]:
    """What a replay needs, and the result it must reach."""
    return {
        "rules": state.rules.to_json(),
        "dealer": state.dealer,
        "seed": seed,
        "dice": list(state.wall.dice),
        "actions": state.log,
        "result": state.result,
    }


def simulate(
    hands: int, seed: str, bots: Sequence[str], rules: Rules, log: TextIO | None = None
) -> dict[str, Any]:
    """Play ``hands`` hands with the dealer passing as the rules say; return the statistics."""
    # The hands make no reference cycles, but the engine's caches hold many containers that
    # every full collection would scan again: collecting costs about a sixth of the run.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _simulate(hands, seed, bots, rules, log)
    finally:
        if collecting:
            gc.enable()


def _simulate(
    hands: int, seed: str, bots: Sequence[str], rules: Rules, log: TextIO | None
) -> dict[str, Any]:
    started = time.perf_counter()
    wins: Counter[str] = Counter()
    points = [0, 0, 0, 0]
    robbed = draws = 0
    zero_sum = True
    dealer = 0
    rng = random.Random(f"{seed}:bots")
    for number in range(hands):
        hand_seed = f"{seed}:{number}"
        state = play_hand(rules, dealer, hand_seed, bots, rng)
        result = state.result
        assert result is not None
        if not result["winners"]:
            draws += 1
        if result["outcome"] == "rob_gang":
            robbed += 1
        for judgement in result["judgements"].values():
            wins[judgement["name"]] += 1
        zero_sum = zero_sum and sum(result["totals"]) == 0
        points = [p + t for p, t in zip(points, result["totals"], strict=True)]
        dealer = result["next_dealer"]
        if log is not None:
            log.write(json.dumps(hand_record(state, hand_seed), ensure_ascii=False) + "\n")
    seconds = time.perf_counter() - started
    return {
        "hands": hands,
        "wins": dict(sorted(wins.items())),
        "robbed": robbed,
        "draws": draws,
        "points": points,
        "zero_sum": zero_sum,
        "seconds": round(seconds, 3),
        "hands_per_second": round(hands / seconds, 1) if seconds else None,
    }
