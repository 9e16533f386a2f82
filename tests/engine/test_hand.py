from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.win_check as win_check
from engine.actions import Action, ActionError
from engine.hand import (
    HandState,
    IllegalAction,
    abandon,
    apply,
    legal_actions,
    new_hand,
    waiting_on,
)
from engine.judge import WinContext
from engine.melds import Meld
from engine.replay import replay
from engine.rules import Rules
from engine.settlement import gang_payments, self_draw_payments
from engine.tiles import bao_of, counts_of, format_tile, parse_tile, parse_tiles
from engine.views import seat_view
from engine.wall import full_set, ring_from_draw_order
from engine.win_check import WinCheck

R = Rules()
DICE = (1, 1, 1, 1)  # break at the 下家's wall, 宝 indicator at draw position 132
INDICATOR = "7z"  # 宝 = 5z: the scripted hands hold no 5z

Pred = Callable[[Sequence[int], str, int, int], bool]


def fake_judge(pred: Pred, score: int = 8) -> Callable[..., WinCheck]:
    def judge(
        concealed: Sequence[int],
        melds: Sequence[Meld],
        winning_tile: int,
        indicator: int,
        rules: Rules,
        context: WinContext,
    ) -> WinCheck:
        win = pred(concealed, context.win_by, winning_tile, context.gang_draws)
        return WinCheck(win, score if win else 0, {"name": "fake", "score": score})

    return judge


NEVER = fake_judge(lambda c, by, t, g: False)
REAL_JUDGE = win_check.judge_win


@pytest.fixture(autouse=True)
def never_wins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(win_check, "judge_win", NEVER)
    yield


def scripted(
    hands: dict[int, str],
    draws: str = "",
    tail: str = "",
    rules: Rules = R,
    dealer: int = 0,
) -> HandState:
    """A hand whose four deals, next head draws and tail tiles (from the end) are given."""
    pool = counts_of(full_set())
    order: list[int | None] = [None] * 136
    hs = {s: parse_tiles(t) for s, t in hands.items()}
    pos = 0
    seats = [(dealer + i) % 4 for i in range(4)]
    for r in range(3):
        for s in seats:
            for t in hs[s][4 * r : 4 * r + 4]:
                order[pos] = t
                pos += 1
    for s in seats:
        order[pos] = hs[s][12]
        pos += 1
    order[pos] = hs[dealer][13]
    pos += 1
    for t in parse_tiles(draws):
        order[pos] = t
        pos += 1
    order[132] = parse_tile(INDICATOR)
    for i, t in enumerate(parse_tiles(tail)):
        order[135 - i] = t
    for slot in order:
        if slot is not None:
            pool[slot] -= 1
            assert pool[slot] >= 0, f"too many of kind {slot}"
    rest = [k for k in range(34) for _ in range(pool[k])]
    filled = [slot if slot is not None else rest.pop() for slot in order]
    ring = ring_from_draw_order(rules, filled, (DICE[0], DICE[1]))
    return new_hand(rules, dealer, wall=ring, dice=DICE)


HANDS = {
    0: "3m1p1p4p7p1s4s7s1z2z3z4z6z9p",
    1: "2m4m2p5p8p2s5s8s1z2z3z6z9s",
    2: "3m3m3p6p3s6s9s1z2z3z4z6z8m",
    3: "6m7m9m3p6p3s6s9s1z2z3z4z6z",
}


def act(kind: str, tile: str | None = None, **kw: Any) -> Action:
    return Action(kind, None if tile is None else parse_tile(tile), **kw)


def test_deal_sizes_and_order() -> None:
    s = scripted(HANDS)
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
    s = scripted(HANDS, draws="8p")
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
    s = scripted(HANDS)
    s, _ = apply(s, 0, act("discard", "3m"))
    s, _ = apply(s, 2, Action("pass"))
    s, _ = apply(s, 1, Action("chi", parse_tile("3m"), tiles=tuple(parse_tiles("24m"))))
    assert s.melds[1] == [Meld("chi", tuple(parse_tiles("234m")), 0)]
    assert s.turn == 1 and s.after_claim


def test_out_of_turn_and_stale_actions_change_nothing() -> None:
    s = scripted(HANDS)
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


def test_action_json() -> None:
    a = Action("gang", parse_tile("5z"), gang="liangbao")
    assert Action.from_json(json.loads(json.dumps(a.to_json()))) == a
    for bad in [
        None,
        {"type": "discard"},
        {"type": "discard", "tile": "8z"},
        {"type": "gang", "tile": "1m"},
    ]:
        with pytest.raises(ActionError):
            Action.from_json(bad)


