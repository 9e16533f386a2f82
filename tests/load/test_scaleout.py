from __future__ import annotations

import json
from pathlib import Path

from tests.load.scaleout import main, scaleout_svg


def _report(processes: int, moves: float, p99: float) -> dict[str, object]:
    cpu = [0.4] * processes
    return {"processes": processes, "tables": 200, "moves_per_second": moves,
            "at_once_p99_ms": p99, "server_cpu": cpu}  # fmt: skip


def test_the_plot_is_ordered_by_processes_and_runs_no_script() -> None:
    svg = scaleout_svg([_report(3, 80.0, 90.0), _report(1, 60.0, 300.0), _report(2, 75.0, 120.0)])
    assert "<script" not in svg
    # One label per count, in order, whatever order the runs came in.
    assert svg.index(">1<") < svg.index(">2<") < svg.index(">3<")
    assert "p99 shown at once (s)" in svg and "0.3" in svg  # 300 ms on the second axis


def test_reports_already_made_are_plotted_without_running_anything(tmp_path: Path) -> None:
    reports = tmp_path / "runs.jsonl"
    reports.write_text("\n".join(json.dumps(_report(n, 50.0 * n, 100.0)) for n in (1, 2)))
    svg = tmp_path / "plot.svg"
    assert main(["--reports", str(reports), "--svg", str(svg)]) == 0
    assert svg.read_text().count("actions/s") >= 1
