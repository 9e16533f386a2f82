from __future__ import annotations

from tests.load.__main__ import timeline


def test_a_pause_shows_as_one_bad_second_among_good():
    timed = [(100.0 + s + i / 100, 0.020) for s in range(4) for i in range(100)]
    timed += [(102.5, 0.300)]  # one move caught by a pause
    rows = timeline(timed, start=100.0)
    assert [r["second"] for r in rows] == [0, 1, 2, 3]
    assert [r["moves"] for r in rows] == [100, 100, 101, 100]
    assert [r["max_ms"] for r in rows] == [20.0, 20.0, 300.0, 20.0]
    assert rows[2]["p50_ms"] == 20.0


def test_moves_are_placed_by_when_they_were_sent_not_when_they_landed():
    rows = timeline([(5.9, 0.5)], start=5.0)
    assert rows == [{"second": 0, "moves": 1, "p50_ms": 500.0, "p99_ms": 500.0, "max_ms": 500.0}]
