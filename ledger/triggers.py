"""The database's own refusal to change the book: triggers that reject UPDATE and DELETE on
``ledger_entry``, per vendor, so not even raw SQL or a stray admin can rewrite an entry.

>>> sorted(CREATE)
['postgresql', 'sqlite']
"""

from __future__ import annotations

from django.db.backends.base.base import BaseDatabaseWrapper

MESSAGE = "ledger_entry is append-only: entries are never changed or removed"

CREATE: dict[str, list[str]] = {
    "sqlite": [
        f"""CREATE TRIGGER IF NOT EXISTS ledger_entry_no_{verb.lower()}
        BEFORE {verb} ON ledger_entry
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END"""
        for verb in ("UPDATE", "DELETE")
    ],
    "postgresql": [
        f"""CREATE OR REPLACE FUNCTION ledger_entry_append_only() RETURNS trigger AS $$
        BEGIN RAISE EXCEPTION '{MESSAGE}'; END; $$ LANGUAGE plpgsql""",
        "DROP TRIGGER IF EXISTS ledger_entry_append_only ON ledger_entry",
        """CREATE TRIGGER ledger_entry_append_only
        BEFORE UPDATE OR DELETE ON ledger_entry
        FOR EACH ROW EXECUTE FUNCTION ledger_entry_append_only()""",
    ],
}

DROP: dict[str, list[str]] = {
    "sqlite": [
        "DROP TRIGGER IF EXISTS ledger_entry_no_update",
        "DROP TRIGGER IF EXISTS ledger_entry_no_delete",
    ],
    "postgresql": [
        "DROP TRIGGER IF EXISTS ledger_entry_append_only ON ledger_entry",
        "DROP FUNCTION IF EXISTS ledger_entry_append_only()",
    ],
}


def statements(kind: dict[str, list[str]], connection: BaseDatabaseWrapper) -> list[str]:
    """The statements of ``kind`` (CREATE or DROP) for this connection's database."""
    return kind.get(connection.vendor, [])


def install(connection: BaseDatabaseWrapper) -> None:
    """Add the triggers (again): they are idempotent."""
    with connection.cursor() as cursor:
        for sql in statements(CREATE, connection):
            cursor.execute(sql)


def remove(connection: BaseDatabaseWrapper) -> None:
    with connection.cursor() as cursor:
        for sql in statements(DROP, connection):
            cursor.execute(sql)
