"""Model fields of our own.

:class:`OrjsonField` is the room's state: about 5 KB of the engine's JSON, written with every
move and tick, so its encoding is on every change's path: orjson encodes it about ten times
as fast as the standard library.
"""

from __future__ import annotations

from typing import Any

import orjson
from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg.types.json import Jsonb

__all__ = ["OrjsonField"]


class OrjsonField(models.JSONField):
    """A ``JSONField`` whose saved values are encoded by orjson.

    Only saving: lookups and reads stay the ORM's. Reading stays the standard library's,
    since orjson would read an integer past 64 bits back as a float, where encoding one only
    fails. What orjson refuses (an int past 64 bits, a key that is not a string) is encoded
    as ``JSONField`` encodes it. orjson writes a NaN or an infinity as null (json as a token
    only Python reads back); the state's numbers are counts, seats and timestamps, never
    either.

    >>> from django.db import connection
    >>> OrjsonField().get_db_prep_save({"a": [1, 2]}, connection)  # doctest: +SKIP
    '{"a":[1,2]}'
    """

    def deconstruct(self) -> Any:
        # The column is a JSONField's, and only how Python encodes a value differs: to the
        # migrations it is one, so adopting it altered nothing (on SQLite an AlterField would
        # copy the whole table of rooms).
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.JSONField", args, kwargs

    def get_db_prep_save(self, value: Any, connection: BaseDatabaseWrapper) -> Any:
        if value is None or hasattr(value, "as_sql") or self.encoder is not None:
            return super().get_db_prep_save(value, connection)  # NULL, expressions
        try:
            encoded = orjson.dumps(value)
        except TypeError:
            return super().get_db_prep_save(value, connection)
        if connection.vendor == "postgresql":
            return Jsonb(value, dumps=lambda _value: encoded)
        return encoded.decode()
