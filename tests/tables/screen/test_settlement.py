"""tables.screen.settlement: a finished hand's result in words, from the engine's result."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from engine.hand import HandState
from engine.rules import Rules
from engine.views import seat_view
from tables.screen.melds import MeldView
from tables.screen.settlement import reason_label, settlement_of
from tests.deals import ANGANG_DEALER, ANGANG_THEN_DRAW, TAIL_TILES, act, hand_record
from tests.deals import play as replay_script

pytestmark = pytest.mark.usefixtures("english")


def scripted(actions: list[list[Any]], *, rules: Rules | None = None) -> HandState:
    record = hand_record(ANGANG_DEALER, actions, draws="3z", tail=TAIL_TILES, rules=rules)
    return replay_script(record)


def test_settlement_of_names_the_winner_payments_and_the_next_dealer() -> None:
    state = scripted([*ANGANG_THEN_DRAW, act(1, "hu")])
    assert state.result is not None
    names = ["东", "南", "西", "北"]
    s = settlement_of(state.result, names, seat_view(state, None)["melds"])
    assert s.outcome == "self_draw"
    [winner] = s.winners
    assert (winner.name, winner.pattern_name, winner.score) == ("南", "平胡", 4)
    assert winner.winning_tile == "3z"
    assert winner.concealed[-3:] == ["3z", "4z", "4z"] and len(winner.concealed) == 14
    assert winner.melds == []
    assert winner.breakdown == [{"label": "平胡", "value": 4, "kind": "base"}]
    assert sorted((t.payer, t.payee, t.points, t.reason) for t in s.transfers) == sorted(
        [
            ("西", "南", 4, "self-drawn win"),
            ("北", "南", 4, "self-drawn win"),
            ("东", "南", 4, "self-drawn win"),
            ("南", "东", 2, "concealed kong"),
            ("西", "东", 2, "concealed kong"),
            ("北", "东", 2, "concealed kong"),
        ]
    )
    assert s.hand_totals == [("东", 2), ("南", 10), ("西", -6), ("北", -6)]
    assert s.next_dealer == "南"
    assert [name for name, _ in s.revealed] == names
    assert [len(tiles) for _, tiles in s.revealed] == [10, 14, 13, 13]


def test_a_winner_with_melds_shows_them_in_the_settlement() -> None:
    # Single-tile replacement: the 暗杠's replacement is 2z, 杠上开花 for the dealer.
    rules = Rules().with_options(replacement="single_tile")
    actions = [act(0, "gang", "9p", gang="angang"), act(0, "hu")]
    state = scripted(actions, rules=rules)
    assert state.result is not None
    s = settlement_of(state.result, ["a", "b", "c", "d"], seat_view(state, None)["melds"])
    [winner] = s.winners
    assert winner.name == "a" and winner.score == 8 and winner.winning_tile == "2z"
    assert winner.melds == [MeldView("angang", "Concealed kong", ["9p"] * 4)]


def test_a_reason_is_named_in_the_page_language_and_an_unknown_one_kept() -> None:
    assert reason_label("chengbao") == "pays for all (承包)"
    assert reason_label("something_new") == "something_new"
    with translation.override("zh-hans"):
        assert reason_label("self_draw") != "self-drawn win"
