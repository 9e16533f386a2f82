"""The book's pages: who may see what, in which language, and at a constant query cost."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from ledger.seeding import SeededBook, book_seed


def _pages(book: SeededBook) -> list[str]:
    return [
        reverse("ledger"),
        reverse("ledger") + "?period=month",
        reverse("ledger_pair", args=[book.players[1].pk]),
        reverse("ledger_bot", args=[book.bot_room.number, 3]),
        reverse("ledger_matches"),
        reverse("score_sheet", args=[book.matches[0].pk]),
        reverse("score_sheet_csv", args=[book.matches[0].pk]),
        reverse("ledger_export"),
    ]


def _queries(hands: int, seed: int) -> list[int]:
    book = book_seed(hands=hands, players=8, per_match=hands, seed=seed, prefix=f"s{seed}-")
    client = Client()
    client.force_login(book.players[0])
    counts = []
    for url in _pages(book):
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200, url
        counts.append(len(ctx.captured_queries))
    return counts


def test_query_counts_do_not_grow_with_the_hands(db: None) -> None:
    assert _queries(10, 1) == _queries(100, 2)


def test_pages_need_a_login(client: Client, book: SeededBook) -> None:
    for url in _pages(book):
        assert client.get(url).status_code == 302, url


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("zh-hans", ["累计积分", "记分表", "积分", "战绩"]),
        ("en", ["Cumulative points", "Score sheet"]),
    ],
)
def test_sheet_and_chart_speak_the_page_language(
    me_client: Any, book: SeededBook, language: str, words: list[str]
) -> None:
    page = me_client.get(
        reverse("score_sheet", args=[book.matches[0].pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    assert "<svg" in page and "<script" not in page.split("<svg", 1)[1]
    for word in words:
        assert word in page


def test_my_page_has_a_chart_and_links_each_counterparty(me_client: Any, book: SeededBook) -> None:
    page = me_client.get(reverse("ledger"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "<svg" in page
    assert reverse("ledger_pair", args=[book.players[1].pk]) in page
    assert reverse("ledger_bot", args=[book.bot_room.number, 3]) in page


def test_a_stranger_gets_a_friendly_404(book: SeededBook) -> None:
    stranger = User.objects.create(username="stranger")
    client = Client()
    client.force_login(stranger)
    for name in ("score_sheet", "score_sheet_csv"):
        response = client.get(reverse(name, args=[book.matches[0].pk]), HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 404
    assert "only to the players of its room" in response.content.decode()


def test_matches_link_to_their_sheets(me_client: Any, book: SeededBook) -> None:
    page = me_client.get(reverse("ledger_matches")).content.decode()
    for match in book.matches:
        assert reverse("score_sheet", args=[match.pk]) in page
