"""The 算分器 agrees with the engine's score CLI, read through the rendered page."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cli.score import make_score_input, score_object
from engine.judging.judge import WinContext, winning_tiles
from engine.melds import parse_meld
from engine.rules import Rules
from engine.tiles import KIND_COUNT, format_tile, parse_tile, parse_tiles
from tables.calculator.calculate import CalculatorForm, query_with_tile

pytestmark = pytest.mark.django_db

HANDS = 200


@dataclass
class Page:
    """What the calculator page shows: the result's data attributes, waits, breakdown and the
    error messages by field ("" for the form's own)."""

    status: int
    result: dict[str, str] | None = None
    waits: list[tuple[str, str, int]] = field(default_factory=list)
    breakdown: list[tuple[str, str]] = field(default_factory=list)
    errors: dict[str, list[str]] = field(default_factory=dict)
    text: str = ""

    @property
    def has_error(self) -> bool:
        return bool(self.errors) or bool(self.result and "data-error" in self.result)


class _Reader(HTMLParser):
    def __init__(self, page: Page) -> None:
        super().__init__()
        self.page = page
        self.field = ""
        self.in_errors: str | None = None
        self.in_points = False
        self.item: list[str] = []
        self.in_breakdown = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        classes = a.get("class", "").split()
        if a.get("id") == "calc-result":
            self.page.result = {k: v for k, v in a.items() if k.startswith("data-")}
        if tag == "li" and "data-tile" in a and "data-score" in a:
            self.page.waits.append((a["data-tile"], a["data-name"], int(a["data-score"])))
        if tag == "label" and a.get("for", "").startswith("id_"):
            self.field = a["for"][3:]
        if tag == "ul" and "field-errors" in classes:
            self.in_errors = self.field
        if tag == "div" and "form-errors" in classes:
            self.in_errors = ""
        if tag == "ul" and "breakdown" in classes:
            self.in_breakdown = True
        if self.in_breakdown and tag == "li":
            self.item = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("ul", "div") and self.in_errors is not None and tag != "p":
            self.in_errors = None
        if self.in_breakdown and tag == "li":
            self.page.breakdown.append((self.item[0], "".join(self.item[1:]).strip()))
        if tag == "ul":
            self.in_breakdown = False

    def handle_data(self, data: str) -> None:
        if self.in_errors is not None and data.strip():
            self.page.errors.setdefault(self.in_errors, []).append(data.strip())
        if self.in_breakdown:
            self.item.append(data)


def get_page(client: Client, query: dict[str, Any] | str) -> Page:
    text = query if isinstance(query, str) else urlencode(query)
    response = client.get(f"/calc/?{text}")
    page = Page(response.status_code)
    if response.status_code == 200:
        page.text = response.content.decode()
        _Reader(page).feed(page.text)
    return page


def query_of(obj: dict[str, Any]) -> dict[str, Any]:
    """The page's query for one input object of the score CLI."""
    query: dict[str, Any] = {
        "hand": obj["concealed"],
        "win": obj["winning_tile"],
        "indicator": obj["indicator"],
    }
    if obj.get("melds"):
        query["melds"] = " ".join(obj["melds"])
    if "win_by" in obj:
        query["by"] = obj["win_by"]
    if "gang_draws" in obj:
        query["gang"] = obj["gang_draws"]
    if "flown_bao" in obj:
        query["flown"] = obj["flown_bao"]
    return query


def shown_breakdown(answer: dict[str, Any]) -> list[tuple[str, str]]:
    """The breakdown as the settlement's template writes it."""
    marks = {"factor": "×", "fan": "+", "base": ""}
    return [
        (b["label"], f"{marks[b['kind']]}{b['value']}" + (" 番" if b["kind"] == "fan" else ""))
        for b in answer["breakdown"]
    ]


@pytest.fixture
def client() -> Client:
    return Client()


def test_the_page_agrees_with_the_score_cli_on_generated_hands(client: Client) -> None:
    wins = errors = 0
    for line in make_score_input(HANDS, seed=12):
        obj = json.loads(line)
        answer = score_object(obj)
        page = get_page(client, query_of(obj))
        assert page.status == 200, line
        if "error" in answer:
            errors += 1
            assert page.has_error, (line, answer)
            continue
        assert page.result is not None, (line, page.errors)
        got = page.result
        assert got["data-win"] == ("1" if answer["win"] else "0"), line
        assert int(got["data-score"]) == answer["score"], line
        assert html.unescape(got["data-name"]) == answer["name"], line
        assert page.breakdown == shown_breakdown(answer), line
        wins += answer["win"]
    # the generator makes about half winning shapes: both kinds of answer were compared
    assert wins > HANDS // 5 and HANDS - wins - errors > HANDS // 5


def test_a_hand_that_cannot_be_declared_says_why(client: Client) -> None:
    page = get_page(client, {"hand": "123m456m789p234s56z", "win": "6z", "indicator": "5z"})
    assert page.result is not None and page.result["data-win"] == "0"
    assert html.unescape(page.result["data-name"]) == "有宝平胡"
    assert "有宝平胡得 2 分，低于自摸的最低 4 分" in page.text


def test_thirteen_tiles_list_the_engines_waits_each_with_its_score(client: Client) -> None:
    checked = 0
    for line in make_score_input(70, seed=5):
        obj = json.loads(line)
        if "error" in score_object(obj):
            continue
        tiles = parse_tiles(obj["concealed"])
        tiles.remove(parse_tile(obj["winning_tile"]))
        query = query_of(obj)
        del query["win"]
        query["hand"] = "".join(format_tile(k) for k in tiles)
        page = get_page(client, query)
        assert page.result is not None and "data-waits" in page.result, (line, page.errors)
        melds = [parse_meld(m) for m in obj.get("melds", [])]
        context = WinContext(
            obj.get("win_by", "self_draw"), obj.get("gang_draws", 0), obj.get("flown_bao", 0)
        )
        expected = winning_tiles(tiles, melds, parse_tile(obj["indicator"]), Rules(), context)
        assert page.waits == [(format_tile(k), j.name, j.score) for k, j in expected], line
        # and each wait is a win the score CLI agrees with, and no other tile is
        shown = {t for t, _, _ in page.waits}
        for k in range(KIND_COUNT):
            answer = score_object(
                {**obj, "concealed": format_tile_list([*tiles, k])}
                | {"winning_tile": format_tile(k)}
            )
            assert (answer.get("win") is True) == (format_tile(k) in shown), (line, k)
        checked += 1
    assert checked > 50


def format_tile_list(kinds: list[int]) -> str:
    return "".join(format_tile(k) for k in kinds)


def test_a_ready_hand_with_no_waits_says_so(client: Client) -> None:
    page = get_page(client, {"hand": "11m22m58p2367s266z", "indicator": "9m"})
    assert page.result is not None and page.result["data-waits"] == "0"
    assert "没有能和的牌" in page.text


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"hand": "123x456m", "indicator": "1z"}, "hand"),
        ({"hand": "123m456m789p234s55z5m", "indicator": "1z"}, "hand"),  # 15 tiles
        ({"hand": "11111m456m789p234s", "indicator": "1z"}, "hand"),  # 5 copies
        ({"hand": "1111m456m789p234s5z", "indicator": "1m"}, "hand"),  # the indicator's 5th
        ({"hand": "123m456m789p234s55z", "indicator": "8z"}, "indicator"),
        ({"hand": "123m456m789p234s55z", "indicator": ""}, "indicator"),
        ({"hand": "123m456m789p234s55z", "indicator": "1z", "win": "9m"}, "win"),
        ({"hand": "123m456m789p234s55z", "indicator": "1z", "win": "55z"}, "win"),
        ({"hand": "123m456m55z", "indicator": "1z", "melds": "peng:556z"}, "melds"),
        ({"hand": "123m456m55z", "indicator": "1z", "melds": "pong:555s"}, "melds"),
        ({"hand": "123m456m789p234s55z", "indicator": "1z", "gang": "9"}, "gang"),
        ({"hand": "123m456m789p234s55z", "indicator": "1z", "flown": "-1"}, "flown"),
        ({"hand": "123m456m789p234s55z", "indicator": "1z", "by": "discard"}, "by"),
        ({"hand": "123m456m789p234s55z", "indicator": "1z", "first": "both"}, "first"),
        ({"hand": "123m456m789p234s55z", "indicator": "1z", "profile": "nope"}, "profile"),
        ({"hand": "123m456m789p234s55z", "indicator": "1z", "scoring": "x"}, "scoring"),
        (
            {"hand": "123m456m789p234s55z", "indicator": "1z", "min_win_points": "a"},
            "min_win_points",
        ),
        ({"indicator": "1z"}, "hand"),
    ],
)
def test_bad_input_gets_a_message_at_its_field(
    client: Client, query: dict[str, str], field: str
) -> None:
    page = get_page(client, query)
    assert page.status == 200
    assert page.result is None
    assert page.errors.get(field), page.errors


