"""The 算分器: a GET query read into the score engine's input, and its answer as a view model.

The engine decides everything (``engine.cli.score.judge_object`` for 14 tiles, the same function
the ``python -m engine.score`` CLI answers each line with; ``engine.judge.winning_tiles`` for
13); this module only reads the query, words the engine's answer and its refusals (by their
code) in the reader's language and points bad input at the field it came from.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.cli.score import answer_of, judge_object
from engine.judging.judge import HandError, WinContext, winning_tiles
from engine.judging.validity import check_win_context
from engine.melds import MELD_KINDS, Meld, MeldError, parse_meld
from engine.rules import PROFILES, Rules
from engine.tiles import TileError, bao_of, format_tile, parse_tile, parse_tiles
from tables.rooms.forms import RULE_FIELDS, RulesFieldsMixin

__all__ = [
    "MELD_KINDS_SHOWN",
    "PICKER_ROWS",
    "CalcResult",
    "CalculatorForm",
    "Line",
    "Wait",
    "calculator_result",
    "query_with_tile",
    "refusal",
]

WIN_BY_CHOICES = [("self_draw", _("Self-drawn (自摸)")), ("rob_gang", _("Robbing a kong (抢杠)"))]
FIRST_CHOICES = [
    ("", _("No")),
    ("heavenly", _("Heavenly hand (天胡): the dealer's first 14 tiles")),
    ("earthly", _("Earthly hand (地胡): a first draw before any claim")),
]
OPTIONS_MARK = "opts"
"""Present when the rule options were submitted: a missing checkbox then means off, while a
shared link without it takes the chosen profile's defaults (short links stay short)."""
MELD_KINDS_SHOWN = [
    ("chi", _("Chi")),
    ("peng", _("Pong")),
    ("minggang", _("Exposed kong")),
    ("bugang", _("Added kong")),
    ("angang", _("Concealed kong")),
    ("liangbao", _("Bao kong")),
]
"""The meld buttons that start a meld in the melds field (the msgids of the table's labels)."""
PICKER_ROWS = ["123456789m", "123456789p", "123456789s", "1234567z"]
"""The tile picker: every kind, a suit a row."""
_MELD_SPLIT = re.compile(r"[\s,;，；]+")


class CalculatorForm(RulesFieldsMixin):
    """The calculator's query: the hand, how it was won, and the rules."""

    hand = forms.CharField(
        label=_("Hand tiles"),
        max_length=80,
        help_text=_("Concealed tiles, e.g. 123m456m789p234s55z: 14 to score a win, 13 for waits."),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false"}
        ),
    )
    win = forms.CharField(
        label=_("Winning tile"),
        required=False,
        max_length=4,
        help_text=_("One of the 14 tiles; the last one when left empty."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "off"}),
    )
    indicator = forms.CharField(
        label=_("Indicator (亮宝牌)"),
        max_length=4,
        help_text=_("The tile turned face up; the next kind is the 宝."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "off"}),
    )
    melds = forms.CharField(
        label=_("Melds"),
        required=False,
        max_length=120,
        help_text=_(
            "Declared melds, e.g. peng:555z chi:123m angang:1111p; or tap a kind, then tiles."
        ),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false"}
        ),
    )
    by = forms.ChoiceField(label=_("Won by"), choices=WIN_BY_CHOICES, required=False)
    gang = forms.IntegerField(
        label=_("Replacement draws after gangs (杠开)"), min_value=0, max_value=4, required=False
    )
    flown = forms.IntegerField(
        label=_("Flown bao (飞宝)"), min_value=0, max_value=4, required=False
    )
    first = forms.ChoiceField(
        label=_("Heavenly or earthly hand"), choices=FIRST_CHOICES, required=False
    )

    def __init__(self, data: QueryDict | None = None) -> None:
        if data is not None and OPTIONS_MARK not in data:
            data = _with_profile_defaults(data)
        super().__init__(data)
        self.add_rule_fields(PROFILES["standard"])
        self.fields["profile"].required = False

    def clean(self) -> dict[str, Any]:
        data = self.cleaned_data
        if not data.get("profile"):
            data["profile"] = "standard"
        cleaned = super().clean()
        hand = self._tiles("hand")
        win = self._tile("win")
        indicator = self._tile("indicator")
        melds = self._melds()
        if hand is None or melds is None or "hand" in self.errors:
            return cleaned
        if len(hand) + 3 * len(melds) == 13 and win is not None:
            hand = [*hand, win]  # 13 tiles and the drawn one: judge the 14
        total = len(hand) + 3 * len(melds)
        if total not in (13, 14):
            self.add_error(
                "hand",
                gettext(
                    "Tiles, counting 3 per meld: %(n)d. Give 14 to score a win, or 13 to see the "
                    "waits."
                )
                % {"n": total},
            )
            return cleaned
        if total == 14:
            if win is None:
                win = hand[-1]
            elif win not in hand:
                self.add_error("win", gettext("The winning tile must be one of the hand's tiles."))
                return cleaned
        self._check_copies(hand, melds, indicator)
        data.update(tiles=hand, winning=win if total == 14 else None, meld_list=melds)
        return cleaned

    def _tiles(self, name: str) -> list[int] | None:
        text = self.cleaned_data.get(name)
        if text is None:
            return None
        try:
            return parse_tiles(text.replace(" ", ""))
        except TileError:
            self.add_error(
                name, gettext("Write tiles like 123m456p789s11z: digits, then m, p, s or z.")
            )
            return None

    def _tile(self, name: str) -> int | None:
        text = (self.cleaned_data.get(name) or "").strip()
        if not text:
            return None
        try:
            return parse_tile(text)
        except TileError:
            self.add_error(name, gettext("Write one tile, like 5m, 9p, 3s or 7z."))
            return None

    def _melds(self) -> list[Meld] | None:
        text = (self.cleaned_data.get("melds") or "").strip()
        try:
            melds = [parse_meld(m) for m in _MELD_SPLIT.split(text) if m]
        except MeldError:
            self.add_error(
                "melds",
                gettext("Write melds like peng:555z or chi:123m; kinds: %(kinds)s.")
                % {"kinds": ", ".join(MELD_KINDS)},
            )
            return None
        if len(melds) > 4:
            self.add_error("melds", gettext("A hand has at most four melds."))
            return None
        return melds

    def _check_copies(self, hand: list[int], melds: list[Meld], indicator: int | None) -> None:
        # A message at the hand beats the engine's refusal above the whole form.
        seen = Counter(hand + [k for m in melds for k in m.tiles])
        if indicator is not None:
            seen[indicator] += 1
        kind, n = max(seen.items(), key=lambda kv: kv[1])
        if n > 4:
            self.add_error(
                "hand",
                str(REFUSALS["copies"]) % {"n": n, "tile": format_tile(kind)},
            )


