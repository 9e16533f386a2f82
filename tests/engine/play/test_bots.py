"""``engine.play.bots``: bots play legal actions from a seat's view; the basic one plays to win."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.actions import Action
from engine.hand import HandState, apply, legal_actions, new_hand, waiting_on
from engine.play import bots
from engine.play.bots import BOT_KINDS, choose_action
from engine.rules import Rules
from engine.selfplay import simulate
from engine.tiles import parse_tile
from engine.views import seat_info
from tests.deals import act, hand_record, play


@pytest.mark.parametrize("kind", list(BOT_KINDS))
def test_every_bot_action_is_legal_and_hands_finish(kind: str) -> None:
    rng = random.Random(3)
    for seed in range(3):
        state = new_hand(Rules(), dealer=seed % 4, seed=f"bots-{seed}")
        while state.phase != "ended":
            seat = waiting_on(state)[0]
            action = choose_action(kind, seat_info(state, seat), rng)
            assert action in legal_actions(state, seat)
            state, _ = apply(state, seat, action)


def test_basic_bot_always_takes_a_legal_win() -> None:
    rng = random.Random(5)
    offered = 0
    for seed in range(12):
        state = new_hand(Rules(), dealer=0, seed=f"wins-{seed}")
        while state.phase != "ended":
            seat = waiting_on(state)[0]
            action = choose_action("basic", seat_info(state, seat), rng)
            if any(a.type == "hu" for a in legal_actions(state, seat)):
                offered += 1
                assert action.type == "hu"
            state, _ = apply(state, seat, action)
    assert offered > 0


def test_basic_bots_beat_random_seats() -> None:
    stats = simulate(40, "duel", ["basic", "random", "basic", "random"], Rules())
    basic = stats["points"][0] + stats["points"][2]
    assert stats["zero_sum"]
    assert basic > 0 and basic > stats["points"][1] + stats["points"][3]


def test_unknown_bot_is_a_clear_error() -> None:
    state = new_hand(Rules(), dealer=0, seed=1)
    with pytest.raises(ValueError, match="unknown bot 'smart'"):
        choose_action("smart", seat_info(state, 0), random.Random(0))
    with pytest.raises(ValueError, match="seat 1 has nothing to choose"):
        choose_action("basic", seat_info(state, 1), random.Random(0))  # not its turn
    with pytest.raises(ValueError, match="seat None has nothing to choose"):
        choose_action("random", seat_info(state, None), random.Random(0))


def test_lazy_wait_judging_chooses_as_judging_every_wait_would(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lazy = bots._best_wait
    compared = 0

    def every_wait(me: Any, tied: list[tuple[int, int, Action]]) -> Action:
        nonlocal compared
        choice = lazy(me, tied)

        def key(entry: tuple[int, int, Action]) -> tuple[int, bool, int]:
            tile = entry[2].tile
            assert tile is not None
            rest = list(me.hand)
            rest.remove(tile)
            flies = 1 if tile == me.bao else 0
            return (me.winnable_waits(rest, me.flown + flies), tile != me.bao, entry[1])

        assert choice == max(tied, key=key)[2]
        compared += len(tied) > 1
        return choice

    monkeypatch.setattr(bots, "_best_wait", every_wait)
    simulate(30, "lazy", ["basic"] * 4, Rules())
    assert compared > 10


def _second_turn_drawing_the_bao(concealed: str) -> HandState:
    """Seat 1 holds ``concealed`` and draws the 宝 (5z) on its second turn (so no 地胡): the
    first go-around is a 2z and four 6z that nobody can claim."""
    hands = {
        0: "444p555p666p789s2z3z",
        1: concealed,
        2: "111p222p333p456s4z",
        3: "888p999p888s9s3z4z4z",
    }
    log = [act(0, "discard", "2z"), *(act(s, "discard", "6z") for s in (1, 2, 3, 0))]
    state = play(hand_record(hands, log, draws="6z6z6z6z5z"))
    assert state.turn == 1 and state.drawn == parse_tile("5z") == state.bao
    return state


def test_basic_bot_flies_a_bao_when_that_alone_makes_the_wait_winnable() -> None:
    """Kept, the 宝 makes only 有宝平胡 (2, below the minimum of 4), so it may not win;
    flown, the natural 123m456m789p23s11z waits on 1s/4s for 无宝平胡 ×2 = 8."""
    state = _second_turn_drawing_the_bao("123m456m789p23s11z")
    assert all(a.type != "hu" for a in legal_actions(state, 1))
    action = choose_action("basic", seat_info(state, 1), random.Random(1))
    assert action == Action("discard", tile=parse_tile("5z"))


def test_basic_bot_keeps_a_drawn_bao_that_makes_a_bao_diao() -> None:
    """Kept, the 宝 stands alone behind four sets (宝吊: any tile wins, 4 points): far more
    waits than flying it for a 1z 单吊, so the bot throws the 1z instead."""
    state = _second_turn_drawing_the_bao("123m456m789p234s1z")
    action = choose_action("basic", seat_info(state, 1), random.Random(1))
    assert action == Action("discard", tile=parse_tile("1z"))