def test_an_impossible_hand_shows_the_engines_refusal(client: Client) -> None:
    # gang_draws without a gang: the form can't tell, the engine refuses the hand
    page = get_page(client, {"hand": "123m456m789p234s55z", "indicator": "1z", "gang": "1"})
    assert page.status == 200 and page.result is not None
    assert page.result.get("data-error") == "1"
    assert "这手牌不可能" in page.text


def test_messages_are_english_for_an_english_browser() -> None:
    page = get_page(Client(headers={"accept-language": "en"}), {"hand": "1m", "indicator": "1z"})
    assert page.errors["hand"] == [
        "Tiles, counting 3 per meld: 1. Give 14 to score a win, or 13 to see the waits."
    ]


def test_an_empty_page_is_a_form_without_a_result(client: Client) -> None:
    page = get_page(client, "")
    assert page.status == 200 and page.result is None and not page.errors
    assert 'name="hand"' in page.text and page.text.count('data-action="pick"') == KIND_COUNT


def test_a_shared_link_uses_the_profiles_defaults_and_the_form_its_own_options(
    client: Client,
) -> None:
    hand = {"hand": "123m456m789p234s56z", "win": "6z", "indicator": "5z"}
    # 有宝平胡 has no base in jiuyao_fan's 番 table
    fan = get_page(client, {**hand, "profile": "jiuyao_fan"})
    assert fan.result is not None and fan.result["data-win"] == "0"
    assert "按这套计分方式，有宝平胡不能胡" in fan.text
    # submitted from the page (opts present), an option left out is off / as given
    own = get_page(client, {**hand, "opts": "1", **Rules().to_json(), "min_win_points": 2})
    assert own.result is not None and own.result["data-win"] == "1", own.errors


