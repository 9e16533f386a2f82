from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("on_database_thread", [False, True])
def test_the_beat_benchmark_beats_every_page_of_its_tables(on_database_thread: bool) -> None:
    # A process of its own: the command sets up Django on its scratch database.
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    argv = [sys.executable, "-m", "tests.load.beat", "--tables", "2", "--beats", "2"]
    if on_database_thread:
        argv.append("--on-database-thread")
    done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["pages"] == 8 and result["on_database_thread"] is on_database_thread
    # The call asked of the database thread came back, and the beat took its time.
    assert 0 < result["waited"]["median_ms"] <= result["waited"]["max_ms"]
    assert 0 < result["beat"]["median_ms"] <= result["beat"]["max_ms"]