def test_angang_replacement_and_gang_flower_self_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    hands = dict(HANDS)
    hands[0] = "1m1m1m1m1p1p4p7p1s4s7s1z2z3z"
    s = scripted(hands, tail="9m")
    ang = Action("gang", 0, gang="angang")
    assert ang in legal_actions(s, 0)
    s, _ = apply(s, 0, ang)
    assert s.melds[0] == [Meld("angang", (0, 0, 0, 0))]
    assert s.drawn == parse_tile("9m") and s.gang_draws == 1
    assert s.wall.burned == [134]
    nine = parse_tile("9m")
    monkeypatch.setattr(
        win_check,
        "judge_win",
        fake_judge(lambda c, by, t, g: by == "self_draw" and t == nine and g == 1),
    )
    assert Action("hu", nine) in legal_actions(s, 0)
    s, _ = apply(s, 0, Action("hu"))
    res = s.result
    assert res is not None and res["winners"] == [0] and res["next_dealer"] == 0
    assert sum(res["totals"]) == 0
    assert res["totals"] == [3 * 8 + 3 * 2, -10, -10, -10]
    assert waiting_on(s) == [] and legal_actions(s, 0) == []
    with pytest.raises(IllegalAction):
        apply(s, 0, act("discard", "9m"))


def test_declining_a_win_plays_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(win_check, "judge_win", fake_judge(lambda c, by, t, g: by == "self_draw"))
    s = scripted(HANDS)
    assert Action("hu") in legal_actions(s, 0)
    s, _ = apply(s, 0, act("discard", "1z"))
    assert s.phase == "turn" and s.turn == 1


def test_robbing_a_minggang_two_robbers(monkeypatch: pytest.MonkeyPatch) -> None:
    hands = dict(HANDS)
    hands[2] = "3m3m3m3p6p3s6s9s1z2z3z6z8m"
    s = scripted(hands)
    three = parse_tile("3m")
    monkeypatch.setattr(
        win_check, "judge_win", fake_judge(lambda c, by, t, g: by == "rob_gang" and t == three, 16)
    )
    s, _ = apply(s, 0, act("discard", "3m"))
    s, _ = apply(s, 1, Action("pass"))
    s, _ = apply(s, 2, Action("gang", three, gang="minggang"))
    assert s.phase == "rob" and waiting_on(s) == [3, 0, 1]
    s, _ = apply(s, 1, Action("hu"))
    s, _ = apply(s, 0, Action("pass"))
    s, _ = apply(s, 3, Action("hu"))
    res = s.result
    assert res is not None and sorted(res["winners"]) == [1, 3]
    assert res["robbed"] == 2 and res["next_dealer"] == 3
    assert s.melds[2] == []  # the robbed gang never lands and scores nothing
    assert res["totals"] == [0, 16, -32, 16]
    # the claimed 3m is the robbed tile: seat 2 keeps its three, the next dealer holds the fourth
    assert [h.count(three) for h in s.hands] == [0, 0, 3, 1] and _tile_total(s) == 136


def test_no_rob_window_without_qiang_gang(monkeypatch: pytest.MonkeyPatch) -> None:
    hands = dict(HANDS)
    hands[2] = "3m3m3m3p6p3s6s9s1z2z3z6z8m"
    rules = R.with_options(qiang_gang=False)
    s = scripted(hands, tail="9p", rules=rules)
    monkeypatch.setattr(win_check, "judge_win", fake_judge(lambda c, by, t, g: by == "rob_gang"))
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
    return 1 if p is not None and p["kind"] == "rob" and p["gang"] == "minggang" else 0


ALLOWED_VIEW = {
    "seat", "dealer", "turn", "phase", "dice", "indicator", "bao", "wall_left", "burned",
    "hand_sizes", "melds", "rivers", "flown", "waiting_on", "step", "result", "window",
    "hand", "drawn", "legal",
}  # fmt: skip


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), rnd=st.randoms(use_true_random=False), face_down=st.booleans())
def test_random_play_views_json_and_replay(seed: int, rnd: Any, face_down: bool) -> None:
    rules = R.with_options(angang_face_down=face_down, bugang_any_time=face_down)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(
            win_check,
            "judge_win",
            # every gang may be robbed (the robbers choose at random), so robs are common
            fake_judge(lambda c, by, t, g: by == "rob_gang" or sum(c) % 23 == 0, 4),
        )
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
                    assert (
                        v["hand"] == "".join(v["hand"])
                        and sorted(parse_tiles(v["hand"])) == s.hands[seat]
                    )
                assert v["result"] is None
            seat = rnd.choice(waiting_on(s))
            acts = legal_actions(s, seat)
            gangs = [a for a in acts if a.type == "gang"]
            pick = gangs if gangs and rnd.random() < 0.8 else acts  # gangs, to rob them
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
    s = scripted(hands)
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


