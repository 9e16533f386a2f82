"""``engine.play.hints``: 听牌 hints from a seat's own view."""

from __future__ import annotations

import random

from engine.hand import HandState, apply, new_hand, waiting_on
from engine.play.bots import choose_action
from engine.play.hints import hints, hints_after_discard, turn_distance
from engine.rules import Rules
from engine.tiles import KIND_COUNT, format_tile, parse_tiles
from engine.views import seat_info
from tests.deals import act, hand_record, play

OTHERS = {
    0: "444p555p666p789s2z3z",
    2: "111p222p333p456s4z",
    3: "888p999p888s9s3z4z4z",
}
"""Three hands around seat 1 that can't claim a 2z (the 宝 is 5z: see tests/deals.py)."""


def waiting(concealed: str, *, flown: bool = False) -> HandState:
    """Seat 1 holds ``concealed`` and waits: after the dealer's 2z it draws a 6z and throws it
    (or, ``flown``, draws the 宝 and flies it)."""
    drawn = "5z" if flown else "6z"
    log = [act(0, "discard", "2z"), act(1, "discard", drawn)]
    state = play(hand_record({**OTHERS, 1: concealed}, log, draws=drawn))
    assert sorted(state.hands[1]) == sorted(parse_tiles(concealed)) and state.turn != 1
    return state


def test_a_ready_hand_lists_its_waits_with_scores_and_copies_left() -> None:
    h = hints(seat_info(waiting("123m456m789p23s11z"), 1))
    assert h is not None and h.distance == 0 and not h.any_tile
    assert [(format_tile(w.tile), w.score, w.name) for w in h.waits] == [
        ("1s", 4, "平胡"),
        ("4s", 4, "平胡"),
    ]
    # Seat 2's 4s is hidden from seat 1: it still counts as one that may come.
    assert [w.left for w in h.waits] == [4, 4]


def test_copies_in_sight_are_not_counted_as_left() -> None:
    # Seat 1 holds two 1s itself: of the 1s it waits on, only two are left.
    h = hints(seat_info(waiting("123m456m789p11s23s"), 1))
    assert h is not None and h.distance == 0
    left = {format_tile(w.tile): w.left for w in h.waits}
    assert left["1s"] == 2 and left["4s"] == 4


def test_a_flown_bao_doubles_the_scores_shown() -> None:
    h = hints(seat_info(waiting("123m456m789p23s11z", flown=True), 1))
    assert h is not None
    # ×2 for the flown 宝; drawing the other 宝 now wins too: 有宝平胡 2 ×2 reaches 4.
    waits = {(format_tile(w.tile), w.score) for w in h.waits}
    assert waits == {("1s", 8), ("4s", 8), ("5z", 4)}


def test_bao_diao_waits_on_any_tile() -> None:
    h = hints(seat_info(waiting("123m456m789p234s5z"), 1))
    assert h is not None and h.any_tile and len(h.waits) == KIND_COUNT
    assert all(w.score >= 4 for w in h.waits)


def test_a_ready_hand_whose_wins_are_too_small_says_so() -> None:
    # 2s and the 宝: every win needs the 宝 as another tile, 有宝平胡 2 < 4.
    h = hints(seat_info(waiting("123m456m789p2s11z5z"), 1))
    assert h is not None and h.distance == 0 and h.waits == () and h.too_small


def test_a_hand_far_from_ready_says_how_far() -> None:
    h = hints(seat_info(waiting("147m258p369s1s3s5s7z"), 1))
    assert h is not None and h.distance > 0 and h.waits == ()


def test_no_hints_for_spectators_on_a_turn_or_after_the_hand() -> None:
    assert hints(seat_info(waiting("123m456m789p23s11z"), None)) is None
    state = new_hand(Rules(), dealer=2, seed=4)
    assert hints(seat_info(state, 2)) is None  # 14 tiles: choosing a discard
    rng = random.Random(4)
    while state.phase != "ended":
        seat = waiting_on(state)[0]
        state, _ = apply(state, seat, choose_action("basic", seat_info(state, seat), rng))
    assert all(hints(seat_info(state, s)) is None for s in range(4))


def test_hints_depend_on_nothing_the_seat_cannot_see() -> None:
    """Deal the other seats' concealed tiles out again among themselves (sizes kept): every
    seat's hints stay the same, at every step of whole bot-played hands."""
    rng = random.Random(11)
    compared = 0
    for seed in range(6):
        state = new_hand(Rules(), dealer=seed % 4, seed=f"hints-{seed}")
        while state.phase != "ended":
            for viewer in range(4):
                mine = hints(seat_info(state, viewer))
                if mine is None:
                    continue
                others = [s for s in range(4) if s != viewer]
                pool = [k for s in others for k in state.hands[s]]
                rng.shuffle(pool)
                dealt = HandState.from_json(state.to_json())
                for s in others:
                    size = len(state.hands[s])
                    dealt.hands[s], pool = sorted(pool[:size]), pool[size:]
                assert hints(seat_info(dealt, viewer)) == mine
                compared += 1
            seat = waiting_on(state)[0]
            state, _ = apply(state, seat, choose_action("basic", seat_info(state, seat), rng))
    assert compared > 100


def test_turn_distance_says_whether_any_discard_leaves_the_hand_ready() -> None:
    """On every turn of whole bot-played hands: ``turn_distance`` is 0 or less exactly when
    one of the tiles in hand, discarded, leaves a hand whose hints say ready."""
    rng = random.Random(5)
    turns = ready = 0
    for seed in range(30):
        state = new_hand(Rules(), dealer=seed % 4, seed=f"turn-distance-{seed}")
        while state.phase != "ended":
            seat = waiting_on(state)[0]
            info = seat_info(state, seat)
            away = turn_distance(info)
            if away is not None:
                after = []
                for kind in set(info.hand):
                    h = hints_after_discard(info, kind)
                    after.append(h is not None and h.distance == 0)
                assert (away <= 0) == any(after), (seed, state.step, away)
                turns += 1
                ready += away <= 0
            state, _ = apply(state, seat, choose_action("basic", info, rng))
    assert turns > 500 and ready > 20
