"""A preset is a room's settings without "public": a club's rooms are the club's."""

from __future__ import annotations

from typing import Any

from clubs.forms import PresetForm
from tests.tables.factories import room_form_data


def _data(**extra: Any) -> dict[str, Any]:
    """The room form's data for the standard rules, under the preset's prefix."""
    data = room_form_data(**extra)
    data.pop("is_public", None)
    return {f"preset-{k}": v for k, v in data.items()}


def test_a_preset_has_no_public_choice_and_builds_rules() -> None:
    form = PresetForm(_data(name="快", turn_seconds=15))
    assert "is_public" not in form.fields
    assert form.is_valid(), form.errors
    assert form.rules().profile == "standard"
    assert form.cleaned_data["match_length"] is None  # open-ended


def test_a_preset_turn_timer_keeps_the_rooms_bounds() -> None:
    form = PresetForm(_data(name="快", turn_seconds=2))
    assert not form.is_valid() and "turn_seconds" in form.errors
