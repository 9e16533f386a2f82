"""``engine.play.preview``: the score on a seat's 胡 button, read from the seat's own view, is
what the hand's result gives when it declares."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import selfplay
from engine.actions import Action
from engine.hand import HandState, apply, legal_actions, waiting_on
from engine.hand_log import replay
from engine.judging.judge import WinContext, judge
from engine.play.preview import hu_preview
from engine.rules import Rules
from engine.tiles import parse_tile
from engine.views import seat_info
from tests.deals import BAO_HANDS, HEAVENLY, ROB_ACTIONS, ROBBED_BY_TWO, act, hand_record, play

FAN = Rules.profile_named("jiuyao_fan")


def unchanged_preview(state: HandState, seat: int) -> dict[str, Any] | None:
    """The preview, checking that asking for it leaves the hand as it was."""
    before = state.to_json()
    got = hu_preview(seat_info(state, seat))
    assert state.to_json() == before
    return got


def declared(state: HandState, seat: int) -> dict[str, Any]:
    """The result once ``seat`` declares 胡 and every other robber passes."""
    state, _ = apply(state, seat, Action("hu"))
    while state.phase == "rob":
        state, _ = apply(state, waiting_on(state)[0], Action("pass"))
    assert state.result is not None
    return state.result


@pytest.mark.parametrize("rules", [Rules(), FAN])
def test_heavenly_preview_is_the_judges_tian_hu(rules: Rules) -> None:
    state = play(hand_record(HEAVENLY, [], rules=rules))
    preview = unchanged_preview(state, 0)
    assert preview is not None
    hand = state.hands[0]
    j = judge(hand, [], hand[-1], state.indicator, WinContext(heavenly=True), rules)
    assert (preview["score"], preview["judgement"]["name"]) == (j.score, "天胡") == (16, "天胡")
    assert preview["judgement"]["breakdown"] == [{"label": "天胡", "value": 16, "kind": "base"}]
    result = declared(state, 0)
    assert preview == {"score": result["scores"]["0"], "judgement": result["judgements"]["0"]}


def test_earthly_preview_after_a_flown_bao() -> None:
    state = play(hand_record(BAO_HANDS, [act(0, "discard", "5z"), act(2, "pass")], draws="1z"))
    assert waiting_on(state) == [1] and state.drawn == parse_tile("1z")
    preview = unchanged_preview(state, 1)
    assert preview is not None
    assert (preview["score"], preview["judgement"]["name"]) == (16, "地胡")
    result = declared(state, 1)
    assert preview == {"score": result["scores"]["1"], "judgement": result["judgements"]["1"]}
    assert unchanged_preview(state, 0) is None  # not asked


def test_each_robbers_preview_is_its_qiang_gang_payment() -> None:
    state = play(hand_record(ROBBED_BY_TWO, ROB_ACTIONS[:1]))
    assert state.phase == "rob" and sorted(waiting_on(state)) == [1, 3]
    nine = parse_tile("9p")
    for seat in (1, 3):
        preview = unchanged_preview(state, seat)
        assert preview is not None
        hand = [*state.hands[seat], nine]
        j = judge(hand, [], nine, state.indicator, WinContext(win_by="rob_gang"), Rules())
        assert (preview["score"], preview["judgement"]["name"]) == (j.score, j.name)
        assert preview["score"] == 24 and preview["judgement"]["breakdown"][-1]["label"] == "抢杠"
        # what the robbed player pays this robber
        result = declared(state, seat)
        assert [t["points"] for t in result["transfers"] if t["payee"] == seat] == [24]
    assert unchanged_preview(state, 2) is None  # its hand does not win on the 9p
    assert unchanged_preview(state, 0) is None  # the robbed player


def test_preview_of_the_second_robber_after_the_first_has_declared() -> None:
    state = play(hand_record(ROBBED_BY_TWO, ROB_ACTIONS[:2]))
    assert waiting_on(state) == [3]
    preview = unchanged_preview(state, 3)
    final = play(hand_record(ROBBED_BY_TWO, ROB_ACTIONS)).result
    assert final is not None
    assert preview == {"score": final["scores"]["3"], "judgement": final["judgements"]["3"]}
    assert unchanged_preview(state, 1) is None  # it has answered


def test_no_preview_without_a_win() -> None:
    state = play(hand_record(BAO_HANDS, []))
    assert waiting_on(state) == [0] and unchanged_preview(state, 0) is None  # no winning hand
    state, _ = apply(state, 0, Action("discard", tile=parse_tile("5z")))
    assert state.phase == "claim" and waiting_on(state) == [2]
    assert unchanged_preview(state, 2) is None  # a claim window: no 胡 on a discard
    ended = play(hand_record(HEAVENLY, [act(0, "hu")]))
    assert all(unchanged_preview(ended, s) is None for s in range(4))


@pytest.mark.parametrize(("rules", "seed"), [(Rules(), "p1"), (FAN, "p2"), (Rules(), "p3")])
def test_every_preview_in_played_hands_is_what_declaring_gives(rules: Rules, seed: str) -> None:
    """Bots play; wherever a seat may declare 胡 the preview matches declaring it, and
    wherever it may not there is no preview."""
    rng = random.Random(seed)
    previews = 0
    for hand in range(6):
        state = selfplay.play_hand(rules, hand % 4, f"{seed}:{hand}", ["basic"] * 4, rng)
        previews += play_back(state, rules)  # asking every seat at every step
    assert previews > 0


def play_back(end: HandState, rules: Rules) -> int:
    """Replay ``end`` from its deal, comparing each seat's preview with declaring; the number
    of previews found."""
    state = replay(rules, end.seed or 0, end.wall.dice, [], dealer=end.dealer)
    found = 0
    for seat, action in end.log:
        for s in range(4):
            can = any(a.type == "hu" for a in legal_actions(state, s))
            preview = hu_preview(seat_info(state, s))
            assert (preview is not None) == can
            if preview is not None:
                result = declared(state, s)
                assert preview["score"] == result["scores"][str(s)] > 0
                assert preview["judgement"] == result["judgements"][str(s)]
                found += 1
        state, _ = apply(state, seat, Action.from_json(action))
    assert state.result == end.result
    return found


def test_the_preview_is_a_copy() -> None:
    state = play(hand_record(HEAVENLY, []))
    info = seat_info(state, 0)
    preview = hu_preview(info)
    assert preview is not None
    preview["judgement"]["name"] = "changed"
    assert hu_preview(info) == unchanged_preview(state, 0) != preview
