"""engine.judging.shape against a slow reference search, exhaustively on single suits."""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cli.wincheck import make_wincheck_input
from engine.judging.shape import (
    build_suit_table,
    fewest_wilds,
    is_complete,
    pack_costs,
    sets_only,
    suit_costs,
    suit_table,
)
from engine.tiles import counts_of, parse_tiles

# --- reference: plain decomposition, each wild tried as every kind ------------------------


@cache
def _plain(counts: tuple[int, ...], pair: bool) -> bool:
    """Natural tiles only: sets (+ one pair) by trying every group on the lowest tile."""
    for i, c in enumerate(counts):  # noqa: B007 - i is the lowest tile, used below
        if c:
            break
    else:
        return not pair
    rest = list(counts)
    if pair and c >= 2:
        rest[i] -= 2
        if _plain(tuple(rest), False):
            return True
        rest[i] += 2
    if c >= 3:
        rest[i] -= 3
        if _plain(tuple(rest), pair):
            return True
        rest[i] += 3
    # kinds 0-26 are suited; a sequence may not cross a suit boundary
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        rest[i] -= 1
        rest[i + 1] -= 1
        rest[i + 2] -= 1
        if _plain(tuple(rest), pair):
            return True
    return False


@cache
def _reference(counts: tuple[int, ...], wilds: int, kinds: tuple[int, ...]) -> bool:
    """Read one wild as each kind in ``kinds`` in turn (counts may exceed four)."""
    if wilds == 0:
        return sum(counts) % 3 == 2 and _plain(counts, True)
    for k in kinds:
        grown = list(counts)
        grown[k] += 1
        if _reference(tuple(grown), wilds - 1, kinds):
            return True
    return False


def reference(counts: list[int] | tuple[int, ...], wilds: int) -> bool:
    """Slow truth for 34-kind counts: wilds tried as every kind within two of a real tile,
    plus one free kind (a wild-only group can be read as anything)."""
    near = {j for k, c in enumerate(counts) if c for j in range(k - 2, k + 3) if 0 <= j < 34}
    free = min(set(range(34)) - near, default=0)
    return _reference(tuple(counts), wilds, tuple(sorted(near | {free})))


def _suit_hands(max_tiles: int):
    for vec in itertools.product(range(5), repeat=9):
        if sum(vec) <= max_tiles:
            yield vec


# --- exhaustive single-suit check --------------------------------------------------------


@cache
def _by_roles(counts: tuple[int, ...], w: int, pair: bool) -> bool:
    """One suit: the lowest tile joins a triplet, pair or any sequence; wilds fill any slot."""
    for i, c in enumerate(counts):  # noqa: B007 - i is the lowest tile, used below
        if c:
            break
    else:
        if pair:
            return w >= 2 and (w - 2) % 3 == 0
        return w % 3 == 0
    rest = list(counts)
    for j in range(1, min(c, 3) + 1):
        if 3 - j <= w:
            rest[i] = c - j
            if _by_roles(tuple(rest), w - 3 + j, pair):
                return True
    rest[i] = c
    if pair:
        for j in range(1, min(c, 2) + 1):
            if 2 - j <= w:
                rest[i] = c - j
                if _by_roles(tuple(rest), w - 2 + j, False):
                    return True
        rest[i] = c
    for a in range(max(0, i - 2), min(i, 6) + 1):
        others = [r for r in (a, a + 1, a + 2) if r != i]
        for use in itertools.product((False, True), repeat=2):
            if any(u and counts[r] == 0 for u, r in zip(use, others, strict=True)):
                continue
            need = use.count(False)
            if need > w:
                continue
            rest = list(counts)
            rest[i] -= 1
            for u, r in zip(use, others, strict=True):
                if u:
                    rest[r] -= 1
            if _by_roles(tuple(rest), w - need, pair):
                return True
    return False


def _check_single_suit(max_tiles: int) -> int:
    checked = 0
    for vec in _suit_hands(max_tiles):
        n = sum(vec)
        counts = list(vec) + [0] * 25
        for wilds in range((2 - n) % 3, 5, 3):
            if n + wilds > max_tiles:
                break
            assert is_complete(counts, wilds) is _by_roles(vec, wilds, True), (vec, wilds)
            checked += 1
    return checked


def test_single_suit_hands_up_to_eleven_tiles():
    assert _check_single_suit(11) > 50_000


@pytest.mark.slow
def test_every_single_suit_hand_up_to_fourteen_tiles():
    """About 500,000 (hand, wilds) pairs; the reference takes ~15 s."""
    assert _check_single_suit(14) > 500_000


def test_role_reference_agrees_with_every_kind_reference():
    nine = tuple(range(9))
    for vec in _suit_hands(5):
        n = sum(vec)
        for wilds in range((2 - n) % 3, 4, 3):
            assert _by_roles(vec, wilds, True) is _reference(vec, wilds, nine), (vec, wilds)


