"""The running totals one booked hand adds, worked out by hand."""

from __future__ import annotations

from typing import Any

from ledger import services
from ledger.models import DayTally, PairBalance, PatternTally
from tests.tables.factories import start_with_bots


def _pairs() -> dict[tuple[Any, ...], int]:
    rows = PairBalance.objects.values_list("user__username", "other__username", "seat", "points")
    return {(u, o or f"bot{s}"): n for u, o, s, n in rows}


def test_one_hand_worked_by_hand(user: Any, bob: Any, make_user: Any) -> None:
    # Seats: alice, bob, a bot, carol. alice self-draws 4 from each; bob's exposed kong takes
    # 1 from each other seat.
    carol = make_user("carol")
    room = start_with_bots(user, seed="tally")
    hand = room.hands.get()
    hand.result = {
        "outcome": "self_draw",
        "winners": [0],
        "robbed": None,
        "judgements": {"0": {"name": "平胡", "score": 4}},
    }
    win = [{"payer": p, "payee": 0, "points": 4, "reason": "self_draw"} for p in (1, 2, 3)]
    gang = [{"payer": p, "payee": 1, "points": 1, "reason": "minggang"} for p in (0, 2, 3)]
    services.hand_entries_create(hand=hand, users=[user, bob, None, carol], transfers=win + gang)
    # alice: +4 bob -1 kong = 3; +4 carol; +4 the bot. bob: -3 alice, +1 carol, +1 the bot.
    assert _pairs() == {
        ("alice", "bob"): 3,
        ("alice", "carol"): 4,
        ("alice", "bot2"): 4,
        ("bob", "alice"): -3,
        ("bob", "carol"): 1,
        ("bob", "bot2"): 1,
        ("carol", "alice"): -4,
        ("carol", "bob"): -1,
    }
    day = {t.user_id: t for t in DayTally.objects.all()}
    a, b, c = day[user.pk], day[bob.pk], day[carol.pk]
    assert (a.people, a.bots, a.hand_points, a.gang_points) == (7, 4, 11, -1)
    assert (a.hands, a.wins, a.self_draw_wins, a.robbed) == (1, 1, 1, 0)
    assert (a.best_points, a.best_hand_id) == (11, hand.pk)
    assert (b.people, b.bots, b.hand_points, b.gang_points, b.wins) == (-2, 1, -1, 3, 0)
    assert (b.best_points, b.best_hand_id) == (0, None)  # lost overall: no best hand
    assert (c.people, c.bots, c.hand_points, c.hands) == (-5, 0, -5, 1)
    assert list(PatternTally.objects.values_list("user_id", "name", "count")) == [
        (user.pk, "平胡", 1)
    ]
    assert a.match_id == hand.match_id
