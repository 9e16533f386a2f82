"""The two reads and the write every move and every tick makes, with SQL the ORM builds once
per database.

Django builds a query's SQL afresh each time it runs it. For the room's locked row and its
seats (with their users), which every move and every tick reads, building the SQL took
longer than running it: on one mid-hand room, 0.35 ms against 0.15 ms for the room and
0.48 ms against about 0.15 ms for the seats. Here the ORM builds each once, from the same
QuerySet the code would otherwise run, and later calls only bind the parameter, then turn
the rows into models the way the ORM does (its converters, ``Model.from_db``), so the
objects are the ones the QuerySet would give. The room's write back (:func:`room_save`)
likewise: ``Model.save(update_fields=...)`` built its UPDATE each time (232 us against 81
us for the same statement, JSON encoding included).

>>> from tables.prepared import room_locked, room_seats  # doctest: +SKIP
>>> with transaction.atomic():  # doctest: +SKIP
...     room = room_locked("123456")
...     seats = room_seats(room)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any

from django.db import DatabaseError, connection
from django.db.models import Field, Q
from django.db.models.expressions import Expression
from django.db.models.sql import Query, UpdateQuery
from django.db.transaction import TransactionManagementError

from accounts.models import User
from tables.models import Room, Seat

__all__ = ["ROOM_SAVED", "room_locked", "room_save", "room_seats"]

ROOM_SAVED = ("state", "version", "deadline", "turn_deadline", "status", "moved_at")
"""The room's fields a change writes back (:func:`tables.table.table_save`)."""

_NUMBER = "room-number"
_ROOM_ID = -7331
"""Stand for the parameter while the SQL is built: each must come back as the only one."""


def _built(query: Query, alias: str, mark: object) -> tuple[str, Any]:
    compiler = query.get_compiler(alias)
    sql, params = compiler.as_sql()
    if tuple(params) != (mark,):
        raise AssertionError(f"unexpected parameters {params!r} in {sql}")
    return str(sql), compiler


def room_locked(number: str) -> Room | None:
    """Room ``number`` with its row locked until the transaction ends, or None.

    Like ``select_for_update``, refused outside a transaction: a lock that ends at once
    protects nothing."""
    if connection.get_autocommit():
        raise TransactionManagementError("room_locked() must run inside transaction.atomic().")
    return next(iter(Room.objects.raw(_room_locked_sql(connection.alias), [number])), None)


@cache
def _room_locked_sql(alias: str) -> str:
    query = Room.objects.select_for_update().filter(number=_NUMBER).order_by()[:1].query
    return _built(query, alias, _NUMBER)[0]


@dataclass(frozen=True)
class _SeatsRead:
    sql: str
    columns: list[Expression]
    seat_names: list[str]
    user_names: list[str]
    user_pk: int
    """Where the user's primary key sits in a row (None there: an empty or a bot's seat)."""


def room_seats(room: Room) -> list[Seat]:
    """The room's seats in order, each with its user loaded (``select_related("user")``)."""
    read = _seats_read(connection.alias)
    with connection.cursor() as cursor:
        cursor.execute(read.sql, [room.pk])
        rows: Any = cursor.fetchall()
    compiler = connection.ops.compiler("SQLCompiler")(Query(Seat), connection, connection.alias)
    converters = compiler.get_converters(read.columns)
    if converters:
        rows = compiler.apply_converters(rows, converters)
    split = len(read.seat_names)
    user_field = Seat._meta.get_field("user")
    seats = []
    for row in rows:
        seat = Seat.from_db(connection.alias, read.seat_names, row[:split])
        user = None
        if row[split + read.user_pk] is not None:
            user = User.from_db(connection.alias, read.user_names, row[split:])
        user_field.set_cached_value(seat, user)
        seats.append(seat)
    return seats


@cache
def _seats_read(alias: str) -> _SeatsRead:
    query = Seat.objects.filter(room_id=_ROOM_ID).select_related("user").order_by("index").query
    sql, compiler = _built(query, alias, _ROOM_ID)
    columns = [expression for expression, _sql, _alias in compiler.select]
    seat_names = [c.target.attname for c in columns if c.target.model is Seat]
    user_names = [c.target.attname for c in columns if c.target.model is User]
    if [c.target.model for c in columns] != [Seat] * len(seat_names) + [User] * len(user_names):
        raise AssertionError(f"the seats' columns come before the user's in {sql}")
    return _SeatsRead(
        sql=sql,
        columns=columns,
        seat_names=seat_names,
        user_names=user_names,
        user_pk=user_names.index(User._meta.pk.attname),
    )


def room_save(room: Room) -> None:
    """Write the room's :data:`ROOM_SAVED` fields, as ``room.save(update_fields=ROOM_SAVED)``
    would (no model of ours listens to its signals); each value is prepared for the
    database by its field, as the ORM does."""
    sql, fields = _room_save_sql(connection.alias)
    params = [f.get_db_prep_save(getattr(room, f.attname), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, room.pk])
        if cursor.rowcount != 1:
            raise DatabaseError(f"room {room.pk}: the change was not saved (no such row)")


@cache
def _room_save_sql(alias: str) -> tuple[str, list[Field[Any, Any]]]:
    fields = [f for f in Room._meta.concrete_fields if f.name in ROOM_SAVED]
    if len(fields) != len(ROOM_SAVED):
        raise AssertionError(f"not all of {ROOM_SAVED} are the room's own columns")
    # Values of each field's type, none of them None (the ORM writes a None as NULL in the
    # SQL itself, not as a parameter); the real values are bound per call.
    sample = datetime(2026, 1, 1, tzinfo=UTC)
    samples = {"state": {}, "version": 0, "status": Room.Status.WAITING}
    query = UpdateQuery(Room)
    query.add_update_values({f.name: samples.get(f.name, sample) for f in fields})
    query.add_q(Q(pk=_ROOM_ID))
    sql, params = query.get_compiler(alias).as_sql()
    if len(params) != len(fields) + 1 or params[-1] != _ROOM_ID or sql.count("%s") != len(params):
        raise AssertionError(f"unexpected parameters {params!r} in {sql}")
    return str(sql), fields
