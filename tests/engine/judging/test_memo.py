"""engine.judging.memo: every registered store is emptied by one clear(), answers unchanged."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from functools import cache, lru_cache
from types import ModuleType

import pytest

from engine.cli import score, wincheck
from engine.judging import judge, memo, patterns, shanten, shape, win_check
from engine.judging.judge import WinContext
from engine.rules import Rules
from engine.tiles import counts_of, parse_tile, parse_tiles


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


def test_remembered_knows_each_store_bound() -> None:
    @memo.remembered
    @lru_cache(maxsize=8)
    def bounded(n: int) -> int:
        return n

    @memo.remembered
    @cache
    def growing(n: int) -> int:
        return n

    @memo.remembered
    @cache
    def constant() -> int:
        return 1

    limited: dict[int, int] = memo.remembered({}, limit=5)
    unlimited: dict[int, int] = memo.remembered({})
    found = {id(s.store): s for s in memo.unbounded()}
    assert id(growing) in found and id(unlimited) in found
    assert id(bounded) not in found and id(constant) not in found and id(limited) not in found
    assert found[id(growing)].module == __name__  # the module that registered it


def test_every_store_a_server_reaches_is_bounded() -> None:
    # A server judges new hands for weeks: a store that only grows takes its memory with it.
    # Only the command-line tools may keep everything, each run being a process of its own.
    import engine.judging
    import engine.play

    for package in (engine.judging, engine.play):
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)
    growing = [
        s
        for s in memo.unbounded()
        if s.module.startswith("engine.") and not s.module.startswith("engine.cli.")
    ]
    assert growing == []


def test_a_bounded_store_empties_itself_when_full() -> None:
    store: memo.Bounded[str, int] = memo.remembered(memo.Bounded(2))
    assert all(s.store is not store for s in memo.unbounded())
    assert [store.keep(k, n) for n, k in enumerate("abc")] == [0, 1, 2]
    assert store == {"c": 2} and store.limit == 2
    assert store.keep("d", 3) == 3 and store == {"c": 2, "d": 3}


def _winning(hand: str) -> object:
    tiles = parse_tiles(hand)
    return judge.winning_tiles(tiles[:13], [], parse_tile("9s"), Rules())


def _judged(hand: str) -> object:
    tiles = (parse_tiles(hand) * 2)[:14]  # a 14-tile question, won or not
    return win_check.judged(tiles, [], tiles[-1], parse_tile("9s"), Rules(), WinContext())


_HANDS = ["123m456p789s11222z", "147m258p369s1234z", "1112345678999m", "19m19p19s1234567z"]


@pytest.mark.parametrize(
    ("module", "stores", "answer"),
    [
        (shanten, ("_SUIT_TABLES",), lambda h: shanten.distance(counts_of(parse_tiles(h)), 0)),
        (
            shape,
            ("_SUIT_COSTS", "_HONOR_COSTS"),
            lambda h: shape.is_complete(counts_of(parse_tiles(h)), 0),
        ),
        (judge, ("_MEMO", "_BEST", "_WAITS"), _winning),
        (win_check, ("_JUDGED",), _judged),
    ],
)
def test_each_dict_store_is_emptied_when_full_and_answers_the_same(
    monkeypatch: pytest.MonkeyPatch,
    module: ModuleType,
    stores: tuple[str, ...],
    answer: Callable[[str], object],
) -> None:
    expected = [answer(h) for h in _HANDS]
    memo.clear()
    for store in stores:
        assert isinstance(getattr(module, store), memo.Bounded)
        monkeypatch.setattr(getattr(module, store), "limit", 2)
    got = []
    for h in _HANDS:
        got.append(answer(h))
        assert all(len(getattr(module, store)) <= 2 for store in stores)
    assert got == expected
