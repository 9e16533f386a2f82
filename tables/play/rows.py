"""The two reads and the write every move and every tick makes, with SQL the ORM builds once
per database.

Django builds a query's SQL afresh each time it runs it. For the room's locked row and its
seats (with their users), which every move and every tick reads, building the SQL takes
longer than running it. Here the ORM builds each once, from the same QuerySet the code would
otherwise run, and later calls only bind the parameter, then turn the rows into models the
way the ORM does (its converters, ``Model.from_db``), so the objects are the ones the
QuerySet would give. The room's row is read the same way, not through ``RawQuerySet``
(which works out its columns and converters on every call), and the converters are found
once per connection. The room's write back (:func:`room_save`) likewise:
``Model.save(update_fields=...)`` builds its UPDATE each time.

A move and a tick want both reads at once: :func:`room_locked_with_seats` sends them to
PostgreSQL in one round trip, which the one database thread of a process no longer waits
for twice (nor for the GIL twice after).

>>> from tables.play.rows import room_locked, room_seats  # doctest: +SKIP
>>> with transaction.atomic():  # doctest: +SKIP
...     room = room_locked("123456")
...     seats = room_seats(room)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any
from weakref import WeakKeyDictionary

from django.db import DatabaseError, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model, Q
from django.db.models.expressions import Expression
from django.db.models.sql import Query, UpdateQuery
from django.db.transaction import TransactionManagementError

from accounts.models import User
from tables.models import Room, Seat

__all__ = ["ROOM_SAVED", "room_locked", "room_locked_with_seats", "room_save", "room_seats"]

ROOM_SAVED = ("state", "version", "deadline", "turn_deadline", "status", "moved_at")
"""The room's fields a change writes back (:func:`tables.play.table.table_save`)."""

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
    _refuse_autocommit("room_locked")
    read = _room_read(connection.alias)
    return _room_of(read, _rows(read, number))


def room_seats(room: Room) -> list[Seat]:
    """The room's seats in order, each with its user loaded (``select_related("user")``)."""
    read = _seats_read(connection.alias, "room_id", _ROOM_ID)
    return _seats_of(read, _rows(read, room.pk))


def room_locked_with_seats(number: str) -> tuple[Room | None, list[Seat]]:
    """:func:`room_locked` and then :func:`room_seats` (no seats when there is no room).

    The seats are read once the lock is held, so a seat changed by the transaction that
    held it before is seen as it committed. On PostgreSQL the two SELECTs go as one query
    string: one round trip, and each statement still takes its own snapshot in READ
    COMMITTED, the second after the first has the lock. (One SELECT joining the seats
    would not do: when it waits for the lock, the rows it joins are those of before the
    wait.) Elsewhere, and where the cursor binds parameters on the server (which refuses
    two statements in one), they are two queries."""
    _refuse_autocommit("room_locked_with_seats")
    if connection.vendor != "postgresql" or connection.settings_dict["OPTIONS"].get(
        "server_side_binding"
    ):
        room = room_locked(number)
        return room, ([] if room is None else room_seats(room))
    lock = _room_read(connection.alias)
    seats = _seats_read(connection.alias, "room__number", _NUMBER)
    with connection.cursor() as cursor:
        cursor.execute(f"{lock.sql}; {seats.sql}", [number, number])
        room = _room_of(lock, _converted(lock, cursor.fetchall()))
        if not cursor.nextset():
            raise DatabaseError("the seats' result did not come back with the room's")
        return room, _seats_of(seats, _converted(seats, cursor.fetchall()))


def _refuse_autocommit(name: str) -> None:
    if connection.get_autocommit():
        raise TransactionManagementError(f"{name}() must run inside transaction.atomic().")


def _room_of(read: _Read, rows: list[Any]) -> Room | None:
    return Room.from_db(connection.alias, read.names, rows[0]) if rows else None


def _seats_of(read: _Read, rows: list[Any]) -> list[Seat]:
    split = read.split
    user_field = Seat._meta.get_field("user")
    seats = []
    for row in rows:
        seat = Seat.from_db(connection.alias, read.names[:split], row[:split])
        user = None
        if row[read.user_pk] is not None:
            user = User.from_db(connection.alias, read.names[split:], row[split:])
        user_field.set_cached_value(seat, user)
        seats.append(seat)
    return seats


@dataclass(frozen=True)
class _Read:
    """A SELECT the ORM built once: its SQL, its columns and their attribute names; for the
    seats, where the user's columns start and where the user's primary key sits (None
    there: an empty or a bot's seat)."""

    sql: str
    model: type[Model]
    columns: list[Expression]
    names: list[str]
    split: int = 0
    user_pk: int = 0


@cache
def _room_read(alias: str) -> _Read:
    query = Room.objects.select_for_update().filter(number=_NUMBER).order_by()[:1].query
    sql, compiler = _built(query, alias, _NUMBER)
    columns = [expression for expression, _sql, _alias in compiler.select]
    return _Read(sql, Room, columns, [c.target.attname for c in columns])


@cache
def _seats_read(alias: str, by: str, mark: str | int) -> _Read:
    """The seats with their users, in order, of the room whose ``by`` is the parameter."""
    query = Seat.objects.filter(**{by: mark}).select_related("user").order_by("index").query
    sql, compiler = _built(query, alias, mark)
    columns = [expression for expression, _sql, _alias in compiler.select]
    models = [c.target.model for c in columns]
    split = models.count(Seat)
    if models != [Seat] * split + [User] * (len(models) - split):
        raise AssertionError(f"the seats' columns come before the user's in {sql}")
    names = [c.target.attname for c in columns]
    user_pk = split + names[split:].index(User._meta.pk.attname)
    return _Read(sql, Seat, columns, names, split=split, user_pk=user_pk)


_converters: WeakKeyDictionary[BaseDatabaseWrapper, dict[str, Any]] = WeakKeyDictionary()
"""Per connection and read: the ORM's converters of its columns (finding them each time
cost more than applying them)."""


def _rows(read: _Read, param: str | int) -> list[Any]:
    """``read``'s rows for ``param``, each value turned into Python's as the ORM does."""
    with connection.cursor() as cursor:
        cursor.execute(read.sql, [param])
        return _converted(read, cursor.fetchall())


def _converted(read: _Read, rows: list[Any]) -> list[Any]:
    """``read``'s rows with each value turned into Python's as the ORM does."""
    real = connections[connection.alias]
    compiler = real.ops.compiler("SQLCompiler")(Query(read.model), real, real.alias)
    known = _converters.setdefault(real, {})
    converters = known.get(read.sql)
    if converters is None:
        converters = known[read.sql] = compiler.get_converters(read.columns)
    return list(compiler.apply_converters(rows, converters)) if converters else rows


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
