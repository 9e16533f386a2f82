"""快捷语: the fixed quick phrases a player may send at the table, and their rate limit.

A phrase is a chat bubble, not a move: it is sent to the room's group as its own small
fragment, never written to the table (no commit, no version bump), so it cannot disturb a
move in flight. Only an index into :data:`PHRASES` travels, so there is no free text to
moderate; the cache-based limit keeps one seat from flooding the other screens.
"""

from __future__ import annotations

from django.core.cache import cache
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from clubs.selectors import club_muted
from tables.models import Seat
from tables.play.protocol import PlayError

__all__ = ["PHRASES", "PHRASE_INTERVAL_SECONDS", "phrase_send"]

PHRASES: tuple[Promise, ...] = (
    gettext_lazy("Hurry up!"),
    gettext_lazy("Sorry!"),
    gettext_lazy("Well played!"),
    gettext_lazy("You again!"),
    gettext_lazy("Thanks!"),
    gettext_lazy("Good luck, everyone!"),
    gettext_lazy("One more hand!"),
    gettext_lazy("Be right back."),
)
"""The only things a player can say; the wire carries the index."""

PHRASE_INTERVAL_SECONDS = 3
"""At most one phrase per seat in this many seconds."""


def _key(number: str, index: int) -> str:
    return f"phrase:{number}:{index}"


def phrase_send(*, number: str, user: User, phrase: int) -> int:
    """May ``user`` say phrase number ``phrase`` at room ``number`` now? Their seat's index;
    :class:`PlayError` for a spectator or a seat that spoke too recently.

    The check and the claim are one atomic ``cache.add``, so two pages of one player (or two
    server processes) cannot both pass within the interval.
    """
    if phrase not in range(len(PHRASES)):
        raise PlayError(_("There is no such phrase."))
    seat = Seat.objects.filter(room__number=number, user=user).values_list("index", flat=True)
    index = seat.first()
    if index is None:
        raise PlayError(_("Only the players at the table can send phrases."))
    if club_muted(number, user.pk):
        raise PlayError(_("An admin of this club has muted you."))
    if not cache.add(_key(number, index), 1, timeout=PHRASE_INTERVAL_SECONDS):
        raise PlayError(_("Wait a moment before the next phrase."))
    return int(index)
