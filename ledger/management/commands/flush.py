"""``manage.py flush`` that also empties the book.

Emptying the whole database is the one deliberate exception to the book's append-only rule
(a test tool; ``docs/web.md`` says so). The book's triggers refuse what a flush does (SQLite
deletes each table's rows, PostgreSQL truncates them), so here they step aside for the flush
and are put back after it.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import flush
from django.db import connections

from ledger import triggers


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        connection = connections[options["database"]]
        if "ledger_entry" not in connection.introspection.table_names():
            super().handle(**options)
            return
        triggers.remove(connection)
        try:
            super().handle(**options)
        finally:
            triggers.install(connection)
