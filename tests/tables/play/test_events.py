"""tables.play.events: the group message that tells a table's pages to look again, with no tiles."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from tables.play import events


async def _listen(number: str) -> tuple[Any, str]:
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    await layer.group_add(events.group_name(number), channel)
    return layer, channel


async def test_a_page_in_the_group_gets_exactly_the_bare_message() -> None:
    layer, channel = await _listen("111111")
    _, elsewhere = await _listen("222222")
    before = time.time()
    await events.table_changed_async("111111")
    message = await asyncio.wait_for(layer.receive(channel), timeout=5)
    # No tiles, no state: only when it was sent, after the commit (a read begun later has it).
    assert set(message) == {"type", "at"} and message["type"] == "table.changed"
    assert before <= message["at"] <= time.time()
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(elsewhere), timeout=0.2)  # another room's page
    await layer.group_discard(events.group_name("111111"), channel)


async def test_the_synchronous_call_reaches_the_group_too() -> None:
    layer, channel = await _listen("333333")
    await sync_to_async(events.table_changed)("333333")
    message = await asyncio.wait_for(layer.receive(channel), timeout=5)
    assert message["type"] == "table.changed" and isinstance(message["at"], float)
    await layer.group_discard(events.group_name("333333"), channel)


def test_no_channel_layer_is_no_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A setup without Channels (a management command): the layer is asked for, there is none,
    and the change already committed is not undone by an error."""
    asked: list[str] = []
    monkeypatch.setattr(events, "get_channel_layer", lambda: asked.append("layer"))
    events.table_changed("123456")
    assert asked == ["layer"]


def _change(number: str, version: int) -> Any:
    from tables.models import Room
    from tables.play.clock import Committed
    from tables.play.table import VoteState

    room = Room(number=number, version=version)
    return Committed(room=room, table=None, votes=VoteState(), read_at=time.time())


@pytest.mark.django_db(transaction=True)
def test_a_change_is_sent_once_its_transaction_commits_and_never_if_it_rolls_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.db import transaction

    monkeypatch.setattr(events, "_deliveries", [])
    delivered: list[int] = []

    def deliver(change: Any) -> bool:
        delivered.append(change.version)
        return True

    events.delivery_register(deliver)
    with transaction.atomic():
        events.change_send_on_commit(_change("444444", 5))
        assert delivered == []  # not before the commit: a page would read the table as it was
    assert delivered == [5]
    with pytest.raises(RuntimeError), transaction.atomic():
        events.change_send_on_commit(_change("444444", 6))
        raise RuntimeError("the move failed after it was applied")
    assert delivered == [5]  # a change rolled back is told to nobody


@pytest.mark.django_db(transaction=True)
def test_without_a_delivery_here_the_committing_thread_sends_the_event(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.db import transaction

    monkeypatch.setattr(events, "_deliveries", [lambda change: False])  # no pages' loop here
    sent: list[tuple[str, int | None]] = []
    monkeypatch.setattr(events, "table_changed", lambda n, version=None: sent.append((n, version)))
    with transaction.atomic():
        events.change_send_on_commit(_change("555555", 9))
    assert sent == [("555555", 9)]


@pytest.mark.django_db(transaction=True)
def test_a_channel_layer_that_fails_after_the_commit_is_no_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The change is committed: the caller (a move on a socket) must not be told it failed."""
    from django.db import transaction

    def down(number: str, version: int | None = None) -> None:
        raise ConnectionError("redis is down")

    monkeypatch.setattr(events, "_deliveries", [])
    monkeypatch.setattr(events, "table_changed", down)
    with transaction.atomic():
        events.change_send_on_commit(_change("666666", 3))
