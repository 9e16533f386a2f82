"""The score CLI, run as a subprocess like its users do."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.cli.score import make_score_input, score_line
from engine.judging import memo

ROOT = Path(__file__).resolve().parents[3]


def run_cli_text(lines: list[str]) -> list[str]:
    """The CLI's output lines for ``lines``, run as a user would (a subprocess)."""
    proc = subprocess.run(
        [sys.executable, "-m", "engine.score"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        timeout=60,
    )
    return proc.stdout.splitlines()


def run_cli(lines: list[str]) -> list[dict[str, object]]:
    return [json.loads(x) for x in run_cli_text(lines)]


def test_cli_answers_in_order_and_survives_errors() -> None:
    lines = [
        json.dumps({"concealed": "123m456m789p234s55z", "winning_tile": "5z", "indicator": "9s"}),
        "{not json",
        json.dumps({"concealed": "123m456m789p234s5z", "winning_tile": "5z", "indicator": "9s"}),
        json.dumps(
            {
                "concealed": "111m555p999s222z77z",
                "winning_tile": "7z",
                "indicator": "3m",
                "flown_bao": 2,
            }
        ),
        json.dumps(
            {
                "concealed": "111m555p999s222z1z7z",
                "winning_tile": "7z",
                "indicator": "4z",
                "win_by": "rob_gang",
            }
        ),
        json.dumps(
            {
                "concealed": "11223344556677z",
                "winning_tile": "7z",
                "indicator": "9m",
                "rules": {"profile": "standard", "chang_jiuyao": True},
            }
        ),
        json.dumps(
            {
                "concealed": "77z",
                "winning_tile": "7z",
                "indicator": "4z",
                "melds": ["peng:111m", "peng:555p", "chi:123s", "peng:999s"],
            }
        ),
    ]
    out = run_cli(lines)
    assert len(out) == 7
    assert out[0] == {
        "patterns": ["pinghu"],
        "win": True,
        "score": 4,
        "name": "平胡",
        "breakdown": [{"label": "平胡", "value": 4, "kind": "base"}],
    }
    assert "error" in out[1] and "error" in out[2]
    assert out[3]["score"] == 64
    assert (out[4]["score"], out[4]["name"]) == (48, "有宝碰碰胡")
    assert out[5]["score"] == 128
    assert out[6]["score"] == 8
    assert list(out[0]) == ["patterns", "win", "score", "name", "breakdown"]


@pytest.mark.parametrize(
    ("obj", "needle"),
    [
        (
            {"concealed": "1111m456m789p234s5z", "winning_tile": "5z", "indicator": "1m"},
            "indicator",
        ),
        ({"concealed": "123m456m789p234s55z", "winning_tile": "8z", "indicator": "1m"}, "8z"),
        (
            {"concealed": "123m456m789p234s55z", "winning_tile": "6z", "indicator": "1m"},
            "winning tile",
        ),
        (
            {
                "concealed": "55z",
                "winning_tile": "5z",
                "indicator": "1m",
                "melds": ["peng:123m", "peng:555p", "peng:444s", "peng:999s"],
            },
            "meld",
        ),
        (
            {
                "concealed": "123m456m789p234s55z",
                "winning_tile": "5z",
                "indicator": "1m",
                "rules": "nonesuch",
            },
            "nonesuch",
        ),
        (
            {
                "concealed": "123m456m789p234s55z",
                "winning_tile": "5z",
                "indicator": "1m",
                "rules": {"profile": "standard", "bogus": 1},
            },
            "bogus",
        ),
        ({"concealed": "123m456m789p234s55z", "indicator": "1m"}, "winning_tile"),
        ([1, 2], "object"),
        ({"concealed": [1, 2], "winning_tile": "5z", "indicator": "1m"}, "tiles"),
        (
            {
                "concealed": "123m456m789p234s55z",
                "winning_tile": "5z",
                "indicator": "1m",
                "flown_bao": 10**9,
            },
            "flown_bao",
        ),
        (
            {
                "concealed": "123m456m789p234s55z",
                "winning_tile": "5z",
                "indicator": "1m",
                "gang_draws": -1,
            },
            "gang_draws",
        ),
    ],
)
def test_error_lines(obj: object, needle: str) -> None:
    out = json.loads(score_line(json.dumps(obj)))
    assert set(out) == {"error"} and needle in out["error"]


PLAIN = {"concealed": "123m456m789p234s55z", "winning_tile": "5z", "indicator": "1m"}


@pytest.mark.parametrize(
    ("fields", "needle"),
    [
        # the 宝 is 2m; a 碰 of it and two in hand with one flown make five
        (
            {
                "concealed": "234m456m789p55z",
                "indicator": "1m",
                "melds": ["peng:222m"],
                "flown_bao": 1,
            },
            "only four 宝",
        ),
        ({"gang_draws": 1}, "gang meld"),
        (
            {"concealed": "234m456m789p55z", "melds": ["liangbao:111m"], "gang_draws": 1},
            "not 亮宝杠",
        ),
        (
            {
                "concealed": "123m456m789p55z",
                "melds": ["angang:2222s"],
                "gang_draws": 1,
                "win_by": "rob_gang",
            },
            "not a 抢杠 win",
        ),
        ({"heavenly": True, "earthly": True}, "both"),
        ({"earthly": True, "win_by": "rob_gang"}, "self-drawn"),
        ({"win_by": "rob_gang"}, "a 抢杠 win on 5z with 1 more 5z in the hand"),
        ({"win_by": "rob_gang", "rules": "jiuyao_fan"}, "the robber can hold none"),
        (
            {
                "concealed": "123m456m789p4s5z",
                "melds": ["peng:444s"],
                "winning_tile": "4s",
                "win_by": "rob_gang",
            },
            "3 more 4s",
        ),
        ({"winning_tile": "3s", "indicator": "3s", "win_by": "rob_gang"}, "indicator's kind"),
        ({"concealed": "123m456m789p55z", "melds": ["angang:2222s"], "heavenly": True}, "melds"),
    ],
)
def test_impossible_inputs_answer_an_error(fields: dict[str, Any], needle: str) -> None:
    out = json.loads(score_line(json.dumps({**PLAIN, **fields})))
    assert list(out) == ["error"] and needle in out["error"]


def test_chinese_not_escaped() -> None:
    line = json.dumps({"concealed": "123m456m789p234s55z", "winning_tile": "5z", "indicator": "9s"})
    assert "平胡" in score_line(line)


def test_make_score_input_is_valid_and_reproducible() -> None:
    lines = make_score_input(300, seed=7)
    assert lines == make_score_input(300, seed=7)
    outs = [json.loads(score_line(x)) for x in lines]
    assert not [o for o in outs if "error" in o]
    assert any(o["win"] for o in outs) and any(not o["win"] for o in outs)


def test_fan_profile_over_cli() -> None:
    out = run_cli(
        [
            json.dumps(
                {
                    "concealed": "1133m5577p99s2255z",
                    "winning_tile": "5z",
                    "indicator": "4z",
                    "rules": "jiuyao_fan",
                }
            )
        ]
    )
    assert out[0]["score"] == 10


def test_answers_are_the_same_with_cold_and_warm_caches() -> None:
    clear = memo.clear  # every memo of the engine: the judge's and the CLI's

    lines = make_score_input(400, seed=12)
    clear()
    cold = [score_line(x) for x in lines]
    warm = [score_line(x) for x in lines]
    clear()
    reversed_cold = [score_line(x) for x in reversed(lines)]
    assert cold == warm == reversed_cold[::-1]
    assert cold == run_cli_text(lines)


@pytest.mark.parametrize(
    "concealed",
    [
        "5z123m456m789p234s5z",
        "123m 456m 789p 234s 55z",
        "1m23m456m789p234s55z",
        "123456m789p234s55z",
    ],
)
def test_tile_text_in_any_form_scores_the_same(concealed: str) -> None:
    base = {"concealed": "123m456m789p234s55z", "winning_tile": "5z", "indicator": "9s"}
    assert score_line(json.dumps({**base, "concealed": concealed})) == score_line(json.dumps(base))


@pytest.mark.parametrize(
    ("concealed", "needle"),
    [("1" * 300 + "m", "copies"), ("11111m456m789p234s5z", "copies"), ("123m0p", "ranks")],
)
def test_odd_tile_text_is_refused(concealed: str, needle: str) -> None:
    line = json.dumps({"concealed": concealed, "winning_tile": "1m", "indicator": "9s"})
    out = json.loads(score_line(line))
    assert set(out) == {"error"} and needle in out["error"]


def test_refusals_of_issue_33_answer_an_error_line() -> None:
    robbed = {
        "concealed": "123m456m789p234s55z",
        "winning_tile": "4s",
        "indicator": "1z",
        "win_by": "rob_gang",
    }
    lines = [
        json.dumps({**robbed, "rules": {"qiang_gang": False}}),
        json.dumps({**robbed, "rules": {"profile": "jiuyao_fan", "qiang_gang": False}}),
        json.dumps({**robbed, "rules": {"profile": "jiuyao_fan", "chang_jiuyao": True}}),
        json.dumps(robbed),  # 抢杠 on (the default): §7 平胡 4 × 6 = 24
    ]
    out = run_cli(lines)
    assert (
        out[0]
        == out[1]
        == {
            "error": "a 抢杠 win (win_by rob_gang) can't happen under these rules: the option "
            "qiang_gang is off, so nobody may rob a gang and every win is self-drawn"
        }
    )
    assert str(out[2]["error"]).startswith("rule option 'chang_jiuyao' is not used by the 番")
    assert out[3]["score"] == 24


def test_arguments_are_refused_not_ignored(
    tool: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    line = json.dumps({"concealed": "123m456m789p234s55z", "winning_tile": "5z", "indicator": "1z"})
    proc = tool("engine.score", "--rules", "jiuyao_fan", stdin=line + "\n")
    assert (proc.returncode, proc.stdout) == (2, "")
    assert "refused: --rules jiuyao_fan" in proc.stderr