def test_a_picker_tap_without_javascript_adds_the_tile_to_the_hand(client: Client) -> None:
    response = client.get("/calc/?hand=12m&indicator=1z&tile=3m")
    assert response.status_code == 302
    assert response["Location"] == "/calc/?hand=12m3m&indicator=1z"


def test_query_with_tile_keeps_every_other_field() -> None:
    from django.http import QueryDict

    assert query_with_tile(QueryDict("tile=5z&by=rob_gang")) == "by=rob_gang&hand=5z"


def test_the_form_reads_thirteen_tiles_and_a_drawn_one_as_fourteen() -> None:
    from django.http import QueryDict

    form = CalculatorForm(QueryDict("hand=123m456m789p234s5z&win=5z&indicator=1z"))
    assert form.is_valid(), form.errors
    assert len(form.cleaned_data["tiles"]) == 14
    assert form.cleaned_data["winning"] == parse_tile("5z")


_KEYS = ["hand", "win", "indicator", "melds", "by", "gang", "flown", "first", "profile", "opts"]
_KEYS += ["scoring", "min_win_points", "chengbao", "junk"]
_TILEISH = st.text(alphabet="0123456789mpsz:,; 宝pengchi-", max_size=30)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.sampled_from(_KEYS), st.one_of(_TILEISH, st.text(max_size=20)), max_size=8)
)
def test_any_query_gets_a_page_never_a_500(query: dict[str, str]) -> None:
    response = Client().get("/calc/", {k: v.replace("\x00", "") for k, v in query.items()})
    assert response.status_code == 200


