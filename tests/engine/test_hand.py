"""``engine.hand``: the transitions of one hand, with the real judge on written walls.

Deals come from tests/deals.py (indicator 7z, so the 宝 is 5z); the judgements checked here are
the ones the state machine really makes (:func:`engine.hand.hu_check`).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action
from engine.hand import (
    HandState,
    IllegalAction,
    abandon,
    apply,
    close_window,
    hu_check,
    is_stale,
    legal_actions,
    new_hand,
    view_step,
    waiting_on,
)
from engine.hand_log import replay
from engine.melds import Meld
from engine.rules import Rules
from engine.tiles import parse_tile, parse_tiles
from engine.views import seat_view
from tests.deals import (
    DICE,
    HEAVENLY,
    INDICATOR,
    QUIET_3,
    TAIL,
    deal,
)

R = Rules()

HANDS = {
    0: "3m1p1p4p7p1s4s7s1z2z3z4z6z9p",
    1: "2m4m2p5p8p2s5s8s1z2z3z6z9s",
    2: "3m3m3p6p3s6s9s1z2z3z4z6z8m",
    3: "6m7m9m3p6p3s6s9s1z2z3z4z6z",
}


def act(kind: str, tile: str | None = None, **kw: Any) -> Action:
    return Action(kind, None if tile is None else parse_tile(tile), **kw)


def hu_name(state: HandState, seat: int) -> str | None:
    """The name of the win ``seat`` may declare now, None if it may not."""
    check = hu_check(state, seat)
    return None if check is None else str(check.detail["name"])


def test_deal_sizes_and_order() -> None:
    s = deal(HANDS)
    assert [len(h) for h in s.hands] == [14, 13, 13, 13]
    for seat, text in HANDS.items():
        assert s.hands[seat] == sorted(parse_tiles(text))
    assert s.indicator == parse_tile(INDICATOR)
    assert s.wall.live_count() == 136 - 53 - 1
    assert waiting_on(s) == [0]
    seeded = new_hand(R, dealer=2, seed="x")
    assert [len(h) for h in seeded.hands] == [13, 13, 14, 13]
    assert seeded.turn == 2


def test_peng_beats_chi_when_both_answer() -> None:
    s = deal(HANDS, draws="8p")
    s, _ = apply(s, 0, act("discard", "3m"))
    assert s.phase == "claim" and waiting_on(s) == [1, 2]
    chi = Action("chi", parse_tile("3m"), tiles=tuple(parse_tiles("24m")))
    assert chi in legal_actions(s, 1)
    assert act("peng", "3m") in legal_actions(s, 2)
    s, _ = apply(s, 1, chi)
    s, _ = apply(s, 2, act("peng", "3m"))
    assert s.turn == 2 and s.phase == "turn"
    assert s.melds[2] == [Meld("peng", (2, 2, 2), 0)]
    assert s.melds[1] == [] and s.rivers[0] == []
    # After a claim the claimer only discards: no draw, no gang, no win.
    assert {a.type for a in legal_actions(s, 2)} == {"discard"}
    assert len(s.hands[2]) == 11
    s, _ = apply(s, 2, act("discard", "8m"))
    # Seat 3 could 吃 789m; once it passes it draws the scripted 8p.
    assert waiting_on(s) == [3]
    s, _ = apply(s, 3, Action("pass"))
    assert s.turn == 3 and s.drawn == parse_tile("8p")


def test_chi_wins_when_peng_passes() -> None:
    s = deal(HANDS)
    s, _ = apply(s, 0, act("discard", "3m"))
    s, _ = apply(s, 2, Action("pass"))
    s, _ = apply(s, 1, Action("chi", parse_tile("3m"), tiles=tuple(parse_tiles("24m"))))
    assert s.melds[1] == [Meld("chi", tuple(parse_tiles("234m")), 0)]
    assert s.turn == 1 and s.after_claim


def test_out_of_turn_and_stale_actions_change_nothing() -> None:
    s = deal(HANDS)
    before = copy.deepcopy(s)
    with pytest.raises(IllegalAction):
        apply(s, 1, act("discard", "2m"))
    with pytest.raises(IllegalAction):
        apply(s, 0, act("discard", "5m"))  # not in hand
    with pytest.raises(IllegalAction):
        apply(s, 0, act("peng", "1p"))
    assert s == before and s.to_json() == before.to_json()
    s2, _ = apply(s, 0, act("discard", "3m"))
    assert s == before  # the input state is never changed
    s3, _ = apply(s2, 1, Action("pass"))
    snap = s3.to_json()
    for seat, a in [(1, Action("pass")), (0, act("discard", "1p")), (3, Action("pass"))]:
        with pytest.raises(IllegalAction):
            apply(s3, seat, a)
    assert s3.to_json() == snap


def test_angang_replacement_and_gang_flower_self_draw() -> None:
    hands = dict(HANDS)
    hands[0] = "1m1m1m1m1p2p3p4p5p6p7s8s5m5m"
    s = deal(hands, tail={TAIL: "9s"})
    ang = Action("gang", 0, gang="angang")
    assert ang in legal_actions(s, 0) and hu_check(s, 0) is None
    s, _ = apply(s, 0, ang)
    assert s.melds[0] == [Meld("angang", (0, 0, 0, 0))]
    nine = parse_tile("9s")
    assert s.drawn == nine and s.gang_draws == 1
    assert s.wall.burned == [TAIL - 1]
    assert Action("hu", nine) in legal_actions(s, 0)
    s, _ = apply(s, 0, Action("hu"))
    res = s.result
    assert res is not None and res["winners"] == [0] and res["next_dealer"] == 0
    assert res["scores"] == {"0": 8}  # 平胡 4 x 杠上开花 2
    assert res["totals"] == [3 * 8 + 3 * 2, -10, -10, -10]
    assert waiting_on(s) == [] and legal_actions(s, 0) == []
    with pytest.raises(IllegalAction):
        apply(s, 0, act("discard", "9s"))


def test_declining_a_win_plays_on() -> None:
    s = deal(HEAVENLY)
    assert Action("hu") in legal_actions(s, 0) and hu_name(s, 0) == "天胡"
    s, _ = apply(s, 0, act("discard", "2z"))
    assert s.phase == "turn" and s.turn == 1 and s.result is None


ROBBED_MINGGANG = {
    0: "3m9m1p4p7p2s5s8s3z4z6z6z7s9p",  # discards 3m
    1: "1m2m4p5p6p7s8s9s1z1z1z2z2z",  # waits on 3m (and may 吃 it)
    2: "3m3m3m3p6p3s6s7p2p6m7m9m5p",  # 明杠 on 3m
    3: "4m5m4p5p6p7s8s9s3z3z3z4z4z",  # waits on 3m or 6m
}


def test_robbing_a_minggang_two_robbers() -> None:
    s = deal(ROBBED_MINGGANG)
    three = parse_tile("3m")
    s, _ = apply(s, 0, act("discard", "3m"))
    assert waiting_on(s) == [1, 2]
    s, _ = apply(s, 1, Action("pass"))
    s, _ = apply(s, 2, Action("gang", three, gang="minggang"))
    assert s.phase == "rob" and waiting_on(s) == [3, 1]
    assert legal_actions(s, 3) == [Action("hu", three), Action("pass")]
    s, _ = apply(s, 1, Action("hu"))
    s, _ = apply(s, 3, Action("hu"))
    res = s.result
    assert res is not None and res["winners"] == [3, 1]
    assert res["robbed"] == 2 and res["next_dealer"] == 3
    assert s.melds[2] == []  # the robbed gang never lands and scores nothing
    assert res["scores"] == {"1": 24, "3": 24}  # 平胡 4 x 抢杠 6
    assert res["totals"] == [0, 24, -48, 24]
    # the claimed 3m is the robbed tile: seat 2 keeps its three, the next dealer holds the fourth
    assert [h.count(three) for h in s.hands] == [0, 0, 3, 1] and _tile_total(s) == 136


def test_no_rob_window_without_qiang_gang() -> None:
    rules = R.with_options(qiang_gang=False)
    s = deal(ROBBED_MINGGANG, tail={TAIL: "9p"}, rules=rules)
    s, _ = apply(s, 0, act("discard", "3m"))
    s, _ = apply(s, 1, Action("pass"))
    s, _ = apply(s, 2, Action("gang", parse_tile("3m"), gang="minggang"))
    assert s.phase == "turn" and s.turn == 2 and s.drawn == parse_tile("9p")
    assert s.melds[2] == [Meld("minggang", (2, 2, 2, 2), 0)]


def _play_out(s: HandState, choose: Callable[[list[Action]], Action]) -> HandState:
    while s.phase != "ended":
        seat = waiting_on(s)[0]
        s, _ = apply(s, seat, choose(legal_actions(s, seat)))
    return s


def _discard_drawn(acts: list[Action]) -> Action:
    passes = [a for a in acts if a.type == "pass"]
    return passes[0] if passes else next(a for a in acts if a.type == "discard")


@pytest.mark.parametrize("draw_dealer", ["last_drawer", "next_seat"])
def test_exhaustive_draw_and_next_dealer(draw_dealer: str) -> None:
    rules = R.with_options(draw_dealer=draw_dealer)
    s = _play_out(new_hand(rules, dealer=1, seed=5), _discard_drawn)
    res = s.result
    assert res is not None and res["outcome"] == "draw" and res["winners"] == []
    assert s.wall.live_count() == 0
    want = s.last_drawer if draw_dealer == "last_drawer" else 2
    assert res["next_dealer"] == want
    assert sum(res["totals"]) == 0


def _tile_total(s: HandState) -> int:
    w = s.wall
    return (
        sum(len(h) for h in s.hands)
        + sum(len(m.tiles) for ms in s.melds for m in ms)
        + sum(len(r) for r in s.rivers)
        + w.live_count()
        + len(w.burned)
        + 1
        + _tile_in_rob_window(s)
    )


def _tile_in_rob_window(s: HandState) -> int:
    # A claimed 明杠 tile has left the river but joins the meld only when the rob window closes.
    p = s.pending
    return 1 if p is not None and p.kind == "rob" and p.gang == "minggang" else 0


ALLOWED_VIEW = {
    "seat", "dealer", "turn", "phase", "dice", "indicator", "bao", "wall_left", "burned",
    "hand_sizes", "melds", "rivers", "flown", "waiting_on", "step", "result", "window",
    "hand", "drawn", "legal",
}  # fmt: skip


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), rnd=st.randoms(use_true_random=False), face_down=st.booleans())
def test_random_play_views_json_and_replay(seed: int, rnd: Any, face_down: bool) -> None:
    rules = R.with_options(angang_face_down=face_down, bugang_any_time=face_down)
    tag = f"seed-{seed}"
    s = new_hand(rules, dealer=seed % 4, seed=tag)
    while s.phase != "ended":
        assert _tile_total(s) == 136
        for seat in (None, 0, 1, 2, 3):
            v = seat_view(s, seat)
            text = json.dumps(v, ensure_ascii=False)
            assert tag not in text
            assert set(v) <= ALLOWED_VIEW
            if seat is None:
                assert "hand" not in v
            else:
                assert sorted(parse_tiles(v["hand"])) == s.hands[seat]
            assert v["result"] is None
        seat = rnd.choice(waiting_on(s))
        acts = legal_actions(s, seat)
        wins = [a for a in acts if a.type == "hu"]
        gangs = [a for a in acts if a.type == "gang"]
        if wins and rnd.random() < 0.5:
            pick = wins
        else:
            pick = gangs if gangs and rnd.random() < 0.8 else acts  # gangs, to be robbed
        s, events = apply(s, seat, rnd.choice(pick))
        json.dumps(events)
    assert s.result is not None and sum(s.result["totals"]) == 0
    assert _tile_total(s) == 136  # the ended state too: a robbed tile is held once
    assert [parse_tiles(h) for h in s.result["hands"]] == s.hands
    back = HandState.from_json(json.loads(json.dumps(s.to_json())))
    assert back == s
    again = replay(rules, tag, None, s.log, dealer=seed % 4)
    assert again == s


def test_liangbao_scores_without_replacement_and_undeclared_triple_scores_too() -> None:
    hands = dict(HANDS)
    hands[0] = "7z7z7z1p1p4p7p1s4s7s1z2z3z9p"
    s = deal(hands)
    seven = parse_tile("7z")
    lb = Action("gang", seven, gang="liangbao")
    assert lb in legal_actions(s, 0)
    live = s.wall.live_count()
    declared, _ = apply(s, 0, lb)
    assert declared.melds[0] == [Meld("liangbao", (seven,) * 3)]
    assert declared.wall.live_count() == live and declared.turn == 0
    assert len(declared.hands[0]) == 11
    assert {a.type for a in legal_actions(declared, 0)} == {"discard"}
    for start, reason in [(declared, "liangbao"), (s, "concealed_indicator_triple")]:
        end = _play_out(start, _discard_drawn)
        assert end.result is not None
        gang = [t for t in end.result["transfers"] if t["reason"] == reason]
        assert {(t["payer"], t["payee"], t["points"]) for t in gang} == {
            (1, 0, 2),
            (2, 0, 2),
            (3, 0, 2),
        }
        assert sum(end.result["totals"]) == 0


def test_fan_profile_flyer_pays_one_more_fan() -> None:
    rules = Rules.profile_named("jiuyao_fan")
    hands = {
        0: "3m1m4m7m2p5p8p1s3s6s4z6z2m6m",  # discards 3m
        1: "4m5m5z3z6z9m1p4p7p2s5s9s4z",  # 吃 3m with 45m, then flies its 宝 (5z)
        2: "1m2m3m4p5p6p7s8s9s3z3z7m8m",  # draws 9m: 平胡, its first draw but after a 吃
        3: QUIET_3,
    }
    s = deal(hands, draws="9m", rules=rules)
    s, _ = apply(s, 0, act("discard", "3m"))
    s, _ = apply(s, 1, Action("chi", parse_tile("3m"), tiles=tuple(parse_tiles("45m"))))
    s, events = apply(s, 1, act("discard", "5z"))
    assert s.flown == [0, 1, 0, 0] and events[0].get("flown_bao")
    assert seat_view(s, 3)["flown"] == [0, 1, 0, 0]
    assert s.turn == 2 and hu_name(s, 2) == "平胡"  # not 地胡: a 吃 came first
    s, _ = apply(s, 2, Action("hu"))
    assert s.result is not None
    x = s.result["scores"]["2"]
    assert s.result["totals"] == [-x, -2 * x, 4 * x, -x]  # the flyer pays one 番 more
    assert s.result["next_dealer"] == 2


def test_sibao_holder_collects() -> None:
    hands = dict(HANDS)
    hands[3] = "5z5z5z5z9m3p6p3s6s9s1z2z3z"
    s = deal(hands)
    s.hands[3].sort()
    end = _play_out(s, _discard_drawn)
    assert end.result is not None
    sibao = [t for t in end.result["transfers"] if t["reason"] == "sibao"]
    assert sorted(t["payer"] for t in sibao) == [0, 1, 2] and all(t["payee"] == 3 for t in sibao)


def test_heavenly_win() -> None:
    s = deal(HEAVENLY)
    assert Action("hu") in legal_actions(s, 0)
    s, _ = apply(s, 0, Action("hu"))
    assert s.result is not None and s.result["winners"] == [0]
    assert s.result["scores"]["0"] == R.tian_di_points
    assert s.result["judgements"]["0"]["name"] == "天胡"
    assert sum(s.result["totals"]) == 0


def test_stale_step_is_refused() -> None:
    s = deal(HANDS)
    s2, _ = apply(s, 0, act("discard", "3m"), step=0)
    with pytest.raises(IllegalAction, match="stale"):
        apply(s2, 1, Action("pass"), step=0)
    with pytest.raises(IllegalAction):
        apply(s2, 1, {"type": "pass"})  # type: ignore[arg-type]


def test_answers_made_on_the_window_as_it_opened_are_all_taken() -> None:
    """Seat 1 may 吃 the 3m and seat 2 may 碰 it. Both answer on the view the window opened
    with, in either order, as two people pressing at the same moment do: neither is stale."""
    for first, second in ((1, 2), (2, 1)):
        s, _ = apply(deal(HANDS), 0, act("discard", "3m"))
        opened = view_step(s)
        assert opened == s.step and sorted(waiting_on(s)) == [1, 2]
        s, _ = apply(s, first, Action("pass"), step=opened)
        assert s.step == opened + 1 and view_step(s) == opened
        assert not is_stale(s, opened) and is_stale(s, opened - 1)
        s, _ = apply(s, second, Action("pass"), step=opened)
        assert s.phase == "turn" and s.turn == 1 and view_step(s) == s.step == opened + 2


def test_a_step_from_before_the_window_is_still_stale() -> None:
    s, _ = apply(deal(HANDS), 0, act("discard", "3m"))
    with pytest.raises(IllegalAction, match="stale"):
        apply(s, 2, Action("pass"), step=s.step - 1)
    s, _ = apply(s, 1, Action("pass"), step=s.step)
    with pytest.raises(IllegalAction, match="stale"):
        apply(s, 2, Action("pass"), step=s.step + 1)  # a step no view has shown


@pytest.mark.parametrize("any_time", [False, True])
@pytest.mark.parametrize(
    ("seat_2", "fourth"),
    [(HANDS[2], "3m"), ("3m3m3m3p6p3s6s9s1z2z3z4z8m", "7z")],  # the 3m drawn, or held
)
def test_bugang_with_the_drawn_tile_or_any_time(any_time: bool, seat_2: str, fourth: str) -> None:
    """Seat 2 碰s the dealer's 3m, and on its next turn holds the fourth: just drawn, or held
    from the start (then it draws a 7z)."""
    rules = R.with_options(bugang_any_time=any_time)
    s = deal({**HANDS, 2: seat_2}, draws=f"9p7z7z{fourth}", rules=rules, tail={TAIL: "8s"})
    s, _ = apply(s, 0, act("discard", "3m"))
    s, _ = apply(s, 1, Action("pass"))
    s, _ = apply(s, 2, act("peng", "3m"))
    s, _ = apply(s, 2, act("discard", "8m"))
    while s.turn != 2 or s.phase != "turn":
        seat = waiting_on(s)[0]
        pass_ = s.phase == "claim"
        s, _ = apply(s, seat, Action("pass") if pass_ else Action("discard", s.drawn))
    assert s.drawn == parse_tile(fourth)
    bug = Action("gang", 2, gang="bugang")
    assert (bug in legal_actions(s, 2)) == (any_time or fourth == "3m")
    if bug in legal_actions(s, 2):
        s, _ = apply(s, 2, bug)
        assert Meld("bugang", (2, 2, 2, 2), 0) in s.melds[2] and s.drawn == parse_tile("8s")


def test_heavenly_and_earthly_only_on_the_first_go_around() -> None:
    """The dealer declines 天胡 and seat 1 地胡 (a drawn 宝 makes it); the same hands win again
    on the dealer's second turn and seat 1's second draw, as plain wins."""
    s = deal(HEAVENLY, draws="5z5z5z2z3z")
    assert hu_name(s, 0) == "天胡"
    s, _ = apply(s, 0, act("discard", "2z"))
    assert s.turn == 1 and hu_name(s, 1) == "地胡"
    for seat in (1, 2, 3):
        s, _ = apply(s, seat, act("discard", "5z"))  # each draws a 宝 and flies it
    assert s.turn == 0 and s.drawn == parse_tile("2z")
    assert hu_name(s, 0) == "平胡"  # the dealer's second turn
    s, _ = apply(s, 0, act("discard", "2z"))
    assert s.turn == 1 and s.drawn == parse_tile("3z")
    assert hu_name(s, 1) == "平胡"  # seat 1's second draw


def test_replay_of_an_explicit_wall() -> None:
    s = deal(HANDS, draws="8p")
    for seat, a in [
        (0, act("discard", "3m")),
        (1, Action("pass")),
        (2, act("peng", "3m")),
        (2, act("discard", "8m")),
        (3, Action("pass")),
    ]:
        s, _ = apply(s, seat, a)
    again = replay(R, list(s.wall.ring), DICE, s.log)
    assert again == s
    assert HandState.from_json(json.loads(json.dumps(s.to_json()))) == s


def test_plain_discards_and_passes_match_the_listed_actions() -> None:
    s = deal(HANDS)
    with pytest.raises(IllegalAction):
        apply(s, 0, Action("discard", parse_tile("3m"), tiles=(1, 2)))
    with pytest.raises(IllegalAction):
        apply(s, 0, Action("discard", parse_tile("3m"), gang="angang"))
    s, _ = apply(s, 0, act("discard", "3m"))
    assert s.log[-1] == [0, {"type": "discard", "tile": "3m"}]
    with pytest.raises(IllegalAction):
        apply(s, 1, act("discard", "2m"))  # a claim window: discards are not asked for
    s, _ = apply(s, 1, Action("pass", parse_tile("9m")))  # a pass names no tile: ignored
    assert s.log[-1] == [1, {"type": "pass"}]


def test_a_peng_of_the_indicators_kind_scores_as_a_minggang() -> None:
    hands = dict(HANDS)
    hands[0] = "7z1m1p1p4p7p1s4s7s1z2z3z4z9p"  # throws the indicator's kind
    hands[1] = "7z7z4m2p5p8p2s5s8s1z2z3z9s"  # 碰s it: all three that can be held
    s = deal(hands)
    s, _ = apply(s, 0, act("discard", "7z"))
    s, _ = apply(s, 1, act("peng", "7z"))
    end = _play_out(s, _discard_drawn)
    assert end.result is not None and end.result["outcome"] == "draw"
    assert end.result["transfers"] == [
        {"payer": o, "payee": 1, "points": 1, "reason": "peng_of_indicator"} for o in (0, 2, 3)
    ]


def test_no_gang_when_no_tile_is_left_to_replace_it() -> None:
    hands = dict(HANDS)
    hands[0] = "1m1m1m1m3m1p4p7p1s4s7s1z2z3z"
    hands[2] = "3m3m3m3p6p3s6s9s1z2z3z6z8m"
    s = deal(hands)
    angang = Action("gang", 0, gang="angang")
    minggang = Action("gang", parse_tile("3m"), gang="minggang")
    assert angang in legal_actions(s, 0)
    s, _ = apply(s, 0, act("discard", "3m"))
    assert minggang in legal_actions(s, 2)
    while s.wall.live_count():  # as if this discard came after the last draw
        s.wall.draw()
    assert minggang not in legal_actions(s, 2) and act("peng", "3m") in legal_actions(s, 2)
    s.turn, s.phase, s.pending = 0, "turn", None
    s.hands[0].append(parse_tile("3m"))
    assert angang not in legal_actions(s, 0)  # nor a 暗杠 on one's turn


def test_an_abandoned_hand_is_a_draw_nobody_pays_and_the_state_is_kept() -> None:
    state = new_hand(R, dealer=2, seed="abandon")
    before = state.to_json()
    ended = abandon(state)
    assert state.to_json() == before  # the input is never changed
    assert ended.phase == "ended" and ended.result is not None
    assert ended.result["outcome"] == "draw" and ended.result["winners"] == []
    assert ended.result["transfers"] == [] and ended.result["totals"] == [0, 0, 0, 0]
    with pytest.raises(IllegalAction, match="over"):
        abandon(ended)


# The owner is 1, its 下家 2, 对家 3, 上家 4, the owner again 5 …: seats after the owner.


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_held_windows_open_after_every_discard_and_end_the_hand_the_same(seed: int) -> None:
    """``hold``: a window after every discard, open until :func:`close_window`; the log then
    replays without holding to the same end."""
    state = new_hand(Rules(), dealer=0, seed=seed)
    discards = windows = 0
    while state.phase != "ended":
        asked = waiting_on(state)
        if not asked:
            assert state.phase in ("claim", "rob")
            state, _events = close_window(state)
            continue
        seat = asked[0]
        legal = legal_actions(state, seat)
        # Claim whatever may be claimed, so windows with answers are held too.
        action = next((a for a in legal if a.type in ("hu", "peng", "chi")), legal[0])
        was_turn = state.phase == "turn"
        state, _events = apply(state, seat, action, hold=True)
        if was_turn and action.type == "discard":
            discards += 1
            windows += state.phase == "claim"
    assert discards > 5 and windows == discards
    again = replay(Rules(), seed, None, state.log, dealer=0)
    assert again.result == state.result and again.step == state.step


def test_close_window_refuses_when_a_seat_is_still_asked_or_there_is_none() -> None:
    state = new_hand(Rules(), dealer=0, seed=1)
    with pytest.raises(IllegalAction):
        close_window(state)  # a turn, not a window
