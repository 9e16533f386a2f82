from __future__ import annotations

import pytest

from tests.load.server import run_command

# Each runs the benchmark in a subprocess of a few seconds.
pytestmark = pytest.mark.slow


@pytest.mark.parametrize("on_database_thread", [False, True])
def test_the_beat_benchmark_beats_every_page_of_its_tables(on_database_thread: bool) -> None:
    extra = ("--on-database-thread",) if on_database_thread else ()
    result = run_command("tests.load.beat", "--tables", "2", "--beats", "2", *extra, timeout=120)
    assert result["pages"] == 8 and result["on_database_thread"] is on_database_thread
    # The call asked of the database thread came back, and the beat took its time.
    assert 0 < result["waited"]["median_ms"] <= result["waited"]["max_ms"]
    assert 0 < result["beat"]["median_ms"] <= result["beat"]["max_ms"]
