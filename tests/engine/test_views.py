"""engine.views: the typed seat view carries exactly what the JSON view shows."""

from __future__ import annotations

import random

import pytest

from engine.hand import HandState, apply, legal_actions, new_hand, waiting_on
from engine.rules import Rules
from engine.tiles import format_tile, format_tiles
from engine.views import SeatInfo, seat_info, seat_view


def _as_json(info: SeatInfo) -> dict[str, object]:
    """The JSON view rebuilt by hand from the typed one."""
    view: dict[str, object] = {
        "seat": info.seat,
        "dealer": info.dealer,
        "turn": info.turn,
        "phase": info.phase,
        "dice": list(info.dice),
        "indicator": format_tile(info.indicator),
        "bao": format_tile(info.bao),
        "wall_left": info.wall_left,
        "burned": [format_tile(t) for t in info.burned],
        "hand_sizes": list(info.hand_sizes),
        "melds": [
            [{"kind": "angang", "tiles": None, "from": None} if m is None else m.to_json()
             for m in row]
            for row in info.melds
        ],
        "rivers": [[format_tile(t) for t in r] for r in info.rivers],
        "flown": list(info.flown),
        "waiting_on": list(info.waiting_on),
        "step": info.step,
        "result": info.result,
        "legal": [a.to_json() for a in info.legal],
    }  # fmt: skip
    if info.window is not None:
        tile = info.window["tile"]
        view["window"] = {**info.window, "tile": None if tile is None else format_tile(tile)}
    if info.seat is not None:
        view["hand"] = format_tiles(info.hand)
        view["drawn"] = None if info.drawn is None else format_tile(info.drawn)
    return view


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


@pytest.mark.parametrize("face_down", [False, True])
def test_seat_info_and_seat_view_agree(face_down: bool) -> None:
    rules = Rules().with_options(angang_face_down=face_down)
    for seed in range(3):
        for state in _states(seed, rules):
            for seat in (None, 0, 1, 2, 3):
                assert seat_view(state, seat) == _as_json(seat_info(state, seat))


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
    from tests.engine.scripted import act, hand_record, play

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
