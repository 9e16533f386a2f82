"""engine.judging.shanten: known distances and agreement with engine.judging.shape."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cli.wincheck import make_wincheck_input
from engine.judging.shanten import complete, discard_distances, distance, draw_distances
from engine.judging.shape import is_complete
from engine.tiles import counts_of, parse_tiles


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


def _random_hand(rng: random.Random, extra: int) -> tuple[list[int], int, int, bool]:
    melds = rng.choice([0, 0, 0, 1, 2, 3, 4])
    size = 3 * (4 - melds) + extra
    wilds = min(rng.choice([0, 0, 1, 2, 3]), size)
    pool = [k for k in range(34) for _ in range(4)]
    if rng.random() < 0.5:  # crowd one suit so that shapes actually form
        suit = rng.randrange(3)
        pool = [k for k in pool if k // 9 == suit] * 2 + pool
    counts = [0] * 34
    while sum(counts) < size - wilds:
        k = rng.choice(pool)
        if counts[k] < 4:
            counts[k] += 1
    return counts, wilds, melds, rng.random() < 0.5


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9))
def test_incremental_distances_and_complete_match_distance(seed: int) -> None:
    rng = random.Random(seed)
    counts, wilds, melds, terminal = _random_hand(rng, 2)
    after = discard_distances(counts, wilds, melds, melds_terminal=terminal)
    done = distance(counts, wilds, melds, melds_terminal=terminal) == -1
    assert complete(counts, wilds, melds, melds_terminal=terminal) is done
    assert set(after) == {k for k in range(34) if counts[k]}
    for k, d in after.items():
        counts[k] -= 1
        assert d == distance(counts, wilds, melds, melds_terminal=terminal)
        counts[k] += 1
    counts, wilds, melds, terminal = _random_hand(rng, 1)
    drawn = draw_distances(counts, wilds, melds, melds_terminal=terminal)
    for k in range(34):
        counts[k] += 1
        assert drawn[k] == distance(counts, wilds, melds, melds_terminal=terminal)
        counts[k] -= 1


def test_incremental_distances_refuse_the_wrong_size() -> None:
    with pytest.raises(ValueError, match="expected 14"):
        discard_distances(_c("123m"), 0)
    with pytest.raises(ValueError, match="expected 13"):
        draw_distances(_c("123m"), 0)
