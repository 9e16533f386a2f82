from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.load.cycle import yardstick_ms

REPO = Path(__file__).resolve().parents[2]


def cycle(*args: str) -> dict[str, Any]:
    # A process of its own: the command sets up Django on its scratch database.
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    argv = [sys.executable, "-m", "tests.load.cycle", *args]
    done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_two_runs_play_the_same_changes_and_time_each_part() -> None:
    first, second = cycle("--moves", "120"), cycle("--moves", "120")
    assert first["changes"] == second["changes"] == 120
    # The same deals and the same bots' choices: the same windows closed and hands ended.
    same = ("of_which_windows_closed", "of_which_ready")
    assert [first[k] for k in same] == [second[k] for k in same]
    assert first["of_which_windows_closed"] > 0
    for run in (first, second):
        parts = run["move_ms"] + run["read_ms"] + run["push_ms"]
        assert run["move_ms"] > 0 and run["push_ms"] > 0
        assert abs(run["total_ms"] - parts) <= 0.02  # each rounded to 0.01 ms
        assert run["yardstick_ms"] > 0


def test_another_seed_deals_other_hands() -> None:
    one, other = cycle("--moves", "120", "--seed", "1"), cycle("--moves", "120", "--seed", "2")
    same = ("of_which_windows_closed", "of_which_ready")
    assert [one[k] for k in same] != [other[k] for k in same]


def test_the_yardstick_is_a_positive_time() -> None:
    assert yardstick_ms() > 0
