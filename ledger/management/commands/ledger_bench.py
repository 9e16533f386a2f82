"""``manage.py ledger_bench --hands 10000``: seed a book in a scratch database and measure
the book's pages (queries and median render time through the test client)."""

from __future__ import annotations

import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, setup_test_environment
from django.urls import reverse

from ledger.seeding import SeededBook, book_seed


class Command(BaseCommand):
    help = "Seed a synthetic book in a scratch database and time the ledger pages."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=10000)
        parser.add_argument("--players", type=int, default=8)
        parser.add_argument("--per-match", type=int, default=500)
        parser.add_argument("--repeat", type=int, default=5)

    def handle(self, *args: Any, **options: Any) -> None:
        setup_test_environment()
        old_name = connection.settings_dict["NAME"]
        # The scratch database is the test database: created here, dropped at the end.
        connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            self._run(options)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)

    def _run(self, options: dict[str, Any]) -> None:
        started = time.perf_counter()
        book = book_seed(
            hands=options["hands"], players=options["players"], per_match=options["per_match"]
        )
        seeded = time.perf_counter() - started
        client = Client()
        client.force_login(book.players[0])
        pages = self.pages(book, options)
        self.stdout.write(
            f"seeded {options['hands']} hands among {options['players']} players "
            f"in {seeded:.1f} s ({connection.vendor})"
        )
        self.stdout.write(f"{'page':<28} {'queries':>7} {'median ms':>10} {'bytes':>9}")
        for name, url in pages.items():
            with CaptureQueriesContext(connection) as ctx:
                response = client.get(url)
                size = len(_body(response))
            assert response.status_code == 200, (url, response.status_code)
            queries = len(ctx.captured_queries)
            times = []
            for _ in range(options["repeat"]):
                t0 = time.perf_counter()
                _body(client.get(url))  # a streamed CSV costs what reading it all costs
                times.append(time.perf_counter() - t0)
            ms = statistics.median(times) * 1000
            self.stdout.write(f"{name:<28} {queries:>7} {ms:>10.1f} {size:>9}")

    def pages(self, book: SeededBook, options: dict[str, Any]) -> dict[str, str]:
        """The pages to time, as the book's first player sees them."""
        return {
            "my page": reverse("ledger:book"),
            "pairwise": reverse("ledger:pair", args=[book.players[1].pk]),
            f"score sheet ({options['per_match']} hands)": reverse(
                "ledger:sheet", args=[book.matches[-1].pk]
            ),
            "CSV": reverse("ledger:export"),
            "my matches": reverse("ledger:matches"),
        }


def _body(response: Any) -> bytes:
    if response.streaming:
        return b"".join(response.streaming_content)
    return bytes(response.content)
