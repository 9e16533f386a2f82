"""Running totals of the book: what each new entry and booked hand adds to the pair balances,
the day tallies and the pattern counts, and the one upsert that adds it.

The same fold serves three callers: a write (a few rows, in the write's own transaction),
``manage.py ledger_verify`` (every raw entry, compared with what is stored) and the migration
that fills the tables for a book written before they existed (given its historical models).
Points add with ``+`` in SQL (``points = points + excluded.points``), so two transactions
adding to the same row never lose one another's figure.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.db import connection
from django.utils import timezone

from engine.outcome import GANG_REASONS

__all__ = ["DAY_COLUMNS", "Fold", "write"]

DAY_COLUMNS = (
    "people",
    "bots",
    "hand_points",
    "gang_points",
    "hands",
    "wins",
    "self_draw_wins",
    "robbed",
)

PairKey = tuple[int, int | None, int | None, int | None]
"""``(user, other person, bot's room, bot's seat)``."""
DayKey = tuple[int, date, int | None]
"""``(user, local day, match)``."""
PatternKey = tuple[int, date, int | None, str]


def local_day(at: datetime) -> date:
    return timezone.localtime(at).date()


@dataclass
class DayRow:
    sums: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DAY_COLUMNS, 0))
    best_points: int = 0
    best_hand: int | None = None

    def best(self, points: int, hand_id: int) -> None:
        """Keep the bigger hand; of two equal, the later one."""
        if points > 0 and (points, hand_id) > (self.best_points, self.best_hand or 0):
            self.best_points, self.best_hand = points, hand_id


@dataclass
class Fold:
    """What a run of entries and booked hands adds to each running total."""

    pairs: dict[PairKey, list[Any]] = field(default_factory=dict)
    """key -> ``[points, last entry's time]``."""
    days: dict[DayKey, DayRow] = field(default_factory=lambda: defaultdict(DayRow))
    patterns: dict[PatternKey, int] = field(default_factory=lambda: defaultdict(int))

    def _pair(self, key: PairKey, points: int, at: datetime) -> None:
        row = self.pairs.setdefault(key, [0, at])
        row[0] += points
        row[1] = max(row[1], at)

    def entry(
        self,
        *,
        kind: str,
        payer: int | None,
        payee: int | None,
        payer_seat: int | None,
        payee_seat: int | None,
        room: int | None,
        match: int | None,
        points: int,
        reason: str,
        at: datetime,
    ) -> None:
        """One entry: ``payee`` is owed ``points`` more by ``payer`` (whatever its kind)."""
        if payer == payee:
            return  # two bots, or one person twice: nobody's balance moves
        day = local_day(at)
        for me, other, other_seat, sign in (
            (payee, payer, payer_seat, 1),
            (payer, payee, payee_seat, -1),
        ):
            if me is None:
                continue
            row = self.days[(me, day, match)].sums
            if other is None:
                self._pair((me, None, room, other_seat), sign * points, at)
                row["bots"] += sign * points
            else:
                self._pair((me, other, None, None), sign * points, at)
                row["people"] += sign * points
            if kind == "hand":
                row["hand_points"] += sign * points
                if reason in GANG_REASONS:
                    row["gang_points"] += sign * points

    def hand(
        self,
        *,
        hand: int,
        match: int | None,
        players: Mapping[int, int],
        result: Mapping[str, Any],
        nets: Mapping[int, int],
        at: datetime,
    ) -> None:
        """A booked hand: ``players`` maps each person's seat to them, ``nets`` each person to
        their net points in it."""
        day = local_day(at)
        winners: list[int] = list(result.get("winners") or [])
        judgements: Mapping[str, Any] = result.get("judgements") or {}
        for seat, user in players.items():
            row = self.days[(user, day, match)]
            row.sums["hands"] += 1
            if seat in winners:
                row.sums["wins"] += 1
                row.sums["self_draw_wins"] += result.get("outcome") == "self_draw"
                name = (judgements.get(str(seat)) or {}).get("name", "")
                if name:
                    self.patterns[(user, day, match, name)] += 1
            if result.get("robbed") == seat:
                row.sums["robbed"] += 1
            row.best(nets.get(user, 0), hand)


def hand_nets(entries: Iterable[tuple[int | None, int | None, int]]) -> dict[int, int]:
    """Each person's net over ``(payer, payee, points)`` of one hand."""
    nets: dict[int, int] = defaultdict(int)
    for payer, payee, points in entries:
        if payer == payee:
            continue
        if payee is not None:
            nets[payee] += points
        if payer is not None:
            nets[payer] -= points
    return nets


# ---------------------------------------------------------------- writing a fold


_CHUNK = 1000
"""Rows per statement: well under SQLite's limit of 32,766 parameters."""


def _greatest(a: str, b: str) -> str:
    return f"GREATEST({a}, {b})" if connection.vendor == "postgresql" else f"max({a}, {b})"


def _upsert(
    table: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    target: str,
    assignments: Sequence[str],
) -> None:
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), _CHUNK):
            chunk = rows[start : start + _CHUNK]
            values = ", ".join([one] * len(chunk))
            sql = (
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES {values} "
                f"ON CONFLICT {target} DO UPDATE SET {', '.join(assignments)}"
            )
            cursor.execute(sql, [v for row in chunk for v in row])


