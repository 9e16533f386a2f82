"""engine.cli.arguments: a stdin-only tool refuses arguments instead of ignoring them."""

from __future__ import annotations

import pytest

from engine.cli.arguments import stdin_only


def test_no_arguments_means_read_stdin() -> None:
    assert stdin_only("python -m engine.score", "doc", []) is None


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_prints_the_description(flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert stdin_only("python -m engine.score", "Scores hands.\n", [flag]) == 0
    assert capsys.readouterr().out == "Scores hands.\n"


def test_any_other_argument_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert stdin_only("python -m engine.wincheck", "doc", ["--rules", "jiuyao_fan"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("usage: python -m engine.wincheck < lines\n")
    assert "refused: --rules jiuyao_fan" in err
