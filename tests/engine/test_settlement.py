"""``engine.settlement``: who pays whom when a hand ends (§8, §9), always summing to zero.

The unit tests set up a dealt hand (indicator 7z, so the 宝 is 5z; see tests/engine/scripted.py)
and then give the seats the hands and melds a case needs: the payment functions read only the
melds, the concealed tiles, the 宝 flown and the rules.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.hand import HandState, new_hand
from engine.melds import Meld, parse_meld
from engine.rules import Rules
from engine.settlement import gang_payments, self_draw_payments, transfer
from engine.tiles import parse_tile, parse_tiles
from tests.engine.scripted import DICE, act, expect, hand_record, play, ring
from tests.engine.test_scripted_hands import ANGANG_DEALER, SEAT_2

FAN = Rules.profile_named("jiuyao_fan")

ROBBED_BY_TWO = {
    0: ANGANG_DEALER[0],  # 暗杠 9p on the first turn
    1: "1m2m3m4p5p6p7s8s9s3z3z7p8p",  # waits on 6p or 9p
    2: SEAT_2,  # wins on nothing
    3: "2m3m4m5m6m7m2p3p4p4z4z7p8p",  # waits on 6p or 9p
}
"""Both of the dealer's 下家 and 上家 may rob its 暗杠 of 9p (平胡 4 x 抢杠 6 = 24)."""
ROB_ACTIONS = [act(0, "gang", "9p", gang="angang"), act(1, "hu"), act(3, "hu")]
HEAVENLY = {0: "1m2m3m4p5p6p7s8s9s1z1z1z2z2z", 1: ANGANG_DEALER[1], 2: SEAT_2, 3: ANGANG_DEALER[3]}
"""The dealer's 14 tiles are complete: 天胡."""

Row = tuple[int, int, int, str]


def rows(transfers: list[dict[str, Any]]) -> list[Row]:
    return sorted((t["payer"], t["payee"], t["points"], t["reason"]) for t in transfers)


def net(transfers: list[dict[str, Any]]) -> list[int]:
    totals = [0, 0, 0, 0]
    for t in transfers:
        assert t["payer"] != t["payee"] and t["points"] > 0, t
        totals[t["payer"]] -= t["points"]
        totals[t["payee"]] += t["points"]
    assert sum(totals) == 0
    return totals


STANDARD = Rules()


def table(rules: Rules = STANDARD, flown: tuple[int, int, int, int] = (0, 0, 0, 0)) -> HandState:
    """A dealt hand with no melds; tests overwrite hands and melds."""
    wall = [parse_tile(t) for t in ring(ROBBED_BY_TWO, rules=rules)]
    s = new_hand(rules, 0, wall=wall, dice=DICE)
    assert (s.indicator, s.bao) == (parse_tile("7z"), parse_tile("5z"))
    s.flown = list(flown)
    return s


def melds(*texts: str, fed_by: int | None = None) -> list[Meld]:
    """Melds in ``kind:tiles`` notation, claimed from seat ``fed_by``."""
    return [Meld(m.kind, m.tiles, fed_by) for m in map(parse_meld, texts)]


# ---------------------------------------------------------------- 自摸


@pytest.mark.parametrize("winner", range(4))
def test_self_draw_every_other_seat_pays_the_score(winner: int) -> None:
    pays = self_draw_payments(table(), winner, 12)
    others = [(winner + i) % 4 for i in (1, 2, 3)]
    assert [t["payer"] for t in pays] == others  # in turn order after the winner
    assert rows(pays) == sorted((o, winner, 12, "self_draw") for o in others)
    assert net(pays)[winner] == 36


def test_fan_profile_each_flown_bao_of_a_payer_doubles_its_share() -> None:
    s = table(FAN, flown=(2, 0, 1, 3))  # the winner's own flown 宝 is in its score, not here
    assert rows(self_draw_payments(s, 0, 4)) == [
        (1, 0, 4, "self_draw"),
        (2, 0, 8, "self_draw"),
        (3, 0, 32, "self_draw"),
    ]


def test_standard_scoring_ignores_flown_bao_in_the_payments() -> None:
    s = table(flown=(0, 1, 2, 3))
    assert rows(self_draw_payments(s, 0, 4)) == [(o, 0, 4, "self_draw") for o in (1, 2, 3)]


def test_tian_di_pays_flat_even_after_flown_bao_in_the_fan_profile() -> None:
    s = table(FAN, flown=(0, 1, 2, 0))
    assert rows(self_draw_payments(s, 3, 16, flat=True)) == [
        (o, 3, 16, "self_draw") for o in (0, 1, 2)
    ]


