"""``engine.views``: what one seat may see, and nothing it may not."""

from __future__ import annotations

import json
import random

import pytest

from engine.hand import HandState, apply, legal_actions, new_hand, waiting_on
from engine.rules import Rules
from engine.tiles import parse_tiles
from engine.views import seat_info, seat_view, unseen, view_json
from tests.deals import act, hand_record, play


def _states(seed: int, rules: Rules) -> list[HandState]:
    rng = random.Random(seed)
    state = new_hand(rules, dealer=seed % 4, seed=f"views-{seed}")
    seen = [state]
    while state.phase != "ended":
        seat = waiting_on(state)[0]
        acts = legal_actions(state, seat)
        gangs = [a for a in acts if a.type == "gang"]
        state, _ = apply(state, seat, gangs[0] if gangs else rng.choice(acts))
        seen.append(state)
    return seen


def _hidden_shuffled(state: HandState, viewer: int, rng: random.Random) -> HandState:
    """``state`` with everything ``viewer`` can't see dealt out again: the other seats'
    concealed tiles and the live wall's tiles, each hand keeping its size."""
    other = HandState.from_json(state.to_json())
    others = [s for s in range(4) if s != viewer]
    wall = other.wall
    live = [p for p in range(len(wall.tiles)) if not wall.gone[p] and p != wall.indicator_pos]
    pool = [k for s in others for k in other.hands[s]] + [wall.tiles[p] for p in live]
    rng.shuffle(pool)
    for s in others:
        size = len(other.hands[s])
        other.hands[s], pool = sorted(pool[:size]), pool[size:]
    for p, k in zip(live, pool, strict=True):
        wall.tiles[p] = k
    return other


@pytest.mark.parametrize("face_down", [False, True])
def test_a_view_depends_on_nothing_the_seat_cannot_see(face_down: bool) -> None:
    """At every step before the end, dealing the other hands and the live wall out again
    changes nothing any seat sees (its legal actions and its 胡's judgement included)."""
    rules = Rules().with_options(angang_face_down=face_down)
    rng = random.Random(face_down)
    compared = 0
    for seed in range(3):
        for state in _states(seed, rules)[:-1]:
            for viewer in range(4):
                mine = seat_info(state, viewer)
                again = seat_info(_hidden_shuffled(state, viewer, rng), viewer)
                assert again == mine
                compared += 1
    assert compared > 100


@pytest.mark.parametrize("face_down", [False, True])
def test_a_view_holds_only_its_own_tiles_and_is_json(face_down: bool) -> None:
    rules = Rules().with_options(angang_face_down=face_down)
    for state in _states(1, rules):
        for seat in (None, 0, 1, 2, 3):
            info = seat_info(state, seat)
            view = seat_view(state, seat)
            assert json.loads(json.dumps(view)) == view == view_json(info)
            assert "wall" not in view and str(state.seed) not in json.dumps(view)
            if seat is None:
                assert "hand" not in view
            else:
                assert list(info.hand) == state.hands[seat]
                assert sorted(parse_tiles(view["hand"])) == state.hands[seat]
                assert list(info.legal) == legal_actions(state, seat)
            assert info.hand_sizes == tuple(map(len, state.hands))
            if state.phase != "ended":
                assert view["result"] is None
            if state.phase in ("claim", "rob"):  # who else is asked would tell what they hold
                assert set(info.waiting_on) <= {seat}
                assert sum(unseen(info)) >= sum(
                    len(h) for s, h in enumerate(state.hands) if s != seat
                )


def test_others_face_down_angang_is_hidden_until_the_end() -> None:
    rules = Rules().with_options(angang_face_down=True)
    for seed in range(40):
        states = _states(seed, rules)
        ganged = [
            (s, p) for s in states for p in range(4)
            if any(m.kind == "angang" for m in s.melds[p]) and s.phase != "ended"
        ]  # fmt: skip
        if not ganged:
            continue
        state, owner = ganged[0]
        other = (owner + 1) % 4
        assert None in seat_info(state, other).melds[owner]
        assert None not in seat_info(state, owner).melds[owner]
        assert None not in seat_info(states[-1], other).melds[owner]
        return
    pytest.skip("no 暗杠 in these hands")


def test_spectator_sees_no_hand_and_no_actions() -> None:
    state = new_hand(Rules(), dealer=0, seed=3)
    info = seat_info(state, None)
    assert info.hand == () and info.legal == () and info.drawn is None
    with pytest.raises(ValueError, match="no seat 4"):
        seat_info(state, 4)


def test_a_claim_window_does_not_tell_who_may_claim() -> None:
    """Seat 1 holds 1z1z and may 碰 the dealer's 1z; only seat 1 learns it is asked."""
    hands = {
        0: "199m19p19s1234567z",
        1: "55m123p456p789s11z",
        2: "23468m2468p2468s",
        3: "3579m3579p3579s2z",
    }
    state = play(hand_record(hands, [act(0, "discard", "1z")]))
    assert state.phase == "claim"
    asked = seat_view(state, 1)
    assert asked["waiting_on"] == [1] and asked["window"]["tile"] == "1z"
    for viewer in (0, 2, 3, None):
        view = seat_view(state, viewer)
        assert view["waiting_on"] == [], viewer
        assert view["window"]["answered"] == [False] * 4


def test_an_asked_seat_sees_nothing_of_another_asked_seats_answer() -> None:
    """The dealer discards 3m; seat 1 may 吃 it and seat 2 may 碰 it. Whatever seat 2 answers,
    seat 1's view (and the step its answer names) is what it was: it can't tell that anyone
    else was asked."""
    hands = {
        0: "3m1p1p4p7p1s4s7s1z2z3z4z6z9p",
        1: "2m4m2p5p8p2s5s8s1z2z3z6z9s",
        2: "3m3m3p6p3s6s9s1z2z3z4z6z8m",
        3: "6m7m9m3p6p3s6s9s1z2z3z4z6z",
    }
    opened = play(hand_record(hands, [act(0, "discard", "3m")]))
    assert sorted(waiting_on(opened)) == [1, 2]
    for answer in legal_actions(opened, 2):
        answered, _events = apply(opened, 2, answer, hold=True)
        for seat in (0, 1, 3, None):
            assert seat_view(answered, seat) == seat_view(opened, seat), (answer, seat)
