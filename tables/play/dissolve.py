"""The 解散 vote: a seated player asks to end the match now; it passes only if all agree.

The rule (docs/web.md): every other seat answers 同意 or 拒绝 within :data:`VOTE_SECONDS`;
bots agree at once and a person who does not answer in time counts as agreeing. One 拒绝
ends the vote and play goes on; when all have agreed the hand in play ends unpaid and the
match ends (:func:`match_dissolve`). A seat may propose once per hand.

While a vote runs the table is paused: moves and 准备 are refused, bots wait, and the turn
countdown stops (it resumes with the time it had left if the vote fails). The vote's deadline
is the room's ``deadline``, so it fires through :func:`tables.play.clock.advance` like any other.

Every function runs inside the caller's transaction with the room row locked.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from tables.models import DissolveAnswer, DissolveVote, Room
from tables.models import Match as MatchRecord
from tables.play.protocol import AnswerDissolve, PlayError, ProposeDissolve
from tables.play.table import Table, VoteState

__all__ = [
    "SUMMARY_KEY",
    "VOTE_SECONDS",
    "VoteState",
    "match_dissolve",
    "vote_cancel",
    "vote_message_apply",
    "vote_open",
    "vote_state_load",
    "vote_tick",
    "votes_of",
]

VOTE_SECONDS = 60
"""How long the others have to answer."""

SUMMARY_KEY = "votes"
"""Where ``room.state`` keeps what :func:`votes_of` last read: whether a vote is open, and
which seats proposed during which hand. It is taken out whenever a vote changes and written
again by the next read, so it is either absent or true to the votes table."""


def votes_of(t: Table) -> VoteState:
    """The vote under way at this table and this hand's proposals, read once per
    transaction: a move asks twice (its check and the clock's) and once more for the pages
    it is pushed to (:class:`tables.play.clock.Committed`). Read again after a vote changed or a
    new hand was dealt; what is read is kept in ``room.state`` too (:data:`SUMMARY_KEY`), so
    that while no vote runs, the next transaction and every page's read need no query."""
    if t.votes is None or t.votes_hand != t.hand_id:
        t.votes, t.votes_hand = vote_state_load(t.room, hand_id=t.hand_id), t.hand_id
        if t.room.state is not None:
            t.room.state[SUMMARY_KEY] = _summary(t.votes, t.hand_id)
    return t.votes


def _changed(t: Table) -> None:
    # The summary goes with the votes read: the next ask reads the votes table again.
    t.votes = None
    if t.room.state is not None:
        t.room.state.pop(SUMMARY_KEY, None)


def _summary(votes: VoteState, hand_id: int | None) -> dict[str, Any]:
    return {
        "open": votes.vote is not None,
        "hand_id": hand_id,
        "proposers": sorted(votes.proposers),
        "refused": list(votes.refused),
    }


def vote_open(t: Table) -> DissolveVote | None:
    """The vote under way at this table, if any."""
    return votes_of(t).vote


def vote_message_apply(
    t: Table, seat_index: int, message: ProposeDissolve | AnswerDissolve, now: datetime
) -> None:
    """A seated player proposes, or answers the vote under way; :class:`PlayError` refuses."""
    if isinstance(message, ProposeDissolve):
        _propose(t, seat_index, now)
    else:
        _answer(t, seat_index, message.agree, now)


def _propose(t: Table, seat_index: int, now: datetime) -> None:
    if vote_open(t) is not None:
        raise PlayError(_("A vote to dissolve the room is already under way."))
    hand_row = t.hand_row
    assert hand_row is not None and t.room.state is not None
    if DissolveVote.objects.filter(hand=hand_row, proposer_seat=seat_index).exists():
        raise PlayError(_("You can propose dissolving the room only once per hand."))
    seat = t.seats[seat_index]
    assert seat.user is not None  # bots never propose
    vote = DissolveVote.objects.create(
        room=t.room,
        match_id=t.room.state["match_id"],
        hand=hand_row,
        proposer=seat.user,
        proposer_seat=seat_index,
        started_at=now,
        deadline=now + timedelta(seconds=VOTE_SECONDS),
    )
    _changed(t)
    DissolveAnswer.objects.bulk_create(
        DissolveAnswer(
            vote=vote, seat=s.index, agree=True, how=DissolveAnswer.How.BOT, created_at=now
        )
        for s in t.seats
        if s.bot
    )
    _settle(t, vote, now, timed_out=False)


def _answer(t: Table, seat_index: int, agree: bool, now: datetime) -> None:
    vote = vote_open(t)
    if vote is None:
        raise PlayError(_("There is no vote to answer."))
    if vote.proposer_seat == seat_index:
        raise PlayError(_("You proposed this vote; the others answer it."))
    if seat_index in votes_of(t).answers:
        raise PlayError(_("You have already answered this vote."))
    DissolveAnswer.objects.create(
        vote=vote,
        seat=seat_index,
        user=t.seats[seat_index].user,
        agree=agree,
        how=DissolveAnswer.How.ANSWERED,
        created_at=now,
    )
    _changed(t)
    _settle(t, vote, now, timed_out=False)


def vote_tick(t: Table, now: datetime) -> bool:
    """The clock's part: a vote whose time ran out closes (silence agrees). True if it did."""
    vote = vote_open(t)
    if vote is None or now < vote.deadline:
        return False
    _settle(t, vote, now, timed_out=True)
    return True


def _settle(t: Table, vote: DissolveVote, now: datetime, *, timed_out: bool) -> None:
    answers = _answers(vote)
    others = [s.index for s in t.seats if s.index != vote.proposer_seat]
    if not all(answers.values()):
        _close(t, vote, DissolveVote.Outcome.FAILED, now)
        return
    missing = [i for i in others if i not in answers]
    if missing and not timed_out:
        return
    DissolveAnswer.objects.bulk_create(
        DissolveAnswer(
            vote=vote,
            seat=i,
            user=t.seats[i].user,
            agree=True,
            how=DissolveAnswer.How.TIMEOUT,
            created_at=now,
        )
        for i in missing
    )
    _close(t, vote, DissolveVote.Outcome.PASSED, now)
    match_dissolve(t, now)


def _close(t: Table, vote: DissolveVote, outcome: str, now: datetime) -> None:
    vote.outcome = outcome
    vote.ended_at = now
    vote.save(update_fields=["outcome", "ended_at"])
    _changed(t)
    if outcome == DissolveVote.Outcome.FAILED and t.room.turn_deadline is not None:
        # The countdown stood still while the vote ran: it resumes with the time it had.
        t.room.turn_deadline += now - vote.started_at


def vote_cancel(t: Table, now: datetime) -> None:
    """Staff act on the table: a vote under way closes as failed (the record keeps it)."""
    vote = vote_open(t)
    if vote is not None:
        _close(t, vote, DissolveVote.Outcome.FAILED, now)


def match_dissolve(t: Table, now: datetime) -> None:
    """End the match now: a hand in play ends unpaid (no result, no book entries)."""
    hand_row = t.hand_row
    if hand_row is not None and hand_row.ended_at is None:
        hand_row.ended_at = now
        fields = ["ended_at"]
        if t.hand is not None:  # the log is in room.state while a hand is played
            hand_row.actions = t.hand.log
            fields.append("actions")
        hand_row.save(update_fields=fields)
    t.room.status = Room.Status.FINISHED
    MatchRecord.objects.filter(room=t.room, ended_at=None).update(ended_at=now)


def vote_state_load(room: Room, *, hand_id: int | None = None) -> VoteState:
    """Read the vote under way and the proposals of the hand in play (``hand_id``; default:
    the one ``room.state`` names). No query while ``room.state`` says no vote runs
    (:data:`SUMMARY_KEY`); else one, two while a vote runs (its answers)."""
    state = room.state or {}
    if hand_id is None:
        hand_id = state.get("hand_id")
    summary = state.get(SUMMARY_KEY)
    if summary is not None and not summary["open"]:
        same_hand = hand_id is not None and summary["hand_id"] == int(hand_id)
        if not same_hand:
            return VoteState()
        return VoteState(
            proposers=frozenset(summary["proposers"]),
            refused=tuple(summary.get("refused", ())),
        )
    current = Q(outcome=DissolveVote.Outcome.OPEN)
    if hand_id is not None:
        current |= Q(hand_id=int(hand_id))
    votes = list(DissolveVote.objects.filter(current, room=room).order_by("pk"))
    vote = next((v for v in votes if v.outcome == DissolveVote.Outcome.OPEN), None)
    answers = {} if vote is None else _answers(vote)
    this_hand = [v for v in votes if hand_id is not None and v.hand_id == int(hand_id)]
    proposers = frozenset(v.proposer_seat for v in this_hand)
    refused: tuple[int, ...] = ()
    if vote is None and this_hand and this_hand[-1].outcome == DissolveVote.Outcome.FAILED:
        last = _answers(this_hand[-1])
        refused = tuple(sorted(seat for seat, agree in last.items() if not agree))
    return VoteState(vote=vote, proposers=proposers, answers=answers, refused=refused)


def _answers(vote: DissolveVote) -> dict[int, bool]:
    # Not vote.answers.all(): a vote object kept from earlier in the transaction may carry
    # answers prefetched before the latest one.
    return dict(DissolveAnswer.objects.filter(vote=vote).values_list("seat", "agree"))
