"""tables.play.phrases: the fixed quick phrases, who may send them and how often."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from tables.models import Room
from tables.play.phrases import PHRASES, phrase_send
from tables.play.protocol import PlayError
from tests.tables.factories import start_with_bots

pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


@pytest.fixture
def started(user: Any) -> Room:
    return start_with_bots(user, seed="phrase-tests")


def test_a_seated_player_may_say_a_phrase_and_gets_their_seat(started: Room, user: Any) -> None:
    assert phrase_send(number=started.number, user=user, phrase=0) == 0


def test_one_phrase_per_interval_per_seat(started: Room, user: Any) -> None:
    phrase_send(number=started.number, user=user, phrase=1)
    with pytest.raises(PlayError, match="Wait a moment"):
        phrase_send(number=started.number, user=user, phrase=2)
    cache.clear()  # the interval has passed
    assert phrase_send(number=started.number, user=user, phrase=2) == 0


def test_an_index_outside_the_list_is_refused(started: Room, user: Any) -> None:
    with pytest.raises(PlayError, match="no such phrase"):
        phrase_send(number=started.number, user=user, phrase=len(PHRASES))


def test_a_spectator_may_not_speak(started: Room, make_user: Any) -> None:
    with pytest.raises(PlayError, match="Only the players"):
        phrase_send(number=started.number, user=make_user("bob"), phrase=0)


def test_the_phrases_are_the_promised_ones() -> None:
    assert [str(p) for p in PHRASES[:5]] == [
        "Hurry up!",
        "Sorry!",
        "Well played!",
        "You again!",
        "Thanks!",
    ]
