"""``engine.match``: the deal passing by §2, running totals, the end of a match and its JSON.

Hands are scripted (tests/deals.py) and turned round the table so that the match's
dealer deals them: the rules treat every seat alike, so seat ``s`` of a script sits at
``(s + dealer) % 4``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.hand import HandState, new_hand
from engine.match import Match, first_dealer
from engine.rules import Rules
from tests.deals import (
    HEAVENLY,
    ROB_ACTIONS,
    ROBBED_BY_TWO,
    deal,
    hand_record,
    play,
    play_out_discarding,
)

HIGHEST = Rules().with_options(first_dealer="highest_roll")


def dealt_by(
    dealer: int, hands: dict[int, str], actions: list[list[Any]], rules: Rules
) -> HandState:
    """Play a script written for dealer 0 with ``dealer`` dealing."""
    turned = {(s + dealer) % 4: h for s, h in hands.items()}
    log = [[(seat + dealer) % 4, a] for seat, a in actions]
    return play(hand_record(turned, log, dealer=dealer, rules=rules))


def exhaustive_draw(dealer: int, rules: Rules) -> HandState:
    """Everyone discards what it draws until the wall is empty."""
    turned = {(s + dealer) % 4: h for s, h in HEAVENLY.items()}
    record = hand_record(turned, [], dealer=dealer, rules=rules)
    record["actions"] = play_out_discarding(deal(turned, dealer=dealer, rules=rules))
    return play(record)


def book(match: Match, state: HandState) -> dict[str, Any]:
    assert state.dealer == match.dealer and state.result is not None
    match.finish_hand(state.result)
    return state.result


@pytest.mark.parametrize(("draw_dealer", "after_draw"), [("last_drawer", 1), ("next_seat", 0)])
def test_the_deal_passes_by_section_2(draw_dealer: str, after_draw: int) -> None:
    rules = Rules().with_options(draw_dealer=draw_dealer)
    match = Match(rules, hands_total=3, seed="passing", dealer=2)
    # Hand 1: seat 2's 暗杠 is robbed by seats 3 and 1: the robber first in turn order after
    # the robbed seat deals (seat 3, although seat 1 is the lower seat)
    first = book(match, dealt_by(2, ROBBED_BY_TWO, ROB_ACTIONS, rules))
    assert sorted(first["winners"]) == [1, 3] and first["robbed"] == 2
    assert (match.dealer, match.hand_no, match.over) == (3, 1, False)
    # Hand 2: the dealer wins (天胡) and keeps the deal
    second = book(match, dealt_by(3, HEAVENLY, [[0, {"type": "hu"}]], rules))
    assert second["winners"] == [3]
    assert (match.dealer, match.hand_no, match.over) == (3, 2, False)
    # Hand 3: 流局. 82 live tiles after the deal, the dealer holding 14: the last is drawn by
    # the seat across from the dealer (seat 1), the dealer's 下家 is seat 0
    draw = exhaustive_draw(3, rules)
    assert draw.last_drawer == 1
    third = book(match, draw)
    assert third["outcome"] == "draw" and match.dealer == after_draw
    assert match.over and match.hand_no == 3
    # the totals are the sums of the hands' totals
    assert first["totals"] == [0, 24, -48, 24] and second["totals"] == [-16, -16, -16, 48]
    assert match.totals == [0 + -16 + 0, 24 - 16 + 0, -48 - 16 + 0, 24 + 48 + 0]
    assert match.history == [
        {"hand_no": 0, "dealer": 2, "totals": first["totals"]},
        {"hand_no": 1, "dealer": 3, "totals": second["totals"]},
        {"hand_no": 2, "dealer": 3, "totals": [0, 0, 0, 0]},
    ]
    with pytest.raises(ValueError, match="the match is over"):
        match.start_hand("one more")


def test_a_lone_robber_deals_next() -> None:
    match = Match(Rules(), dealer=1, seed="lone")
    actions = [*ROB_ACTIONS[:2], [3, {"type": "pass"}]]
    book(match, dealt_by(1, ROBBED_BY_TWO, actions, Rules()))
    assert match.dealer == 2  # seat 1 of the script, turned by one


def fake_result(totals: list[int], next_dealer: int) -> dict[str, Any]:
    """The two fields of a result :meth:`Match.finish_hand` reads."""
    return {"totals": totals, "next_dealer": next_dealer}


def test_open_ended_match_is_never_over() -> None:
    match = Match(Rules(), hands_total=None, seed="open", dealer=0)
    for n in range(50):
        assert not match.over
        match.finish_hand(fake_result([3, -1, -1, -1], (n + 1) % 4))
    assert not match.over and match.hand_no == 50
    assert match.totals == [150, -50, -50, -50]
    assert match.start_hand("still").dealer == 2  # 50 % 4


@pytest.mark.parametrize("hands_total", [1, 2, 5])
def test_a_match_of_n_hands_is_over_after_the_nth(hands_total: int) -> None:
    match = Match(Rules(), hands_total=hands_total, seed="n")
    for _ in range(hands_total):
        assert not match.over
        match.start_hand()
        match.finish_hand(fake_result([0, 0, 0, 0], match.dealer))
    assert match.over
    with pytest.raises(ValueError, match="over"):
        match.start_hand()


def test_start_hand_deals_with_the_current_dealer_from_the_seed() -> None:
    match = Match(Rules(), seed="deal", dealer=3)
    hand = match.start_hand("h-7")
    assert hand.dealer == 3 and len(hand.hands[3]) == 14
    assert hand == new_hand(Rules(), 3, "h-7")
    match.finish_hand(fake_result([0, 0, 0, 0], 1))
    assert match.start_hand("h-7").dealer == 1


def test_json_round_trip_after_several_hands() -> None:
    rules = Rules.profile_named("jiuyao_fan").with_options(qiang_gang=False)
    match = Match(rules, hands_total=8, seed=12345, owner=2)
    match.finish_hand(fake_result([-2, -2, 6, -2], 2))
    match.finish_hand(fake_result([10, -5, -5, 0], 0))
    data = json.loads(json.dumps(match.to_json()))
    again = Match.from_json(data)
    assert again == match
    assert again.rules == rules and again.dealer == 0 and again.totals == [8, -7, 1, -2]
    assert again.first_rolls == match.first_rolls and again.hand_no == 2
    # the copy is independent: booking a hand on it leaves the original alone
    again.finish_hand(fake_result([1, 1, -1, -1], 3))
    assert match.totals == [8, -7, 1, -2] and len(match.history) == 2


def test_a_match_without_a_seed_records_one_that_reproduces_the_first_dealer() -> None:
    match = Match(HIGHEST)
    assert isinstance(match.seed, str) and match.seed
    assert (match.dealer, match.first_rolls) == first_dealer(HIGHEST, match.seed)
    assert Match(HIGHEST, seed=match.seed).dealer == match.dealer
    assert Match(HIGHEST).seed != match.seed


@pytest.mark.parametrize("rules", [Rules(), HIGHEST])
def test_first_dealer_is_reproducible_from_the_seed(rules: Rules) -> None:
    results = {seed: first_dealer(rules, seed, 1) for seed in range(40)}
    assert all(first_dealer(rules, seed, 1) == r for seed, r in results.items())
    assert {dealer for dealer, _ in results.values()} == {0, 1, 2, 3}
    assert len({json.dumps(r) for r in results.values()}) > 4  # the seed matters


def test_owner_roll_is_one_roll_of_two_dice() -> None:
    dealer, rolls = first_dealer(Rules(), "owner", owner=3)
    assert len(rolls) == 1 and len(rolls[0]) == 2
    assert dealer == (3 + sum(rolls[0]) - 1) % 4
    assert Match(Rules(), seed="owner", owner=3).dealer == dealer


def test_highest_roll_the_top_sum_deals_and_ties_roll_again() -> None:
    rerolls = 0
    for seed in range(200):
        dealer, rolls = first_dealer(HIGHEST, seed, owner=0)
        rolling = {0, 1, 2, 3}
        for i, sums in enumerate(rolls):
            assert len(sums) == 4
            # only the seats still rolling have a sum (2-12); the others show 0
            assert {s for s in range(4) if sums[s]} == rolling
            assert all(2 <= sums[s] <= 12 for s in rolling)
            top = max(sums)
            tied = {s for s in rolling if sums[s] == top}
            if i < len(rolls) - 1:
                assert len(tied) > 1
                rolling = tied
            else:
                assert tied == {dealer}
        rerolls += len(rolls) > 1
    assert rerolls > 10  # ties happen, and are rolled off
    # the owner does not matter to a highest roll
    assert first_dealer(HIGHEST, "x", 0) == first_dealer(HIGHEST, "x", 3)


# The owner is 1, its 下家 2, 对家 3, 上家 4, the owner again 5 …: seats after the owner.
OWNER_ROLL_OFFSET = {2: 1, 3: 2, 4: 3, 5: 0, 6: 1, 7: 2, 8: 3, 9: 0, 10: 1, 11: 2, 12: 3}


def test_owner_roll_counts_seats_from_the_owner() -> None:
    seen: set[int] = set()
    for owner in range(4):
        for seed in range(60):
            dealer, rolls = first_dealer(Rules(), seed, owner)
            assert len(rolls) == 1 and all(1 <= d <= 6 for d in rolls[0])
            total = sum(rolls[0])
            seen.add(total)
            assert dealer == (owner + OWNER_ROLL_OFFSET[total]) % 4, (owner, rolls)
        match = Match(Rules(), seed="owner-roll", owner=owner)
        assert (match.dealer, match.first_rolls) == first_dealer(Rules(), "owner-roll", owner)
    assert seen == set(OWNER_ROLL_OFFSET)  # every sum came up
