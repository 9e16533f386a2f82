"""``python -m engine.wincheck``: line and bulk answers agree with the library, errors per
line, blank lines skipped, and the same answers from cold and warm caches."""

from __future__ import annotations

import itertools
import subprocess
from collections.abc import Callable

from engine.cli import wincheck
from engine.cli.wincheck import check_line, check_text, make_wincheck_input
from engine.judging import memo
from engine.judging.shape import fewest_wilds, is_complete, pack_costs
from engine.tiles import counts_of, parse_tiles


def _c(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


def _index(vec: tuple[int, ...]) -> int:
    return sum(c * 5**r for r, c in enumerate(vec))


def test_check_line_and_text_agree_on_odd_input():
    lines = [
        "123m456p789s1z 1",
        "1m 1m 0",  # spaces inside the tiles: slow path
        "1x 0",
        "11111m 0",
        "123m -1",
        "nonsense",
        "",
        "2m1m3m11z 0",  # not in order
    ]
    text = "\n".join(lines) + "\n"
    assert check_text(text).splitlines() == [check_line(line) for line in lines if line]
    answers = [check_line(line) for line in lines]
    assert answers[0] == "1"
    assert answers[1] == "1"
    assert answers[2].startswith("error: ")
    assert answers[3] == "error: 5 copies of 1m; a kind has four"
    assert answers[4].startswith("error: wild count")
    assert answers[5].startswith("error: ")
    assert answers[6].startswith("error: ")
    assert answers[7] == "1"


def test_bulk_matches_line_by_line():
    lines = make_wincheck_input(2000, seed=7)
    assert check_text("\n".join(lines)) == "".join(check_line(line) + "\n" for line in lines)
    for line in lines[:40]:
        tiles, k = line.split()
        truth = is_complete(_c(tiles), int(k))  # itself checked against a slow search
        assert check_line(line) == ("1" if truth else "0")


Tool = Callable[..., subprocess.CompletedProcess[str]]


def test_cli_output_format(tool: Tool) -> None:
    out = tool("engine.wincheck", stdin="123m456p789s1z 1\n19m 0\n11z 0\n")
    assert out.stdout == "1\n0\n1\n"
    assert out.stderr == ""


def test_cli_reports_errors_per_line_and_continues(tool: Tool) -> None:
    out = tool("engine.wincheck", stdin="123m456p789s1z 1\n8z 0\n123m456p789s 2\n")
    assert out.stdout.splitlines() == [
        "1",
        "error: no honor 8z in '8z': honors are 1z-7z (东南西北中发白)",
        "1",
    ]


def test_cli_empty_input(tool: Tool) -> None:
    assert tool("engine.wincheck").stdout == ""


def test_cli_skips_blank_lines_like_the_score_cli(tool: Tool) -> None:
    assert tool("engine.wincheck", stdin="\n11z 0\n\n  \t\n19m 0\n\n").stdout == "1\n0\n"


def test_honor_table_matches_the_search():
    honors = wincheck._honor_table()
    for vec in itertools.product(range(5), repeat=7):
        assert honors[_index(vec)] == pack_costs(fewest_wilds(vec)), vec


def test_answers_are_the_same_with_cold_and_warm_caches():
    lines = [*make_wincheck_input(3000, seed=11), "11111m 0", "1234m 1", "111112z 1"]
    text = "\n".join(lines) + "\n"

    clear = memo.clear  # every memo of the engine, the CLI's columns included

    clear()
    cold_text = check_text(text)
    cold_lines = [check_line(line) for line in lines]
    clear()
    cold_lines_first = [check_line(line) for line in lines]
    warm_text = check_text(text)
    assert cold_text == warm_text == "".join(a + "\n" for a in cold_lines)
    assert cold_lines == cold_lines_first
    assert cold_lines[-3:] == [
        "error: 5 copies of 1m; a kind has four",
        "1",
        "error: 5 copies of 1z; a kind has four",
    ]
    # the five copies are reported again once the rest is cached
    assert check_text("123m 0\n11111p 0\n").splitlines()[1].startswith("error: 5 copies")
    for line in lines[:200]:
        tiles, k = line.split()
        counts = _c(tiles)
        if max(counts) <= 4:
            assert is_complete(counts, int(k)) is (check_line(line) == "1")


def test_bulk_falls_back_for_other_line_breaks():
    text = "123m456p789s1z 1\r\n11z 0\n"
    assert check_text(text) == "".join(check_line(x) + "\n" for x in text.splitlines())
    assert check_text("11z 0") == "1\n"
    assert check_text("11z 0\n\n") == "1\n"  # a blank line is skipped, not answered


def test_cli_refuses_arguments_it_would_ignore(
    tool: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    proc = tool("engine.wincheck", "--wilds", "2", stdin="123m456p789s1z 1\n")
    assert (proc.returncode, proc.stdout) == (2, "")
    assert "takes no arguments" in proc.stderr and "refused: --wilds 2" in proc.stderr
