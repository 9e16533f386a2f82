"""``manage.py flush`` that also empties the book.

Emptying the whole database is the one deliberate exception to the book's append-only rule.
PostgreSQL's flush is a TRUNCATE, which the row triggers let through; SQLite's is a DELETE per
table, which they refuse, so here they step aside for the flush and are put back after it.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import flush
from django.db import connections

from ledger import triggers


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        connection = connections[options["database"]]
        if (
            connection.vendor != "sqlite"
            or "ledger_entry" not in connection.introspection.table_names()
        ):
            super().handle(**options)
            return
        triggers.remove(connection)
        try:
            super().handle(**options)
        finally:
            triggers.install(connection)
