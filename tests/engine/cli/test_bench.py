"""engine.bench runs the command-line tools for real; only the output shape is checked here
(timings are benchmarks, never test assertions)."""

from __future__ import annotations

import re

import pytest

from engine.cli.bench import main, run_cli
from engine.cli.score import make_score_input, score_line
from engine.cli.wincheck import check_line, make_wincheck_input

# The bench runs the tools in subprocesses: benchmarks' plumbing, out of the quick suite.
pytestmark = pytest.mark.slow


def test_run_cli_answers_every_line_like_the_library() -> None:
    lines = make_wincheck_input(300, seed=3)
    _, out = run_cli("engine.wincheck", lines)
    assert out == [check_line(line) for line in lines]
    score_lines = make_score_input(40, seed=3)
    _, out = run_cli("engine.score", score_lines)
    assert out == [score_line(line) for line in score_lines]


def test_main_prints_a_rate_per_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--wincheck", "500", "--score", "50", "--hands", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out] == ["wincheck", "score"]
    for line in out:
        assert re.fullmatch(r"\w+ +[\d,]+/s \([\d,]+ in [\d.]+ s\)", line), line


def test_default_score_input_has_no_repeated_line() -> None:
    """The bench says no line repeats at its default size (about six seconds)."""
    lines = make_score_input(50_000, seed=1)
    assert len(set(lines)) == len(lines)
