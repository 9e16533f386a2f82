from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from ledger.seeding import SeededBook, book_seed


@pytest.fixture
def book(db: None) -> SeededBook:
    """120 synthetic hands among 6 players in matches of 40 (the first with a bot seat)."""
    return book_seed(hands=120, players=6, per_match=40, seed=7)


@pytest.fixture
def me_client(book: SeededBook) -> Any:
    client = Client()
    client.force_login(book.players[0])
    return client