@pytest.mark.parametrize("rules", [Rules(), FAN])
def test_heavenly_win_through_the_state_machine_pays_the_flat_points(rules: Rules) -> None:
    state = play(hand_record(HEAVENLY, [act(0, "hu")], rules=rules))
    points = rules.tian_di_points
    expect(
        state,
        winners=[0],
        scores={"0": points},
        transfers=[(o, 0, points, "self_draw") for o in (1, 2, 3)],
        totals=[3 * points, -points, -points, -points],
    )


# ---------------------------------------------------------------- 承包


def test_chengbao_three_melds_from_one_player_pays_everyones_share() -> None:
    s = table(FAN, flown=(0, 0, 0, 1))
    s.melds[2] = melds("peng:111z", "chi:123m", "minggang:9999s", fed_by=1)
    pays = self_draw_payments(s, 2, 8)
    # seat 1 pays its own share and the others'; seat 3's share keeps its flown 番
    assert rows(pays) == [(1, 2, 8, "chengbao"), (1, 2, 8, "self_draw"), (1, 2, 16, "chengbao")]
    assert net(pays) == [0, -32, 32, 0]


def test_chengbao_a_fourth_meld_from_another_player_pays_its_own_share() -> None:
    s = table(FAN)
    s.melds[0] = [
        *melds("peng:1z1z1z", "peng:2z2z2z", fed_by=3),
        *melds("chi:456p", fed_by=1),
        *melds("peng:3z3z3z", fed_by=3),
    ]
    assert rows(self_draw_payments(s, 0, 10)) == [
        (1, 0, 10, "self_draw"),  # the fourth feeder pays for itself
        (3, 0, 10, "chengbao"),  # seat 2's share
        (3, 0, 10, "self_draw"),
    ]


@pytest.mark.parametrize(
    "winner_melds",
    [
        melds("peng:111z", "peng:222z", fed_by=1) + melds("peng:333z", fed_by=2),  # two and one
        melds("peng:111z", "peng:222z", fed_by=1) + melds("angang:3333z"),  # a 暗杠 is fed by none
    ],
)
def test_no_chengbao_without_three_melds_from_one_player(winner_melds: list[Meld]) -> None:
    s = table(FAN)
    s.melds[0] = winner_melds
    assert rows(self_draw_payments(s, 0, 10)) == [(o, 0, 10, "self_draw") for o in (1, 2, 3)]


def test_chengbao_is_an_option() -> None:
    s = table(FAN.with_options(chengbao=False))
    s.melds[0] = melds("peng:111z", "peng:222z", "peng:333z", fed_by=1)
    assert rows(self_draw_payments(s, 0, 10)) == [(o, 0, 10, "self_draw") for o in (1, 2, 3)]


# ---------------------------------------------------------------- 抢杠


def test_robbed_player_pays_each_robber_and_nobody_else_pays() -> None:
    state = play(hand_record(ROBBED_BY_TWO, ROB_ACTIONS))
    expect(
        state,
        outcome="rob_gang",
        winners=[1, 3],
        robbed=0,
        scores={"1": 24, "3": 24},
        transfers=[(0, 1, 24, "qiang_gang"), (0, 3, 24, "qiang_gang")],  # the 暗杠 scores nothing
        totals=[-48, 24, 0, 24],
    )


def test_a_robber_who_passes_is_not_paid() -> None:
    actions = [*ROB_ACTIONS[:2], act(3, "pass")]
    state = play(hand_record(ROBBED_BY_TWO, actions))
    expect(state, winners=[1], transfers=[(0, 1, 24, "qiang_gang")], totals=[-24, 24, 0, 0])


# ---------------------------------------------------------------- gang points and 四宝


def from_everyone(payee: int, points: int, reason: str) -> list[Row]:
    return [(o, payee, points, reason) for o in range(4) if o != payee]


@pytest.mark.parametrize(
    ("meld", "reason", "points"),
    [
        ("minggang:4444m", "minggang", 1),
        ("bugang:4444m", "bugang", 1),
        ("angang:4444m", "angang", 2),
        ("liangbao:777z", "liangbao", 2),
        ("peng:777z", "peng_of_indicator", 1),  # a 碰 of the indicator's kind: no fourth exists
    ],
)
def test_each_gang_is_paid_by_the_three_others(meld: str, reason: str, points: int) -> None:
    s = table()
    s.melds[2] = [parse_meld(meld)]
    pays = gang_payments(s)
    assert rows(pays) == from_everyone(2, points, reason)
    assert net(pays) == [-points, -points, 3 * points, -points]


