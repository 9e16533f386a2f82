"""``python -m engine.replay``: a simulated log replays identically, and a changed one is
reported hand by hand with exit status 1."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.cli import simulate
from engine.cli.replay import main


def logged(tmp_path: Path, hands: int, seed: str, rules: str = "standard") -> Path:
    log = tmp_path / "hands.jsonl"
    assert (
        simulate.main(["--hands", str(hands), "--seed", seed, "--rules", rules, "--log", str(log)])
        == 0
    )
    return log


def records(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_cli_accepts_a_simulated_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = logged(tmp_path, 5, "cli", rules="jiuyao_fan")
    capsys.readouterr()
    assert main([str(log)]) == 0
    assert capsys.readouterr().out == "5 replayed identically, 0 differ\n"


def test_cli_prints_each_difference_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = logged(tmp_path, 4, "tamper")
    lines = records(log)
    lines[0]["result"]["next_dealer"] = (lines[0]["result"]["next_dealer"] + 1) % 4
    lines[2]["actions"] = [*lines[2]["actions"][:3], [0, {"type": "fly"}]]
    del lines[3]["dice"]  # the dice follow from the seed: still identical
    log.write_text("\n".join(json.dumps(r) for r in lines) + "\n\n")  # a blank line is skipped
    capsys.readouterr()
    assert main([str(log)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("hand 1: result.next_dealer: expected ")
    assert out[1].startswith("hand 3: can't replay: unknown action type 'fly'")
    assert out[-1] == "2 replayed identically, 2 differ"
    assert len(out) == 3


def test_cli_usage() -> None:
    assert main([]) == 2
    assert main(["a", "b"]) == 2
    assert main(["--help"]) == 0


def test_cli_a_missing_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "nowhere.jsonl")]) == 2
    assert "can't read" in capsys.readouterr().err


def test_python_m_engine_replay(tmp_path: Path) -> None:
    log = logged(tmp_path, 3, "subprocess")
    run = [sys.executable, "-m", "engine.replay", str(log)]
    ok = subprocess.run(run, capture_output=True, text=True, check=False, timeout=60)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.endswith("3 replayed identically, 0 differ\n")
    lines = records(log)
    winners = lines[1]["result"]["winners"]
    lines[1]["result"]["winners"] = [*winners, 9]
    log.write_text("".join(json.dumps(r) + "\n" for r in lines))
    bad = subprocess.run(run, capture_output=True, text=True, check=False, timeout=60)
    assert bad.returncode == 1
    assert f"hand 2: result.winners: expected {[*winners, 9]!r}, got {winners!r}\n" in bad.stdout
    assert bad.stdout.endswith("2 replayed identically, 1 differ\n")
