"""Fixtures for the book's tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from tables.models import Room
from tables.play import clock
from tests.load.seeded_book import SeededBook, book_seed
from tests.tables.factories import start_with_bots


@pytest.fixture
def english() -> Any:
    """Messages are matched in English (the site's source language)."""
    with translation.override("en"):
        yield


@pytest.fixture
def staff(make_user: Callable[..., Any]) -> Any:
    boss = make_user("boss")
    boss.is_staff = True
    boss.save()
    return boss


@pytest.fixture
def bob(make_user: Callable[..., Any]) -> Any:
    return make_user("bob", display_name="小明")


@pytest.fixture
def book(db: None) -> SeededBook:
    """120 synthetic hands among 6 players in matches of 40 (the first with a bot seat)."""
    return book_seed(hands=120, players=6, per_match=40, seed=7)


@pytest.fixture
def me_client(book: SeededBook) -> Any:
    client = Client()
    client.force_login(book.players[0])
    return client


def play_match(user: Any, *, hands: int, seed: str) -> Room:
    """Bots (and seat 0 on 托管) play a whole match of ``hands`` hands from a known first deal."""
    room = start_with_bots(user, hands=hands, tuoguan=True, seed=seed)
    for _ in range(20_000):
        room.refresh_from_db()
        if room.status == Room.Status.FINISHED:
            return room
        assert room.deadline is not None
        clock.advance(room.number, now=room.deadline)
    raise AssertionError("the match never ended")


@pytest.fixture
def play() -> Callable[..., Room]:
    """``play(user, hands=3, seed="x")``: a finished match of bots and ``user`` on 托管."""
    return play_match
