from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from ledger.models import Entry
from tables.models import DissolveAnswer, DissolveVote, Hand, Match, Room
from tables.play import clock
from tables.play.dissolve import SUMMARY_KEY, VOTE_SECONDS, vote_state_load
from tables.play.protocol import PlayError
from tables.staff.desk import staff_hand_close
from tests.tables.factories import (
    four_people_in_play,
    hand_of,
    move_json,
    send,
    start_with_bots,
)

pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def four(make_user: Callable[..., Any]) -> tuple[Room, list[Any]]:
    """Four people at a table in play, none on 托管 (so nobody moves but them)."""
    users = [make_user(n) for n in ("alice", "bob", "carol", "dave")]
    return four_people_in_play(users), users


def snapshot(room: Room) -> tuple[Any, ...]:
    room.refresh_from_db()
    return (
        room.version,
        room.status,
        DissolveVote.objects.count(),
        DissolveAnswer.objects.count(),
        Entry.objects.count(),
    )


def test_all_agree_ends_the_match_unpaid_and_records_every_answer(four: Any) -> None:
    room, users = four
    send(room, users[0], {"action": "dissolve_propose"})
    vote = DissolveVote.objects.get()
    assert vote.outcome == DissolveVote.Outcome.OPEN and vote.proposer == users[0]
    for u in users[1:]:
        send(room, u, {"action": "dissolve_answer", "agree": "1"})
    vote.refresh_from_db()
    room.refresh_from_db()
    assert vote.outcome == DissolveVote.Outcome.PASSED and vote.ended_at is not None
    assert room.status == Room.Status.FINISHED and room.deadline is None
    hand = Hand.objects.get(room=room)
    assert hand.ended_at is not None and hand.result is None
    assert not Entry.objects.filter(hand=hand).exists()
    assert Match.objects.get(room=room).ended_at is not None
    answers = list(vote.answers.order_by("seat").values_list("seat", "user", "agree", "how"))
    assert answers == [(i, users[i].pk, True, "answered") for i in (1, 2, 3)]


def test_one_refusal_fails_the_vote_and_play_goes_on(four: Any) -> None:
    room, users = four
    turn_deadline = room.turn_deadline
    assert turn_deadline is not None
    send(room, users[0], {"action": "dissolve_propose"})
    send(room, users[1], {"action": "dissolve_answer", "agree": "1"})
    send(room, users[2], {"action": "dissolve_answer", "agree": "0"})
    vote = DissolveVote.objects.get()
    room.refresh_from_db()
    assert vote.outcome == DissolveVote.Outcome.FAILED
    assert room.status == Room.Status.PLAYING
    # The countdown stood still while the vote ran.
    assert room.turn_deadline is not None and room.turn_deadline >= turn_deadline
    state = hand_of(room)

    seat = state.turn
    send(room, users[seat], move_json(room, state, seat))
    assert hand_of(room).step == state.step + 1


def test_silence_counts_as_agreeing_when_the_clock_runs_out(four: Any) -> None:
    room, users = four
    send(room, users[2], {"action": "dissolve_propose"})
    send(room, users[0], {"action": "dissolve_answer", "agree": "1"})
    room.refresh_from_db()
    vote = DissolveVote.objects.get()
    assert room.deadline == vote.deadline  # the vote's deadline is the table's
    assert vote.deadline - vote.started_at == timedelta(seconds=VOTE_SECONDS)
    assert not clock.advance(room.number, now=vote.deadline - timedelta(seconds=1))
    assert clock.advance(room.number, now=vote.deadline)
    vote.refresh_from_db()
    room.refresh_from_db()
    assert vote.outcome == DissolveVote.Outcome.PASSED and room.status == Room.Status.FINISHED
    hows = dict(vote.answers.values_list("seat", "how"))
    assert hows == {0: "answered", 1: "timeout", 3: "timeout"}


def _votes_read(room: Room, *, summary: bool) -> tuple[Any, ...]:
    """The votes as the next read finds them: from ``room.state``'s summary where it has one,
    or (``summary=False``) from the votes table."""
    room.refresh_from_db()
    assert room.state is not None
    if not summary:
        room.state.pop(SUMMARY_KEY, None)
    v = vote_state_load(room)
    return (v.vote and v.vote.pk, v.proposers, dict(v.answers))


def all_ready(room: Room, users: list[Any]) -> None:
    for u in users:
        send(room, u, {"action": "ready"})


