"""engine.scoring: every §7 table cell, factor applicability and the §9 番 bases."""

from __future__ import annotations

from typing import Any

import pytest

from engine.judging.scoring import Candidate, WinContext, score_candidate
from engine.rules import Rules

STD = Rules()
FAN = Rules.profile_named("jiuyao_fan")

# row, family, 无宝, 宝吊, 有宝 (None = no 宝吊 column), typed from the rules' table
TABLE = [
    ("平胡", "pinghu", 4, 4, 2),
    ("清一色平胡", "pinghu", 16, 16, 8),
    ("七对", "qidui", 16, 12, 8),
    ("清一色七对", "qidui", 32, 24, 8),
    ("字一色七对", "qidui", 32, 24, 8),
    ("九幺七对", "qidui", 32, 24, 8),
    ("九幺七对字一色", "qidui", 64, 48, 16),
    ("碰碰胡", "pengpenghu", 16, 12, 8),
    ("清一色碰碰胡", "pengpenghu", 32, 24, 8),
    ("字一色碰碰胡", "pengpenghu", 32, 24, 8),
    ("九幺碰碰胡", "pengpenghu", 32, 24, 8),
    ("九幺碰碰胡字一色", "pengpenghu", 64, 48, 16),
    ("十三烂", "shisanlan", 4, None, 2),
    ("七星十三烂", "shisanlan", 8, None, 4),
    ("九幺", "jiuyao", 4, None, 2),
    ("七星九幺", "jiuyao", 8, None, 4),
]

CELLS = [
    (row, fam, status, value)
    for row, fam, *values in TABLE
    for status, value in zip(("wubao", "baodiao", "youbao"), values, strict=True)
]


def price(c: Candidate, rules: Rules = STD, n_melds: int = 0, **ctx: Any) -> int:
    return score_candidate(c, WinContext(**ctx), rules, n_melds).score


@pytest.mark.parametrize(("row", "family", "status", "value"), CELLS)
def test_table_cell(row: str, family: str, status: str, value: int | None) -> None:
    p = score_candidate(Candidate(family, row, status), WinContext(), STD, 0)
    if value is None:
        assert (p.win, p.score) == (False, 0)
    else:
        assert p.score == value and p.base == value
        assert p.breakdown[0].kind == "base" and p.breakdown[0].value == value


@pytest.mark.parametrize(("row", "family", "status", "value"), [c for c in CELLS if c[3]])
def test_flown_bao_and_rob_apply_to_every_pattern(
    row: str, family: str, status: str, value: int
) -> None:
    c = Candidate(family, row, status)
    assert price(c, flown_bao=2) == value * 4
    assert price(c, win_by="rob_gang") == value * 6


# family -> does 杠开 apply, does 单吊 apply
APPLIES = {
    "pinghu": (True, True),
    "pengpenghu": (True, True),
    "qidui": (False, False),
    "shisanlan": (False, False),
    "jiuyao": (True, False),
}


@pytest.mark.parametrize(("row", "family"), [(r, f) for r, f, *_ in TABLE])
def test_factor_applicability(row: str, family: str) -> None:
    c = Candidate(family, row, "wubao")
    base = price(c)
    gang, dandiao = APPLIES[family]
    assert price(c, gang_draws=1) == base * (2 if gang else 1)
    assert price(c, gang_draws=2) == base * (4 if gang else 1)
    assert price(c, n_melds=4) == base * (2 if dandiao else 1)
    assert price(c._replace(haohua=2)) == base * (4 if family == "qidui" else 1)


@pytest.mark.parametrize(("chain", "factor"), [(1, 2), (2, 4), (3, 8), (4, 8), (6, 8)])
def test_jiuyao_gang_cap(chain: int, factor: int) -> None:
    assert price(Candidate("jiuyao", "九幺", "wubao"), gang_draws=chain) == 4 * factor


@pytest.mark.parametrize(("chain", "factor"), [(1, 2), (2, 4), (3, 8), (4, 16)])
def test_gang_chain_uncapped(chain: int, factor: int) -> None:
    assert price(Candidate("pengpenghu", "九幺碰碰胡", "wubao"), gang_draws=chain) == 32 * factor


@pytest.mark.parametrize(("haohua", "factor"), [(0, 1), (1, 2), (2, 4), (3, 8)])
def test_haohua(haohua: int, factor: int) -> None:
    assert price(Candidate("qidui", "七对", "wubao", haohua)) == 16 * factor
    assert price(Candidate("qidui", "九幺七对", "baodiao", haohua)) == 24 * factor


def test_qixing_only_on_jiuyao_qidui_rows_it_marks() -> None:
    assert price(Candidate("qidui", "九幺七对字一色", "wubao", qixing=True)) == 128
    assert price(Candidate("qidui", "九幺七对字一色", "youbao", qixing=True)) == 32


def test_rob_gang_exempt_from_minimum() -> None:
    c = Candidate("pinghu", "平胡", "youbao")
    assert not score_candidate(c, WinContext(), STD, 0).win
    assert score_candidate(c, WinContext(win_by="rob_gang"), STD, 0).win


def test_gang_label() -> None:
    c = Candidate("pinghu", "平胡", "wubao")
    labels = [b.label for b in score_candidate(c, WinContext(gang_draws=1), STD, 0).breakdown]
    assert labels == ["平胡", "杠上开花"]
    labels = [b.label for b in score_candidate(c, WinContext(gang_draws=2), STD, 0).breakdown]
    assert labels == ["平胡", "连一杠"]


@pytest.mark.parametrize(
    ("family", "status", "base"),
    [
        ("pinghu", "wubao", 2),
        ("pinghu", "baodiao", 3),
        ("pinghu", "youbao", None),
        ("qidui", "wubao", 10),
        ("qidui", "baodiao", 8),
        ("qidui", "youbao", 4),
        ("pengpenghu", "wubao", 10),
        ("pengpenghu", "baodiao", 8),
        ("pengpenghu", "youbao", 4),
        ("jiuyao", "wubao", 4),
        ("jiuyao", "youbao", 2),
        ("shisanlan", "wubao", 4),
        ("shisanlan", "youbao", 2),
    ],
)
def test_fan_bases(family: str, status: str, base: int | None) -> None:
    p = score_candidate(Candidate(family, "x", status), WinContext(), FAN, 0)
    if base is None:
        assert not p.win and p.score == 0
    else:
        assert (p.base, p.fan, p.score) == (base, 0, base)


def test_fan_counts() -> None:
    c = Candidate("qidui", "清一色七对", "wubao", haohua=1, one_suit=True, huanyuan=True)
    p = score_candidate(c, WinContext(flown_bao=1, gang_draws=1), FAN, 0)
    assert (p.base, p.fan) == (10, 6)  # 清一色 2 + 豪华 1 + 还原 1 + 杠开 1 + 飞宝 1
    assert p.score == 10 * 2**6
    p = score_candidate(
        Candidate("jiuyao", "七星九幺", "youbao", qixing=True),
        WinContext(win_by="rob_gang"),
        FAN,
        0,
    )
    assert (p.fan, p.score) == (1, 2 * 2 * 6)
