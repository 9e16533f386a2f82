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

from engine.hand_log import check_record

__all__ = ["main"]


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
