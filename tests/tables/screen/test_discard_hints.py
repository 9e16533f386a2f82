"""tables.screen.discard_hints: what each discard leaves the hand waiting on."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.hand import new_hand
from engine.rules import Rules
from engine.tiles import parse_tiles
from engine.views import seat_info
from tables.screen.discard_hints import discard_waits

pytestmark = pytest.mark.usefixtures("english")


def test_only_discards_that_leave_the_hand_ready_are_named() -> None:
    info = seat_info(new_hand(Rules(), dealer=0, seed=1), 0)
    # 123m 456m 789m 234p + 5p 9s: dropping 9s waits on 5p; dropping 5p waits on 9s.
    hand = tuple(parse_tiles("123456789m234p5p9s"))
    bao = next(k for k in range(34) if k not in hand and k != info.indicator)
    info = replace(info, hand=hand, bao=bao, melds=((), (), (), ()))
    waits = discard_waits(info)
    assert set(waits) <= {"5p", "9s", "1m", "4m", "7m", "2p"}
    assert "9s" in waits and "5p" in waits
    assert "5 Dots" in waits["9s"]
    assert "Waits on" in waits["9s"]
    assert "3m" not in waits  # dropping it breaks a sequence: two away


def test_a_spectator_has_no_discards() -> None:
    assert discard_waits(seat_info(new_hand(Rules(), dealer=0, seed=1), None)) == {}
