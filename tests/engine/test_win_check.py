"""engine.win_check: the cheap shape filter and the remembered judgements behind it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.win_check as win_check
from engine.judge import HandError, WinContext, judge
from engine.melds import Meld
from engine.rules import Rules
from engine.tiles import bao_of, parse_tile, parse_tiles
from engine.win_check import could_win, judge_win, judged

R = Rules()


def _near_win(rng: random.Random) -> tuple[list[int], list[Meld], int]:
    """A 14-tile hand that often wins: a shape, some tiles swapped for the 宝 or at random."""
    indicator = rng.randrange(34)
    shape = rng.choice(["standard", "qidui", "lan", "jiuyao"])
    melds: list[Meld] = []
    tiles: list[int] = []
    if shape == "standard":
        for _ in range(4):
            if rng.random() < 0.5:
                lo = rng.randrange(3) * 9 + rng.randrange(7)
                group = (lo, lo + 1, lo + 2)
                kind = "chi"
            else:
                k = rng.randrange(34)
                group = (k, k, k)
                kind = "peng"
            if rng.random() < 0.3:
                melds.append(Meld(kind, group))
            else:
                tiles.extend(group)
        tiles.extend([rng.randrange(34)] * 2)
    elif shape == "qidui":
        for _ in range(7):
            tiles.extend([rng.randrange(34)] * 2)
    elif shape == "lan":
        for suit in range(3):
            start = rng.randrange(3)
            tiles.extend(suit * 9 + r for r in range(start, 9, 3))
        tiles.extend(rng.sample(range(27, 34), 14 - len(tiles)))
    else:
        terminals = [k for k in range(34) if k >= 27 or k % 9 in (0, 8)]
        tiles.extend(rng.choice(terminals) for _ in range(14))
    tiles = tiles[: 14 - 3 * len(melds)]
    for _ in range(rng.choice([0, 0, 1, 2])):
        tiles[rng.randrange(len(tiles))] = (
            bao_of(indicator) if rng.random() < 0.7 else rng.randrange(34)
        )
    return sorted(tiles), melds, indicator


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_could_win_never_refuses_a_real_win(seed: int) -> None:
    tiles, melds, indicator = _near_win(random.Random(seed))
    try:
        real = judge(tiles, melds, tiles[-1], indicator, WinContext(), R)
    except HandError:
        return  # a fifth copy: not a hand the table can hold
    if real.win:
        assert could_win(tiles, melds, indicator)


def test_could_win_turns_away_shapes_no_reading_completes() -> None:
    nine_s = parse_tile("9s")  # 宝 = 1s, absent below
    assert could_win(parse_tiles("123m456m789p234s55z"), [], nine_s)
    assert not could_win(parse_tiles("123m456m789p234s56z"), [], nine_s)
    # one 宝 completes it: 1s for the missing 6z
    assert could_win(parse_tiles("123m456m789p234s5z1s"), [], nine_s)
    # melds count as sets; the concealed part must still complete
    assert could_win(parse_tiles("456m789p234s55z"), [Meld("peng", (0, 0, 0))], nine_s)
    assert not could_win(parse_tiles("456m789p234s56z"), [Meld("peng", (0, 0, 0))], nine_s)


def test_judged_asks_the_judge_once_per_question(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def counting(*args: Any) -> win_check.WinCheck:
        calls.append(args[-1].win_by)
        return judge_win(*args)

    monkeypatch.setattr(win_check, "judge_win", counting)
    monkeypatch.setattr(win_check, "_JUDGED", {})
    hand = parse_tiles("123m456m789p234s55z")

    def ask(context: WinContext) -> win_check.WinCheck:
        return judged(hand, [], parse_tile("5z"), parse_tile("9s"), R, context)

    first = ask(WinContext())
    again = ask(WinContext(win_by="self_draw"))
    robbed = ask(WinContext(win_by="rob_gang"))
    assert first == again and first.win and first.score == 4
    assert robbed.score == 24  # 平胡 4 × 抢杠 6: a different question, judged anew
    assert calls == ["self_draw", "rob_gang"]
