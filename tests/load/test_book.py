"""tests.load.book: the book's benchmark times every page of the book, or of a club, and
refuses to time a page that does not answer 200."""

from __future__ import annotations

import subprocess
import sys

import pytest

# Each runs the benchmark in a subprocess with a scratch database of its own.
pytestmark = pytest.mark.slow

BOOK_PAGES = ["my page", "pairwise", "score sheet (20 hands)", "CSV", "my matches"]
CLUB_PAGES = [
    "club home (tonight)",
    "club book, this month",
    "club book, all time",
    "settle the evening",
    "club CSV",
    "club record",
]


def bench(*args: str) -> list[str]:
    """The page names the benchmark printed a row for, in order."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.load.book", "--hands", "60", "--repeat", "1", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin"},
        check=True,
    )
    rows = done.stdout.splitlines()[2:]
    return [row[:28].rstrip() for row in rows]


@pytest.mark.parametrize(("args", "pages"), [((), BOOK_PAGES), (("--club",), CLUB_PAGES)])
def test_every_page_is_timed(args: tuple[str, ...], pages: list[str]) -> None:
    assert bench("--per-match", "20", *args) == pages
