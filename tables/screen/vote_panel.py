"""The 解散 panel as one viewer sees it: the vote under way and who answered, or the button
to propose one. The vote's rules are :mod:`tables.play.dissolve`."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from tables.models import Room
from tables.play.dissolve import VOTE_SECONDS, VoteState, vote_state_load

__all__ = [
    "VoteView",
    "vote_view",
]


@dataclass
class AnswerView:
    name: str
    state: str
    """``agreed``, ``refused`` or ``waiting``."""
    label: str


@dataclass
class VoteView:
    """The 解散 panel for one viewer: the vote under way, or the button to propose one."""

    can_propose: bool = False
    proposer: str = ""
    seconds_left: int = 0
    answers: list[AnswerView] = field(default_factory=list)
    can_answer: bool = False
    running: bool = False
    vote_seconds: int = VOTE_SECONDS
    refused_by: str = ""
    """Who refused this hand's last vote ("小王、小李"): every page says so once it failed."""


def vote_view(
    *,
    room: Room,
    names: list[str],
    my_index: int | None,
    finished: bool,
    now: datetime | None = None,
    votes: VoteState | None = None,
) -> VoteView:
    """What the player in seat ``my_index`` (None: a spectator) sees of the vote; ``names``
    are the four seats' names as the table shows them. ``votes``: the vote as already read
    (:func:`vote_state_load`; read here when not given)."""
    now = now or timezone.now()
    if finished:
        return VoteView()
    if votes is None:
        votes = vote_state_load(room)
    vote = votes.vote
    if vote is None:
        proposed = my_index is not None and my_index in votes.proposers
        return VoteView(
            can_propose=my_index is not None and not proposed,
            refused_by="、".join(names[i] for i in votes.refused),
        )
    answers = votes.answers
    view = VoteView(
        running=True,
        proposer=names[vote.proposer_seat],
        seconds_left=max(0, int((vote.deadline - now).total_seconds() + 0.999)),
        can_answer=my_index is not None
        and my_index != vote.proposer_seat
        and my_index not in answers,
    )
    for index, name in enumerate(names):
        if index == vote.proposer_seat:
            continue
        state = "waiting" if index not in answers else "agreed" if answers[index] else "refused"
        label = {"waiting": _("Waiting"), "agreed": _("Agreed"), "refused": _("Refused")}[state]
        view.answers.append(AnswerView(name=name, state=state, label=label))
    return view
