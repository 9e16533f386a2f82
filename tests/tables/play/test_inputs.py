"""tables.play.inputs: a running table's inputs, one transaction each."""

from __future__ import annotations

from typing import Any

import pytest

from tables.play import inputs
from tables.play.protocol import PlayError
from tests.tables.factories import start_with_bots

pytestmark = pytest.mark.usefixtures("english")


def test_inputs_that_ask_for_what_already_is_are_not_committed(user: Any) -> None:
    """托管 off while not on 托管 committed a new version (and pushed a board) each time."""
    from tables.play.protocol import Ready, SetTuoguan

    room = start_with_bots(user)
    version = room.version
    for _ in range(3):
        assert not inputs.table_act(number=room.number, user=user, message=SetTuoguan(on=False))
    room.refresh_from_db()
    assert room.version == version
    assert inputs.table_act(number=room.number, user=user, message=SetTuoguan(on=True))
    assert not inputs.table_act(number=room.number, user=user, message=SetTuoguan(on=True))
    room.refresh_from_db()
    assert room.version == version + 1
    with pytest.raises(PlayError, match="still being played"):
        inputs.table_act(number=room.number, user=user, message=Ready())
