"""``python -m engine.simulate``: bots play complete hands, for statistics and benchmarks.

    python -m engine.simulate --hands 100 --seed 1 --bots basic,basic,basic,basic --rules standard

prints one JSON object: ``hands``, ``wins`` (count by pattern name), ``robbed``, ``draws``,
``points`` (total per seat), ``zero_sum``, ``seconds``, ``hands_per_second``. ``--log FILE`` writes
each hand (rules, dealer, seed, dice, actions, result) as a JSON line that ``engine.replay`` checks.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from engine.play.bots import BOT_KINDS
from engine.rules import Rules
from engine.selfplay import simulate

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.simulate", description=__doc__)
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--bots", default="basic,basic,basic,basic")
    parser.add_argument("--rules", default="standard", help="profile name or JSON object")
    parser.add_argument("--log", help="write each hand as a JSON line to this file")
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    if len(bots) != 4 or any(b not in BOT_KINDS for b in bots):
        parser.error(f"--bots takes four of {', '.join(BOT_KINDS)}, comma-separated")
    if args.hands < 0:
        parser.error("--hands must be >= 0")
    try:
        rules = Rules.from_json(args.rules).check_in_use()
    except ValueError as exc:
        parser.error(str(exc))
    if args.log:
        with open(args.log, "w", encoding="utf-8") as log:
            stats = simulate(args.hands, args.seed, bots, rules, log)
    else:
        stats = simulate(args.hands, args.seed, bots, rules)
    sys.stdout.write(json.dumps(stats, ensure_ascii=False) + "\n")
    return 0
