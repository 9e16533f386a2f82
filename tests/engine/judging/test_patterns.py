"""``engine.patterns``: the readings of a 14-tile hand under the 宝 (§6), and the cheap filter.

The judge's tests price whole hands; these look at the readings themselves: which pattern
family and §7 row each 宝 status (无宝 / 宝吊 / 有宝) reaches, and the facts the factors need
(豪华 fours, 七星, a concealed four, 清一色, 宝吊还原).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.judging import patterns
from engine.judging.patterns import candidates, may_form_pattern
from engine.judging.scoring import Candidate, WinContext
from engine.melds import Meld, parse_meld
from engine.rules import Rules
from engine.tiles import bao_of, counts_of, parse_tile, parse_tiles
from tests.engine.judging.hands import near_win

# indicator → 宝: 4z → 1z, 9m → 1m, 3m → 4m, 5z → 6z, 7z → 5z, 1s → 2s


def read(
    hand: str,
    win: str,
    indicator: str,
    melds: tuple[str, ...] = (),
    win_by: str = "self_draw",
    rules: Rules | None = None,
) -> tuple[list[Candidate], frozenset[str]]:
    ms = [parse_meld(m) for m in melds]
    return candidates(
        counts_of(parse_tiles(hand)),
        [k for m in ms for k in m.tiles[:3]],
        ms,
        parse_tile(win),
        bao_of(parse_tile(indicator)),
        WinContext(win_by=win_by),
        rules or Rules(),
    )


def rows(cands: list[Candidate]) -> set[tuple[str, str, str]]:
    return {(c.family, c.row, c.status) for c in cands}


# (hand, winning tile, indicator, melds, patterns, (family, row, status) readings)
READINGS: list[tuple[str, str, str, tuple[str, ...], set[str], set[tuple[str, str, str]]]] = [
    # 平胡 under each 宝 status
    ("123m456m789p234s55z", "5z", "4z", (), {"pinghu"}, {("pinghu", "平胡", "wubao")}),
    (
        "123m456m789p234s1z7z",  # 13 tiles less the lone 宝 1z are sets; the 7z pairs it
        "7z",
        "4z",
        (),
        {"pinghu"},
        {("pinghu", "平胡", "youbao"), ("pinghu", "平胡", "baodiao")},
    ),
    ("123m456m789p23s1z55z", "5z", "4z", (), {"pinghu"}, {("pinghu", "平胡", "youbao")}),
    ("123m456m234s55z", "5z", "4z", ("angang:7777p",), {"pinghu"}, {("pinghu", "平胡", "wubao")}),
    # 七对, 清一色 七对 (which is also a 清一色 平胡 here)
    ("1133m5577p99s2255z", "5z", "4z", (), {"qidui"}, {("qidui", "七对", "wubao")}),
    ("1133m557p99s1z2255z", "5z", "4z", (), {"qidui"}, {("qidui", "七对", "youbao")}),
    (
        "1133m5577p99s22z1z6z",
        "6z",
        "4z",
        (),
        {"qidui"},
        {("qidui", "七对", "youbao"), ("qidui", "七对", "baodiao")},
    ),
    (
        "11223344556677m",
        "7m",
        "4z",
        (),
        {"qidui", "pinghu"},
        {("qidui", "清一色七对", "wubao"), ("pinghu", "清一色平胡", "wubao")},
    ),
    # 碰碰胡: all triplets is no 平胡; a 吃 rules it out
    ("111m555p999s222z77z", "7z", "3m", (), {"pengpenghu"}, {("pengpenghu", "碰碰胡", "wubao")}),
    ("111m555p999s22z1z77z", "7z", "4z", (), {"pengpenghu"}, {("pengpenghu", "碰碰胡", "youbao")}),
    (
        "111m555p222z77z",
        "7z",
        "3m",
        ("peng:999s",),
        {"pengpenghu"},
        {("pengpenghu", "碰碰胡", "wubao")},
    ),
    ("111m555p222z77z", "7z", "3m", ("chi:789s",), {"pinghu"}, {("pinghu", "平胡", "wubao")}),
    (
        "111333555777m99m",
        "9m",
        "4z",
        (),
        {"pengpenghu"},
        {("pengpenghu", "清一色碰碰胡", "wubao")},
    ),
    # 十三烂 and 七星十三烂, with and without a 宝
    ("147m258p369s12345z", "5z", "6z", (), {"shisanlan"}, {("shisanlan", "十三烂", "wubao")}),
    ("147m258p36s12345z5z", "5z", "7z", (), {"shisanlan"}, {("shisanlan", "十三烂", "youbao")}),
    ("147m25p39s1234567z", "7z", "3p", (), {"shisanlan"}, {("shisanlan", "七星十三烂", "wubao")}),
    (
        "147m25p39s123456z1m",  # the 宝 1m stands for the missing 7z
        "6z",
        "9m",
        (),
        {"shisanlan"},
        {("shisanlan", "七星十三烂", "youbao")},
    ),
    # 九幺 and 七星九幺
    ("11199m19p19s12345z", "5z", "5z", (), {"jiuyao"}, {("jiuyao", "九幺", "wubao")}),
    ("199m19p19s123456z5m", "6z", "4m", (), {"jiuyao"}, {("jiuyao", "七星九幺", "youbao")}),
    (
        "1z2z",
        "2z",
        "5z",
        ("peng:111m", "peng:999m", "peng:111p", "peng:999p"),
        {"jiuyao"},
        {("jiuyao", "九幺", "wubao")},
    ),
    # combinations
    (
        "111m999p111s222z77z",
        "7z",
        "4z",
        (),
        {"pengpenghu", "jiuyao"},
        {("pengpenghu", "九幺碰碰胡", "wubao"), ("jiuyao", "九幺", "wubao")},
    ),
    (
        "111222333444z55z",
        "5z",
        "9m",
        (),
        {"pengpenghu", "jiuyao"},
        {
            ("pengpenghu", "九幺碰碰胡字一色", "wubao"),
            ("jiuyao", "九幺", "wubao"),
        },  # no 6z 7z: no 七星
    ),
    (
        "1199m1199p11s2233z",
        "3z",
        "5z",
        (),
        {"qidui", "jiuyao"},
        {("qidui", "九幺七对", "wubao"), ("jiuyao", "九幺", "wubao")},
    ),
    (
        "11223344556677z",
        "7z",
        "9m",
        (),
        {"qidui", "jiuyao"},
        {("qidui", "九幺七对字一色", "wubao"), ("jiuyao", "七星九幺", "wubao")},
    ),
]


@pytest.mark.parametrize(("hand", "win", "ind", "melds", "pats", "readings"), READINGS)
def test_each_pattern_under_the_bao_readings(
    hand: str,
    win: str,
    ind: str,
    melds: tuple[str, ...],
    pats: set[str],
    readings: set[tuple[str, str, str]],
) -> None:
    cands, found = read(hand, win, ind, melds)
    assert found == pats
    assert rows(cands) == readings
    assert {c.family for c in cands} == pats  # every pattern found has a reading, and no more


NONE = [
    ("123m456m789p235s57z", "7z", "4z", ()),  # one tile off a 平胡, no 宝
    ("1133m5577p99s2256z", "6z", "4z", ()),  # one tile off a 七对
    ("1358m2469p1357s22z", "2z", "4z", ()),  # 13 and 35 too close for 十三烂
    ("147m258p369s11234z", "4z", "6z", ()),  # 十三烂 takes no pair
    ("119m19p19s123456z2m", "6z", "5z", ()),  # a 2m in a 九幺
    ("113m19p19s1234567z", "7z", "5z", ()),  # 九幺 with a 3m; 十三烂 with a pair
    ("111m555p222z78s", "8s", "3m", ("peng:999s",)),  # 碰碰胡 short of a pair
    ("19m19p19s1234567z", "7z", "5z", ("chi:123m",)),  # a 吃 of 1m2m3m breaks the 九幺
]


@pytest.mark.parametrize(("hand", "win", "ind", "melds"), NONE)
def test_hands_that_form_no_pattern(hand: str, win: str, ind: str, melds: tuple[str, ...]) -> None:
    assert read(hand, win, ind, melds) == ([], frozenset())


def one(cands: list[Candidate], family: str, status: str) -> Candidate:
    (c,) = [c for c in cands if c.family == family and c.status == status]
    return c


@pytest.mark.parametrize(
    ("hand", "ind", "status", "haohua"),
    [
        ("1111m3355p7799s22z", "4z", "wubao", 1),
        ("1111m3333p5577s22z", "4z", "wubao", 2),
        ("1111m3333p5555s22z", "4z", "wubao", 3),
        ("111m1z3355p7799s22z", "4z", "youbao", 1),  # the 宝 1z read as the fourth 1m
        ("1133m5577p99s22z1z1z", "4z", "youbao", 1),  # two 宝 read as a second pair of a kind
    ],
)
def test_haohua_counts_the_fours_a_qidui_reading_can_hold(
    hand: str, ind: str, status: str, haohua: int
) -> None:
    cands, _ = read(hand, "2z", ind)
    assert one(cands, "qidui", status).haohua == haohua


def test_a_seven_honour_qidui_is_read_both_as_qixing_and_as_haohua() -> None:
    cands, _ = read("11223344556677z", "7z", "9m")
    qidui = {(c.qixing, c.haohua) for c in cands if c.family == "qidui"}
    assert qidui == {(True, 0), (False, 0)}
    cands, _ = read("1111223344556z6z", "6z", "9m")
    assert {(c.qixing, c.haohua) for c in cands if c.family == "qidui"} == {(False, 1)}


def test_qixing_jiuyao_and_the_concealed_four() -> None:
    plain = one(read("11199m19p19s12345z", "5z", "5z")[0], "jiuyao", "wubao")
    assert (plain.qixing, plain.quad) == (False, False)
    seven = one(read("119m19p19s1234567z", "7z", "5z")[0], "jiuyao", "wubao")
    assert (seven.row, seven.qixing) == ("七星九幺", True)
    four = one(read("1111m9m19p19s12345z", "5z", "5z")[0], "jiuyao", "wubao")
    assert four.quad and not four.qixing


def test_one_suit_flags_the_qing_yi_se_readings() -> None:
    cands, _ = read("11223344556677m", "7m", "4z")
    assert all(c.one_suit for c in cands)
    cands, _ = read("1133m5577p99s2255z", "5z", "4z")
    assert not any(c.one_suit for c in cands)


def test_bao_diao_only_on_a_self_draw() -> None:
    hand = ("123m456m789p234s1z7z", "7z", "4z")
    assert {c.status for c in read(*hand)[0]} == {"youbao", "baodiao"}
    assert {c.status for c in read(*hand, win_by="rob_gang")[0]} == {"youbao"}


def test_a_wubao_reading_that_also_was_a_bao_diao_wait_is_huanyuan() -> None:
    # the 13 tiles less one 1z (the 宝) are sets; the drawn 1z pairs it, both as themselves
    cands, _ = read("123m456m789p234s1z1z", "1z", "4z")
    assert rows(cands) == {("pinghu", "平胡", s) for s in ("wubao", "baodiao", "youbao")}
    assert one(cands, "pinghu", "wubao").huanyuan
    assert not one(cands, "pinghu", "youbao").huanyuan
    # a 宝 in a sequence is no 宝吊: its 无宝 reading is no 还原
    cands, _ = read("123m456m789p234s55z", "5z", "1s")
    assert one(cands, "pinghu", "wubao").huanyuan is False


def test_strict_no_bao_drops_the_reading_of_the_bao_as_itself() -> None:
    hand = ("123m456m789p234s55z", "5z", "1s")  # the 宝 2s sits in 234s
    assert {c.status for c in read(*hand)[0]} == {"wubao", "youbao"}
    strict = Rules().with_options(strict_no_bao=True)
    assert {c.status for c in read(*hand, rules=strict)[0]} == {"youbao"}


# ---------------------------------------------------------------- the cheap filter


def full_analysis(
    counts: list[int], meld_tiles: list[int], melds: list[Meld], win: int, bao: int, by: str
) -> tuple[list[Candidate], frozenset[str]]:
    """:func:`candidates` with its own filter switched off: every configuration is read."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(patterns, "may_form_pattern", lambda *args: True)
        return candidates(counts, meld_tiles, melds, win, bao, WinContext(win_by=by), Rules())


