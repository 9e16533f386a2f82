"""A synthetic book for the book's benchmark (:mod:`tests.load.book`) and the ledger's tests:
players, rooms, matches, finished hands and their entries, written with ``bulk_create`` so ten
thousand hands take seconds.

The hands carry results in the engine's format (outcome, winners, robbed, judgements,
transfers) but no playable deal: their records are not meant to be replayed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.hashers import make_password
from django.utils import timezone

from accounts.models import User
from engine.rules import Rules
from ledger import tallies, verify
from ledger.models import Entry, Sitting
from tables.models import SEATS, Hand, Match, Room

__all__ = ["SeededBook", "book_seed", "fake_result"]

NAMES = ("甲", "乙", "丙", "丁", "戊", "己", "庚", "辛")
HAND_NAMES = ("平胡", "有宝平胡", "十三烂", "七对", "九幺", "碰碰胡")


@dataclass
class SeededBook:
    players: list[User]
    matches: list[Match]
    bot_room: Room
    """A room whose seat 3 is a bot."""


def fake_result(rng: random.Random) -> dict[str, Any]:
    """A hand's result in the engine's shape: a 自摸 (most), a 抢杠 or a 流局, maybe a gang."""
    roll = rng.random()
    transfers: list[dict[str, Any]] = []
    winners: list[int] = []
    robbed = None
    judgements: dict[str, Any] = {}
    outcome = "draw"
    if roll < 0.85:
        w = rng.randrange(SEATS)
        score = rng.choice((2, 2, 4, 8, 16))
        winners = [w]
        judgements[str(w)] = {"name": rng.choice(HAND_NAMES), "score": score, "patterns": []}
        if roll < 0.75:
            outcome = "self_draw"
            transfers += [
                {"payer": o, "payee": w, "points": score, "reason": "self_draw"}
                for o in range(SEATS)
                if o != w
            ]
        else:
            outcome = "rob_gang"
            robbed = rng.choice([o for o in range(SEATS) if o != w])
            transfers.append(
                {"payer": robbed, "payee": w, "points": 3 * score, "reason": "qiang_gang"}
            )
    if rng.random() < 0.3:
        g = rng.randrange(SEATS)
        transfers += [
            {"payer": o, "payee": g, "points": 1, "reason": "minggang"}
            for o in range(SEATS)
            if o != g
        ]
    totals = [0] * SEATS
    for t in transfers:
        totals[t["payer"]] -= t["points"]
        totals[t["payee"]] += t["points"]
    return {
        "outcome": outcome,
        "winners": winners,
        "robbed": robbed,
        "judgements": judgements,
        "transfers": transfers,
        "totals": totals,
    }


def book_seed(
    *, hands: int, players: int = 8, per_match: int = 500, seed: int = 1, prefix: str = "p"
) -> SeededBook:
    """``hands`` finished hands among ``players`` people, in matches of ``per_match`` hands,
    spread over the last 60 days; the first match's room has a bot in seat 3."""
    rng = random.Random(seed)
    password = make_password(None)
    people = User.objects.bulk_create(
        User(username=f"{prefix}{i}", display_name=NAMES[i % len(NAMES)], password=password)
        for i in range(players)
    )
    rules = Rules().to_json()
    now = timezone.now()
    start = now - timedelta(days=60)
    step = timedelta(days=60) / max(hands, 1)
    n_matches = max(1, -(-hands // per_match))
    rooms = Room.objects.bulk_create(
        Room(
            number=f"{900000 + (seed % 90) * 1000 + i}"[-6:],
            name=f"Room {i + 1}",
            owner=people[0],
            rules=rules,
            status=Room.Status.FINISHED,
        )
        for i in range(n_matches)
    )
    matches = Match.objects.bulk_create(
        Match(room=room, number=1, rules=rules, started_at=start + step * i * per_match)
        for i, room in enumerate(rooms)
    )
    # Who sits where in each match: player 0 always, three others, a bot in the first room.
    seats: list[list[User | None]] = []
    for i in range(n_matches):
        others = rng.sample(people[1:], min(SEATS - 1, players - 1))
        row: list[User | None] = [people[0], *others]
        if i == 0:
            row[3] = None
        seats.append(row)
    hand_rows = []
    for k in range(hands):
        m = k // per_match
        hand_rows.append(
            Hand(
                room=rooms[m],
                match=matches[m],
                number=k % per_match + 1,
                dealer=rng.randrange(SEATS),
                seed="",
                rules=rules,
                result=fake_result(rng),
                ended_at=start + step * k,
            )
        )
    created = Hand.objects.bulk_create(hand_rows, batch_size=1000)
    entries = []
    for k, hand in enumerate(created):
        m = k // per_match
        assert hand.result is not None
        for t in hand.result["transfers"]:
            entries.append(
                Entry(
                    kind=Entry.Kind.HAND,
                    payer=seats[m][t["payer"]],
                    payee=seats[m][t["payee"]],
                    payer_seat=t["payer"],
                    payee_seat=t["payee"],
                    points=t["points"],
                    hand=hand,
                    match=matches[m],
                    room=rooms[m],
                    reason=t["reason"],
                    created_at=start + step * k,
                )
            )
    if players > 1:
        entries.append(
            Entry(
                kind=Entry.Kind.SETTLEMENT,
                payer=people[1],
                payee=people[0],
                points=10,
                note="结账",
                recorded_by=people[0],
                created_at=now,
            )
        )
    Entry.objects.bulk_create(entries, batch_size=2000)
    Sitting.objects.bulk_create(
        (
            Sitting(hand=hand, seat=seat, user=user)
            for k, hand in enumerate(created)
            for seat, user in enumerate(seats[k // per_match])
            if user is not None
        ),
        batch_size=2000,
    )
    tallies.write(verify.expected(Entry, Sitting, Hand))
    Match.objects.filter(pk__in=[m.pk for m in matches]).update(ended_at=now)
    return SeededBook(players=people, matches=matches, bot_room=rooms[0])
