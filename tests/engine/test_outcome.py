"""``engine.outcome``: who pays whom when a hand ends (§8, §9), always summing to zero, and the
result's JSON.

The unit tests give the seats the concealed tiles and melds a case needs (indicator 7z, so the 宝
is 5z): the payment functions read only those, the 宝 flown and the rules. Whole hands come
from tests/deals.py.
"""

from __future__ import annotations

import pytest

from engine.judging.win_check import WinCheck
from engine.melds import Meld, parse_meld
from engine.outcome import HandEnd, Payment, gang_payments, self_draw_payments, settle
from engine.rules import Rules
from engine.tiles import parse_tile, parse_tiles
from tests.deals import HEAVENLY, ROB_ACTIONS, ROBBED_BY_TWO, act, expect, hand_record, play

FAN = Rules.profile_named("jiuyao_fan")

Row = tuple[int, int, int, str]


def rows(payments: list[Payment]) -> list[Row]:
    return sorted((t.payer, t.payee, t.points, t.reason) for t in payments)


def net(payments: list[Payment]) -> list[int]:
    totals = [0, 0, 0, 0]
    for t in payments:
        assert t.payer != t.payee and t.points > 0, t
        totals[t.payer] -= t.points
        totals[t.payee] += t.points
    assert sum(totals) == 0
    return totals


STANDARD = Rules()


def table(
    rules: Rules = STANDARD,
    flown: tuple[int, int, int, int] = (0, 0, 0, 0),
    *,
    hands: dict[int, str] | None = None,
    melds: dict[int, list[Meld]] | None = None,
    last_drawer: int = 0,
) -> HandEnd:
    """A hand as it ends: indicator 7z (宝 5z), dealer 0; the given tiles and melds, none else."""
    hands, melds = hands or {}, melds or {}
    return HandEnd(
        rules=rules,
        dealer=0,
        indicator=parse_tile("7z"),
        hands=[parse_tiles(hands.get(p, "")) for p in range(4)],
        melds=[melds.get(p, []) for p in range(4)],
        flown=flown,
        last_drawer=last_drawer,
    )


def melds(*texts: str, fed_by: int | None = None) -> list[Meld]:
    """Melds in ``kind:tiles`` notation, claimed from seat ``fed_by``."""
    return [Meld(m.kind, m.tiles, fed_by) for m in map(parse_meld, texts)]


# ---------------------------------------------------------------- 自摸


@pytest.mark.parametrize("winner", range(4))
def test_self_draw_every_other_seat_pays_the_score(winner: int) -> None:
    pays = self_draw_payments(table(), winner, 12)
    others = [(winner + i) % 4 for i in (1, 2, 3)]
    assert [t.payer for t in pays] == others  # in turn order after the winner
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
    s = table(
        FAN, (0, 0, 0, 1), melds={2: melds("peng:111z", "chi:123m", "minggang:9999s", fed_by=1)}
    )
    pays = self_draw_payments(s, 2, 8)
    # seat 1 pays its own share and the others'; seat 3's share keeps its flown 番
    assert rows(pays) == [(1, 2, 8, "chengbao"), (1, 2, 8, "self_draw"), (1, 2, 16, "chengbao")]
    assert net(pays) == [0, -32, 32, 0]


def test_chengbao_a_fourth_meld_from_another_player_pays_its_own_share() -> None:
    winner = [
        *melds("peng:1z1z1z", "peng:2z2z2z", fed_by=3),
        *melds("chi:456p", fed_by=1),
        *melds("peng:3z3z3z", fed_by=3),
    ]
    s = table(FAN, melds={0: winner})
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
    s = table(FAN, melds={0: winner_melds})
    assert rows(self_draw_payments(s, 0, 10)) == [(o, 0, 10, "self_draw") for o in (1, 2, 3)]


def test_chengbao_is_an_option() -> None:
    s = table(
        FAN.with_options(chengbao=False),
        melds={0: melds("peng:111z", "peng:222z", "peng:333z", fed_by=1)},
    )
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
    s = table(melds={2: [parse_meld(meld)]})
    pays = gang_payments(s)
    assert rows(pays) == from_everyone(2, points, reason)
    assert net(pays) == [-points, -points, 3 * points, -points]


def test_plain_pengs_and_chis_score_nothing() -> None:
    s = table(melds={1: melds("peng:666z", "chi:789s")})  # 6z is not the indicator's kind
    assert gang_payments(s) == []


def test_a_concealed_triple_of_the_indicator_scores_as_an_angang() -> None:
    s = table(hands={3: "777z123m456p789s1z"})
    assert rows(gang_payments(s)) == from_everyone(3, 2, "concealed_indicator_triple")


def test_gang_point_options_set_the_values() -> None:
    s = table(
        Rules().with_options(minggang_points=3, angang_points=0, liangbao_gang_points=5),
        melds={0: melds("minggang:1111m", "angang:2222m", "liangbao:777z")},
    )
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
    s = table(hands={1: hand}, melds={1: melds(*meld_texts)})
    assert rows(gang_payments(s)) == sorted(from_everyone(1, 10, "sibao") + extra)