def test_plain_pengs_and_chis_score_nothing() -> None:
    s = table()
    s.melds[1] = melds("peng:666z", "chi:789s")  # 6z is not the indicator's kind
    assert gang_payments(s) == []


def test_a_concealed_triple_of_the_indicator_scores_as_an_angang() -> None:
    s = table()
    s.hands[3] = parse_tiles("777z123m456p789s1z")
    assert rows(gang_payments(s)) == from_everyone(3, 2, "concealed_indicator_triple")


def test_gang_point_options_set_the_values() -> None:
    s = table(Rules().with_options(minggang_points=3, angang_points=0, liangbao_gang_points=5))
    s.melds[0] = melds("minggang:1111m", "angang:2222m", "liangbao:777z")
    assert rows(gang_payments(s)) == sorted(
        from_everyone(0, 3, "minggang") + from_everyone(0, 5, "liangbao")
    )  # a value of 0 pays nothing


@pytest.mark.parametrize(
    ("hand", "meld_texts", "extra"),
    [
        ("5z5z5z5z1m2m3m4p5p", (), []),
        ("5z1m2m3m4p5p", ("peng:555z",), []),  # 宝 in a meld count too
        ("1m2m3m4p5p", ("angang:5555z",), from_everyone(1, 2, "angang")),
    ],
)
def test_sibao_all_four_bao_collect_from_everyone(
    hand: str, meld_texts: tuple[str, ...], extra: list[Row]
) -> None:
    s = table()
    s.hands[1] = parse_tiles(hand)
    s.melds[1] = melds(*meld_texts)
    assert rows(gang_payments(s)) == sorted(from_everyone(1, 10, "sibao") + extra)


def test_three_bao_are_no_sibao() -> None:
    s = table()
    s.hands[1] = parse_tiles("5z5z5z1m2m3m4p5p")
    assert gang_payments(s) == []


def test_a_robbed_chains_cancelled_gangs_score_nothing_but_others_do() -> None:
    s = table(FAN)
    s.melds[0] = melds("angang:9999p", "angang:1111s")
    s.melds[2] = melds("minggang:4444m", fed_by=1)
    cancelled = [parse_tile("9p")]
    assert rows(gang_payments(s, robbed=0, cancelled=cancelled)) == sorted(
        from_everyone(0, 2, "angang") + from_everyone(2, 1, "minggang")
    )
    # the same kinds on another seat are not the robbed chain
    assert len(gang_payments(s, robbed=2, cancelled=cancelled)) == 9


def test_a_robbed_bao_gang_keeps_its_sibao_points() -> None:
    s = table(FAN)
    s.hands[0] = parse_tiles("5z5z5z1m2m3m4p5p")  # the fourth 宝 went to the robber
    assert gang_payments(s, robbed=0) == []
    pays = gang_payments(s, robbed=0, bao_gang_robbed=True)
    assert rows(pays) == from_everyone(0, 10, "sibao")
    assert gang_payments(s, robbed=None, bao_gang_robbed=True) == []  # only for the robbed seat


def test_everything_at_once_sums_to_zero() -> None:
    s = table(FAN, flown=(1, 0, 2, 0))
    s.melds[0] = melds("peng:111z", "peng:222z", "chi:123m", fed_by=3)  # 承包 by seat 3
    s.melds[1] = melds("angang:4444m", "peng:777z")
    s.hands[2] = parse_tiles("5z5z5z5z7z7z7z1m")  # 四宝 and the indicator triple
    s.melds[3] = melds("bugang:9999s", fed_by=0)
    pays = self_draw_payments(s, 0, 6) + gang_payments(s)
    # seat 3 pays the shares of 1 (6), 2 (6 x 2^2 flown) and its own (6)
    win = [36, 0, 0, -36]
    gangs = [-3 - 12 - 1, 3 * 3 - 12 - 1, 3 * 12 - 3 - 1, 3 * 1 - 3 - 12]
    assert net(pays) == [w + g for w, g in zip(win, gangs, strict=True)]


def test_transfer_is_the_record_the_results_carry() -> None:
    assert transfer(3, 1, 7, "qiang_gang") == {
        "payer": 3,
        "payee": 1,
        "points": 7,
        "reason": "qiang_gang",
    }
