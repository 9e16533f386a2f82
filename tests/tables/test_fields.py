"""tables.fields: the room's state, saved through orjson and read as a JSONField reads it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection, models
from django.db.models import Value

from tables.fields import OrjsonField
from tables.models import Room

STATE = {"hand": {"wall": [1, 2, 3], "seats": [{"name": "东", "on": True}]}, "v": None}


def _encoded(param: Any) -> str:
    """A parameter as the text the database gets: psycopg's Jsonb on PostgreSQL."""
    text = param.dumps(param.obj) if hasattr(param, "dumps") else param
    return text.decode() if isinstance(text, bytes) else str(text)


def test_a_state_is_saved_as_the_json_a_jsonfield_would_save() -> None:
    field, plain = Room._meta.get_field("state"), models.JSONField()
    assert isinstance(field, OrjsonField)
    saved = _encoded(field.get_db_prep_save(STATE, connection))
    assert json.loads(saved) == STATE
    assert json.loads(saved) == json.loads(_encoded(plain.get_db_prep_save(STATE, connection)))
    assert saved == '{"hand":{"wall":[1,2,3],"seats":[{"name":"东","on":true}]},"v":null}'


@pytest.mark.parametrize("state", [{"big": 2**70 + 1}, {1: "one"}], ids=["big-int", "int-key"])
def test_what_orjson_refuses_is_saved_as_a_jsonfield_saves_it(state: dict[Any, str]) -> None:
    field, plain = Room._meta.get_field("state"), models.JSONField()
    assert _encoded(field.get_db_prep_save(state, connection)) == _encoded(
        plain.get_db_prep_save(state, connection)
    )


def test_null_and_expressions_are_left_to_the_jsonfield() -> None:
    field = Room._meta.get_field("state")
    assert field.get_db_prep_save(None, connection) is None  # SQL NULL
    json_null = Value(None, output_field=models.JSONField())
    assert _encoded(field.get_db_prep_save(json_null, connection)) == "null"


def test_to_the_migrations_it_is_a_jsonfield() -> None:
    """Adopting the field changed no column: no migration, no table copied."""
    _name, path, _args, kwargs = Room._meta.get_field("state").deconstruct()
    assert path == "django.db.models.JSONField" and kwargs == {"null": True, "blank": True}


@pytest.mark.django_db
def test_a_room_saved_by_the_orm_reads_back_its_state(started: Room) -> None:
    started.state = {**(started.state or {}), "big": 2**70 + 1, "name": "上饶"}
    started.save(update_fields=["state"])
    again = Room.objects.get(pk=started.pk).state
    assert again is not None and again["big"] == 2**70 + 1 and again["name"] == "上饶"