def test_the_filter_switched_off_still_finds_nothing_in_hopeless_hands() -> None:
    # the property below compares against this analysis: it must not invent patterns
    counts = counts_of(parse_tiles("1358m2469p1357s22z"))
    assert (
        full_analysis(counts, [], [], parse_tile("2z"), parse_tile("1z"), "self_draw")[1] == set()
    )
    counts = counts_of(parse_tiles("123m456m789p234s55z"))
    assert full_analysis(counts, [], [], parse_tile("5z"), parse_tile("1z"), "self_draw")[1] == {
        "pinghu"
    }


@settings(max_examples=400, deadline=None)
@given(rng=st.randoms(use_true_random=False), drawn=st.integers(0, 13), rob=st.booleans())
def test_may_form_pattern_never_refuses_a_hand_with_a_pattern(
    rng: random.Random, drawn: int, rob: bool
) -> None:
    tiles, melds, indicator = near_win(rng)
    counts = counts_of(tiles)
    if max(counts) > 4:
        return
    bao = bao_of(indicator)
    meld_tiles = [k for m in melds for k in m.tiles[:3]]
    win = tiles[drawn % len(tiles)]
    cands, found = full_analysis(
        counts, meld_tiles, melds, win, bao, "rob_gang" if rob else "self_draw"
    )
    nat = list(counts)
    nat[bao] = 0
    if cands or found:
        assert may_form_pattern(nat, counts[bao], meld_tiles), (tiles, melds, indicator)


def test_the_filter_refuses_most_random_hands() -> None:
    rng = random.Random(5)
    wall = [k for k in range(34) for _ in range(4)]
    refused = 0
    for _ in range(500):
        counts = counts_of(rng.sample(wall, 14))
        bao = rng.randrange(34)
        nat = list(counts)
        nat[bao] = 0
        refused += not may_form_pattern(nat, counts[bao], [])
    assert refused > 400