def _with_profile_defaults(data: QueryDict) -> QueryDict:
    """The query with every rule option it lacks set to its profile's value."""
    filled = data.copy()
    base = PROFILES.get(data.get("profile") or "standard", PROFILES["standard"])
    for name in RULE_FIELDS:
        if name not in filled:
            value = getattr(base, name)
            if value is not False:  # an absent checkbox is already off
                filled[name] = "on" if value is True else str(value)
    return filled


@dataclass(frozen=True)
class Line:
    """One line of a score's breakdown, as the settlement shows it."""

    label: str
    value: int
    kind: str


@dataclass(frozen=True)
class Wait:
    """A tile a 13-tile hand wins on, with the win it makes."""

    tile: str
    name: str
    score: int


@dataclass(frozen=True)
class CalcResult:
    """What the page shows for a valid query: the hand, and a verdict or the waits."""

    concealed: list[str]
    """Sorted, less the winning tile."""
    melds: list[list[str]]
    indicator: str
    bao: str
    winning_tile: str | None = None
    win: bool = False
    name: str = ""
    score: int = 0
    breakdown: tuple[Line, ...] = ()
    reason: str = ""
    """Why the hand can't be declared (a 14-tile hand that does not win)."""
    error: str = ""
    """The engine refused the hand as impossible."""
    waits: tuple[Wait, ...] = ()
    payment: str = ""
    """Who pays the win, and how much ("三家各付 4"), as a settlement would."""

    @property
    def is_waits(self) -> bool:
        return self.winning_tile is None and not self.error


