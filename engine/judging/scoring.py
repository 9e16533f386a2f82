"""Score tables (§7 standard, §9 番 profile), factors and the breakdown of a win.

The judge (:mod:`engine.judge`) finds every scorable reading of a hand as a
:class:`Candidate`; :func:`score_candidate` prices one.

>>> c = Candidate("pengpenghu", "碰碰胡", "youbao")
>>> score_candidate(c, WinContext(win_by="rob_gang"), Rules(), 0).score
48

Decisions where the rules are open
----------------------------------
(The ones a player or a room creator needs are in ``docs/rules.md``, "Open readings".)

* 宝吊 is judged on the 13 tiles before the draw (winning tile removed) less one 宝: those must
  be complete sets (or six pairs, for 七对) with the remaining 宝 wild; the drawn tile (or, if it
  is a 宝, any one kind) is the pair. 宝吊无宝 falls out of keeping the best reading, since
  无宝 ≥ 宝吊 in every row.
* Under ``strict_no_bao`` a hand holding 宝 among its 14 tiles, declared melds included, has
  no 无宝 reading at all (宝 read as themselves are then 有宝).
* 字一色 碰碰胡 / 七对 are always also 九幺, so they score on the 九幺…字一色 rows.
* 七星 of 九幺七对 and 豪华 exclude each other (seven distinct honor pairs hold no four); both
  readings are tried and the better kept.
* ``chang_jiuyao`` applies to the plain 九幺 / 七星九幺 rows only (九幺七对 has its own 豪华
  factor); "a concealed four" may use 宝 read as that kind (the reading is then 有宝).
* 天胡/地胡 need the 14 tiles to form some pattern; they then score the flat
  ``tian_di_points`` and nothing else (also in the 番 profile), and always may be declared.
* An unwinnable reading still reports its score (e.g. 有宝平胡 2 with ``win`` false); the
  best reading is the winnable one with the highest score, else the highest score.
* 番 profile: 九幺七对 / 九幺碰碰胡 take the 七对/碰碰胡 base (九幺 adds nothing there);
  单张和牌 is taken as 单吊 (four declared melds, so the wait is one tile); 宝吊还原 (+1) is a
  无宝 reading whose 13 tiles also were a 宝吊 wait; 杠开 adds one 番 per gang in the chain for
  every pattern; 清一色 +2 includes 字一色; the minimum ``min_win_points`` applies to self-drawn
  平胡 as in the standard profile; 抢杠 multiplies by 6.
* A robbed tile is judged like any other tile (a robbed 宝 kind is wild).
* 单吊 on a drawn 宝 (four melds, single tile X, draws a 宝) is 有宝 with the 单吊 factor; a
  pair of 宝 behind four melds is 无宝 单吊 (both read as themselves).
* Equal scores go to the cleaner 宝 status (无宝, then 宝吊, then 有宝), then the first found.
* Impossible contexts are refused by the judge: ``flown_bao`` and ``gang_draws`` above 4, more
  宝 flown and held than four, more gang draws than replacement-drawing gang melds, 天胡/地胡
  together, robbed, with melds or with 宝 flown.
* 天胡/地胡 pay flat in the 番 profile too: no extra 番 from the others' 飞宝.
* A 七对 reading may count wild-made fours (e.g. three 5p plus a 宝 read as 5p) as 豪华;
  fifth copies are never needed for that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from engine.rules import Rules

__all__ = [
    "FAN_BASE",
    "STANDARD_TABLE",
    "BreakdownItem",
    "Candidate",
    "Priced",
    "WinContext",
    "score_candidate",
]

STATUS_INDEX = {"wubao": 0, "baodiao": 1, "youbao": 2}
STATUS_ZH = {"wubao": "无宝", "baodiao": "宝吊", "youbao": "有宝"}

STANDARD_TABLE: dict[str, tuple[int, int | None, int]] = {
    "平胡": (4, 4, 2),
    "清一色平胡": (16, 16, 8),
    "七对": (16, 12, 8),
    "清一色七对": (32, 24, 8),
    "字一色七对": (32, 24, 8),
    "九幺七对": (32, 24, 8),
    "九幺七对字一色": (64, 48, 16),
    "碰碰胡": (16, 12, 8),
    "清一色碰碰胡": (32, 24, 8),
    "字一色碰碰胡": (32, 24, 8),
    "九幺碰碰胡": (32, 24, 8),
    "九幺碰碰胡字一色": (64, 48, 16),
    "十三烂": (4, None, 2),
    "七星十三烂": (8, None, 4),
    "九幺": (4, None, 2),
    "七星九幺": (8, None, 4),
}
"""§7 base points by row: (无宝, 宝吊, 有宝); ``None`` where the row has no 宝吊."""

FAN_BASE: dict[str, tuple[int | None, int | None, int | None]] = {
    "pinghu": (2, 3, None),
    "qidui": (10, 8, 4),
    "pengpenghu": (10, 8, 4),
    "jiuyao": (4, None, 2),
    "shisanlan": (4, None, 2),
}
"""§9 base points by family: (无宝, 宝吊, 有宝); ``None``: can't win so."""

