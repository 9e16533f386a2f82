"""``python -m engine.simulate``: the statistics object, its log, and refused arguments."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine.cli.simulate import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], capture_output=True, text=True, check=False, timeout=120
    )


def test_simulate_prints_the_statistics_object(tmp_path: Path) -> None:
    log = tmp_path / "hands.jsonl"
    done = run("engine.simulate", "--hands", "6", "--seed", "9", "--log", str(log))
    assert done.returncode == 0, done.stderr
    stats = json.loads(done.stdout)
    assert set(stats) == {
        "hands",
        "wins",
        "robbed",
        "draws",
        "points",
        "zero_sum",
        "seconds",
        "hands_per_second",
    }
    assert stats["hands"] == 6 and stats["zero_sum"] is True and sum(stats["points"]) == 0
    assert sum(stats["wins"].values()) + stats["draws"] >= 6 - stats["robbed"]
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(records) == 6
    assert {"rules", "dealer", "seed", "dice", "actions", "result"} <= set(records[0])


def _without_timing(out: str) -> dict[str, object]:
    return {k: v for k, v in json.loads(out).items() if "second" not in k}


def test_same_seed_same_game() -> None:
    first = run("engine.simulate", "--hands", "3", "--seed", "same")
    second = run("engine.simulate", "--hands", "3", "--seed", "same")
    assert _without_timing(first.stdout) == _without_timing(second.stdout)


def test_replay_accepts_its_log_and_reports_a_tampered_result(tmp_path: Path) -> None:
    log = tmp_path / "hands.jsonl"
    assert main(["--hands", "4", "--seed", "r", "--log", str(log)]) == 0
    ok = run("engine.replay", str(log))
    assert ok.returncode == 0, ok.stdout
    assert ok.stdout.strip().endswith("4 replayed identically, 0 differ")

    records = [json.loads(line) for line in log.read_text().splitlines()]
    records[1]["result"]["totals"] = [99, -99, 0, 0]
    log.write_text("".join(json.dumps(r) + "\n" for r in records))
    bad = run("engine.replay", str(log))
    assert bad.returncode == 1
    assert "hand 2: result.totals[0]: expected 99" in bad.stdout


def test_replay_takes_an_explicit_wall(tmp_path: Path) -> None:
    log = tmp_path / "hands.jsonl"
    assert main(["--hands", "1", "--seed", "w", "--log", str(log)]) == 0
    record = json.loads(log.read_text())
    from engine.hand import new_hand
    from engine.rules import Rules
    from engine.tiles import format_tile

    state = new_hand(Rules.from_json(record["rules"]), record["dealer"], record["seed"])
    record["wall"] = [format_tile(t) for t in state.wall.ring]
    del record["seed"]
    log.write_text(json.dumps(record) + "\n")
    done = run("engine.replay", str(log))
    assert done.returncode == 0, done.stdout


def test_bad_arguments_are_refused() -> None:
    done = run("engine.simulate", "--bots", "basic,basic")
    assert done.returncode == 2 and "--bots takes four of" in done.stderr


def test_rules_with_an_option_they_never_read_are_refused() -> None:
    # chang_jiuyao is the standard table's; the 番 profile would play on ignoring it
    done = run(
        "engine.simulate",
        "--hands",
        "1",
        "--rules",
        '{"profile": "jiuyao_fan", "chang_jiuyao": true}',
    )
    assert done.returncode == 2 and "rule option 'chang_jiuyao' is not used" in done.stderr
    assert done.stdout == ""
    done = run("engine.simulate", "--hands", "1", "--rules", '{"chang_jiuyo": true}')
    assert done.returncode == 2 and "unknown rule option 'chang_jiuyo'" in done.stderr
