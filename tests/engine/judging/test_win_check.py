"""engine.judging.win_check: the cheap shape filter and the remembered judgements behind it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.judging import memo
from engine.judging.judge import HandError, WinContext, judge
from engine.judging.win_check import WinCheck, could_win, judge_win, judged
from engine.melds import Meld
from engine.rules import Rules
from engine.tiles import parse_tile, parse_tiles
from tests.engine.judging.hands import near_win

R = Rules()


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_could_win_never_refuses_a_real_win(seed: int) -> None:
    tiles, melds, indicator = near_win(random.Random(seed))
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


def test_judged_asks_the_judge_once_per_question() -> None:
    memo.clear()
    hand = parse_tiles("123m456m789p234s55z")

    def ask(context: WinContext) -> WinCheck:
        return judged(hand, [], parse_tile("4s"), parse_tile("9s"), R, context)

    first = ask(WinContext())
    again = ask(WinContext(win_by="self_draw"))
    robbed = ask(WinContext(win_by="rob_gang"))
    assert first == again and first.win and first.score == 4
    assert robbed.score == 24  # 平胡 4 × 抢杠 6: a different question, judged anew
    # remembered: the very answer comes back (judge_win builds a new one each time)
    assert again is first and robbed is not first
    assert judge_win(hand, [], parse_tile("4s"), parse_tile("9s"), R, WinContext()) is not first
    assert ask(WinContext(win_by="rob_gang")) is robbed