def test_fan_profile_flyer_pays_one_more_fan(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Rules.profile_named("jiuyao_fan")
    hands = dict(HANDS)
    hands[1] = "2m4m2p5p8p2s5s8s1z2z3z6z5z"
    s = scripted(hands, draws="9p9m", rules=rules)
    nine = parse_tile("9m")
    monkeypatch.setattr(
        win_check, "judge_win", fake_judge(lambda c, by, t, g: by == "self_draw" and t == nine)
    )
    s, _ = apply(s, 0, act("discard", "1z"))
    s, events = apply(s, 1, act("discard", "5z"))
    assert s.flown == [0, 1, 0, 0] and events[0].get("flown_bao")
    assert seat_view(s, 3)["flown"] == [0, 1, 0, 0]
    s, _ = apply(s, 2, Action("hu"))
    assert s.result is not None
    assert s.result["totals"] == [-8, -16, 32, -8]
    assert s.result["next_dealer"] == 2


def test_chengbao_feeder_pays_the_shares() -> None:
    rules = Rules.profile_named("jiuyao_fan")
    s = scripted(HANDS, rules=rules)
    s.melds[2] = [Meld("peng", (k, k, k), 1) for k in (5, 6, 7)]
    pays = self_draw_payments(s, 2, 8)
    assert [(t["payer"], t["points"]) for t in pays] == [(1, 8), (1, 8), (1, 8)]
    s.melds[2].append(Meld("chi", (9, 10, 11), 0))
    pays = self_draw_payments(s, 2, 8)
    assert sorted((t["payer"], t["points"]) for t in pays) == [(0, 8), (1, 8), (1, 8)]


def test_sibao_holder_collects() -> None:
    hands = dict(HANDS)
    hands[3] = "5z5z5z5z9m3p6p3s6s9s1z2z3z"
    s = scripted(hands)
    s.hands[3].sort()
    end = _play_out(s, _discard_drawn)
    assert end.result is not None
    sibao = [t for t in end.result["transfers"] if t["reason"] == "sibao"]
    assert sorted(t["payer"] for t in sibao) == [0, 1, 2] and all(t["payee"] == 3 for t in sibao)


def test_heavenly_win_with_the_real_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    judge = pytest.importorskip("engine.judge")
    if not hasattr(judge, "judge"):
        pytest.skip("engine.judge not written yet")
    monkeypatch.undo()
    hands = dict(HANDS)
    hands[0] = "123m456m789p234s44z"
    s = scripted(hands)
    assert Action("hu") in legal_actions(s, 0)
    s, _ = apply(s, 0, Action("hu"))
    assert s.result is not None and s.result["winners"] == [0]
    assert s.result["scores"]["0"] == R.tian_di_points
    assert sum(s.result["totals"]) == 0


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6), rnd=st.randoms(use_true_random=False))
def test_random_play_with_the_real_judge(seed: int, rnd: Any) -> None:
    judge = pytest.importorskip("engine.judge")
    if not hasattr(judge, "judge"):
        pytest.skip("engine.judge not written yet")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(win_check, "judge_win", REAL_JUDGE)
        s = new_hand(R, dealer=0, seed=seed)
        while s.phase != "ended":
            seat = rnd.choice(waiting_on(s))
            acts = legal_actions(s, seat)
            wins = [a for a in acts if a.type == "hu"]
            s, _ = apply(s, seat, wins[0] if wins else rnd.choice(acts))
        assert s.result is not None and sum(s.result["totals"]) == 0
        json.dumps(s.to_json())


def test_match_deal_passing_and_json() -> None:
    from engine.match import Match, first_dealer

    m = Match(R, hands_total=2, seed="m1")
    assert first_dealer(R, "m1") == first_dealer(R, "m1")
    hi, rolls = first_dealer(R.with_options(first_dealer="highest_roll"), "m1")
    assert hi in range(4) and rolls
    h = m.start_hand("h1")
    h = _play_out(h, _discard_drawn)
    assert h.result is not None
    m.finish_hand(h.result)
    assert m.hand_no == 1 and m.dealer == h.result["next_dealer"]
    assert m.totals == h.result["totals"]
    assert Match.from_json(json.loads(json.dumps(m.to_json()))) == m
    m.finish_hand(h.result)
    assert m.over
    with pytest.raises(ValueError):
        m.start_hand()


