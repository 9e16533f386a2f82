"""Every running total recomputed from the raw facts (entries, sittings, hands' results), to
compare with what is stored (``manage.py ledger_verify``) or to fill the tables of a book
written before they existed (the migration, with its historical models, and the benchmark's
seeded book, ``tests.load.seeded_book``).

Takes the model classes as arguments, so a migration can pass its own.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from ledger import tallies

__all__ = ["differences", "expected", "stored"]

Rows = dict[str, dict[tuple[Any, ...], tuple[Any, ...]]]


def expected(entry_model: Any, sitting_model: Any, hand_model: Any) -> tallies.Fold:
    """The fold of every entry and every booked hand, from the raw rows."""
    fold = tallies.Fold()
    nets: dict[int, list[tuple[int | None, int | None, int]]] = defaultdict(list)
    rows = entry_model.objects.order_by("pk").values_list(
        "kind",
        "payer_id",
        "payee_id",
        "payer_seat",
        "payee_seat",
        "room_id",
        "match_id",
        "points",
        "reason",
        "created_at",
        "hand_id",
    )
    for kind, payer, payee, a, b, room, match, points, reason, at, hand in rows.iterator(2000):
        fold.entry(
            kind=kind,
            payer=payer,
            payee=payee,
            payer_seat=a,
            payee_seat=b,
            room=room,
            match=match,
            points=points,
            reason=reason,
            at=at,
        )
        if kind == "hand":
            nets[hand].append((payer, payee, points))
    players: dict[int, dict[int, int]] = defaultdict(dict)
    for hand, seat, user in sitting_model.objects.values_list("hand_id", "seat", "user_id"):
        players[hand][seat] = user
    # Every finished hand, not an id list: a long book's list would pass the database's
    # limit on parameters.
    hands = hand_model.objects.filter(result__isnull=False).values_list(
        "pk", "match_id", "result", "ended_at", "started_at"
    )
    for pk, match, result, ended, started in hands.iterator(500):
        if pk not in players:
            continue
        fold.hand(
            hand=pk,
            match=match,
            players=players[pk],
            result=result or {},
            nets=tallies.hand_nets(nets.get(pk, [])),
            at=ended or started,
        )
    return fold


def _as_rows(fold: tallies.Fold) -> Rows:
    days = {}
    for key, row in fold.days.items():
        values = (*(row.sums[c] for c in tallies.DAY_COLUMNS), row.best_points, row.best_hand)
        if any(values):
            days[key] = values
    return {
        "pair": {k: (v[0],) for k, v in fold.pairs.items()},
        "day": days,
        "pattern": {k: (n,) for k, n in fold.patterns.items()},
    }


def stored(balance_model: Any, day_model: Any, pattern_model: Any) -> Rows:
    """What the running-total tables hold, keyed as :func:`expected` keys them."""
    day_columns = (*tallies.DAY_COLUMNS, "best_points", "best_hand_id")
    days = {}
    for r in day_model.objects.values_list("user_id", "day", "match_id", *day_columns):
        if any(r[3:]):
            days[r[:3]] = tuple(r[3:])
    return {
        "pair": {
            r[:4]: (r[4],)
            for r in balance_model.objects.values_list(
                "user_id", "other_id", "room_id", "seat", "points"
            )
        },
        "day": days,
        "pattern": {
            r[:4]: (r[4],)
            for r in pattern_model.objects.values_list(
                "user_id", "day", "match_id", "name", "count"
            )
            if r[4]
        },
    }


def differences(want: tallies.Fold, have: Rows) -> Iterator[str]:
    """One line per running total that differs from its recomputation."""
    rows = _as_rows(want)
    for table, expect in rows.items():
        got = have[table]
        for key in sorted(set(expect) | set(got), key=repr):
            if expect.get(key) != got.get(key):
                yield f"{table} {key}: stored {got.get(key)}, recomputed {expect.get(key)}"
