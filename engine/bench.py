"""``python -m engine.bench``: throughput of the engine's three hot paths, on one core.

    python -m engine.bench [--wincheck 200000] [--score 50000] [--hands 200]

prints one line per path: win checks/s (through :func:`engine.wincheck.check_text`, what the CLI
runs), full judgements with scoring/s (through :func:`engine.score.score_line`) and complete
4-``basic``-bot hands/s (through :func:`engine.simulate.simulate`). Inputs are generated from
fixed seeds, so runs are comparable. The figures go in ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from engine.rules import Rules
from engine.score import make_score_input, score_line
from engine.simulate import simulate
from engine.wincheck import check_text, make_wincheck_input

__all__ = ["main"]


def _rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}/s ({count:,} in {seconds:.2f} s)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.bench", description=__doc__)
    parser.add_argument("--wincheck", type=int, default=200_000, help="win-check lines")
    parser.add_argument("--score", type=int, default=50_000, help="score lines")
    parser.add_argument("--hands", type=int, default=200, help="simulated basic-bot hands")
    args = parser.parse_args(argv)

    text = "\n".join(make_wincheck_input(args.wincheck, seed=1)) + "\n"
    started = time.perf_counter()
    check_text(text)
    print(f"wincheck  {_rate(args.wincheck, time.perf_counter() - started)}")

    lines = make_score_input(args.score, seed=1)
    started = time.perf_counter()
    for line in lines:
        score_line(line)
    print(f"score     {_rate(args.score, time.perf_counter() - started)}")

    stats = simulate(args.hands, "bench", ["basic"] * 4, Rules())
    print(f"simulate  {_rate(args.hands, stats['seconds'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
