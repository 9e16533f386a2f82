"""Whole hands from explicit walls, through the replay format, with the real judge.

Each test deals the four hands, scripts the draws and the actions, and writes down the result
it must reach: winners, transfers (payer, payee, points, reason), totals and the next dealer.
The indicator is 7z (白), so the 宝 is 5z (中); see tests/deals.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.hand import IllegalAction, legal_actions
from engine.hand_log import check_record
from engine.judging.judge import WinContext, judge
from engine.rules import Rules
from engine.tiles import parse_tile, parse_tiles
from engine.views import seat_view
from tests.deals import (
    ANGANG_DEALER,
    BAO_HANDS,
    QUIET_2,
    QUIET_3,
    SEAT_2,
    SEAT_3,
    TAIL,
    TAIL_TILES,
    act,
    deal,
    expect,
    hand_record,
    play,
    play_out_discarding,
)


def self_draw(winner: int, points: int) -> list[tuple[int, int, int, str]]:
    return [(o, winner, points, "self_draw") for o in range(4) if o != winner]


def gang_points(ganger: int, points: int, reason: str) -> list[tuple[int, int, int, str]]:
    return [(o, ganger, points, reason) for o in range(4) if o != ganger]


def test_peng_beats_chi_on_the_same_discard_then_a_self_draw() -> None:
    hands = {
        0: "3m9m1p4p7p2s5s8s3z4z6z6z7s9p",
        1: "2m4m2p5p8p1s4s9s4z6z8m8p3s",  # 吃 3m with 24m
        2: "3m3m3p6p3s6s7p2p5m6m7m9m5p",  # 碰 3m
        3: "1m2m3m4p5p6p7s8s9s1z1z2z2z",  # waits on 1z or 2z
    }
    actions = [
        act(0, "discard", "3m"),
        act(1, "chi", "3m", tiles="24m"),  # answers first, and still loses to the 碰
        act(2, "peng", "3m"),
        act(2, "discard", "9m"),
        act(3, "hu"),
    ]
    state = play(hand_record(hands, actions, draws="1z"))
    assert [str(m) for m in state.melds[2]] == ["peng:333m"] and state.melds[1] == []
    assert state.hands[1] == sorted(parse_tiles(hands[1]))  # the 吃 tiles stayed in hand
    expect(
        state,
        outcome="self_draw",
        winners=[3],
        scores={"3": 4},  # 平胡 无宝; not 地胡, a 碰 came first
        transfers=self_draw(3, 4),
        totals=[-4, -4, -4, 12],
        next_dealer=3,
    )


def test_qiang_gang_one_robber_on_a_minggang() -> None:
    hands = {
        0: "3m9m1p4p7p2s5s8s3z4z6z6z7s9p",
        1: "9m2m2p5p8p1s4s9s4z6z8m8p3s",
        2: "3m3m3m3p6p3s6s7p2p6m7m9m5p",  # 明杠 on 3m
        3: "1m2m4p5p6p7s8s9s1z1z1z2z2z",  # waits on 3m
    }
    actions = [
        act(0, "discard", "3m"),
        act(2, "gang", "3m", gang="minggang"),
        act(3, "hu"),
    ]
    state = play(hand_record(hands, actions))
    assert state.melds[2] == []  # a robbed gang never lands
    expect(
        state,
        outcome="rob_gang",
        winners=[3],
        robbed=2,
        winning_tile="3m",
        scores={"3": 24},  # 平胡 4 x 抢杠 6; only the robbed player pays
        transfers=[(2, 3, 24, "qiang_gang")],
        totals=[0, 0, -24, 24],
        next_dealer=3,
    )


def test_qiang_gang_two_robbers_on_a_bugang() -> None:
    hands = {
        0: "9m1p4p7p2s5s8s3z4z6z6z7s9p3m",
        1: "4m5m4p5p6p7s8s9s1z1z1z2z2z",  # waits on 3m (and may 吃 it)
        2: "3m3m2p3p6p3s6s7p2p7m9m5p1p",  # 碰 3m, later draws the fourth
        3: "1m2m6p7p8p2s3s4s3z3z3z4z4z",  # waits on 3m
    }
    actions = [
        act(0, "discard", "3m"),
        act(1, "pass"),
        act(2, "peng", "3m"),
        act(2, "discard", "1p"),
        act(3, "discard", "9m"),
        act(0, "discard", "8m"),
        act(1, "discard", "1s"),
        act(2, "gang", "3m", gang="bugang"),
        act(3, "hu"),
        act(1, "hu"),
    ]
    state = play(hand_record(hands, actions, draws="9m8m1s3m"))
    assert [str(m) for m in state.melds[2]] == ["peng:333m"]  # the 补杠 never landed
    # The robbed 3m left seat 2 and joined the next dealer's hand only: four 3m in all.
    assert [h.count(parse_tile("3m")) for h in state.hands] == [0, 0, 0, 1]
    assert state.result is not None
    assert [parse_tiles(h).count(parse_tile("3m")) for h in state.result["hands"]] == [0, 0, 0, 1]
    expect(
        state,
        outcome="rob_gang",
        winners=[3, 1],
        robbed=2,
        scores={"1": 24, "3": 24},
        transfers=[(2, 1, 24, "qiang_gang"), (2, 3, 24, "qiang_gang")],
        totals=[0, 24, -48, 24],
        next_dealer=3,  # the robber first in turn order after the robbed seat 2, not seat 1
    )


def test_replacement_burns_the_upper_tile() -> None:
    actions = [
        act(0, "gang", "9p", gang="angang"),
        act(0, "discard", "9m"),  # the replacement was the lower tile, 9m
        act(1, "hu"),
    ]
    record = hand_record(ANGANG_DEALER, actions, draws="3z", tail=TAIL_TILES)
    state = play(record)
    assert state.wall.burned == [TAIL - 1]
    assert seat_view(state, 2)["burned"] == ["2z"]  # dead and face up for everyone
    expect(
        state,
        winners=[1],
        scores={"1": 4},
        transfers=self_draw(1, 4) + gang_points(0, 2, "angang"),
        totals=[2, 10, -6, -6],
        next_dealer=1,
    )


def test_single_tile_replacement_takes_the_upper_tile_and_burns_nothing() -> None:
    rules = Rules().with_options(replacement="single_tile")
    actions = [act(0, "gang", "9p", gang="angang"), act(0, "hu")]  # 2z: 杠上开花
    state = play(hand_record(ANGANG_DEALER, actions, tail=TAIL_TILES, rules=rules))
    assert state.wall.burned == []
    expect(
        state,
        winners=[0],
        winning_tile="2z",
        scores={"0": 8},  # 平胡 4 x 杠上开花 2
        transfers=self_draw(0, 8) + gang_points(0, 2, "angang"),
        totals=[30, -10, -10, -10],
        next_dealer=0,
    )


@pytest.mark.parametrize(
    ("draw_dealer", "next_dealer"),
    [("last_drawer", 3), ("next_seat", 2)],
)
def test_exhaustive_draw_and_the_next_dealer(draw_dealer: str, next_dealer: int) -> None:
    rules = Rules().with_options(draw_dealer=draw_dealer)
    hands = {
        1: "1m4m7m2p5p8p1s3s6s4z6z2m6m9p",  # the dealer
        2: "1m2m3m4p5p6p7s8s9s1z1z2z3z",
        0: QUIET_2,
        3: QUIET_3,
    }
    record = hand_record(hands, [], dealer=1, rules=rules)
    # Everyone throws what they draw and passes every claim: 82 live tiles, the dealer
    # starts with 14, so draw number 82 is seat (1 + 82) % 4 = 3's.
    record["actions"] = play_out_discarding(deal(hands, dealer=1, rules=rules))
    state = play(record)
    assert state.wall.live_count() == 0 and state.last_drawer == 3
    expect(
        state,
        outcome="draw",
        winners=[],
        transfers=[],
        totals=[0, 0, 0, 0],
        next_dealer=next_dealer,
    )


def test_liangbao_gang_with_the_drawn_tile_then_self_draw() -> None:
    hands = {
        0: "1m4m7m2p5p8p1s3s6s4z6z2m6m9p",
        1: "7z7z1m2m3m4p5p6p7s8s9s1z1z",  # two of the indicator's kind; draws the third
        2: QUIET_2,
        3: QUIET_3,
    }
    actions = [
        act(0, "discard", "9p"),
        act(1, "gang", "7z", gang="liangbao"),  # the drawn 7z goes into the meld
        act(1, "hu"),  # the 11 tiles left are complete: judged as they stand
    ]
    state = play(hand_record(hands, actions, draws="7z"))
    assert [str(m) for m in state.melds[1]] == ["liangbao:777z"]
    expect(
        state,
        winners=[1],
        winning_tile="7z",
        scores={"1": 4},  # 平胡 无宝; the 亮宝杠 is a meld, so no 地胡
        transfers=self_draw(1, 4) + gang_points(1, 2, "liangbao"),
        totals=[-6, 18, -6, -6],
        next_dealer=1,
    )


EARTHLY: dict[str, Any] = {
    "winners": [1],
    "scores": {"1": 16},
    "transfers": self_draw(1, 16),
    "totals": [-16, 48, -16, -16],
    "next_dealer": 1,
}


def test_flown_bao_not_claimable() -> None:
    rules = Rules().with_options(bao_discard_claimable=False)
    actions = [act(0, "discard", "5z"), act(1, "hu")]  # no claim window: seat 1 draws at once
    state = play(hand_record(BAO_HANDS, actions, draws="1z", rules=rules))
    assert state.flown == [1, 0, 0, 0]
    assert state.result is not None and state.result["judgements"]["1"]["name"] == "地胡"
    expect(state, **EARTHLY)


def test_flown_bao_claimable_by_default() -> None:
    without_answer = hand_record(BAO_HANDS, [act(0, "discard", "5z"), act(1, "hu")], draws="1z")
    with pytest.raises(IllegalAction, match="seat 1 is not asked"):
        play(without_answer)  # seat 2 holds 5z5z and is asked first
    actions = [act(0, "discard", "5z"), act(2, "pass"), act(1, "hu")]
    expect(play(hand_record(BAO_HANDS, actions, draws="1z")), **EARTHLY)


def test_chengbao_through_a_whole_hand() -> None:
    rules = Rules.profile_named("jiuyao_fan")
    hands = {
        0: "1m4m7m2p5p8p1s3s6s4z6z7z2m6m",
        1: "1z2z3z3m6m9m1p4p7p2s5s9s4z",  # feeds 1z, 2z and 3z
        2: "1z1z2z2z3z3z8s8s8s9s1m5p9p",  # 碰 all three, then draws 9s
        3: "2m5m8m3p6p9p4s7s6z7z4z3s6m",
    }
    actions = [
        act(0, "discard", "7z"),
        act(1, "discard", "1z"),
        act(2, "peng", "1z"),
        act(2, "discard", "1m"),
        act(3, "discard", "7p"),
        act(0, "discard", "9m"),
        act(1, "discard", "2z"),
        act(2, "peng", "2z"),
        act(2, "discard", "5p"),
        act(3, "discard", "8p"),
        act(0, "discard", "2s"),
        act(1, "discard", "3z"),
        act(2, "peng", "3z"),
        act(2, "discard", "9p"),
        act(3, "discard", "1p"),
        act(0, "discard", "9p"),
        act(1, "discard", "7m"),
        act(2, "hu"),
    ]
    state = play(hand_record(hands, actions, draws="5s7p9m6s8p2s7s1p9p7m9s", rules=rules))
    result = state.result
    assert result is not None
    assert result["judgements"]["2"]["name"] == "碰碰胡"
    score = result["scores"]["2"]
    assert score > 0
    # 三凑牌承包: seat 1 fed all three melds, so it pays every share.
    expect(
        state,
        winners=[2],
        transfers=[
            (1, 2, score, "self_draw"),
            (1, 2, score, "chengbao"),
            (1, 2, score, "chengbao"),
        ],
        totals=[0, -3 * score, 3 * score, 0],
        next_dealer=2,
    )
    # Without the option, each pays its own share.
    plain = rules.with_options(chengbao=False)
    state = play(hand_record(hands, actions, draws="5s7p9m6s8p2s7s1p9p7m9s", rules=plain))
    expect(state, transfers=self_draw(2, score), totals=[-score, -score, 3 * score, -score])


def test_a_written_result_that_differs_is_reported() -> None:
    hands = {
        0: "3m9m1p4p7p2s5s8s3z4z6z6z7s9p",
        1: "9m2m2p5p8p1s4s9s4z6z8m8p3s",
        2: "3m3m3m3p6p3s6s7p2p6m7m9m5p",
        3: "1m2m4p5p6p7s8s9s1z1z1z2z2z",
    }
    actions = [act(0, "discard", "3m"), act(2, "gang", "3m", gang="minggang"), act(3, "hu")]
    record = hand_record(hands, actions)
    record["result"] = dict(play(record).result or {}, next_dealer=2)
    assert check_record(record) == ["result.next_dealer: expected 2, got 3"]


# --- robbing a 暗杠, a 宝 gang and a chain (§4, §8, §9) -------------------------------------

LONE_BAO_PAIRS = "1m1m3m3m5p5p7p7p2z2z6z6z5z"  # six pairs and a 宝 (5z): wins on any tile
FAN = Rules.profile_named("jiuyao_fan")


def test_robbing_an_angang() -> None:
    hands = {0: ANGANG_DEALER[0], 1: "1m2m3m4p5p6p7s8s9s3z3z7p8p", 2: SEAT_2, 3: SEAT_3}
    state = play(hand_record(hands, [act(0, "gang", "9p", gang="angang"), act(1, "hu")]))
    assert state.melds[0] == []
    assert [h.count(parse_tile("9p")) for h in state.hands] == [3, 1, 0, 0]
    expect(
        state,
        outcome="rob_gang",
        winners=[1],
        robbed=0,
        scores={"1": 24},  # 平胡 4 x 抢杠 6
        transfers=[(0, 1, 24, "qiang_gang")],  # the robbed 暗杠 scores nothing
        next_dealer=1,
    )


@pytest.mark.parametrize(
    ("rules", "score", "sibao"),
    [(Rules(), 48, []), (FAN, 24, gang_points(0, 10, "sibao"))],  # 有宝七对 8 or 4, x 6
)
def test_robbing_an_angang_of_the_four_bao(
    rules: Rules, score: int, sibao: list[tuple[int, int, int, str]]
) -> None:
    hands = {
        0: "5z5z5z5z1s2s3s7s8s9s1z1z1z2z",
        1: "1m1m3m3m5p5p7p7p9s9s2z2z6z",  # wins on the robbed 宝, read as 6z
        2: SEAT_2,
        3: SEAT_3,
    }
    actions = [act(0, "gang", "5z", gang="angang"), act(1, "hu")]
    state = play(hand_record(hands, actions, rules=rules))
    assert [h.count(parse_tile("5z")) for h in state.hands] == [3, 1, 0, 0]
    # §8: the robbed gang scores nothing, not even 四宝; §9: a 宝 gang keeps its points
    expect(state, winners=[1], transfers=[(0, 1, score, "qiang_gang"), *sibao])


CHAIN_DEALER = "9p9p9p9p1s1s1s1s7s8s9s1z1z2z"  # 暗杠 9p, then 暗杠 1s on the replacement
CHAIN_TAIL = {TAIL: "2z", TAIL - 2: "2z"}  # the replacements: under the burned tile, then
# under the indicator (which stays)


def test_lian_yi_gang_through_the_state_machine() -> None:
    hands = {0: CHAIN_DEALER, 1: "1m2m3m4p5p6p7s8s9s3z3z4z4z", 2: SEAT_2, 3: SEAT_3}
    actions = [
        act(0, "gang", "9p", gang="angang"),
        act(0, "gang", "1s", gang="angang"),
        act(0, "hu"),  # 789s 11z 222z on the second replacement
    ]
    state = play(hand_record(hands, actions, tail=CHAIN_TAIL))
    result = state.result
    assert result is not None and result["judgements"]["0"]["breakdown"][-1]["label"] == "连一杠"
    expect(
        state,
        winners=[0],
        winning_tile="2z",
        scores={"0": 16},  # 平胡 4 x 连一杠 4
        transfers=self_draw(0, 16) + gang_points(0, 2, "angang") * 2,
        totals=[60, -20, -20, -20],
    )


ROBBED_CHAIN = [
    # the robber could have robbed the first 暗杠 (9p) too: a lone 宝 pairs any tile
    (LONE_BAO_PAIRS, [act(1, "pass")], Rules(), 48, True),  # 有宝七对 8 x 6
    (LONE_BAO_PAIRS, [act(1, "pass")], FAN, 24, False),  # 4 x 6; §9: 杠分全无
    # the robber wins on the 1s only (23s): the earlier 暗杠 keeps its points either way
    ("1m2m3m4p5p6p2z2z2s3s4z4z4z", [], Rules(), 24, True),  # 平胡 4 x 6
    ("1m2m3m4p5p6p2z2z2s3s4z4z4z", [], FAN, 12, True),  # 平胡 2 x 6
]


@pytest.mark.parametrize(("robber", "window", "rules", "score", "kept"), ROBBED_CHAIN)
def test_a_robbed_chain(
    robber: str, window: list[list[Any]], rules: Rules, score: int, kept: bool
) -> None:
    hands = {0: CHAIN_DEALER, 1: robber, 2: SEAT_2, 3: SEAT_3}
    actions = [
        act(0, "gang", "9p", gang="angang"),
        *window,  # the rob window of the 9p, if the robber's hand wins on it
        act(0, "gang", "1s", gang="angang"),
        act(1, "hu"),
    ]
    state = play(hand_record(hands, actions, tail={TAIL: "9m"}, rules=rules))
    assert [str(m) for m in state.melds[0]] == ["angang:9999p"]  # the first gang landed
    earlier = gang_points(0, 2, "angang") if kept else []
    expect(state, winners=[1], robbed=0, transfers=[(0, 1, score, "qiang_gang"), *earlier])


def test_earthly_is_flat_in_the_fan_profile_even_after_a_flown_bao() -> None:
    # §9's extra 番 from a flyer is not paid on 天胡/地胡: flat, nothing else counted
    actions = [act(0, "discard", "5z"), act(2, "pass"), act(1, "hu")]
    state = play(hand_record(BAO_HANDS, actions, draws="1z", rules=FAN))
    assert state.flown == [1, 0, 0, 0]
    expect(state, **EARTHLY)


def test_no_heavenly_win_on_the_dealers_replacement_draw() -> None:
    state = play(
        hand_record(
            ANGANG_DEALER, [act(0, "gang", "9p", gang="angang"), act(0, "hu")], tail={TAIL: "2z"}
        )
    )
    result = state.result
    assert result is not None and result["judgements"]["0"]["name"] == "平胡"
    expect(state, scores={"0": 8})  # 平胡 4 x 杠上开花 2, not 天胡


@pytest.mark.parametrize("x", ["6z", "9s"])
def test_no_bao_diao_after_the_drawn_tile_went_into_a_liangbao_gang(x: str) -> None:
    """The drawn 7z went into the 亮宝杠, so no drawn tile pairs the lone 宝 (5z): whichever
    tile sorts last, the hand is 有宝平胡 (2), too small to declare."""
    hands = {
        0: "1m4m7m2p5p8p1s3s6s4z6z2m6m9p",
        1: f"7z7z1m2m3m4p5p6p7s8s9s5z{x}",
        2: QUIET_2,
        3: QUIET_3,
    }
    actions = [act(0, "discard", "9p"), act(1, "gang", "7z", gang="liangbao")]
    state = play(hand_record(hands, actions, draws="7z"))
    assert [str(m) for m in state.melds[1]] == ["liangbao:777z"]
    assert all(a.type != "hu" for a in legal_actions(state, 1))


def test_a_robbed_flyer_pays_its_extra_fan_in_the_fan_profile() -> None:
    """§9: a player who flew 宝 and did not win pays one extra 番 per 宝, robbed or not."""
    fan = Rules.profile_named("jiuyao_fan")
    hands = {
        0: "9p9p9p5z1m4m7m2p5p8p1s3s6s4z",  # the dealer flies 5z, then 明杠s seat 1's 9p
        1: "9p2m5m8m3p6p1s4s7s2z3z6z7z",
        2: "1m2m3m4p5p6p7s8s9s1z1z7p8p",  # waits 6p/9p: robs the 9p
        3: "3m6m9m3s6s9s2z3z4z6z2m5m8m",
    }
    actions = [
        act(0, "discard", "5z"),
        act(1, "discard", "9p"),
        act(0, "gang", "9p", gang="minggang"),
        act(2, "pass"),  # the claim window on 9p: seat 2 lets the dealer have it
        act(2, "hu"),  # seat 1 threw the 9p: not asked in the 抢杠 window (§4)
    ]
    state = play(hand_record(hands, actions, draws="1z", rules=fan))
    assert state.result is not None and state.result["winners"] == [2]
    robbed = [t for t in state.result["transfers"] if t["reason"] == "qiang_gang"]
    score = state.result["scores"]["2"]
    assert [(t["payer"], t["payee"], t["points"]) for t in robbed] == [(0, 2, score * 2)]


# --- §4: the discarder may not rob the 明杠 of its own discard ------------------------------

DISCARDER_WAITS = {
    0: "1z4m7m2p5p8p1s3s6s4z6z2m6m9p",  # throws 1z
    1: "1z1z1m2m3m4p5p6p7s8s9s4z4z",  # 碰s it, must discard: throws 3m and waits on it
    2: "3m3m3m2z2z3z6m9m1p4p7p2s5s",  # 明杠s the 3m
    3: QUIET_3,
}
DISCARDER_ACTIONS = [
    act(0, "discard", "1z"),
    act(1, "peng", "1z"),
    act(1, "discard", "3m"),
    act(2, "gang", "3m", gang="minggang"),
]


def test_the_discarder_may_not_rob_the_minggang_of_its_discard() -> None:
    state = play(hand_record(DISCARDER_WAITS, DISCARDER_ACTIONS, tail={TAIL: "9m"}))
    three = parse_tile("3m")
    # Seat 1's hand wins with that 3m: another seat's gang of it, it could rob ...
    hand, melds = state.hands[1], state.melds[1]
    assert [str(m) for m in melds] == ["peng:111z"]
    rob = WinContext(win_by="rob_gang")
    assert judge([*hand, three], melds, three, state.indicator, rob, Rules()).win
    # ... but not this one: no 抢杠 window, the gang lands and seat 2 draws its replacement.
    assert state.phase == "turn" and state.turn == 2 and state.drawn == parse_tile("9m")
    assert str(state.melds[2][-1]) == "minggang:3333m" and state.melds[2][-1].claimed_from == 1
    assert three not in state.hands[1]


def test_a_log_where_the_discarder_robs_is_refused() -> None:
    record = hand_record(DISCARDER_WAITS, [*DISCARDER_ACTIONS, act(1, "hu")], tail={TAIL: "9m"})
    with pytest.raises(IllegalAction, match="seat 1 is not asked"):
        play(record)
