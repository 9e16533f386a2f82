"""tables.play.protocol: what a page may send, parsed into typed messages; anything else refused
with a clear message before the table is read or written."""

from __future__ import annotations

import doctest
import json
from typing import Any

import pytest

from engine.actions import Action
from engine.tiles import parse_tile
from tables.models import Hand, Room, Seat
from tables.play import protocol
from tables.play.protocol import (
    MAX_MESSAGE_BYTES,
    EndMatch,
    MalformedMessage,
    Move,
    Phrase,
    PlayError,
    Ready,
    SetTuoguan,
    parse_message,
    parse_text,
)
from tests.tables.factories import send

pytestmark = pytest.mark.usefixtures("english")


def test_the_docstring_examples_hold() -> None:
    assert doctest.testmod(protocol).failed == 0


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (
            {"action": "discard", "tile": "5m", "step": 12, "HEADERS": {"HX-Request": "true"}},
            Move(Action("discard", tile=parse_tile("5m")), 12),
        ),
        (
            {"action": "chi", "tile": "3m", "tiles": "24m", "step": "7"},
            Move(Action("chi", tile=parse_tile("3m"), tiles=(1, 3)), 7),
        ),
        (
            {"action": "gang", "tile": "9p", "gang": "angang", "step": 3},
            Move(Action("gang", tile=parse_tile("9p"), gang="angang"), 3),
        ),
        ({"action": "hu", "step": 0}, Move(Action("hu"), 0)),
        ({"action": "pass", "step": 5, "tile": ""}, Move(Action("pass"), 5)),  # empty: absent
        ({"action": "ready"}, Ready()),
        ({"action": "end_match"}, EndMatch()),
        ({"action": "tuoguan", "on": "1"}, SetTuoguan(on=True)),
        ({"action": "tuoguan", "on": "true"}, SetTuoguan(on=True)),
        ({"action": "tuoguan", "on": "0"}, SetTuoguan(on=False)),
        ({"action": "tuoguan"}, SetTuoguan(on=False)),
    ],
)
def test_what_a_page_sends_becomes_a_typed_message(payload: Any, message: Any) -> None:
    assert parse_message(payload) == message


@pytest.mark.parametrize(
    ("payload", "says"),
    [
        (None, "not a move"),
        ("discard", "not a move"),
        ([{"action": "ready"}], "not a move"),
        ({}, "not a move"),
        ({"action": 5}, "not a move"),
        ({"action": None, "step": 0}, "not a move"),
        ({"action": "fly", "step": 0}, "Unknown move fly."),
        ({"action": "x" * 500}, "Unknown move " + "x" * 20 + "."),
        ({"action": "discard", "tile": "5m"}, "without the table's step"),
        ({"action": "discard", "tile": "5m", "step": "x"}, "without the table's step"),
        ({"action": "discard", "tile": "5m", "step": None}, "without the table's step"),
        ({"action": "discard", "tile": "5m", "step": [1]}, "without the table's step"),
        ({"action": "discard", "step": 0}, "malformed: a discard action needs a tile"),
        ({"action": "discard", "tile": "0m", "step": 0}, "malformed: bad tile"),
        ({"action": "discard", "tile": 5, "step": 0}, "malformed: tile must be text"),
        ({"action": "chi", "tile": "5m", "tiles": "4m", "step": 0}, "malformed"),
        ({"action": "chi", "tile": "5m", "tiles": ["4m", "6m"], "step": 0}, "malformed"),
        ({"action": "gang", "tile": "5m", "step": 0}, "malformed: gang must be one of"),
        ({"action": "peng", "tile": "5m", "gang": "angang", "step": 0}, "malformed"),
    ],
)
def test_malformed_messages_are_refused_clearly(payload: Any, says: str) -> None:
    with pytest.raises(MalformedMessage) as refused:
        parse_message(payload)
    assert says in str(refused.value)
    assert isinstance(refused.value, PlayError) and isinstance(refused.value, ValueError)


