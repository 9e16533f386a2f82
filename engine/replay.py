"""``python -m engine.replay FILE``: re-play every hand of a log and check it ends the same.

Each line of FILE is one hand, as ``engine.simulate --log`` writes it (see ``docs/engine.md``):
``rules``, ``dealer``, ``dice``, ``actions``, ``result``, and either ``seed`` or ``wall`` (all
136 tiles in the order the dice count over, as tile text). Prints each difference and exits 1
if any hand ends differently (or a line can't be replayed), 0 otherwise.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from engine.actions import Action
from engine.hand import HandState, apply, new_hand
from engine.rules import Rules
from engine.tiles import parse_tile

__all__ = ["check_record", "main", "replay"]


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


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):
        sys.stdout.write(__doc__ or "")
        return 0
    if len(args) != 1:
        sys.stderr.write("usage: python -m engine.replay FILE\n")
        return 2
    try:
        lines = open(args[0], encoding="utf-8")  # noqa: SIM115 - closed by the with below
    except OSError as exc:
        sys.stderr.write(f"can't read {args[0]}: {exc.strerror}\n")
        return 2
    failed = 0
    checked = 0
    with lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            checked += 1
            try:
                problems = check_record(json.loads(line))
            except (ValueError, KeyError, TypeError) as exc:
                problems = [f"can't replay: {exc}"]
            if problems:
                failed += 1
                for problem in problems:
                    sys.stdout.write(f"hand {number}: {problem}\n")
    sys.stdout.write(f"{checked - failed} replayed identically, {failed} differ\n")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