def calculator_result(form: CalculatorForm) -> CalcResult | None:
    """The engine's answer to a valid form; ``None`` for an invalid one."""
    if not form.is_bound or not form.is_valid():
        return None
    data = form.cleaned_data
    rules: Rules = form.rules()
    tiles: list[int] = data["tiles"]
    melds: list[Meld] = data["meld_list"]
    indicator = parse_tile(data["indicator"].strip())
    first = data.get("first") or ""
    context = WinContext(
        win_by=data.get("by") or "self_draw",
        gang_draws=data.get("gang") or 0,
        flown_bao=data.get("flown") or 0,
        heavenly=first == "heavenly",
        earthly=first == "earthly",
    )
    winning: int | None = data["winning"]
    rest = sorted(tiles)
    if winning is not None:
        rest.remove(winning)  # shown apart, as the drawn tile
    shown = CalcResult(
        concealed=[format_tile(k) for k in rest],
        melds=[[format_tile(k) for k in m.tiles] for m in melds],
        indicator=format_tile(indicator),
        bao=format_tile(bao_of(indicator)),
    )
    if winning is None:
        try:  # else every tile would be refused alike, and the list would just be empty
            check_win_context(melds, context, rules)
        except HandError as exc:
            return replace(shown, error=refusal(exc))
        waits = winning_tiles(tiles, melds, indicator, rules, context)
        return replace(shown, waits=tuple(Wait(format_tile(k), j.name, j.score) for k, j in waits))
    got = judge_object(
        {
            "concealed": "".join(format_tile(k) for k in tiles),
            "melds": [str(m) for m in melds],
            "winning_tile": format_tile(winning),
            "indicator": shown.indicator,
            "win_by": context.win_by,
            "gang_draws": context.gang_draws,
            "flown_bao": context.flown_bao,
            "heavenly": context.heavenly,
            "earthly": context.earthly,
            "rules": rules.to_json(),
        }
    )
    shown = replace(shown, winning_tile=format_tile(winning))
    if isinstance(got, ValueError):
        return replace(shown, error=refusal(got))
    answer = answer_of(got)
    return replace(
        shown,
        win=bool(answer["win"]),
        name=str(answer["name"]),
        score=int(answer["score"]),
        breakdown=tuple(Line(**b) for b in answer["breakdown"]),
        reason="" if answer["win"] else _reason(answer, rules),
        payment=payment_line(context.win_by, int(answer["score"])) if answer["win"] else "",
    )


def payment_line(win_by: str, score: int) -> str:
    """Who pays a win worth ``score``, as the engine settles it (``engine.outcome``): a
    self-drawn win is paid by each of the other three, a 抢杠 by the robbed player alone.

    What only the table knows is left out: 三凑牌承包 (one feeder pays for all) and, in the 番
    profile, the extra a payer who flew 宝 pays."""
    if win_by == "rob_gang":
        return _("The player whose gang was robbed (放炮) pays %(n)d") % {"n": score}
    return _("Each of the other three pays %(n)d, %(total)d in all") % {
        "n": score,
        "total": 3 * score,
    }


REFUSALS = {
    "qiang_gang_off": _("抢杠 is off in these rules, so a win can only be self-drawn."),
    "too_many_bao": _(
        "%(flown)d 宝 flown and %(held)d among the 14 tiles (the 宝 is %(bao)s): only four 宝 "
        "exist."
    ),
    "gang_draws_robbed": _(
        "A 抢杠 win is on another player's gang, not on a replacement draw: 杠开 must be 0."
    ),
    "gang_draws_gangs": _(
        "%(draws)d replacement draws, but only %(gangs)d gangs that draw one (明杠, 补杠, "
        "暗杠; a 亮宝杠 draws none)."
    ),
    "rob_held": _(
        "A 抢杠 win on %(tile)s with %(held)d more %(tile)s in the hand: the robbed gang holds "
        "the other three."
    ),
    "rob_indicator": _(
        "A 抢杠 win on %(tile)s, the indicator's kind: its three tiles gang only as 亮宝杠, "
        "which can't be robbed."
    ),
    "tian_di_robbed": _("天胡 and 地胡 are self-drawn, never a 抢杠."),
    "tian_di_melds": _("天胡 and 地胡 come before any meld, even a 暗杠 or 亮宝杠."),
    "tian_di_flown": _(
        "天胡 and 地胡 come before the winner's first discard: no 宝 can have been flown."
    ),
    "liangbao_kind": _("A 亮宝杠 is three tiles of the indicator's kind."),
    "copies": _("%(n)d copies of %(tile)s, counting the melds and the indicator: only four exist."),
}
"""The engine's refusals the page can meet, by :class:`HandError` code, in the reader's words
(the engine's own message is the score CLI's English)."""


def refusal(exc: ValueError) -> str:
    """Why the engine refused the hand, in the reader's language."""
    words = REFUSALS.get(exc.code) if isinstance(exc, HandError) else None
    if words is None or not isinstance(exc, HandError):
        # the form checks every other input before the engine sees it
        return gettext("The score engine can't judge this hand.")
    return str(words) % exc.params


def _reason(answer: dict[str, Any], rules: Rules) -> str:
    """The engine's three ways of not winning, in the reader's language."""
    if not answer["patterns"]:
        return gettext("These tiles form no winning pattern, whatever the 宝 stands for.")
    if not answer["breakdown"]:
        return gettext("%(name)s can't be declared with this score table.") % {
            "name": answer["name"]
        }
    return gettext(
        "%(name)s scores %(score)d, below the minimum of %(min)d for a self-drawn win."
    ) % {"name": answer["name"], "score": answer["score"], "min": rules.min_win_points}


def query_with_tile(query: QueryDict) -> str:
    """The query with its ``tile`` (a picker tap without JavaScript) added to the hand."""
    changed = query.copy()
    tile = changed.pop("tile", [""])[-1]
    changed["hand"] = changed.get("hand", "") + tile
    return changed.urlencode()