def _at(value: datetime) -> Any:
    return connection.ops.adapt_datetimefield_value(value)


def _day(value: date) -> Any:
    return connection.ops.adapt_datefield_value(value)


def write(fold: Fold) -> None:
    """Add ``fold`` to the stored totals. Rows go in sorted key order, so two transactions
    that touch the same rows take their locks in the same order and never deadlock."""
    t = "ledger_pairbalance"
    add_points = [
        f"points = {t}.points + excluded.points",
        f"last_at = {_greatest(f'{t}.last_at', 'excluded.last_at')}",
    ]
    people: list[tuple[Any, ...]] = []
    bots: list[tuple[Any, ...]] = []
    for (user, other, room, seat), (points, at) in sorted(fold.pairs.items(), key=_sort_key):
        (people if other is not None else bots).append((user, other, room, seat, points, _at(at)))
    columns: tuple[str, ...] = ("user_id", "other_id", "room_id", "seat", "points", "last_at")
    _upsert(t, columns, people, "(user_id, other_id) WHERE other_id IS NOT NULL", add_points)
    _upsert(t, columns, bots, "(user_id, room_id, seat) WHERE other_id IS NULL", add_points)

    t = "ledger_daytally"
    better = (
        f"excluded.best_points > {t}.best_points OR (excluded.best_points = {t}.best_points "
        f"AND excluded.best_hand_id > {t}.best_hand_id)"
    )
    day_sets = [f"{c} = {t}.{c} + excluded.{c}" for c in DAY_COLUMNS] + [
        f"best_hand_id = CASE WHEN {better} THEN excluded.best_hand_id ELSE {t}.best_hand_id END",
        f"best_points = {_greatest(f'{t}.best_points', 'excluded.best_points')}",
    ]
    in_match: list[tuple[Any, ...]] = []
    outside: list[tuple[Any, ...]] = []
    for (user, day, match), row in sorted(fold.days.items(), key=_sort_key):
        values = (
            user,
            _day(day),
            match,
            *(row.sums[c] for c in DAY_COLUMNS),
            row.best_points,
            row.best_hand,
        )
        (in_match if match is not None else outside).append(values)
    columns = ("user_id", "day", "match_id", *DAY_COLUMNS, "best_points", "best_hand_id")
    _upsert(t, columns, in_match, "(user_id, day, match_id) WHERE match_id IS NOT NULL", day_sets)
    _upsert(t, columns, outside, "(user_id, day) WHERE match_id IS NULL", day_sets)

    t = "ledger_patterntally"
    in_match, outside = [], []
    for (user, day, match, name), n in sorted(fold.patterns.items(), key=_sort_key):
        (in_match if match is not None else outside).append((user, _day(day), match, name, n))
    columns = ("user_id", "day", "match_id", "name", "count")
    count = [f"count = {t}.count + excluded.count"]
    _upsert(
        t, columns, in_match, "(user_id, day, match_id, name) WHERE match_id IS NOT NULL", count
    )
    _upsert(t, columns, outside, "(user_id, day, name) WHERE match_id IS NULL", count)


def _sort_key(item: tuple[tuple[Any, ...], Any]) -> tuple[tuple[bool, Any], ...]:
    # None sorts first, apart from values of its column's type.
    return tuple((v is not None, v) for v in item[0])