def test_sets_only_single_suit_matches_table():
    for vec in _suit_hands(9):
        n = sum(vec)
        counts = list(vec) + [0] * 25
        wilds = (-n) % 3
        expected = _plain_sets_with_wilds(vec, wilds)
        assert sets_only(counts, wilds) is expected, (vec, wilds)


@cache
def _plain_sets_with_wilds(vec: tuple[int, ...], wilds: int) -> bool:
    if wilds == 0:
        return _plain(vec, False)
    for k in range(9):
        grown = list(vec)
        grown[k] += 1
        if _plain_sets_with_wilds(tuple(grown), wilds - 1):
            return True
    return False


# --- honors, mixed suits, spot checks ----------------------------------------------------


def _c(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


@pytest.mark.parametrize(
    ("tiles", "wilds", "expected"),
    [
        ("123m456p789s11z", 0, True),
        ("111222333444z55z", 0, True),
        ("123z", 2, False),  # honors make no sequences: 1z2z3z + 2 wilds is 5 tiles of 3 kinds
        ("12z", 3, True),  # 1z + two wilds, 2z + one wild
        ("1z", 1, True),
        ("", 2, True),  # two wilds alone are a pair
        ("", 5, True),
        ("", 3, False),
        ("11z", 0, True),
        ("1111z", 1, True),  # 111z and 1z + a wild as the pair
        ("1111z", 4, True),
        ("11112222z", 0, False),
        ("111z", 2, True),
        ("1234567z", 7, False),  # a pair and six triplets would need 13 wilds
        ("19m19p19s1234567z", 0, False),  # 十三烂/九幺 are not standard wins
        ("11123456789999m", 0, True),  # 11 123 456 789 999
        ("1112345678999m", 1, True),  # 九莲宝灯 waits on anything
        ("1122m", 0, False),
        ("112233m", 2, True),
        ("1m9p", 3, True),  # 1m + two wilds, 9p + one
        ("1m9p", 0, False),
    ],
)
def test_spot_checks(tiles, wilds, expected):
    counts = _c(tiles)
    assert is_complete(counts, wilds) is reference(counts, wilds)
    assert is_complete(counts, wilds) is expected


def test_every_honor_hand_small():
    for vec in itertools.product(range(5), repeat=7):
        n = sum(vec)
        if n > 8:
            continue
        counts = [0] * 27 + list(vec)
        for wilds in range((2 - n) % 3, 4, 3):
            expected = _reference(tuple(counts), wilds, (27, 28, 29, 30, 31, 32, 33, 0))
            assert is_complete(counts, wilds) is expected, (vec, wilds)


def test_suit_costs_delta_is_minus_one_or_two():
    for vec in _suit_hands(8):
        assert suit_costs(vec)[1] in (-1, 2)


hands = st.lists(st.integers(0, 33), min_size=0, max_size=11).filter(
    lambda ks: max(counts_of(ks)) <= 4
)


@settings(max_examples=300, deadline=None)
@given(hands, st.integers(0, 3))
def test_random_mixed_hands_match_reference(kinds, wilds):
    counts = counts_of(kinds)
    # Wild readings only matter next to real tiles, plus one free kind for wild-only groups.
    near = sorted({k2 for k in kinds for k2 in range(k - 2, k + 3) if 0 <= k2 < 34} | {33})
    expected = _reference(tuple(counts), wilds, tuple(near))
    assert is_complete(counts, wilds) is expected


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_generated_winning_shapes_are_complete(seed):
    for line in make_wincheck_input(3, seed):
        tiles, k = line.split()
        counts = _c(tiles)
        assert sum(counts) + int(k) == 14
        near = sorted({j for t in parse_tiles(tiles) for j in range(t - 2, t + 3) if 0 <= j < 34})
        assert is_complete(counts, int(k)) is _reference(tuple(counts), int(k), tuple(near) or (0,))


# --- the shipped suit table -----------------------------------------------


def _index(vec) -> int:
    return sum(c * 5**r for r, c in enumerate(vec))


def test_shipped_table_matches_the_search_on_small_suits():
    table = suit_table()
    assert table is not None and len(table) == 5**9
    for vec in _suit_hands(7):
        assert table[_index(vec)] == pack_costs(fewest_wilds(vec)), vec


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=9, max_size=9))
def test_shipped_table_matches_the_search_anywhere(vec):
    table = suit_table()
    assert table is not None
    assert table[_index(vec)] == pack_costs(fewest_wilds(tuple(vec)))


@pytest.mark.slow
def test_shipped_table_is_build_suit_table():
    """Regenerates all 5**9 entries (about ten seconds)."""
    assert build_suit_table() == suit_table()


def test_fewest_wilds_agrees_with_suit_costs_and_the_role_reference():
    for vec in _suit_hands(6):
        costs = fewest_wilds(vec)
        sets = min(costs[0], costs[1])
        assert suit_costs(vec) == (sets, min(costs[2], costs[3]) - sets)
        n = sum(vec)
        wilds = (2 - n) % 3
        while not _by_roles(vec, wilds, True):
            wilds += 3
        assert min(costs[2], costs[3]) == wilds, vec
