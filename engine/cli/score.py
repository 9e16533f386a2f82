"""``python -m engine.score``: the score calculator, JSON Lines in, one JSON object per line out.

    echo '{"concealed": "123m456m789p234s55z", "winning_tile": "5z", "indicator": "9s"}' \\
        | python -m engine.score

Input fields: ``concealed`` (winning tile included), ``melds`` (``["chi:123m", …]``),
``winning_tile``, ``indicator``, ``win_by`` (``self_draw``/``rob_gang``), ``gang_draws``,
``flown_bao``, ``heavenly``, ``earthly``, ``rules`` (profile name or object). A bad line
answers ``{"error": …}`` and the others are still answered. The judging is
:mod:`engine.judging.judge`'s; :func:`make_score_input` makes benchmark input.

>>> score_line('{"concealed": "11223344556677z", "winning_tile": "7z", "indicator": "9m"}')
'{"patterns": ["jiuyao", "qidui"], "win": true, "score": 128, "name": "九幺七对字一色", \
"breakdown": [{"label": "九幺七对字一色", "value": 64, "kind": "base"}, \
{"label": "七星", "value": 2, "kind": "factor"}]}'
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence
from functools import lru_cache
from json.scanner import make_scanner
from typing import Any

from engine.cli.arguments import stdin_only
from engine.judging.judge import HandError, Judgement, WinContext, judge_counts
from engine.judging.memo import remembered
from engine.melds import Meld, MeldError, parse_meld
from engine.rules import Rules, RulesError
from engine.tiles import (
    COMPACT_TILES,
    KIND_COUNT,
    TileError,
    bao_of,
    format_tiles,
    parse_tile,
    parse_tiles,
)

__all__ = ["answer_of", "judge_object", "main", "make_score_input", "score_line", "score_object"]

_FIELDS = {
    "concealed",
    "melds",
    "winning_tile",
    "indicator",
    "win_by",
    "gang_draws",
    "flown_bao",
    "heavenly",
    "earthly",
    "rules",
}


@remembered
@lru_cache(maxsize=256)
def _rules(text: str) -> Rules:
    data = json.loads(text)
    # a line's rules are a new choice, not a stored record: an option they would ignore is
    # refused rather than silently dropped
    return Rules.from_json(data).check_in_use()


@remembered
@lru_cache(maxsize=64)
def _rules_named(name: str) -> Rules:
    return Rules.from_json(name)


@remembered
@lru_cache(maxsize=1024)
def _context(win_by: str, gang: int, flown: int, heavenly: bool, earthly: bool) -> WinContext:
    # contexts repeat across lines; build each once
    return WinContext(win_by, gang, flown, heavenly, earthly)


def _parse_meld(text: object) -> Meld:
    if not isinstance(text, str):
        raise MeldError(f"a meld must be text like 'peng:555z', got {text!r}")
    return _parse_meld_cached(text)


@remembered
@lru_cache(maxsize=1 << 12)
def _parse_meld_cached(text: str) -> Meld:
    return parse_meld(text)


def _int_field(obj: dict[str, Any], name: str) -> int:
    v = obj.get(name, 0)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise HandError(f"{name} must be a whole number >= 0, not {v!r}")
    return v


def _bool_field(obj: dict[str, Any], name: str) -> bool:
    v = obj.get(name, False)
    if not isinstance(v, bool):
        raise HandError(f"{name} must be true or false, not {v!r}")
    return v


def score_object(obj: Any) -> dict[str, Any]:
    """Answer one decoded input object."""
    got = judge_object(obj)
    if isinstance(got, ValueError):
        return {"error": str(got)}
    return answer_of(got)


def answer_of(j: Judgement) -> dict[str, Any]:
    """The output object of a judgement."""
    return {
        "patterns": sorted(j.patterns),
        "win": j.win,
        "score": j.score,
        "name": j.name,
        "breakdown": [{"label": b.label, "value": b.value, "kind": b.kind} for b in j.breakdown],
    }


def judge_object(obj: Any) -> Judgement | ValueError:
    """The judgement of one decoded input object, or the refusal (its message is the
    ``error`` of the answer; a :class:`HandError` also carries a code for other words)."""
    try:
        if not isinstance(obj, dict):
            raise HandError("each line must be a JSON object")
        if not _FIELDS.issuperset(obj):
            unknown = set(obj) - _FIELDS
            raise HandError(f"unknown field(s): {', '.join(sorted(unknown))}")
        for name in ("concealed", "winning_tile", "indicator"):
            if name not in obj:
                raise HandError(f"missing field {name!r}")
        counts, n_concealed = _concealed_counts(obj["concealed"])
        winning = _parse_tile(obj["winning_tile"])
        indicator = _parse_tile(obj["indicator"])
        if len(obj) == 3:  # the three required fields only: every default applies
            return judge_counts(
                counts, n_concealed, [], winning, indicator, _SELF_DRAW, _rules_named("standard")
            )
        melds_in = obj.get("melds", [])
        if not isinstance(melds_in, list):
            raise HandError('melds must be a list like ["peng:555z"]')
        melds = [_parse_meld(m) for m in melds_in] if melds_in else []
        win_by = obj.get("win_by", "self_draw")
        if win_by not in ("self_draw", "rob_gang"):
            raise HandError(f"win_by must be self_draw or rob_gang, not {win_by!r}")
        context = _context(
            win_by,
            _int_field(obj, "gang_draws"),
            _int_field(obj, "flown_bao"),
            _bool_field(obj, "heavenly"),
            _bool_field(obj, "earthly"),
        )
        rules_in = obj.get("rules", "standard")
        rules = (
            _rules_named(rules_in)
            if isinstance(rules_in, str)
            else _rules(json.dumps(rules_in, sort_keys=True))
        )
        return judge_counts(counts, n_concealed, melds, winning, indicator, context, rules)
    except (HandError, TileError, MeldError, RulesError) as exc:
        return exc


_SELF_DRAW = WinContext()


class _SuitCounts(dict[str | None, bytes]):
    """Digit text of one suit (None: absent) to its rank counts, made on first sight."""

    def __init__(self, ranks: int) -> None:
        super().__init__({None: bytes(ranks)})
        self.ranks = ranks

    def clear(self) -> None:
        super().clear()
        self[None] = bytes(self.ranks)  # an absent suit

    def __missing__(self, digits: str) -> bytes:
        counts = [0] * self.ranks
        for d in digits:
            counts[ord(d) - 49] += 1
        got = self[digits] = bytes(counts)  # short text only: no count above 255
        return got


_SUITED = remembered(_SuitCounts(9))
_HONORS = remembered(_SuitCounts(7))


def _concealed_counts(text: object) -> tuple[Sequence[int], int]:
    """The concealed tiles as 34 counts and how many there are, with :func:`parse_tiles`'s
    errors for odd text.

    >>> counts, n = _concealed_counts("123m55z")
    >>> n, list(counts[:3]), counts[31]
    (5, [1, 1, 1], 2)
    """
    # (longer text is no hand, and could hold more copies than a byte counts)
    m = COMPACT_TILES.fullmatch(text) if isinstance(text, str) and len(text) < 256 else None
    if m is None:
        parsed = parse_tiles(text)  # type: ignore[arg-type]
        counts = [0] * KIND_COUNT
        for k in parsed:
            counts[k] += 1
        return counts, len(parsed)
    a, b, c, d = m.groups()
    letters = (a is not None) + (b is not None) + (c is not None) + (d is not None)
    # bytes: four cached pieces joined at C speed, and the judge's memo key as it stands
    return _SUITED[a] + _SUITED[b] + _SUITED[c] + _HONORS[d], len(m.string) - letters


@remembered
@lru_cache(maxsize=1 << 10)
def _parse_tile_cached(text: str) -> int:
    return parse_tile(text)


def _parse_tile(text: object) -> int:
    if not isinstance(text, str):
        raise TileError(f"a tile must be text like '5z', got {text!r}")
    return _parse_tile_cached(text)


_SCAN = make_scanner(json.JSONDecoder())  # type: ignore[arg-type]  # the stub is too narrow


def _loads(line: str) -> Any:
    """``json.loads`` for one line; an object spanning the whole line is scanned directly,
    skipping the checks around the scanner. Anything else (and every error) goes through
    ``json.loads`` itself, so answers and messages stay the same.

    >>> _loads('{"a": [1, "宝"]}'), _loads(' 5 ')
    ({'a': [1, '宝']}, 5)
    """
    if line[:1] == "{":
        try:
            obj, end = _SCAN(line, 0)
        except (StopIteration, ValueError):
            end = -1
        if end == len(line):
            return obj
    return json.loads(line)


def score_line(line: str) -> str:
    """Answer one input line with one output line (no newline)."""
    try:
        obj = _loads(line)
    except json.JSONDecodeError as exc:
        return json.dumps({"error": f"bad JSON: {exc}"}, ensure_ascii=False)
    got = judge_object(obj)
    if isinstance(got, ValueError):
        return json.dumps({"error": str(got)}, ensure_ascii=False)
    # Many hands share a judgement object (the judge memoises them; most often: no pattern
    # at all), so encode each once. Keyed by identity, which is cheaper than hashing the
    # judgement; the entry holds the judgement, so its id can't be reused meanwhile.
    known = _ANSWERS.get(id(got))
    if known is not None and known[0] is got:
        return known[1]
    text = json.dumps(answer_of(got), ensure_ascii=False)
    if len(_ANSWERS) >= 1 << 16:
        _ANSWERS.clear()
    _ANSWERS[id(got)] = (got, text)
    return text


_ANSWERS: dict[int, tuple[Judgement, str]] = remembered({})


def make_score_input(n: int, seed: int = 0) -> list[str]:
    """``n`` JSON lines of random valid hands, about half of them winning shapes.

    >>> len(make_score_input(3, seed=1))
    3
    """
    rng = random.Random(seed)
    lines: list[str] = []
    while len(lines) < n:
        indicator = rng.randrange(KIND_COUNT)
        pool = [k for k in range(KIND_COUNT) for _ in range(4)]
        pool.remove(indicator)
        rng.shuffle(pool)
        made = _random_winning(rng, pool) if rng.random() < 0.5 else (pool[:14], [])
        if made is None:
            continue
        hand, melds = made
        obj: dict[str, Any] = {
            "concealed": format_tiles(hand),
            "winning_tile": format_tiles([rng.choice(hand)]),
            "indicator": format_tiles([indicator]),
        }
        if melds:
            obj["melds"] = melds
        bao = bao_of(indicator)
        meld_tiles = [k for m in melds for k in parse_meld(m).tiles]
        held = hand.count(bao) + meld_tiles.count(bao)
        if rng.random() < 0.2:
            obj["flown_bao"] = min(rng.randrange(3), 4 - held)  # only four 宝 exist
        if rng.random() < 0.1:
            winning = parse_tile(obj["winning_tile"])
            if hand.count(winning) == 1 and winning != indicator and winning not in meld_tiles:
                obj["win_by"] = "rob_gang"  # the ganger holds the other three (§4)
        elif rng.random() < 0.5 and any(m.startswith("angang") for m in melds):
            obj["gang_draws"] = 1  # a replacement draw follows a gang of the hand
        lines.append(json.dumps(obj))
    return lines


def _random_winning(rng: random.Random, pool: list[int]) -> tuple[list[int], list[str]] | None:
    """Four random sets and a pair (some sets laid down as melds), or None if the draw
    would need a fifth copy."""
    left = [0] * KIND_COUNT
    for k in pool:
        left[k] += 1
    hand: list[int] = []
    melds: list[str] = []
    for _ in range(4):
        if rng.random() < 0.5:
            k = rng.randrange(27)
            k -= max(0, k % 9 - 6)
            group = [k, k + 1, k + 2]
            kind = "chi"
        else:
            k = rng.randrange(KIND_COUNT)
            group = [k, k, k]
            kind = "peng"
        for t in group:
            left[t] -= 1
        if rng.random() < 0.2:
            if kind == "peng" and left[k] > 0 and rng.random() < 0.5:
                left[k] -= 1  # the fourth copy: the 碰 becomes a gang
                kind, group = "angang", [k] * 4
            melds.append(f"{kind}:{format_tiles(group)}")
        else:
            hand += group
    k = rng.randrange(KIND_COUNT)
    left[k] -= 2
    hand += [k, k]
    if min(left) < 0:
        return None
    return hand, melds


def main(argv: Sequence[str] | None = None) -> int:
    """Read all of stdin, write one answer per non-blank line; arguments are refused."""
    refused = stdin_only("python -m engine.score", __doc__ or "", argv)
    if refused is not None:
        return refused
    data = sys.stdin.read()
    # identical lines (common in replays and batch checks) are judged once
    memo: dict[str, str] = {}
    out: list[str] = []
    for line in data.splitlines():
        if not line.strip():
            continue
        answer = memo.get(line)
        if answer is None:
            answer = memo[line] = score_line(line)
        out.append(answer)
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))
    return 0