def test_stale_step_is_refused() -> None:
    s = scripted(HANDS)
    s2, _ = apply(s, 0, act("discard", "3m"), step=0)
    with pytest.raises(IllegalAction, match="stale"):
        apply(s2, 1, Action("pass"), step=0)
    with pytest.raises(IllegalAction):
        apply(s2, 1, {"type": "pass"})  # type: ignore[arg-type]


@pytest.mark.parametrize("any_time", [False, True])
def test_bugang_with_the_drawn_tile_or_any_time(any_time: bool) -> None:
    rules = R.with_options(bugang_any_time=any_time)
    hands = dict(HANDS)
    hands[2] = "3m3m3p6p3s6s9s1z2z3z4z6z8m"
    hands[0] = "3m3m1p1p4p7p1s4s7s1z2z6z9p9m"  # the second 3m
    hands[1] = "2m4m2p5p8p2s5s8s1z2z3z6z9s"
    s = scripted(hands, draws="9p", rules=rules, tail="8s")
    s, _ = apply(s, 0, act("discard", "3m"))
    s, _ = apply(s, 1, Action("pass"))
    s, _ = apply(s, 2, act("peng", "3m"))
    s, _ = apply(s, 2, act("discard", "8m"))
    s, _ = apply(s, 3, Action("pass"))  # 吃 789m declined; seat 3 draws 9p
    s, _ = apply(s, 3, act("discard", "9p"))
    while s.phase == "claim":
        s, _ = apply(s, waiting_on(s)[0], Action("pass"))
    # Hand seat 2 the fourth 3m as if held from earlier, then as if just drawn.
    s.hands[2].append(2)
    s.hands[2].sort()
    s.turn, s.phase, s.drawn = 2, "turn", parse_tile("1m")
    bug = Action("gang", 2, gang="bugang")
    assert (bug in legal_actions(s, 2)) == any_time
    s.drawn = 2
    assert bug in legal_actions(s, 2)
    s, _ = apply(s, 2, bug)
    assert Meld("bugang", (2, 2, 2, 2), 0) in s.melds[2] and s.drawn == parse_tile("8s")


def test_earthly_and_heavenly_flags_reach_the_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[bool, bool]] = []

    def spy(*args: Any) -> WinCheck:
        context: WinContext = args[-1]
        seen.append((context.heavenly, context.earthly))
        return WinCheck(False, 0, {})

    monkeypatch.setattr(win_check, "judge_win", spy)
    s = scripted(HANDS)
    legal_actions(s, 0)
    assert seen == [(True, False)]
    s, _ = apply(s, 0, act("discard", "1z"))
    seen.clear()
    legal_actions(s, 1)
    assert seen == [(False, True)]


def test_replay_of_an_explicit_wall() -> None:
    s = scripted(HANDS, draws="8p")
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
    s = scripted(HANDS)
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


def test_no_heavenly_or_earthly_after_a_gang_a_claim_or_on_a_later_draw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[bool, bool]] = []

    def spy(*args: Any) -> WinCheck:
        context: WinContext = args[-1]
        seen.append((context.heavenly, context.earthly))
        return WinCheck(False, 0, {})

    monkeypatch.setattr(win_check, "judge_win", spy)

    def flags(s: HandState, seat: int) -> tuple[bool, bool]:
        win_check._JUDGED.clear()
        seen.clear()
        legal_actions(s, seat)
        return seen[-1]

    hands = dict(HANDS)
    hands[0] = "1m1m1m1m1p1p4p7p1s4s7s1z2z3z"
    s = scripted(hands, tail="9m")
    assert flags(s, 0) == (True, False)
    s, _ = apply(s, 0, Action("gang", 0, gang="angang"))
    assert flags(s, 0) == (False, False)  # the replacement is not the first 14 tiles
    s = scripted(HANDS)
    s, _ = apply(s, 0, act("discard", "3m"))
    s, _ = apply(s, 1, Action("pass"))
    s, _ = apply(s, 2, act("peng", "3m"))
    s, _ = apply(s, 2, act("discard", "8m"))
    while s.phase == "claim":
        s, _ = apply(s, waiting_on(s)[0], Action("pass"))
    assert s.turn == 3 and flags(s, 3) == (False, False)  # first draw, but after a 碰
    s = scripted(HANDS)
    for seat in (0, 1, 2, 3):
        s, _ = apply(s, seat, act("discard", format_tile(s.hands[seat][-1])))
        while s.phase == "claim":
            s, _ = apply(s, waiting_on(s)[0], Action("pass"))
    assert s.turn == 0 and flags(s, 0) == (False, False)  # the dealer's second turn
    s, _ = apply(s, 0, act("discard", format_tile(s.hands[0][-1])))
    while s.phase == "claim":
        s, _ = apply(s, waiting_on(s)[0], Action("pass"))
    assert s.turn == 1 and flags(s, 1) == (False, False)  # a second draw


