from __future__ import annotations

from collections import Counter

from ledger.stats import PlayerStats


def test_rates_of_an_empty_record_are_zero() -> None:
    s = PlayerStats()
    assert (s.win_rate, s.average, s.pattern_bars) == (0.0, 0.0, [])


def test_pattern_bars_scale_to_the_most_won() -> None:
    s = PlayerStats(hands=10, wins=5, points=7, patterns=Counter({"平胡": 3, "七对": 2}))
    assert s.pattern_bars == [("平胡", 3, 100), ("七对", 2, 67)]
    assert s.win_rate == 0.5 and s.average == 0.7
