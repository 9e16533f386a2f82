"""``manage.py ledger_verify``: recompute every running total from the raw entries and
exit 1, listing each, if any stored figure differs."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from ledger import verify
from ledger.models import DayTally, Entry, PairBalance, PatternTally, Sitting
from tables.models import Hand


class Command(BaseCommand):
    help = "Recompute the book's running totals from its entries; exit 1 on any difference."

    def handle(self, *args: Any, **options: Any) -> None:
        want = verify.expected(Entry, Sitting, Hand)
        have = verify.stored(PairBalance, DayTally, PatternTally)
        lines = list(verify.differences(want, have))
        for line in lines:
            self.stderr.write(line)
        if lines:
            raise CommandError(f"{len(lines)} running totals differ from the entries", returncode=1)
        self.stdout.write(
            f"ok: {len(have['pair'])} balances, {len(have['day'])} day tallies and "
            f"{len(have['pattern'])} pattern counts match the entries"
        )
