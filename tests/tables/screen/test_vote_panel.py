"""tables.screen.vote_panel: the 解散 panel as each seat and a spectator see it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tables.models import Room
from tables.play.dissolve import VOTE_SECONDS, vote_state_load
from tables.screen.vote_panel import VoteView, vote_view
from tests.tables.factories import (
    four_people_in_play,
    send,
)

pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def four(make_user: Callable[..., Any]) -> tuple[Room, list[Any]]:
    """Four people at a table in play, none on 托管 (so nobody moves but them)."""
    users = [make_user(n) for n in ("alice", "bob", "carol", "dave")]
    return four_people_in_play(users), users


def panel(room: Room, my_index: int | None) -> VoteView:
    room.refresh_from_db()
    names = ["alice", "bob", "carol", "dave"]
    return vote_view(room=room, names=names, my_index=my_index, finished=False)


def test_the_panel_shows_who_answered(four: Any) -> None:
    room, users = four
    assert panel(room, 1).can_propose
    assert not panel(room, None).can_propose
    send(room, users[0], {"action": "dissolve_propose"})
    send(room, users[1], {"action": "dissolve_answer", "agree": "1"})
    view = panel(room, 2)
    assert view.running and view.can_answer and view.proposer == "alice"
    assert [(a.name, a.state) for a in view.answers] == [
        ("bob", "agreed"),
        ("carol", "waiting"),
        ("dave", "waiting"),
    ]
    assert not panel(room, 1).can_answer and not panel(room, 0).can_propose
    assert 0 < view.seconds_left <= VOTE_SECONDS


def test_the_panel_is_drawn_from_the_votes_as_read_without_the_database(
    four: Any, django_assert_num_queries: Any
) -> None:
    # Pages are drawn on the event loop, where a query raises: everything the panel shows,
    # the answers included, comes with the votes the move read.
    room, users = four
    send(room, users[0], {"action": "dissolve_propose"})
    send(room, users[3], {"action": "dissolve_answer", "agree": "1"})
    room.refresh_from_db()
    votes = vote_state_load(room)
    with django_assert_num_queries(0):
        view = vote_view(
            room=room, names=["a", "b", "c", "d"], my_index=3, finished=False, votes=votes
        )
    assert view.running and not view.can_answer
    assert [a.state for a in view.answers] == ["waiting", "waiting", "agreed"]


def test_a_refused_vote_says_who_refused_until_the_next_vote(four: Any) -> None:
    room, users = four
    send(room, users[0], {"action": "dissolve_propose"})
    send(room, users[1], {"action": "dissolve_answer", "agree": "1"})
    send(room, users[2], {"action": "dissolve_answer", "agree": "0"})
    for seat in (0, 1, 2, 3):
        view = panel(room, seat)
        assert not view.running and view.refused_by == "carol"
    # Read again from the summary in room.state (no query): the same words.
    room.refresh_from_db()
    assert vote_state_load(room).refused == (2,)
    send(room, users[3], {"action": "dissolve_propose"})
    assert panel(room, 1).running and panel(room, 1).refused_by == ""