def _gang_transfers(s: HandState) -> set[tuple[int, int, str]]:
    """(payee, points, reason) of the gang payments, each paid by all three others."""
    out = {(t["payee"], t["points"], t["reason"]) for t in gang_payments(s)}
    for payee, points, reason in out:
        payers = sorted(
            t["payer"] for t in gang_payments(s) if (t["payee"], t["reason"]) == (payee, reason)
        )
        assert payers == [o for o in range(4) if o != payee] and points > 0
    return out


@pytest.mark.parametrize(
    ("option", "reasons"),
    [
        ("minggang_points", {"minggang", "bugang", "peng_of_indicator"}),
        ("angang_points", {"angang", "concealed_indicator_triple"}),
        ("liangbao_gang_points", {"liangbao"}),
        ("sibao_points", {"sibao"}),
    ],
)
def test_gang_point_options(option: str, reasons: set[str]) -> None:
    seven, bao = parse_tile("7z"), bao_of(parse_tile("7z"))  # the indicator and the 宝 (5z)
    s = scripted(HANDS, rules=R.with_options(**{option: 7}))
    s.melds = [
        [Meld("minggang", (0,) * 4, 3), Meld("bugang", (9,) * 4, 3)],
        [Meld("angang", (bao,) * 4)],  # the four 宝, ganged: 暗杠 and 四宝
        [Meld("liangbao", (seven,) * 3)],
        [Meld("peng", (seven,) * 3, 0)],  # not a real deal: one meld of each kind to price
    ]
    s.hands[0] = [seven, seven, seven, 1]  # a concealed triple of the indicator's kind
    defaults = {"minggang": 1, "bugang": 1, "peng_of_indicator": 1, "angang": 2}
    defaults |= {"concealed_indicator_triple": 2, "liangbao": 2, "sibao": 10}
    seat_of = {"minggang": 0, "bugang": 0, "concealed_indicator_triple": 0, "angang": 1}
    seat_of |= {"sibao": 1, "liangbao": 2, "peng_of_indicator": 3}
    want = {(seat_of[r], 7 if r in reasons else v, r) for r, v in defaults.items()}
    assert _gang_transfers(s) == want


def test_a_peng_of_the_indicators_kind_scores_as_a_minggang() -> None:
    hands = dict(HANDS)
    hands[0] = "7z1m1p1p4p7p1s4s7s1z2z3z4z9p"  # throws the indicator's kind
    hands[1] = "7z7z4m2p5p8p2s5s8s1z2z3z9s"  # 碰s it: all three that can be held
    s = scripted(hands)
    s, _ = apply(s, 0, act("discard", "7z"))
    s, _ = apply(s, 1, act("peng", "7z"))
    end = _play_out(s, _discard_drawn)
    assert end.result is not None and end.result["outcome"] == "draw"
    assert _gang_transfers(end) == {(1, 1, "peng_of_indicator")}


def test_no_gang_when_no_tile_is_left_to_replace_it() -> None:
    hands = dict(HANDS)
    hands[0] = "1m1m1m1m3m1p4p7p1s4s7s1z2z3z"
    hands[2] = "3m3m3m3p6p3s6s9s1z2z3z6z8m"
    s = scripted(hands)
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


# The owner is 1, its 下家 2, 对家 3, 上家 4, the owner again 5 …: seats after the owner.
OWNER_ROLL_OFFSET = {2: 1, 3: 2, 4: 3, 5: 0, 6: 1, 7: 2, 8: 3, 9: 0, 10: 1, 11: 2, 12: 3}


def test_owner_roll_counts_seats_from_the_owner() -> None:
    from engine.match import Match, first_dealer

    seen: set[int] = set()
    for owner in range(4):
        for seed in range(60):
            dealer, rolls = first_dealer(R, seed, owner)
            assert len(rolls) == 1 and all(1 <= d <= 6 for d in rolls[0])
            total = sum(rolls[0])
            seen.add(total)
            assert dealer == (owner + OWNER_ROLL_OFFSET[total]) % 4, (owner, rolls)
        match = Match(R, seed="owner-roll", owner=owner)
        assert (match.dealer, match.first_rolls) == first_dealer(R, "owner-roll", owner)
    assert seen == set(OWNER_ROLL_OFFSET)  # every sum came up


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
