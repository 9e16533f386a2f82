"""``python -m tests.load.book``: seed a book in a scratch database and time the book's pages
(queries and median render time through the test client), as the book's first player sees
them; ``--club`` gives the book to one club of its players and times the club's pages as its
圈主 sees them instead.

    python -m tests.load.book --hands 10000 --repeat 7
    python -m tests.load.book --club --hands 10000 --repeat 3

The scratch database is Django's test database for the configured one (``DATABASE_URL``):
created here, dropped at the end.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Sequence
from typing import Any


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.load.book", description=__doc__)
    parser.add_argument("--hands", type=int, default=10000)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--per-match", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--club", action="store_true", help="time a club's pages instead")
    options = vars(parser.parse_args(argv))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        _run(options)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return 0


def _run(options: dict[str, Any]) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tests.load.seeded_book import book_seed

    started = time.perf_counter()
    book = book_seed(
        hands=options["hands"], players=options["players"], per_match=options["per_match"]
    )
    seeded = time.perf_counter() - started
    client = Client()
    client.force_login(book.players[0])
    pages = club_pages(book) if options["club"] else book_pages(book, options["per_match"])
    print(
        f"seeded {options['hands']} hands among {options['players']} players "
        f"in {seeded:.1f} s ({connection.vendor})"
    )
    print(f"{'page':<28} {'queries':>7} {'median ms':>10} {'bytes':>9}")
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
        print(f"{name:<28} {queries:>7} {ms:>10.1f} {size:>9}")


def book_pages(book: Any, per_match: int) -> dict[str, str]:
    """The book's pages, as its first player sees them."""
    from django.urls import reverse

    return {
        "my page": reverse("ledger:book"),
        "pairwise": reverse("ledger:pair", args=[book.players[1].pk]),
        f"score sheet ({per_match} hands)": reverse("ledger:sheet", args=[book.matches[-1].pk]),
        "CSV": reverse("ledger:export"),
        "my matches": reverse("ledger:matches"),
    }


def club_pages(book: Any) -> dict[str, str]:
    """The book given to one club of its players, and the club's pages as its 圈主 sees them."""
    from django.urls import reverse

    from clubs import services
    from clubs.models import Membership
    from tables.models import Room

    club = services.club_create(owner=book.players[0], name="bench")
    Membership.objects.bulk_create(
        Membership(club=club, user=u, status=Membership.Status.ACTIVE) for u in book.players[1:]
    )
    Room.objects.update(club=club)
    return {
        "club home (tonight)": reverse("clubs:home", args=[club.number]),
        "club book, this month": reverse("clubs:book", args=[club.number]) + "?period=month",
        "club book, all time": reverse("clubs:book", args=[club.number]) + "?period=all",
        "settle the evening": reverse("clubs:settle", args=[club.number]),
        "club CSV": reverse("clubs:csv", args=[club.number]),
        "club record": reverse("clubs:audit", args=[club.number]),
    }


def _body(response: Any) -> bytes:
    if response.streaming:
        return b"".join(response.streaming_content)
    return bytes(response.content)


if __name__ == "__main__":
    raise SystemExit(main())
