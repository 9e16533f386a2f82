"""``python -m tests.load.instructions``: the machine instructions one table change costs,
counted by valgrind's callgrind rather than timed.

These machines have run at speeds 2.5 times apart, within the hour (the yardstick of
``python -m tests.load.cycle``), so two commits' CPU times compare only when paired run by
run, and even then within a tenth. An instruction count is the same on every run of the same
code, whatever else the machine is doing. This runs the cycle benchmark under callgrind
twice, for ``--moves N`` and for one move; the difference over ``N - 1`` is what one change
costs, with the start (Python, Django, the scratch database, the first change) taken out.
The migrations run in a child process, which callgrind does not follow. A run of 400
changes takes about four minutes. Needs Debian's ``valgrind``::

    python -m tests.load.instructions --moves 400

It prints ``changes``, ``instructions_per_change`` and ``start_instructions`` as JSON.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections.abc import Callable, Sequence

from tests.load.server import command_parser, run_module

__all__ = ["collected", "count", "per_change"]

COLLECTED = re.compile(r"^==\d+== Collected : (\d+)$", re.MULTILINE)


def collected(stderr: str) -> int:
    """The instructions callgrind reports it collected, from its output.

    >>> collected("==41== Events    : Ir\\n==41== Collected : 10997927416\\n")
    10997927416
    """
    found = COLLECTED.findall(stderr)
    if len(found) != 1:
        raise ValueError(f"callgrind reported {len(found)} totals, not one:\n{stderr[-2000:]}")
    return int(found[0])


def count(moves: int, seed: int) -> int:
    """The instructions of ``python -m tests.load.cycle --moves moves`` under callgrind."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    done = run_module(
        "tests.load.cycle",
        *("--moves", str(moves), "--seed", str(seed)),
        timeout=3600,
        under=(valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null"),
    )
    return collected(done.stderr)


def per_change(moves: int, seed: int, counted: Callable[[int, int], int] = count) -> dict[str, int]:
    """Instructions per change over ``moves`` changes, less those of a one-change run.

    >>> fake = {400: 4_000 + 399 * 15, 1: 4_000}
    >>> per_change(400, 1, lambda moves, seed: fake[moves])
    {'changes': 400, 'instructions_per_change': 15, 'start_instructions': 4000}
    """
    if moves < 2:
        raise ValueError("--moves must be at least 2: one change is the start's own")
    total, start = counted(moves, seed), counted(1, seed)
    return {
        "changes": moves,
        "instructions_per_change": round((total - start) / (moves - 1)),
        "start_instructions": start,
    }


def main(argv: Sequence[str] | None = None) -> int:
    p = command_parser("python -m tests.load.instructions", __doc__)
    p.add_argument("--moves", type=int, default=400)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    print(json.dumps(per_change(args.moves, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
