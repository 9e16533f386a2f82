"""``python -m tests.load.scaleout``: the live table on 1, 2, 3… daphne processes at a fixed
number of tables (PostgreSQL + Redis), and an SVG of how the figures grow.

Each count is one run of ``python -m tests.load`` (production's defaults, the claim pause
on); the reports are printed as JSON lines, and the plot (pygal, as the ledger's charts) is
written to ``--svg``::

    python -m tests.load.scaleout --tables 200 --processes 1 2 3 \\
        --database-url postgres://postgres@127.0.0.1:5432/load \\
        --redis-url redis://127.0.0.1:6379/3 --svg docs/scaleout.svg

``--reports FILE`` plots reports already made (JSON lines, one ``tests.load`` report each)
without running anything.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

import pygal

from tests.load.server import command_parser, run_command

__all__ = ["scaleout_svg"]


def scaleout_svg(reports: Sequence[dict[str, Any]]) -> str:
    """An SVG of actions per second (left axis), and the servers' cores and the p99 of the
    presses shown at once in seconds (right axis), by the number of server processes.

    >>> svg = scaleout_svg([{"processes": 1, "tables": 200, "moves_per_second": 70.0,
    ...                      "at_once_p99_ms": 80.0, "server_cpu": [0.5]}])
    >>> svg.startswith("<?xml") and "actions/s" in svg and "<script" not in svg
    True
    """
    ordered = sorted(reports, key=lambda r: int(r["processes"]))
    tables = sorted({int(r["tables"]) for r in ordered})
    chart = pygal.Line(
        width=640,
        height=360,
        js=(),
        title=f"The live table on PostgreSQL + Redis, {'/'.join(map(str, tables))} tables",
        x_title="daphne processes",
        y_title="actions/s",
        legend_at_bottom=True,
        print_values=False,
        value_formatter=lambda v: f"{v:.3g}",
        range=(0, max(float(r["moves_per_second"]) for r in ordered) * 1.2),
    )
    chart.x_labels = [str(r["processes"]) for r in ordered]
    chart.add("actions/s", [float(r["moves_per_second"]) for r in ordered])
    chart.add(
        "servers' cores",
        [round(sum(r["server_cpu"]) * 100) / 100 for r in ordered],
        secondary=True,
    )
    chart.add(
        "p99 shown at once (s)",
        [round(float(r["at_once_p99_ms"]) / 1000, 2) for r in ordered],
        secondary=True,
    )
    svg: bytes = chart.render()
    text = svg.decode()
    # pygal writes its config as an inline <script> even with ``js=()``; nothing reads it.
    start = text.find("<script")
    while start != -1:
        end = text.index("</script>", start) + len("</script>")
        text = text[:start] + text[end:]
        start = text.find("<script")
    return text


def main(argv: Sequence[str] | None = None) -> int:
    p = command_parser("python -m tests.load.scaleout", __doc__)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--processes", type=int, nargs="+", default=[1, 2, 3])
    p.add_argument("--seconds", type=float, default=40)
    p.add_argument("--warmup", type=float, default=10)
    p.add_argument("--database-url", default=None)
    p.add_argument("--redis-url", default=None)
    p.add_argument("--reports", default=None, metavar="FILE", help="plot these, run nothing")
    p.add_argument("--svg", default=None, metavar="PATH", help="write the plot here")
    args = p.parse_args(argv)
    if args.reports:
        with open(args.reports) as fh:
            reports = [json.loads(line) for line in fh if line.strip()]
    else:
        if not (args.database_url and args.redis_url):
            p.error("several processes share tables only through PostgreSQL and Redis")
        reports = []
        for n in args.processes:
            report = run_command(
                "tests.load",
                *("--tables", str(args.tables), "--processes", str(n), "--spread", "table"),
                *("--seconds", str(args.seconds), "--warmup", str(args.warmup)),
                *("--database-url", args.database_url, "--redis-url", args.redis_url),
                timeout=args.seconds + args.warmup + 600,
            )
            print(json.dumps(report, ensure_ascii=False), flush=True)
            reports.append(report)
    if args.svg:
        with open(args.svg, "w") as fh:
            fh.write(scaleout_svg(reports))
    return 0


if __name__ == "__main__":
    sys.exit(main())