GANG_CHAIN_ZH = {1: "杠上开花", 2: "连一杠"}


@dataclass(frozen=True)
class WinContext:
    """How the win came about. ``gang_draws``: 1 = 杠上开花, 2 = 连一杠 …"""

    win_by: str = "self_draw"
    gang_draws: int = 0
    flown_bao: int = 0
    heavenly: bool = False
    earthly: bool = False
    drawn_held: bool = True
    """The win is completed by a tile just drawn and still held. False when that tile went
    into a 亮宝杠, or for a dealer's dealt hand: no draw pairs a lone 宝, so no 宝吊."""


@dataclass(frozen=True)
class BreakdownItem:
    """One line of a score: base points (``base``), a multiplier (``factor``) or 番 (``fan``)."""

    label: str
    value: int
    kind: str


class Candidate(NamedTuple):
    """One scorable reading: pattern family, §7 row, 宝 status, and facts factors need."""

    family: str  # pinghu | pengpenghu | qidui | shisanlan | jiuyao
    row: str  # the §7 row name, e.g. "九幺碰碰胡"
    status: str  # wubao | baodiao | youbao
    haohua: int = 0  # groups of four in 七对
    qixing: bool = False  # all seven honors (七星)
    quad: bool = False  # a concealed four (豪华长九幺)
    one_suit: bool = False  # 清一色 or 字一色 (the 番 profile's +2)
    huanyuan: bool = False  # a 无宝 reading that was also a 宝吊 wait (宝吊还原)


class Priced(NamedTuple):
    score: int
    win: bool
    name: str
    breakdown: tuple[BreakdownItem, ...]
    fan: int
    base: int
    reason: str


def _name(c: Candidate) -> str:
    if c.status == "baodiao":
        return c.row + "宝吊"
    if c.status == "youbao":
        return "有宝" + c.row
    return c.row


def _gang_label(n: int) -> str:
    return GANG_CHAIN_ZH.get(n, f"连{n - 1}杠")


def score_candidate(c: Candidate, context: WinContext, rules: Rules, n_melds: int) -> Priced:
    """Price one reading under ``rules`` (standard §7 or 番 §9).

    >>> c = Candidate("qidui", "九幺七对字一色", "wubao", qixing=True)
    >>> p = score_candidate(c, WinContext(), Rules(), 0)
    >>> p.score, [(i.label, i.value) for i in p.breakdown]
    (128, [('九幺七对字一色', 64), ('七星', 2)])
    """
    if rules.scoring == "fan":
        return _score_fan(c, context, rules, n_melds)
    return _score_standard(c, context, rules, n_melds)