# ---------------------------------------------------------------- issue #33

FAN_QUERY = {"profile": "jiuyao_fan"}


def _all_options(rules: Rules) -> dict[str, Any]:
    """The query of a page submitted with ``rules`` (opts present: a missing box is off)."""
    query: dict[str, Any] = {"opts": "1", "profile": rules.profile}
    for name, value in rules.to_json().items():
        if name != "profile" and value is not False:
            query[name] = "on" if value is True else value
    return query


@pytest.mark.parametrize(
    ("query", "standard", "fan"),
    [
        # worked out by hand in tests/engine/judging/test_judge.py (§6, §7, §9): a drawn 宝 on
        # five pairs and two singles is 有宝七对, not 七对宝吊
        ({"hand": "1133m5577p229s144z", "win": "4z", "indicator": "3z"}, 8, 4),
        # 碰碰胡 through three 宝: 有宝七对 with three 豪华 made with 宝, 8 × 2^3; §9 4, +3 番
        ({"hand": "555m999s222z77z666p", "win": "6p", "indicator": "5p"}, 64, 32),
        # without a 七对 reading it is 碰碰胡 无宝 (宝吊无宝): 16; §9 10 +1 番 宝吊还原
        ({"hand": "555m999s77z666p", "win": "6p", "indicator": "5p", "melds": "peng:222z"}, 16, 20),
    ],
)
def test_issue_33_hands_score_as_worked_out_in_both_profiles(
    client: Client, query: dict[str, str], standard: int, fan: int
) -> None:
    for extra, expected in (({}, standard), (FAN_QUERY, fan)):
        page = get_page(client, {**query, **extra})
        assert page.result is not None, page.errors
        assert (page.result["data-win"], int(page.result["data-score"])) == ("1", expected)


@pytest.mark.parametrize("profile", ["standard", "jiuyao_fan"])
def test_strict_no_bao_counts_the_bao_in_a_meld(client: Client, profile: str) -> None:
    # 宝 = 6p in the 碰: not 无宝 under strict_no_bao (§6, seed 001), so 有宝碰碰胡: §7 8, §9 4
    rules = Rules.profile_named(profile).with_options(strict_no_bao=True)
    hand = {"hand": "111m999s222z77z", "win": "2z", "indicator": "5p", "melds": "peng:666p"}
    page = get_page(client, {**hand, **_all_options(rules)})
    assert page.result is not None, page.errors
    assert int(page.result["data-score"]) == (8 if profile == "standard" else 4)
    assert html.unescape(page.result["data-name"]) == "有宝碰碰胡"


@pytest.mark.parametrize("profile", ["standard", "jiuyao_fan"])
@pytest.mark.parametrize("win", ["4s", ""])  # 14 tiles scored, or 13 and their waits
def test_a_rob_without_qiang_gang_is_refused_in_chinese(
    client: Client, profile: str, win: str
) -> None:
    rules = Rules.profile_named(profile).with_options(qiang_gang=False)
    hand = "123m456m789p234s55z" if win else "123m456m789p23s55z"
    query = {"hand": hand, "win": win, "indicator": "1z", "by": "rob_gang"}
    page = get_page(client, {**query, **_all_options(rules)})
    assert page.result is not None and page.result.get("data-error") == "1"
    assert "这套规则不玩抢杠，只能自摸胡。" in page.text
    assert not page.waits


