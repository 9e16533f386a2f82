"""``python -m engine.bench``: throughput of the engine's three hot paths, on one core.

    python -m engine.bench [--wincheck 200000] [--score 50000] [--hands 200]

prints one line per path:

* ``wincheck``: lines/s of ``python -m engine.wincheck`` run as a subprocess on a generated
  file, end to end (interpreter start, imports and tables included), as its users run it;
* ``score``: judgements/s of ``python -m engine.score`` run the same way on generated JSON
  Lines of varied hands (random draws and winning shapes, melds, 飞宝, 杠开, 抢杠): hardly
  a line repeats (none at the default size), so the CLI's per-line memo does not flatter it;
* ``simulate``: complete 4-``basic``-bot hands/s (through :func:`engine.selfplay.simulate`).

Inputs are generated from fixed seeds, so runs are comparable; ``0`` skips a path. The
figures go in ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from engine.cli.score import make_score_input
from engine.cli.wincheck import make_wincheck_input
from engine.rules import Rules
from engine.selfplay import simulate

__all__ = ["main", "run_cli"]

_ROOT = Path(__file__).resolve().parents[2]


def _rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}/s ({count:,} in {seconds:.2f} s)"


def run_cli(module: str, lines: Sequence[str]) -> tuple[float, list[str]]:
    """Run ``python -m <module>`` on ``lines`` from a file; its wall time and output lines.

    The input is written first and read through the file, as a shell redirection would,
    so the time is the tool's alone.

    >>> seconds, out = run_cli("engine.wincheck", ["123m456p789s1z 1", "19m 0"])
    >>> out
    ['1', '0']
    """
    with tempfile.TemporaryFile("w+b") as data:
        data.write(("\n".join(lines) + "\n").encode())
        data.seek(0)
        started = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", module],
            stdin=data,
            capture_output=True,
            check=True,
            cwd=_ROOT,
        )
        seconds = time.perf_counter() - started
    out = proc.stdout.decode().splitlines()
    if len(out) != len(lines):
        raise RuntimeError(f"{module} answered {len(out)} lines for {len(lines)}")
    return seconds, out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.bench", description=__doc__)
    parser.add_argument("--wincheck", type=int, default=200_000, help="win-check lines")
    parser.add_argument("--score", type=int, default=50_000, help="score lines")
    parser.add_argument("--hands", type=int, default=200, help="simulated basic-bot hands")
    args = parser.parse_args(argv)

    if args.wincheck:
        seconds, _ = run_cli("engine.wincheck", make_wincheck_input(args.wincheck, seed=1))
        print(f"wincheck  {_rate(args.wincheck, seconds)}")

    if args.score:
        seconds, _ = run_cli("engine.score", make_score_input(args.score, seed=1))
        print(f"score     {_rate(args.score, seconds)}")

    if args.hands:
        stats = simulate(args.hands, "bench", ["basic"] * 4, Rules())
        print(f"simulate  {_rate(args.hands, stats['seconds'])}")
    return 0
