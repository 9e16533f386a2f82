"""The book's pages: who may see what, in which language, at a constant query cost; the
settle-up page and the staff correction form."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from ledger import services
from ledger.models import Entry, SettlementClaim
from ledger.settle_up import Payment
from tables.models import Hand
from tests.load.seeded_book import SeededBook, book_seed
from tests.tables.factories import start_with_bots


def _pages(book: SeededBook) -> list[str]:
    return [
        reverse("ledger:book"),
        reverse("ledger:book") + "?period=month",
        reverse("ledger:pair", args=[book.players[1].pk]),
        reverse("ledger:bot", args=[book.bot_room.number, 3]),
        reverse("ledger:matches"),
        reverse("ledger:sheet", args=[book.matches[0].pk]),
        reverse("ledger:sheet_csv", args=[book.matches[0].pk]),
        reverse("ledger:export"),
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
        reverse("ledger:sheet", args=[book.matches[0].pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    assert "<svg" in page and "<script" not in page.split("<svg", 1)[1]
    for word in words:
        assert word in page


def test_my_page_has_a_chart_and_links_each_counterparty(me_client: Any, book: SeededBook) -> None:
    page = me_client.get(reverse("ledger:book"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "<svg" in page
    assert reverse("ledger:pair", args=[book.players[1].pk]) in page
    assert reverse("ledger:bot", args=[book.bot_room.number, 3]) in page


def test_a_stranger_gets_a_friendly_404(book: SeededBook) -> None:
    stranger = User.objects.create(username="stranger")
    client = Client()
    client.force_login(stranger)
    for name in ("ledger:sheet", "ledger:sheet_csv"):
        response = client.get(reverse(name, args=[book.matches[0].pk]), HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 404
    assert "only to the players of its room" in response.content.decode()


def test_matches_link_to_their_sheets(me_client: Any, book: SeededBook) -> None:
    page = me_client.get(reverse("ledger:matches")).content.decode()
    for match in book.matches:
        assert reverse("ledger:sheet", args=[match.pk]) in page


@pytest.fixture
def played(user: Any, bob: Any) -> Any:
    """alice and bob shared a hand: bob paid alice 9."""
    room = start_with_bots(user, seed="views-played")
    services.hand_entries_create(
        hand=room.hands.get(),
        users=[user, bob, None, None],
        transfers=[{"payer": 1, "payee": 0, "points": 9, "reason": "self_draw"}],
    )
    return room


def test_settle_up_needs_a_login(client: Client) -> None:
    assert client.get("/ledger/settle/").status_code == 302
    assert client.get("/ledger/correction/").status_code == 302


def test_record_then_the_other_confirms(client: Client, user: Any, bob: Any, played: Any) -> None:
    client.force_login(bob)
    page = client.get("/ledger/settle/", {"room": played.number})
    html = page.content.decode()
    assert page.status_code == 200 and 'name="points"' in html
    assert page.context["suggestion"] == [Payment(bob, user, 9)]
    reply = client.post(
        "/ledger/settle/", {"other": user.pk, "direction": "i_paid", "points": 9, "note": "cash"}
    )
    assert reply.status_code == 302
    claim = SettlementClaim.objects.get()
    assert (claim.payer, claim.payee, claim.recorded_by, claim.points) == (bob, user, bob, 9)
    # bob cannot answer his own claim; alice sees it waiting and confirms.
    client.post(f"/ledger/settle/{claim.pk}/", {"answer": "confirm"})
    claim.refresh_from_db()
    assert claim.status == "proposed"
    client.force_login(user)
    assert "cash" in client.get("/ledger/settle/").content.decode()
    assert client.post(f"/ledger/settle/{claim.pk}/", {"answer": "confirm"}).status_code == 302
    claim.refresh_from_db()
    assert claim.status == "confirmed"
    assert Entry.objects.filter(kind=Entry.Kind.SETTLEMENT, points=9).count() == 1


def test_dispute_keeps_it_out(client: Client, user: Any, bob: Any, played: Any) -> None:
    client.force_login(user)
    client.post("/ledger/settle/", {"other": bob.pk, "direction": "they_paid", "points": 5})
    claim = SettlementClaim.objects.get()
    assert (claim.payer, claim.payee) == (bob, user)
    client.force_login(bob)
    client.post(f"/ledger/settle/{claim.pk}/", {"answer": "dispute"})
    claim.refresh_from_db()
    assert claim.status == "disputed"
    assert not Entry.objects.filter(kind=Entry.Kind.SETTLEMENT).exists()


def test_one_can_settle_only_with_people_one_played_with(
    client: Client, user: Any, make_user: Any
) -> None:
    stranger = make_user("stranger")
    client.force_login(user)
    reply = client.post(
        "/ledger/settle/", {"other": stranger.pk, "direction": "i_paid", "points": 5}
    )
    assert reply.status_code == 400
    assert not SettlementClaim.objects.exists()


def test_only_staff_reach_the_correction_form(
    client: Client, user: Any, bob: Any, staff: Any
) -> None:
    data = {"payer": "alice", "payee": "bob", "points": 4, "note": "wrong 宝"}
    client.force_login(user)
    assert client.get("/ledger/correction/").status_code == 403
    assert client.post("/ledger/correction/", data).status_code == 403
    assert not Entry.objects.exists()
    client.force_login(staff)
    assert client.get("/ledger/correction/").status_code == 200
    assert client.post("/ledger/correction/", data).status_code == 302
    entry = Entry.objects.get()
    assert (entry.kind, entry.payer, entry.payee, entry.recorded_by) == (
        "correction",
        user,
        bob,
        staff,
    )
    assert entry.note == "wrong 宝"


def test_a_correction_between_one_player_and_themself_is_refused(
    client: Client, user: Any, staff: Any
) -> None:
    client.force_login(staff)
    data = {"payer": "alice", "payee": "alice", "points": 4, "note": "x"}
    reply = client.post("/ledger/correction/", data)
    assert reply.status_code == 400
    assert not Entry.objects.exists()


def _unmasked(page: bytes, echo: list[tuple[str, str]]) -> str:
    """A page without its CSRF token (masked afresh for every response) and with each
    ``(text, placeholder)`` of ``echo`` replaced."""
    text = re.sub(
        r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]+', r"\1", page.decode()
    )
    for old, new in echo:
        text = text.replace(old, new)
    return text


def _csv_net(client: Client, other_name: str) -> int:
    response: Any = client.get(reverse("ledger:export"))
    content = b"".join(response.streaming_content)
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    return sum(int(r[6]) for r in rows[1:] if r[5] == other_name)


def test_paying_the_exact_debt_reads_zero_everywhere(
    client: Client, user: Any, bob: Any, played: Any
) -> None:
    """bob lost 9 to alice in a hand; he pays her 9 and records it; she confirms. Both books,
    both pair pages, both CSVs, the room's and the group's who-pays-whom read 0."""
    client.force_login(bob)
    book = client.get(reverse("ledger:book"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "你欠alice 9" in book
    # bob taps "record as paid" on his room's who-pays-whom.
    paid = {"other": user.pk, "direction": "i_paid", "points": 9, "room": played.number}
    client.post(reverse("ledger:settle"), paid)
    client.force_login(user)
    claim = SettlementClaim.objects.get()
    client.post(reverse("ledger:settle_answer", args=[claim.pk]), {"answer": "confirm"})
    for me, other in ((user, bob), (bob, user)):
        client.force_login(me)
        mine = client.get(reverse("ledger:book"), HTTP_ACCEPT_LANGUAGE="zh-hans")
        assert mine.context["book"].total == 0 and "两清" in mine.content.decode()
        pair = client.get(reverse("ledger:pair", args=[other.pk]), HTTP_ACCEPT_LANGUAGE="zh-hans")
        assert pair.context["pair"].total == 0 and "两清" in pair.content.decode()
        assert _csv_net(client, other.name) == 0
        settle = client.get(reverse("ledger:settle"), {"room": played.number})
        assert settle.context["suggestion"] == []
        group = client.get(reverse("ledger:settle"), {"people": [other.pk]})
        assert group.context["group"] == [me, other] and group.context["suggestion"] == []


def test_owing_reads_in_words(client: Client, user: Any, bob: Any, played: Any) -> None:
    client.force_login(user)
    page = client.get(reverse("ledger:pair", args=[bob.pk]), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "小明欠你 9" in page.content.decode()
    page = client.get(reverse("ledger:pair", args=[bob.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "小明 owes you 9" in page.content.decode()


def test_a_bot_page_is_for_its_rooms_players_only(
    client: Client, user: Any, bob: Any, make_user: Any, played: Any
) -> None:
    # alice played the bot in seat 3 of her room; carol did not; 999999 does not exist.
    services.hand_entries_create(
        hand=Hand.objects.create(
            room=played, number=2, dealer=0, seed="", rules={}, match=played.hands.get().match
        ),
        users=[user, bob, None, None],
        transfers=[{"payer": 3, "payee": 0, "points": 4, "reason": "self_draw"}],
    )
    client.force_login(user)
    assert client.get(reverse("ledger:bot", args=[played.number, 3])).status_code == 200
    client.force_login(make_user("carol"))
    private = client.get(reverse("ledger:bot", args=[played.number, 3]))
    missing = client.get(reverse("ledger:bot", args=["999999", 3]))
    assert private.status_code == missing.status_code == 404
    # Each page echoes its own address (the language switch returns there); nothing else.
    echo = [(played.number, "N"), ("999999", "N")]
    assert _unmasked(private.content, echo) == _unmasked(missing.content, echo)
    # The room filter of my page ignores a room I did not play in exactly like a missing one.
    mine = client.get(reverse("ledger:book"), {"room": played.number})
    none = client.get(reverse("ledger:book"), {"room": "999999"})
    assert mine.status_code == none.status_code == 200
    assert _unmasked(mine.content, echo) == _unmasked(none.content, echo)
    assert mine.context["room"] is None and none.context["room"] is None


def test_a_suggested_payment_is_recorded_in_one_tap(
    client: Client, user: Any, bob: Any, played: Any
) -> None:
    client.force_login(bob)
    page = client.get(reverse("ledger:settle"), {"room": played.number}).content.decode()
    assert 'name="direction" value="i_paid"' in page and 'name="points" value="9"' in page
    client.post(reverse("ledger:settle"), {"other": user.pk, "direction": "i_paid", "points": 9})
    claim = SettlementClaim.objects.get()
    assert (claim.payer, claim.payee, claim.points) == (bob, user, 9)


def test_a_physical_hand_reads_as_one_on_the_pairs_page(user: Any, bob: Any) -> None:
    # bob paid alice 4 for a hand at a real table: her page with him names it, with its hand.
    services.offline_entries_create(
        payments=[(bob, user, 4, "self_draw")], recorded_by=user, note="平胡"
    )
    client = Client()
    client.force_login(user)
    page = client.get(reverse("ledger:pair", args=[bob.pk])).content.decode()
    assert "线下牌局 · 平胡" in page and "更正" not in page
