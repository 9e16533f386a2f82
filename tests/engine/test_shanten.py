"""engine.shanten: known distances and agreement with engine.wincheck."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.shanten import distance
from engine.tiles import counts_of, parse_tiles
from engine.wincheck import is_complete, make_wincheck_input


def _c(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


STANDARD = {"qidui": False, "shisanlan": False, "jiuyao": False}


@pytest.mark.parametrize(
    ("tiles", "wilds", "melds", "expected"),
    [
        ("123m456p789s11222z", 0, 0, -1),
        ("123m456p789s1122z", 0, 0, 0),  # waits on 1z or 2z
        ("123m456p789s12z", 2, 0, 0),
        ("123m456p789s12z", 3, 0, -1),
        ("1112345678999m", 0, 0, 0),  # 九莲宝灯
        ("11m", 0, 4, -1),
        ("1m", 0, 4, 0),  # 单吊
        ("", 1, 4, 0),  # a lone 宝 behind four melds
        ("123m456p", 1, 2, 0),
        ("159m159p159s1234z", 0, 0, 0),  # 十三烂 waiting on 5z, 6z or 7z
    ],
)
def test_known_distances(tiles, wilds, melds, expected):
    assert distance(_c(tiles), wilds, melds) == expected


def test_qidui_and_specials():
    assert distance(_c("1122334455667z"), 0) == 0
    assert distance(_c("11223344556677z"), 0) == -1
    assert distance(_c("11112233445566z"), 0) == -1  # 豪华七对
    assert distance(_c("11223344556677z"), 0, **STANDARD) > 0
    assert distance(_c("147m258p369s12345z"), 0) == -1  # 十三烂
    assert distance(_c("19m19p19s1234567z1z"), 0) == -1  # 九幺
    assert distance(_c("19m19p19s1234567z"), 1) == -1
    assert distance(_c("19m19p19s1234567z"), 0) == 0
    assert distance(_c("19m19p19s11234z"), 0, 1, melds_terminal=True) == -1
    assert distance(_c("19m19p19s11234z"), 0, 1) > -1


def test_bad_totals_raise():
    with pytest.raises(ValueError, match="tiles"):
        distance(_c("123m"), 0)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 100_000))
def test_minus_one_iff_complete(seed):
    for line in make_wincheck_input(4, seed):
        tiles, k = line.split()
        counts, wilds = _c(tiles), int(k)
        assert (distance(counts, wilds, **STANDARD) == -1) is is_complete(counts, wilds), line


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 100_000))
def test_tenpai_means_some_tile_completes(seed):
    line = make_wincheck_input(1, seed)[0]
    tiles, k = line.split()
    counts, wilds = _c(tiles), int(k)
    # drop one real tile (or a wild) to get a 13-tile hand, then compare with wincheck
    kinds = parse_tiles(tiles)
    if kinds:
        counts[kinds[0]] -= 1
    else:
        wilds -= 1
    d = distance(counts, wilds, **STANDARD)
    wins = any(
        is_complete([c + (i == k2) for i, c in enumerate(counts)], wilds) for k2 in range(34)
    )
    assert (d == 0) is wins, line
    assert d >= 0
