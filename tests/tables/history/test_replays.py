from __future__ import annotations

import dataclasses
from collections import Counter
from itertools import pairwise
from typing import Any

import pytest

from engine.tiles import format_tile, parse_tiles
from tables.history.replays import hand_replayed, hand_states, replay_frame, replay_steps
from tables.models import Hand
from tables.staff import desk
from tests.tables.booked_hands import QIDUI_BAODIAO, STRICT_CHI_BAO, store_booked
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
    # Today's engine judges this hand as it was booked: no note.
    assert not frame.earlier_ruling and not hand_replayed(hand).earlier_ruling


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


def _booked_view(frame: Any) -> tuple[Any, ...]:
    s = frame.settlement
    assert s is not None
    w = s.winners[0]
    return (
        w.name,
        w.pattern_name,
        w.score,
        sorted((t.payer, t.payee, t.points) for t in s.transfers),
        s.hand_totals,
    )


def test_a_hand_judged_otherwise_today_ends_on_its_booked_settlement(user: Any) -> None:
    # Seat 1 drew the 宝 5m onto five pairs, 3m, 5p and a 宝: booked 七对宝吊 12 from each of
    # the three others (tests/tables/booked_hands.py); today's engine says 有宝七对 8.
    hand = store_booked(user, QIDUI_BAODIAO)
    assert replay_steps(hand) == 6
    frames = [replay_frame(hand, k, NAMES) for k in range(7)]
    assert frames[5].seats[1].drawn == "5m" and frames[5].settlement is None
    assert not any(f.earlier_ruling for f in frames[:6])
    last = frames[6]
    assert last.phase == "ended" and last.action.startswith("South") and last.earlier_ruling
    assert last.result == hand.result
    assert _booked_view(last) == (
        "South",
        "七对宝吊",
        12,
        [("East", "South", 12), ("North", "South", 12), ("West", "South", 12)],
        [("East", -12), ("South", 36), ("West", -12), ("North", -12)],
    )


def test_a_win_today_refuses_replays_up_to_it_then_shows_the_booked_win(user: Any) -> None:
    # strict_no_bao, 宝 = 3s inside North's 吃 of 1s with 2s 3s: the old engine booked 平胡 4
    # from each of the three others on a drawn 5m; today's engine refuses that 胡.
    hand = store_booked(user, STRICT_CHI_BAO)
    replayed = hand_replayed(hand)
    assert replayed.accepted == 36 and replayed.earlier_ruling
    assert len(hand_states(hand)) == 37
    assert replay_steps(hand) == 37
    before = replay_frame(hand, 36, NAMES)
    assert before.seats[3].drawn == "5m" and before.settlement is None
    assert [m.tiles for m in before.seats[3].melds] == [["1s", "2s", "3s"]]
    last = replay_frame(hand, 37, NAMES)
    assert last.last and last.phase == "ended" and last.earlier_ruling
    assert last.action.startswith("North") and "胡" in last.action and last.action_tile == "5m"
    # The board is the last one today's engine reached: North's tiles are as they were.
    assert last.seats == [
        *[dataclasses.replace(s, acting=False) for s in before.seats[:3]],
        dataclasses.replace(before.seats[3], acting=True),
    ]
    assert last.result == hand.result
    assert _booked_view(last) == (
        "North",
        "平胡",
        4,
        [("East", "North", 4), ("South", "North", 4), ("West", "North", 4)],
        [("East", -4), ("South", -4), ("West", -4), ("North", 12)],
    )
    assert replay_frame(hand, 10**6, NAMES) == last


def test_a_hand_closed_by_staff_ends_on_its_unpaid_draw_without_a_note(
    user: Any, referee: Any
) -> None:
    room = start_with_bots(user, seed="closed-by-staff")
    desk.staff_hand_close(staff=referee, number=room.number, reason="stuck")
    hand = Hand.objects.get(room=room, number=1)
    last = replay_frame(hand, replay_steps(hand), NAMES)
    assert replay_steps(hand) == len(hand.actions)
    assert last.phase == "ended" and not last.earlier_ruling
    assert last.settlement is not None and last.settlement.outcome == "draw"
    assert (
        last.settlement.transfers == [] and [p for _, p in last.settlement.hand_totals] == [0] * 4
    )
