from __future__ import annotations

import pytest

from tests.load.instructions import collected, per_change

CALLGRIND_TAIL = """==13552== Events    : Ir
==13552== Collected : 10997927416
==13552==
==13552== I   refs:      10,997,927,416
"""


def test_the_total_is_read_from_callgrinds_report() -> None:
    assert collected(CALLGRIND_TAIL) == 10_997_927_416


@pytest.mark.parametrize("stderr", ["", CALLGRIND_TAIL * 2, "Collected : 12\n"])
def test_anything_but_one_total_is_refused(stderr: str) -> None:
    with pytest.raises(ValueError, match="totals, not one"):
        collected(stderr)


def test_a_change_costs_the_difference_over_the_changes_after_the_first() -> None:
    runs: list[tuple[int, int]] = []

    def counted(moves: int, seed: int) -> int:
        runs.append((moves, seed))
        return 1_000_000 + (moves - 1) * 16_000

    assert per_change(300, 7, counted) == {
        "changes": 300,
        "instructions_per_change": 16_000,
        "start_instructions": 1_000_000,
    }
    assert runs == [(300, 7), (1, 7)]  # the same deals, one change and all of them


def test_fewer_than_two_changes_leave_nothing_to_count() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        per_change(1, 1, lambda moves, seed: 0)
