"""The database's own refusal to change the book, per vendor, so not even raw SQL or a stray
admin can rewrite it: no UPDATE, DELETE or REPLACE of an entry on either database, no TRUNCATE
on PostgreSQL, and a settle-up claim whose answer, once given, never changes (so it books at
most one entry: its ``entry`` is set once, with the answer, and is unique).

SQLite's ``INSERT OR REPLACE`` deletes the old row without firing a DELETE trigger (unless
``recursive_triggers`` is on for that connection), so a ``BEFORE INSERT`` check refuses an id
that is already taken instead.

>>> sorted(CREATE)
['postgresql', 'sqlite']
"""

from __future__ import annotations

from django.db.backends.base.base import BaseDatabaseWrapper

MESSAGE = "ledger_entry is append-only: entries are never changed or removed"
CLAIM_MESSAGE = "a settle-up claim is answered once and for all"

_CLAIM = "ledger_settlementclaim"
_STATUSES = "('proposed', 'confirmed', 'disputed', 'expired')"
# Refused: a status outside the list, or any change of status or entry once answered.
_CLAIM_MOVES_BACK = (
    f"NEW.status NOT IN {_STATUSES} OR (OLD.status <> 'proposed' AND "
    "(NEW.status <> OLD.status OR NEW.entry_id IS NOT OLD.entry_id))"
)

CREATE: dict[str, list[str]] = {
    "sqlite": [
        *(
            f"""CREATE TRIGGER IF NOT EXISTS ledger_entry_no_{verb.lower()}
            BEFORE {verb} ON ledger_entry
            BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END"""
            for verb in ("UPDATE", "DELETE")
        ),
        f"""CREATE TRIGGER IF NOT EXISTS ledger_entry_no_replace
        BEFORE INSERT ON ledger_entry
        WHEN EXISTS (SELECT 1 FROM ledger_entry WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END""",
        f"""CREATE TRIGGER IF NOT EXISTS ledger_claim_no_replace
        BEFORE INSERT ON {_CLAIM}
        WHEN EXISTS (SELECT 1 FROM {_CLAIM} WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, '{CLAIM_MESSAGE}'); END""",
        f"""CREATE TRIGGER IF NOT EXISTS ledger_claim_forward
        BEFORE UPDATE ON {_CLAIM}
        WHEN {_CLAIM_MOVES_BACK}
        BEGIN SELECT RAISE(ABORT, '{CLAIM_MESSAGE}'); END""",
        f"""CREATE TRIGGER IF NOT EXISTS ledger_claim_no_delete
        BEFORE DELETE ON {_CLAIM}
        WHEN OLD.status <> 'proposed'
        BEGIN SELECT RAISE(ABORT, '{CLAIM_MESSAGE}'); END""",
    ],
    "postgresql": [
        f"""CREATE OR REPLACE FUNCTION ledger_entry_append_only() RETURNS trigger AS $$
        BEGIN RAISE EXCEPTION '{MESSAGE}'; END; $$ LANGUAGE plpgsql""",
        "DROP TRIGGER IF EXISTS ledger_entry_append_only ON ledger_entry",
        """CREATE TRIGGER ledger_entry_append_only
        BEFORE UPDATE OR DELETE ON ledger_entry
        FOR EACH ROW EXECUTE FUNCTION ledger_entry_append_only()""",
        "DROP TRIGGER IF EXISTS ledger_entry_no_truncate ON ledger_entry",
        """CREATE TRIGGER ledger_entry_no_truncate
        BEFORE TRUNCATE ON ledger_entry
        FOR EACH STATEMENT EXECUTE FUNCTION ledger_entry_append_only()""",
        f"""CREATE OR REPLACE FUNCTION ledger_claim_forward() RETURNS trigger AS $$
        BEGIN
          IF TG_OP = 'DELETE' THEN
            IF OLD.status <> 'proposed' THEN RAISE EXCEPTION '{CLAIM_MESSAGE}'; END IF;
            RETURN OLD;
          END IF;
          IF {_CLAIM_MOVES_BACK.replace("IS NOT OLD", "IS DISTINCT FROM OLD")} THEN
            RAISE EXCEPTION '{CLAIM_MESSAGE}';
          END IF;
          RETURN NEW;
        END; $$ LANGUAGE plpgsql""",
        f"DROP TRIGGER IF EXISTS ledger_claim_forward ON {_CLAIM}",
        f"""CREATE TRIGGER ledger_claim_forward
        BEFORE UPDATE OR DELETE ON {_CLAIM}
        FOR EACH ROW EXECUTE FUNCTION ledger_claim_forward()""",
    ],
}

DROP: dict[str, list[str]] = {
    "sqlite": [
        f"DROP TRIGGER IF EXISTS {name}"
        for name in (
            "ledger_entry_no_update",
            "ledger_entry_no_delete",
            "ledger_entry_no_replace",
            "ledger_claim_no_replace",
            "ledger_claim_forward",
            "ledger_claim_no_delete",
        )
    ],
    "postgresql": [
        "DROP TRIGGER IF EXISTS ledger_entry_append_only ON ledger_entry",
        "DROP TRIGGER IF EXISTS ledger_entry_no_truncate ON ledger_entry",
        "DROP FUNCTION IF EXISTS ledger_entry_append_only()",
        f"DROP TRIGGER IF EXISTS ledger_claim_forward ON {_CLAIM}",
        "DROP FUNCTION IF EXISTS ledger_claim_forward()",
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
