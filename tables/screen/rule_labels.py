"""The rules' words: each option and choice named in the reader's language, a room's rules
summed up against the standard profile, and the table's pop-up that lists them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from engine.rules import Rules
from tables.models import Room
from tables.screen.memo import compact, remembered

__all__ = [
    "rules_popup",
    "rules_summary",
]

RULES_TEMPLATE = "tables/_room_rules.html"

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise


PROFILE_LABELS: dict[str, _StrPromise] = {
    "standard": _("Standard (§1–8)"),
    "jiuyao_fan": _("九幺 番 scoring (§9)"),
}


OPTION_LABELS: dict[str, _StrPromise] = {
    "scoring": _("Scoring"),
    "first_dealer": _("First dealer"),
    "draw_dealer": _("Dealer after a drawn hand"),
    "break_offset": _("Wall break"),
    "replacement": _("Gang replacement tile"),
    "bugang_any_time": _("补杠 with a tile held from earlier"),
    "angang_face_down": _("暗杠 stays face down"),
    "bao_discard_claimable": _("A flown 宝 may be claimed"),
    "qiang_gang": _("抢杠 (robbing a gang)"),
    "chang_jiuyao": _("长九幺 doubles"),
    "strict_no_bao": _("Strict 无宝"),
    "min_score_all_patterns": _("Minimum score for 十三烂 and 九幺 too"),
    "min_win_points": _("Minimum 平胡 score"),
    "tian_di_points": _("天胡/地胡 points"),
    "chengbao": _("三凑牌承包"),
    "minggang_points": _("明杠 points"),
    "angang_points": _("暗杠 points"),
    "liangbao_gang_points": _("亮宝杠 points"),
    "sibao_points": _("四宝 points"),
    "rob_settlement": _("A robbed gang (抢杠) settles"),
}


VALUE_LABELS: dict[str, dict[str, _StrPromise]] = {
    "scoring": {"standard": _("standard table (§7)"), "fan": _("番 (§9)")},
    "first_dealer": {"owner_roll": _("owner's roll"), "highest_roll": _("highest roll")},
    "draw_dealer": {"last_drawer": _("who drew the last tile"), "next_seat": _("dealer's 下家")},
    "break_offset": {"standard": _("at stack U"), "plus_one": _("at stack U+1")},
    "replacement": {
        "burn_upper": _("lower tile, upper burned"),
        "single_tile": _("single tile, none burned"),
    },
    "rob_settlement": {
        "standard": _("the robbed gang scores nothing (§8)"),
        "fan": _("a 宝 gang keeps its 四宝, earlier gangs keep theirs (§9)"),
    },
}


def value_text(name: str, value: Any) -> str:
    """An option's value in words."""
    if isinstance(value, bool):
        return str(_("on") if value else _("off"))
    if name in VALUE_LABELS:
        return str(VALUE_LABELS[name].get(str(value), value))
    return str(value)


@dataclass
class RulesSummary:
    profile: str
    changes: list[tuple[str, str]]


def rules_summary(rules_json: dict[str, Any]) -> RulesSummary:
    """The profile's name and each option that differs from it, in words."""
    rules = Rules.from_json(rules_json)
    label = PROFILE_LABELS.get(rules.profile, rules.profile)
    return RulesSummary(
        profile=str(label),
        changes=[
            (str(OPTION_LABELS.get(k, k)), value_text(k, v)) for k, v in rules.overrides().items()
        ],
    )


def rules_popup(room: Room) -> SafeString:
    """The room's rules as the table's pop-up lists them: the same for a whole match."""
    key = (json.dumps(room.rules, sort_keys=True), room.match_length, room.turn_seconds)
    return remembered(
        "rules_popup",
        key,
        lambda: compact(
            render_to_string(RULES_TEMPLATE, {"room": room, "summary": rules_summary(room.rules)})
        ),
    )