def test_an_option_the_profile_never_reads_is_refused_at_its_field(client: Client) -> None:
    rules = Rules.profile_named("jiuyao_fan")
    query = {"hand": "11199m19p19s12345z", "indicator": "5z", **_all_options(rules)}
    page = get_page(client, {**query, "chang_jiuyao": "on"})
    assert page.result is None
    assert page.errors["chang_jiuyao"] == [
        "番数计分（§9）不用“长九幺翻倍”：请关掉它，或改用标准分表。"
    ]
    # the same link without the mark (a shared one) keeps the box it names: refused too
    shared = get_page(
        client, {"hand": "11199m19p19s12345z", "indicator": "5z", **FAN_QUERY, "chang_jiuyao": "on"}
    )
    assert shared.errors.get("chang_jiuyao")


def test_every_refusal_the_page_can_meet_is_worded_in_chinese() -> None:
    from django.utils import translation

    from tables.calculator.calculate import REFUSALS

    for code, words in REFUSALS.items():
        with translation.override("en"):
            english = str(words)
        with translation.override("zh-hans"):
            chinese = str(words)
        assert chinese != english, code
        placeholders = {"flown", "held", "bao", "draws", "gangs", "tile"}  # %(name)s
        assert _latin_words(chinese) <= placeholders, (code, chinese)


_ALLOWED_LATIN = {"peng", "chi", "angang", "English"}
"""Latin words a Chinese page may show: the meld notation typed into the melds field, and
the name of the other language in the switch."""


def _latin_words(text: str) -> set[str]:
    import re

    text = re.sub(r"<script.*?</script>|<style.*?</style>", "", text, flags=re.S)
    shown = re.findall(r'(?:aria-label|title|placeholder|alt)="([^"]*)"', text)
    text = re.sub(r"<[^>]+>", " ", text)
    return set(re.findall(r"[A-Za-z][A-Za-z_']{2,}", html.unescape(" ".join([text, *shown]))))


@pytest.mark.parametrize(
    "query",
    [
        "",  # the empty form
        "hand=123m456m789p234s55z&indicator=1z",  # a win: "4 分", never "4 points"
        "hand=123m456m789p234s5z&indicator=1z",  # waits
        "hand=123m456m789p23s1z55z&indicator=4z",  # no win, and why
        "hand=123m456m789p234s55z&indicator=1z&win=4s&by=rob_gang&gang=1",  # a refusal
        "hand=1m&indicator=9z",  # field errors
    ],
)
def test_the_page_reads_in_chinese_under_zh_hans(query: str) -> None:
    page = get_page(Client(headers={"accept-language": "zh-hans"}), query)
    assert page.status == 200
    assert _latin_words(page.text) <= _ALLOWED_LATIN
    if "55z&indicator=1z" in query and "win=" not in query:
        assert "4 分" in page.text


def test_the_page_reads_in_english_for_an_english_browser() -> None:
    page = get_page(
        Client(headers={"accept-language": "en"}),
        "hand=123m456m789p234s55z&indicator=1z&win=4s&by=rob_gang&gang=1",
    )
    shown = html.unescape(page.text)
    assert "This hand is impossible: A 抢杠 win is on another player's gang" in shown
    page = get_page(
        Client(headers={"accept-language": "en"}), "hand=123m456m789p234s55z&indicator=1z"
    )
    assert "4 points" in page.text


def test_a_win_says_who_pays_it(client: Client) -> None:
    # 平胡 self-drawn is 4 points (§7): each of the other three pays 4 (engine.outcome).
    hand = {"hand": "1m2m3m4m5m6m7p8p9p2s3s4s5z5z", "indicator": "1z"}
    page = get_page(client, hand)
    assert page.result is not None and page.result["data-score"] == "4"
    assert "三家各付 4，共 12" in page.text
    # Robbing a kong: the robbed player alone pays the win.
    robbed = get_page(client, {**hand, "win": "4m", "by": "rob_gang"})
    assert robbed.result is not None and robbed.result["data-win"] == "1", robbed.errors
    score = robbed.result["data-score"]
    assert f"被抢杠的一家（放炮）付 {score}" in robbed.text
    assert "三家各付" not in robbed.text
