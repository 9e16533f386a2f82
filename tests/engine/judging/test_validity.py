"""engine.judging.validity: hands and contexts that can't exist are refused with a reason."""

from __future__ import annotations

import pytest

from engine.judging.scoring import WinContext
from engine.judging.validity import (
    HandError,
    check_context,
    check_hand,
    check_meld,
    check_win_context,
    concealed_counts,
)
from engine.melds import Meld, parse_meld
from engine.rules import PROFILES
from engine.tiles import counts_of, parse_tile, parse_tiles


def test_concealed_counts_refuses_a_kind_that_does_not_exist() -> None:
    assert concealed_counts([0, 0, 33])[0] == 2
    with pytest.raises(HandError, match="no tile kind 34"):
        concealed_counts([0, 34])


@pytest.mark.parametrize(
    ("hand", "melds", "win", "message"),
    [
        ("123m456m789p234s5z", (), "5z", "13 concealed tiles"),
        ("11111m456m789p234s", (), "1m", "5 copies of 1m"),
        ("123m456m789p234s55z", (), "6z", "winning tile must be among"),
        ("456m789p234s55z", ("a 吃 of 135m",), "5z", "three consecutive"),
    ],
)
def test_check_hand(hand: str, melds: tuple[str, ...], win: str, message: str) -> None:
    tiles = parse_tiles(hand)
    with pytest.raises(HandError, match=message):
        check_hand(
            counts_of(tiles),
            len(tiles),
            [Meld("chi", (0, 2, 4))] if melds else [],  # 135m: parse_meld would refuse it
            parse_tile(win),
            parse_tile("9s"),
        )


def test_check_meld_knows_the_liangbao_kind() -> None:
    check_meld(parse_meld("liangbao:999s"), parse_tile("9s"))
    with pytest.raises(HandError, match="indicator's kind"):
        check_meld(parse_meld("liangbao:999s"), parse_tile("1s"))


@pytest.mark.parametrize(
    ("hand", "melds", "win", "indicator", "message"),
    [
        ("123m456m789p234s55z", (), "5z", "9s", "1 more 5z"),  # another 5z in the hand
        ("123m456m789p4s5z", ("peng:444s",), "4s", "9s", "3 more 4s"),  # three in a 碰
        ("123m456m789p234s55z", (), "4s", "4s", "the indicator's kind"),
    ],
)
def test_a_rob_of_a_kind_the_ganger_cant_hold_four_of(
    hand: str, melds: tuple[str, ...], win: str, indicator: str, message: str
) -> None:
    counts = counts_of(parse_tiles(hand))
    parsed = [parse_meld(m) for m in melds]
    tile, shown = parse_tile(win), parse_tile(indicator)
    with pytest.raises(HandError, match=message):
        check_context(counts, parsed, tile, shown, WinContext("rob_gang"))
    # self-drawn, the same tiles are a hand like any other
    check_context(counts, parsed, tile, shown, WinContext())


@pytest.mark.parametrize("profile", list(PROFILES))
def test_a_rob_is_refused_when_the_rules_play_no_qiang_gang(profile: str) -> None:
    counts = counts_of(parse_tiles("123m456m789p234s55z"))
    tile, shown = parse_tile("4s"), parse_tile("1z")
    robbed = WinContext("rob_gang")
    check_context(counts, [], tile, shown, robbed, PROFILES[profile])  # both play 抢杠 (§4)
    without = PROFILES[profile].with_options(qiang_gang=False)
    with pytest.raises(HandError, match="qiang_gang is off"):
        check_context(counts, [], tile, shown, robbed, without)
    check_context(counts, [], tile, shown, WinContext(), without)  # self-drawn: fine


@pytest.mark.parametrize(
    ("melds", "context", "code", "params"),
    [
        ((), WinContext(gang_draws=1), "gang_draws_gangs", {"draws": 1, "gangs": 0}),
        (
            ("liangbao:333z",),
            WinContext(gang_draws=1),
            "gang_draws_gangs",
            {"draws": 1, "gangs": 0},
        ),
        ((), WinContext("rob_gang", gang_draws=1), "gang_draws_robbed", {}),
        ((), WinContext("rob_gang", heavenly=True), "tian_di_robbed", {}),
        (("peng:555z",), WinContext(earthly=True), "tian_di_melds", {}),
        ((), WinContext(flown_bao=1, heavenly=True), "tian_di_flown", {}),
    ],
)
def test_a_refusal_that_needs_no_tile_carries_its_code(
    melds: tuple[str, ...], context: WinContext, code: str, params: dict[str, object]
) -> None:
    # the same refusal for every tile a 13-tile hand could win on, so a page can say why
    # its list of waits is empty, in its own words
    with pytest.raises(HandError) as refused:
        check_win_context([parse_meld(m) for m in melds], context, PROFILES["standard"])
    assert (refused.value.code, refused.value.params) == (code, params)


def test_refusals_on_the_tiles_carry_their_code_and_tiles() -> None:
    counts = counts_of(parse_tiles("123m456m789p234s55z"))
    with pytest.raises(HandError) as refused:
        check_context(counts, [], parse_tile("5z"), parse_tile("9s"), WinContext("rob_gang"))
    assert (refused.value.code, refused.value.params) == ("rob_held", {"tile": "5z", "held": 1})
    # 宝 = 1z (indicator 4z): none held, but five flown can't be
    counts = counts_of(parse_tiles("123m456m789p234s11z"))
    with pytest.raises(HandError) as refused:
        check_context(counts, [], parse_tile("1z"), parse_tile("4z"), WinContext(flown_bao=3))
    assert refused.value.code == "too_many_bao"
    assert refused.value.params == {"flown": 3, "held": 2, "bao": "1z"}
