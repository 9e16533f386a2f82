"""engine.judging.memo: every registered store is emptied by one clear(), answers unchanged."""

from __future__ import annotations

from functools import cache, lru_cache

from engine.cli import score, wincheck
from engine.judging import judge, memo, patterns, shanten, shape, win_check
from engine.judging.judge import WinContext
from engine.rules import Rules
from engine.tiles import parse_tile, parse_tiles


def test_remembered_returns_the_store_itself_and_clear_empties_it() -> None:
    store: dict[int, int] = {}
    assert memo.remembered(store) is store

    @memo.remembered
    @lru_cache(maxsize=8)
    def double(n: int) -> int:
        return 2 * n

    @memo.remembered
    @cache
    def triple(n: int) -> int:
        return 3 * n

    store[1] = 1
    assert (double(2), triple(2)) == (4, 6)
    memo.clear()
    assert store == {}
    assert double.cache_info().currsize == 0 and triple.cache_info().currsize == 0


def test_the_engine_memos_are_registered() -> None:
    hand = parse_tiles("123m456m789p234s55z")
    check = win_check.judged(hand, [], parse_tile("5z"), parse_tile("9s"), Rules(), WinContext())
    assert check.win
    assert score.score_line('{"concealed": "11z", "winning_tile": "1z", "indicator": "9m"}')
    assert wincheck.check_text("123m456p789s1z 1\n") == "1\n"
    before = memo.registered()
    assert before >= 20  # the judge's, the shape search's, the distances', the CLIs'
    memo.clear()
    assert memo.registered() == before
    assert win_check._JUDGED == {} and judge._MEMO == {} and shape._SUIT_COSTS == {}
    assert shanten._changes_of.cache_info().currsize == 0
    assert patterns._combine.cache_info().currsize == 0
    # the CLIs' columns keep their entry for an absent suit
    assert wincheck._SUITED == {"": 0} and {None: bytes(9)} == score._SUITED
    # and everything answers as before
    again = win_check.judged(hand, [], parse_tile("5z"), parse_tile("9s"), Rules(), WinContext())
    assert again == check
    assert wincheck.check_text("123m456p789s1z 1\n19m 0\n") == "1\n0\n"