def test_three_bao_are_no_sibao() -> None:
    s = table(hands={1: "5z5z5z1m2m3m4p5p"})
    assert gang_payments(s) == []


def test_a_robbed_chains_cancelled_gangs_score_nothing_but_others_do() -> None:
    gangs = {0: melds("angang:9999p", "angang:1111s"), 2: melds("minggang:4444m", fed_by=1)}
    s = table(FAN, melds=gangs)
    cancelled = [parse_tile("9p")]
    assert rows(gang_payments(s, robbed=0, cancelled=cancelled)) == sorted(
        from_everyone(0, 2, "angang") + from_everyone(2, 1, "minggang")
    )
    # the same kinds on another seat are not the robbed chain
    assert len(gang_payments(s, robbed=2, cancelled=cancelled)) == 9


def test_a_robbed_bao_gang_keeps_its_sibao_points() -> None:
    s = table(FAN, hands={0: "5z5z5z1m2m3m4p5p"})  # the fourth 宝 went to the robber
    assert gang_payments(s, robbed=0) == []
    pays = gang_payments(s, robbed=0, bao_gang_robbed=True)
    assert rows(pays) == from_everyone(0, 10, "sibao")
    assert gang_payments(s, robbed=None, bao_gang_robbed=True) == []  # only for the robbed seat


def test_everything_at_once_sums_to_zero() -> None:
    s = table(
        FAN,
        (1, 0, 2, 0),
        melds={
            0: melds("peng:111z", "peng:222z", "chi:123m", fed_by=3),  # 承包 by seat 3
            1: melds("angang:4444m", "peng:777z"),
            3: melds("bugang:9999s", fed_by=0),
        },
        hands={2: "5z5z5z5z7z7z7z1m"},  # 四宝 and the indicator triple
    )
    pays = self_draw_payments(s, 0, 6) + gang_payments(s)
    # seat 3 pays the shares of 1 (6), 2 (6 x 2^2 flown) and its own (6)
    win = [36, 0, 0, -36]
    gangs = [-3 - 12 - 1, 3 * 3 - 12 - 1, 3 * 12 - 3 - 1, 3 * 1 - 3 - 12]
    assert net(pays) == [w + g for w, g in zip(win, gangs, strict=True)]


# ---------------------------------------------------------------- the result


def test_payment_json_is_the_record_the_results_carry() -> None:
    assert Payment(3, 1, 7, "qiang_gang").to_json() == {
        "payer": 3,
        "payee": 1,
        "points": 7,
        "reason": "qiang_gang",
    }


WIN = WinCheck(True, 4, {"name": "平胡", "score": 4})


def test_a_self_drawn_result_in_the_stored_format() -> None:
    end = table(hands={0: "123m456m789p234s55z", 1: "1z"}, melds={2: melds("angang:4444m")})
    result = settle(end, [(0, WIN)], win_by="self_draw", tile=parse_tile("5z"))
    assert result.to_json() == {
        "outcome": "self_draw",
        "winners": [0],
        "robbed": None,
        "winning_tile": "5z",
        "judgements": {"0": {"name": "平胡", "score": 4}},
        "scores": {"0": 4},
        "transfers": [
            *({"payer": o, "payee": 0, "points": 4, "reason": "self_draw"} for o in (1, 2, 3)),
            *({"payer": o, "payee": 2, "points": 2, "reason": "angang"} for o in (0, 1, 3)),
        ],
        "totals": [10, -6, 2, -6],
        "next_dealer": 0,
        "hands": ["123456m789p234s55z", "1z", "", ""],
    }
    assert list(result.to_json()) == [
        "outcome", "winners", "robbed", "winning_tile", "judgements", "scores", "transfers",
        "totals", "next_dealer", "hands",
    ]  # fmt: skip


def test_the_judgement_in_the_json_is_a_copy() -> None:
    result = settle(table(), [(1, WIN)], win_by="self_draw", tile=0).to_json()
    result["judgements"]["1"]["name"] = "changed"
    assert WIN.detail["name"] == "平胡"


@pytest.mark.parametrize(("draw_dealer", "next_dealer"), [("last_drawer", 3), ("next_seat", 1)])
def test_a_draw_pays_no_win_and_passes_the_deal(draw_dealer: str, next_dealer: int) -> None:
    end = table(Rules().with_options(draw_dealer=draw_dealer), last_drawer=3)
    result = settle(end, [], win_by="draw", tile=None)
    assert (result.outcome, result.winners, result.payments) == ("draw", [], ())
    assert result.next_dealer == next_dealer and result.totals == [0, 0, 0, 0]


def test_several_robbers_the_first_after_the_robbed_deals_next() -> None:
    result = settle(table(), [(1, WIN), (3, WIN)], win_by="rob_gang", tile=0, robbed=2)
    assert result.next_dealer == 3 and result.winners == [1, 3]
    assert rows(list(result.payments)) == [(2, 1, 4, "qiang_gang"), (2, 3, 4, "qiang_gang")]