@pytest.mark.parametrize(
    "payload",
    [
        None,
        "discard",
        {"action": 5},
        {"action": "fly", "step": 0},
        {"action": "discard", "tile": "0m", "step": 0},
        {"action": "discard", "tile": "5m"},
        {"action": "chi", "tile": "5m", "tiles": "4m", "step": 0},
        {"action": "discard", "tile": "5m", "step": "x"},
    ],
)
def test_malformed_input_is_refused_and_changes_nothing(
    started: Room, user: Any, payload: Any
) -> None:
    before = (started.state, started.version)
    seats = list(Seat.objects.filter(room=started).values())
    with pytest.raises(PlayError):
        send(started, user, payload)
    started.refresh_from_db()
    assert (started.state, started.version) == before
    assert list(Seat.objects.filter(room=started).values()) == seats
    assert Hand.objects.filter(room=started).count() == 1


def test_a_malformed_message_is_refused_without_touching_the_database(
    db: None, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(0), pytest.raises(MalformedMessage):
        parse_message({"action": "discard", "tile": "5m", "step": "?"})


def test_refusals_speak_the_players_language() -> None:
    from django.utils import translation

    with translation.override("zh-hans"), pytest.raises(MalformedMessage) as refused:
        parse_message(None)
    assert "not a move" not in str(refused.value)


@pytest.mark.parametrize(
    "text", [None, "not json", "", "[1, 2", json.dumps({"action": "x" * MAX_MESSAGE_BYTES})]
)
def test_a_frame_that_is_not_a_json_message_is_refused(text: str | None) -> None:
    with pytest.raises(MalformedMessage, match="not a move"):
        parse_text(text)


def test_a_frame_holds_one_json_message() -> None:
    frame = json.dumps({"action": "discard", "tile": "5m", "step": 12, "HEADERS": {}})
    assert parse_text(frame) == Move(Action("discard", tile=parse_tile("5m")), 12)


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"action": "dissolve_propose"}, protocol.ProposeDissolve()),
        ({"action": "dissolve_answer", "agree": "1"}, protocol.AnswerDissolve(agree=True)),
        ({"action": "dissolve_answer", "agree": 0}, protocol.AnswerDissolve(agree=False)),
    ],
)
def test_the_dissolve_vote_messages(payload: Any, message: Any) -> None:
    assert protocol.parse_message(payload) == message


@pytest.mark.parametrize("agree", [None, "yes", True, "", "2"])
def test_an_answer_must_say_agree_or_refuse(agree: Any) -> None:
    with pytest.raises(protocol.MalformedMessage):
        protocol.parse_message({"action": "dissolve_answer", "agree": agree})


@pytest.mark.parametrize("text", ["[" * 3000, '{"a":' * 2000, "[" * 2000 + "]" * 2000])
def test_json_nested_past_the_stack_is_refused(text: str) -> None:
    with pytest.raises(MalformedMessage, match="not a move"):
        parse_text(text)


@pytest.mark.parametrize("name", ["\\ud800", "fly\\udfff", "\\udc00\\ud800"])
def test_a_refusal_never_repeats_a_lone_surrogate(name: str) -> None:
    """JSON may spell a lone surrogate; echoing it back made sending the refusal crash."""
    with pytest.raises(MalformedMessage) as refused:
        parse_text('{"action": "' + name + '"}')
    str(refused.value).encode("utf-8")  # sendable


def test_printable_keeps_real_characters() -> None:
    assert protocol.printable("碰 🀄") == "碰 🀄"
    assert protocol.printable("a\ud800b") == "a\ufffdb"


def test_a_phrase_carries_only_an_index() -> None:
    assert parse_message({"action": "phrase", "phrase": 3}) == Phrase(index=3)
    for bad in ("", "-1", "x", "1.5", "²", "100", None):
        with pytest.raises(MalformedMessage):
            parse_message({"action": "phrase", "phrase": bad})
