from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from tables.history.record import room_record, room_record_visible
from tables.models import Room
from tests.tables.factories import (
    run_clock_until_hand_ends,
    send,
    start_with_bots,
    start_with_four_people,
)

pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def dissolved(make_user: Callable[..., Any]) -> tuple[Room, list[Any]]:
    """Four people; bob proposed 解散, carol refused once, then all agreed to dave's vote."""
    users = [make_user(n) for n in ("alice", "bob", "carol", "dave")]
    room = start_with_four_people(users)
    send(room, users[1], {"action": "dissolve_propose"})
    send(room, users[2], {"action": "dissolve_answer", "agree": "0"})
    send(room, users[3], {"action": "dissolve_propose"})
    for i in (0, 1, 2):
        send(room, users[i], {"action": "dissolve_answer", "agree": "1"})
    room.refresh_from_db()
    return room, users


def test_the_record_holds_every_vote_and_answer(dissolved: Any) -> None:
    room, users = dissolved
    record = room_record(room)
    (match,) = record.matches
    assert [(v.proposer, v.outcome) for v in match.votes] == [
        (users[1], "failed"),
        (users[3], "passed"),
    ]
    assert [(a.seat, a.agree) for a in match.votes[0].answers.all()] == [(2, False)]
    assert sorted(a.seat for a in match.votes[1].answers.all()) == [0, 1, 2]
    assert match.dissolved_hand_ids == {match.hands[0].pk}
    assert record.audit == []


def test_the_record_page_says_the_hand_was_dissolved(client: Client, dissolved: Any) -> None:
    room, users = dissolved
    client.force_login(users[2])
    text = client.get(f"/r/{room.number}/record/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-result="dissolved"' in text
    assert text.count('data-vote="failed"') == 1 and text.count('data-vote="passed"') == 1
    assert "bob proposed during hand 1" in text


def test_who_may_read_the_record(dissolved: Any, make_user: Callable[..., Any]) -> None:
    room, users = dissolved
    assert all(room_record_visible(room, u) for u in users)
    assert not room_record_visible(room, make_user("stranger"))
    boss = make_user("boss")
    boss.is_staff = True
    assert room_record_visible(room, boss)


def test_a_vote_passed_between_hands_leaves_the_booked_hand_as_it_was(user: Any) -> None:
    room = start_with_bots(user, hands=None, tuoguan=True, seed="record-between")
    run_clock_until_hand_ends(room)
    send(room, user, {"action": "dissolve_propose"})
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    (match,) = room_record(room).matches
    assert match.votes[0].outcome == "passed" and match.dissolved_hand_ids == set()