def _score_standard(c: Candidate, context: WinContext, rules: Rules, n_melds: int) -> Priced:
    base = STANDARD_TABLE[c.row][STATUS_INDEX[c.status]]
    name = _name(c)
    if base is None:
        return Priced(0, False, name, (), 0, 0, f"{c.row} has no 宝吊 column")
    items = [BreakdownItem(name, base, "base")]
    score = base
    fam = c.family

    def factor(label: str, value: int) -> None:
        nonlocal score
        items.append(BreakdownItem(label, value, "factor"))
        score *= value

    if fam == "qidui":
        if c.haohua:
            factor("豪华" if c.haohua == 1 else f"豪华×{c.haohua}", 2**c.haohua)
        if c.qixing:
            factor("七星", 2)
    if fam == "jiuyao" and rules.chang_jiuyao and n_melds == 0:
        factor("长九幺", 2)
        if c.quad:
            factor("豪华长九幺", 2)
    if context.gang_draws > 0 and context.win_by == "self_draw":
        if fam in ("pinghu", "pengpenghu"):
            factor(_gang_label(context.gang_draws), 2**context.gang_draws)
        elif fam == "jiuyao":  # plain 九幺: N = chain - 1 capped at 2
            factor(_gang_label(context.gang_draws), 2 ** min(context.gang_draws, 3))
    if n_melds == 4 and fam in ("pinghu", "pengpenghu"):
        factor("单吊", 2)
    if context.flown_bao > 0:
        factor(f"飞宝×{context.flown_bao}", 2**context.flown_bao)
    robbed = context.win_by == "rob_gang"
    if robbed:
        factor("抢杠", 6)
    win, reason = True, ""
    limited = fam == "pinghu" or (rules.min_score_all_patterns and fam in ("jiuyao", "shisanlan"))
    if limited and not robbed and score < rules.min_win_points:
        win = False
        reason = (
            f"{name} scores {score}, below the minimum of {rules.min_win_points} for a "
            "self-drawn win"
        )
    return Priced(score, win, name, tuple(items), 0, base, reason)


def _score_fan(c: Candidate, context: WinContext, rules: Rules, n_melds: int) -> Priced:
    base = FAN_BASE[c.family][STATUS_INDEX[c.status]]
    name = _name(c)
    if base is None:
        reason = f"{name} can't win in the 番 profile"
        return Priced(0, False, name, (), 0, 0, reason)
    items = [BreakdownItem(name, base, "base")]
    fan = 0

    def add(label: str, value: int) -> None:
        nonlocal fan
        if value:
            items.append(BreakdownItem(label, value, "fan"))
            fan += value

    if c.family in ("jiuyao", "shisanlan") and c.qixing:
        add("七星", 1)
    if c.one_suit and c.family in ("pinghu", "pengpenghu", "qidui"):
        add("清一色" if "字一色" not in c.row else "字一色", 2)
    if c.family == "qidui":
        add("豪华", c.haohua)
    if c.huanyuan:
        add("宝吊还原", 1)
    if n_melds == 4 and c.family in ("pinghu", "pengpenghu"):
        add("单张和牌", 1)
    if context.win_by == "self_draw":
        add(_gang_label(context.gang_draws) if context.gang_draws else "杠开", context.gang_draws)
    add(f"飞宝×{context.flown_bao}", context.flown_bao)
    score = base * 2**fan
    robbed = context.win_by == "rob_gang"
    if robbed:
        items.append(BreakdownItem("抢杠", 6, "factor"))
        score *= 6
    win, reason = True, ""
    limited = c.family == "pinghu" or (
        rules.min_score_all_patterns and c.family in ("jiuyao", "shisanlan")
    )
    if limited and not robbed and score < rules.min_win_points:
        win = False
        reason = f"{name} scores {score}, below the minimum of {rules.min_win_points}"
    return Priced(score, win, name, tuple(items), fan, base, reason)
