"""Who pays whom: every net cleared with the fewest payments; a room's group read from the book."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger import services
from ledger.models import Entry
from ledger.settle_up import (
    Payment,
    group_nets,
    is_exact,
    partners_of,
    room_players,
    rooms_of,
    who_pays_whom,
)
from tests.tables.factories import start_with_bots


def partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every way to split ``items`` into blocks (Bell(6) = 203 for six people)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in partitions(rest):
        yield [[first], *part]
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1 :]]


def fewest_payments(nets: list[int]) -> int:
    """Brute force: payments join people into groups that must each sum to zero, and a group
    of m people needs at least m - 1 of them; so the fewest is n - (most zero-sum blocks)."""
    people = [i for i, v in enumerate(nets) if v]
    best = max(
        len(part) for part in partitions(people) if all(sum(nets[i] for i in b) == 0 for b in part)
    )
    return len(people) - best


@st.composite
def zero_sum_nets(draw: st.DrawFn) -> list[int]:
    n = draw(st.integers(min_value=1, max_value=6))
    # Small values make zero-sum subgroups common, which is where a greedy answer goes wrong.
    head = draw(st.lists(st.integers(min_value=-12, max_value=12), min_size=n - 1, max_size=n - 1))
    return [*head, -sum(head)]


@settings(max_examples=400, deadline=None)
@given(zero_sum_nets())
def test_every_net_is_cleared_with_the_fewest_payments(nets: list[int]) -> None:
    payments = who_pays_whom(dict(enumerate(nets)))
    left = list(nets)
    for p in payments:
        assert p.points > 0 and p.payer != p.payee
        assert nets[p.payer] < 0 < nets[p.payee]  # nobody pays who owes, or is paid who is owed
        left[p.payer] += p.points
        left[p.payee] -= p.points
    assert left == [0] * len(nets)
    assert len(payments) == fewest_payments(nets)


def test_the_exact_split_beats_a_greedy_pairing() -> None:
    # Largest debt to largest credit pays 5 times here; {-3, 3} apart from the rest takes 4.
    nets = {"a": -8, "b": 6, "c": -2, "d": 3, "e": 4, "f": -3}
    payments = who_pays_whom(nets)
    assert len(payments) == fewest_payments(list(nets.values())) == 4
    assert Payment("f", "d", 3) in payments


def test_nets_that_do_not_sum_to_zero_are_refused() -> None:
    with pytest.raises(ValueError, match="sum to zero"):
        who_pays_whom({"a": 1})
    assert who_pays_whom({}) == [] and who_pays_whom({"a": 0}) == []


def test_a_rooms_group_counts_people_not_bots(user: Any, bob: Any, staff: Any) -> None:
    room = start_with_bots(user, seed="settle-group")
    services.hand_entries_create(
        hand=room.hands.get(),
        users=[user, bob, None, None],
        transfers=[
            {"payer": 1, "payee": 0, "points": 9, "reason": "self_draw"},
            {"payer": 2, "payee": 0, "points": 9, "reason": "self_draw"},
        ],
    )
    assert room_players(room) == [user, bob]
    assert rooms_of(bob) == [room] and rooms_of(staff) == []
    assert user in partners_of(bob) and bob in partners_of(user)
    assert group_nets([user, bob]) == {user: 9, bob: -9}  # the bot's 9 is nobody's to settle
    assert who_pays_whom(group_nets([user, bob])) == [Payment(bob, user, 9)]
    # A correction counts like a hand: bob owes alice 9 - 3 = 6. bob pays her 6 and she
    # confirms: the money clears the debt, both read 0.
    services.correction_create(staff=staff, payer=user, payee=bob, points=3, note="mis-scored")
    claim = services.settlement_claim_create(recorded_by=bob, payer=bob, payee=user, points=6)
    assert group_nets([user, bob]) == {user: 6, bob: -6}  # not yet confirmed
    services.settlement_claim_confirm(claim_id=claim.pk, user=user)
    assert group_nets([user, bob]) == {user: 0, bob: 0}
    assert who_pays_whom(group_nets([user, bob])) == []


def test_a_rooms_group_settles_that_rooms_points(user: Any, bob: Any) -> None:
    # bob lost 9 to alice in one room and won 5 from her in another: in the first room bob
    # pays 9, in the second alice pays 5; across both rooms bob owes 4.
    rooms = []
    for seed, (payer, payee, points) in (("room-a", (1, 0, 9)), ("room-b", (0, 1, 5))):
        room = start_with_bots(user, seed=seed)
        services.hand_entries_create(
            hand=room.hands.get(),
            users=[user, bob, None, None],
            transfers=[{"payer": payer, "payee": payee, "points": points, "reason": "self_draw"}],
        )
        rooms.append(room)
    assert who_pays_whom(group_nets([user, bob], room=rooms[0])) == [Payment(bob, user, 9)]
    assert who_pays_whom(group_nets([user, bob], room=rooms[1])) == [Payment(user, bob, 5)]
    assert who_pays_whom(group_nets([user, bob])) == [Payment(bob, user, 4)]


def test_beyond_sixteen_nets_the_answer_is_marked_greedy() -> None:
    sixteen = {i: (1 if i % 2 else -1) for i in range(16)}
    seventeen = {**{i: 1 for i in range(16)}, 16: -16}
    assert is_exact(sixteen) and not is_exact(seventeen)
    assert is_exact({**sixteen, 99: 0})  # a zero net is nobody to pay


def test_a_groups_nets_over_chosen_entries_only(user: Any, bob: Any) -> None:
    # bob lost 9 to alice, then 5 more: over the second entry alone bob owes 5, over both 14.
    room = start_with_bots(user, seed="settle-within")
    services.hand_entries_create(
        hand=room.hands.get(),
        users=[user, bob, None, None],
        transfers=[
            {"payer": 1, "payee": 0, "points": 9, "reason": "self_draw"},
            {"payer": 1, "payee": 0, "points": 5, "reason": "angang"},
        ],
    )
    later = Entry.objects.filter(points=5)
    assert group_nets([user, bob], within=later) == {user: 5, bob: -5}
    assert group_nets([user, bob]) == {user: 14, bob: -14}