def test_the_summary_in_the_room_state_always_agrees_with_the_votes(
    four: Any, make_user: Callable[..., Any]
) -> None:
    room, users = four
    staff = make_user("referee")
    staff.is_staff = True
    staff.save()
    steps: list[Callable[[], object]] = [
        lambda: send(room, users[0], {"action": "dissolve_propose"}),
        lambda: send(room, users[1], {"action": "dissolve_answer", "agree": "1"}),
        lambda: send(room, users[2], {"action": "dissolve_answer", "agree": "0"}),  # fails
        lambda: send(room, users[3], {"action": "dissolve_propose"}),
        lambda: staff_hand_close(staff=staff, number=room.number, reason="test"),  # cancels
        lambda: all_ready(room, users),  # a new hand: nobody has proposed yet
        lambda: send(room, users[3], {"action": "dissolve_propose"}),
        lambda: clock.advance(room.number, now=Room.objects.get(pk=room.pk).deadline),
    ]
    seen = []
    for step in steps:
        step()
        stored = _votes_read(room, summary=True)
        assert stored == _votes_read(room, summary=False)
        seen.append(stored)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED  # the last vote passed by silence
    assert [s[1] for s in seen][:6] == [{0}, {0}, {0}, {0, 3}, {0, 3}, set()]


def test_bots_agree_at_once(user: Any) -> None:
    room = start_with_bots(user, seed="dissolve-bots")
    send(room, user, {"action": "dissolve_propose"})
    vote = DissolveVote.objects.get()
    room.refresh_from_db()
    assert vote.outcome == DissolveVote.Outcome.PASSED
    assert sorted(vote.answers.values_list("seat", "how", "agree")) == [
        (1, "bot", True),
        (2, "bot", True),
        (3, "bot", True),
    ]
    assert room.status == Room.Status.FINISHED


def test_a_seat_proposes_once_per_hand(four: Any) -> None:
    room, users = four
    send(room, users[0], {"action": "dissolve_propose"})
    send(room, users[1], {"action": "dissolve_answer", "agree": "0"})
    before = snapshot(room)
    with pytest.raises(PlayError, match="only once per hand"):
        send(room, users[0], {"action": "dissolve_propose"})
    assert snapshot(room) == before
    send(room, users[1], {"action": "dissolve_propose"})  # another seat still may
    assert DissolveVote.objects.count() == 2


@pytest.mark.parametrize(
    ("who", "payload", "message"),
    [
        (1, {"action": "dissolve_answer", "agree": "1"}, "no vote to answer"),
        (None, {"action": "dissolve_propose"}, "watching this table"),
        (None, {"action": "dissolve_answer", "agree": "1"}, "watching this table"),
        (1, {"action": "dissolve_answer", "agree": "maybe"}, "Unknown move"),
    ],
)
def test_hostile_inputs_without_a_vote_change_nothing(
    four: Any, make_user: Callable[..., Any], who: int | None, payload: Any, message: str
) -> None:
    room, users = four
    sender = users[who] if who is not None else make_user("eve")
    before = snapshot(room)
    with pytest.raises(PlayError, match=message):
        send(room, sender, payload)
    assert snapshot(room) == before


@pytest.mark.parametrize(
    ("who", "payload", "message"),
    [
        (1, {"action": "dissolve_answer", "agree": "1"}, "already answered"),
        (0, {"action": "dissolve_answer", "agree": "1"}, "you proposed"),
        (2, {"action": "dissolve_propose"}, "already under way"),
        (None, {"action": "dissolve_answer", "agree": "0"}, "watching this table"),
        (3, {"action": "ready"}, "paused"),
    ],
)
def test_hostile_inputs_during_a_vote_change_nothing(
    four: Any, make_user: Callable[..., Any], who: int | None, payload: Any, message: str
) -> None:
    room, users = four
    send(room, users[0], {"action": "dissolve_propose"})
    send(room, users[1], {"action": "dissolve_answer", "agree": "1"})
    sender = users[who] if who is not None else make_user("eve")
    before = snapshot(room)
    with pytest.raises(PlayError, match=f"(?i){message}"):
        send(room, sender, payload)
    assert snapshot(room) == before
    assert DissolveVote.objects.get().outcome == DissolveVote.Outcome.OPEN


def test_moves_wait_while_the_vote_runs(four: Any) -> None:
    room, users = four
    state = hand_of(room)
    send(room, users[1], {"action": "dissolve_propose"})

    with pytest.raises(PlayError, match="paused"):
        send(room, users[state.turn], move_json(room, state, state.turn))
    assert hand_of(room).step == state.step


def test_bots_and_auto_play_wait_while_the_vote_runs(people: Any) -> None:
    room, users = people  # everyone on 托管: without the vote the clock would move them
    step = hand_of(room).step
    send(room, users[0], {"action": "dissolve_propose"})
    room.refresh_from_db()
    vote = DissolveVote.objects.get()
    assert room.deadline == vote.deadline
    assert not clock.advance(room.number, now=vote.deadline - timedelta(seconds=1))
    assert hand_of(room).step == step
