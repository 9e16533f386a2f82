from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from tests.load.server import run_command

# Each runs the benchmark in a subprocess of a few seconds.
pytestmark = pytest.mark.slow

SAME = ("of_which_windows_closed", "of_which_ready")


@cache
def cycle(seed: int, run: int = 0) -> dict[str, Any]:
    """120 changes dealt from ``seed``; ``run`` tells apart two runs of the same seed (a
    run is a process of a few seconds: each is made once for all the tests)."""
    return run_command("tests.load.cycle", "--moves", "120", "--seed", str(seed))


def test_two_runs_play_the_same_changes_and_time_each_part() -> None:
    first, second = cycle(1), cycle(1, run=2)
    assert first["changes"] == second["changes"] == 120
    # The same deals and the same bots' choices: the same windows closed and hands ended.
    assert [first[k] for k in SAME] == [second[k] for k in SAME]
    assert first["of_which_windows_closed"] > 0
    for run in (first, second):
        parts = run["move_ms"] + run["read_ms"] + run["push_ms"]
        assert run["move_ms"] > 0 and run["push_ms"] > 0
        assert abs(run["total_ms"] - parts) <= 0.02  # each rounded to 0.01 ms
        assert run["yardstick_ms"] > 0


def test_another_seed_deals_other_hands() -> None:
    assert [cycle(1)[k] for k in SAME] != [cycle(2)[k] for k in SAME]
