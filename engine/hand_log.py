"""A hand's log: re-play it from its start, and compare where it ends with its record.

A record is one hand as ``engine.simulate --log`` writes it (see ``docs/engine.md``):
``rules``, ``dealer``, ``dice``, ``actions``, ``result``, and either ``seed`` or ``wall`` (all
136 tiles in the order the dice count over, as tile text). ``python -m engine.replay``
(:mod:`engine.cli.replay`) checks a file of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.actions import Action
from engine.hand import HandState, apply, new_hand
from engine.rules import Rules
from engine.tiles import parse_tile

__all__ = ["check_record", "replay"]


def replay(
    rules: Rules,
    seed_or_wall: int | str | list[int],
    dice: tuple[int, int, int, int] | None,
    actions_log: Sequence[Sequence[Any]],
    *,
    dealer: int = 0,
) -> HandState:
    """Rebuild a hand from its seed (or explicit ring of 136 tiles), dice and ``state.log``.

    >>> from engine.hand import new_hand
    >>> s = new_hand(Rules(), dealer=1, seed="r")
    >>> replay(Rules(), "r", None, s.log, dealer=1) == s
    True
    """
    if isinstance(seed_or_wall, list):
        state = new_hand(rules, dealer, None, wall=seed_or_wall, dice=dice)
    else:
        state = new_hand(rules, dealer, seed_or_wall, dice=dice)
    for seat, act in actions_log:
        state, _ = apply(state, int(seat), Action.from_json(act))
    return state


def _differences(path: str, expected: Any, actual: Any) -> list[str]:
    if isinstance(expected, dict) and isinstance(actual, dict):
        found: list[str] = []
        for key in sorted(set(expected) | set(actual), key=str):
            found += _differences(f"{path}.{key}", expected.get(key), actual.get(key))
        return found
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        found = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            found += _differences(f"{path}[{i}]", e, a)
        return found
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]


def check_record(record: dict[str, Any]) -> list[str]:
    """Replay one hand record; the differences between its ``result`` and the replay's."""
    rules = Rules.from_json(record.get("rules"))
    dice = tuple(record["dice"]) if record.get("dice") is not None else None
    if dice is not None and len(dice) != 4:
        raise ValueError("dice must be four numbers: the break pair and the 宝 pair")
    source: int | str | list[int]
    if "wall" in record:
        wall = record["wall"]
        source = [parse_tile(t) for t in (wall.split() if isinstance(wall, str) else wall)]
    else:
        source = record["seed"]
    state = replay(
        rules, source, dice, record.get("actions", []), dealer=int(record.get("dealer", 0))
    )
    return _differences("result", record.get("result"), state.result)
