from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import Any

import pytest

from engine.tiles import format_tile, parse_tiles
from tables.models import Hand
from tables.replays import hand_states, replay_frame, replay_steps
from tests.tables.factories import played_hand, start_with_bots

NAMES = ["East", "South", "West", "North"]


@pytest.fixture
def hand(user: Any) -> Hand:
    return played_hand(user)


def _held(frame: Any, seat: int) -> Counter[str]:
    s = frame.seats[seat]
    return Counter(s.hand + ([s.drawn] if s.drawn else []))


def test_the_last_frame_ends_exactly_as_the_hand_did(hand: Hand) -> None:
    frame = replay_frame(hand, replay_steps(hand), NAMES)
    assert frame.last and frame.phase == "ended"
    assert frame.result == hand.result
    assert hand.result is not None
    assert frame.hands == hand.result["hands"]
    assert frame.settlement is not None
    assert [n for n, _ in frame.settlement.hand_totals] == NAMES


def test_the_first_frame_is_the_deal_with_every_hand_face_up(hand: Hand) -> None:
    frame = replay_frame(hand, 0, NAMES)
    assert frame.first and frame.action == "" and frame.settlement is None
    assert sorted(len(parse_tiles(h)) for h in frame.hands) == [13, 13, 13, 14]
    assert frame.seats[hand.dealer].dealer


def test_each_step_is_the_one_logged_action_and_back_again(hand: Hand) -> None:
    steps = replay_steps(hand)
    frames = [replay_frame(hand, k, NAMES) for k in range(steps + 1)]
    discards = 0
    for k, (before, after) in enumerate(pairwise(frames)):
        seat, action = hand.actions[k]
        assert after.step == k + 1 and after.seats[seat].acting
        if action["type"] == "discard":
            tile = action["tile"]
            assert after.seats[seat].river == [*before.seats[seat].river, tile]
            assert _held(before, seat) - _held(after, seat) == Counter([tile])
            discards += 1
        # Going back a step gives the very frame that came before.
        assert replay_frame(hand, after.previous, NAMES) == before
    assert discards > 10


def test_steps_out_of_range_are_clamped(hand: Hand) -> None:
    assert replay_frame(hand, -3, NAMES).step == 0
    assert replay_frame(hand, 10**6, NAMES).step == replay_steps(hand)


def test_the_states_are_the_engine_replay_of_the_log(hand: Hand) -> None:
    states = list(hand_states(hand))
    assert len(states) == len(hand.actions) + 1
    assert states[-1].log == hand.actions
    assert states[0].hands[hand.dealer] == sorted(states[0].hands[hand.dealer])
    assert format_tile(states[-1].bao) == replay_frame(hand, 0, NAMES).bao


def test_a_hand_in_play_is_never_replayed(user: Any) -> None:
    room = start_with_bots(user, seed="in-play")
    hand = Hand.objects.get(room=room, number=1)
    with pytest.raises(ValueError, match="in play"):
        replay_frame(hand, 0, NAMES)
