"""Rule sets: the two scoring profiles and every named option of ``docs/rules.md``.

A :class:`Rules` value is frozen and serialises to JSON, so a room and a replay
store the exact rules they ran under.

>>> rules = Rules.from_json({"profile": "standard", "qiang_gang": False})
>>> rules.qiang_gang, rules.scoring
(False, 'standard')
>>> Rules.from_json(rules.to_json()) == rules
True
>>> Rules.profile_named("jiuyao_fan").chengbao
True
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

__all__ = ["OPTION_CHOICES", "PROFILES", "Rules", "RulesError"]


class RulesError(ValueError):
    """An unknown profile, an unknown option or a value an option does not take."""


Scoring = Literal["standard", "fan"]

OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "scoring": ("standard", "fan"),
    "first_dealer": ("owner_roll", "highest_roll"),
    "draw_dealer": ("last_drawer", "next_seat"),
    "break_offset": ("standard", "plus_one"),
    "replacement": ("burn_upper", "single_tile"),
    "rob_settlement": ("standard", "fan"),
}
"""The values each text option takes; the first is the standard profile's."""


@dataclass(frozen=True)
class Rules:
    """One table's rules. Build with :meth:`profile_named` or :meth:`from_json`."""

    profile: str = "standard"
    scoring: Scoring = "standard"
    """Which score table settles wins: §7 (``standard``) or the 番 system of §9 (``fan``)."""
    first_dealer: str = "owner_roll"
    """``owner_roll``: the owner's roll counts seats to the first dealer; ``highest_roll``."""
    draw_dealer: str = "last_drawer"
    """After a 流局: who drew the last tile deals (``last_drawer``) or the dealer's 下家."""
    break_offset: str = "standard"
    """Wall break at stack U (``standard``) or U+1 (``plus_one``)."""
    replacement: str = "burn_upper"
    """补牌: lower tile of the tail stack with the upper burned, or one tile (``single_tile``)."""
    bugang_any_time: bool = False
    """补杠 with a fourth tile held from earlier, not only the one just drawn."""
    angang_face_down: bool = False
    """暗杠 stays hidden from the others until the hand ends."""
    bao_discard_claimable: bool = True
    """A flown 宝 may be claimed (吃/碰/杠) as its natural kind."""
    qiang_gang: bool = True
    """抢杠 is played."""
    rob_settlement: str = "standard"
    """Gang points when a gang is robbed: ``standard`` (§8: the robbed gang scores nothing) or
    ``fan`` (§9: a robbed 宝 gang keeps its 四宝 points; earlier gangs of the robbed chain
    lose theirs when a robber's hand also wins on their tile)."""
    chang_jiuyao: bool = False
    """长九幺 (no 碰 or 杠) doubles; 豪华长九幺 (with a concealed four) doubles again."""
    strict_no_bao: bool = False
    """无宝 only when the 14 tiles hold no 宝 at all."""
    min_score_all_patterns: bool = False
    """The minimum win score applies to 十三烂 and 九幺 too, not only 平胡."""
    min_win_points: int = 4
    """The minimum a self-drawn 平胡 must reach (standard scoring)."""
    tian_di_points: int = 16
    """Flat score of 天胡 and 地胡."""
    chengbao: bool = False
    """三凑牌承包: a player who fed three of the winner's melds pays for the others."""
    minggang_points: int = 1
    """明杠/补杠 gang points, from each other player."""
    angang_points: int = 2
    """暗杠 gang points (also an undeclared concealed triple of the indicator's kind)."""
    liangbao_gang_points: int = 2
    """亮宝杠 gang points, declared: it scores as the 暗杠 it stands for."""
    sibao_points: int = 10
    """四宝: holding or having ganged all four 宝, from each other player."""

    @classmethod
    def profile_named(cls, name: str) -> Rules:
        """The rules of a profile: ``standard`` (sections 1-8) or ``jiuyao_fan`` (section 9)."""
        try:
            return PROFILES[name]
        except KeyError:
            raise RulesError(
                f"unknown rules profile {name!r}; choose one of {', '.join(PROFILES)}"
            ) from None

    @classmethod
    def from_json(cls, data: str | dict[str, Any] | None) -> Rules:
        """Rules from a profile name, or an object of ``profile`` plus option overrides."""
        if data is None:
            return PROFILES["standard"]
        if isinstance(data, str):
            text = data.strip()
            if text.startswith("{"):
                try:
                    data = json.loads(text)
                except json.JSONDecodeError as exc:
                    raise RulesError(f"rules are not valid JSON: {exc}") from None
            else:
                return cls.profile_named(text)
        if not isinstance(data, dict):
            raise RulesError("rules must be a profile name or an object of options")
        # Every stored hand and match names its rules; a server reads them on every change,
        # and the few rule sets in play are parsed and checked once each.
        key = tuple(sorted((k, type(v), v) for k, v in data.items()))
        try:
            hash(key)
        except TypeError:  # an unhashable value: no rule takes one, and the check says so
            return cls._from_options(data)
        return _rules_of(key)

    @classmethod
    def _from_options(cls, data: dict[str, Any]) -> Rules:
        options = dict(data)
        base = cls.profile_named(str(options.pop("profile", "standard")))
        return base.with_options(**options)

    def with_options(self, **options: Any) -> Rules:
        """A copy with some options changed; every value is checked."""
        known = {f.name: f for f in dataclasses.fields(self) if f.name != "profile"}
        for name, value in options.items():
            if name not in known:
                raise RulesError(f"unknown rule option {name!r}")
            default = getattr(PROFILES["standard"], name)
            if isinstance(default, bool):
                if not isinstance(value, bool):
                    raise RulesError(f"rule option {name!r} takes true or false, not {value!r}")
            elif isinstance(default, int):
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise RulesError(
                        f"rule option {name!r} takes a whole number >= 0, not {value!r}"
                    )
            elif name in OPTION_CHOICES and value not in OPTION_CHOICES[name]:
                choices = ", ".join(OPTION_CHOICES[name])
                raise RulesError(f"rule option {name!r} takes one of {choices}, not {value!r}")
        return dataclasses.replace(self, **options)

    def unused_options(self) -> tuple[str, ...]:
        """The options set to a value that these rules never read: ``chang_jiuyao`` on under
        the 番 score table (§9 has no 长九幺), or a ``rob_settlement`` other than the
        profile's with ``qiang_gang`` off (no gang is ever robbed). Stored rules keep such a
        value; a new choice of rules is refused with :meth:`check_in_use` instead.

        >>> Rules.profile_named("jiuyao_fan").with_options(chang_jiuyao=True).unused_options()
        ('chang_jiuyao',)
        >>> Rules(qiang_gang=False, rob_settlement="fan").unused_options()
        ('rob_settlement',)
        >>> Rules.profile_named("jiuyao_fan").with_options(qiang_gang=False).unused_options()
        ()
        """
        unused: list[str] = []
        if self.chang_jiuyao and self.scoring != "standard":
            unused.append("chang_jiuyao")
        base = PROFILES.get(self.profile, PROFILES["standard"])
        if not self.qiang_gang and self.rob_settlement != base.rob_settlement:
            unused.append("rob_settlement")
        return tuple(unused)

    def check_in_use(self) -> Rules:
        """These rules, or :class:`RulesError` naming an option they would silently ignore.

        >>> Rules(scoring="fan", chang_jiuyao=True).check_in_use()
        Traceback (most recent call last):
        ...
        engine.rules.RulesError: rule option 'chang_jiuyao' is not used by the 番 score table \
(scoring fan): 长九幺 doubles only in the standard table; turn it off or choose standard scoring
        """
        for name in self.unused_options():
            raise RulesError(_UNUSED[name])
        return self

    def to_json(self) -> dict[str, Any]:
        """Every option, explicitly, so stored rules don't drift if a profile's defaults change."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def overrides(self) -> dict[str, Any]:
        """Only the options that differ from this rules' profile."""
        base = PROFILES.get(self.profile, PROFILES["standard"]).to_json()
        return {k: v for k, v in self.to_json().items() if k != "profile" and base.get(k) != v}


_UNUSED = {
    "chang_jiuyao": "rule option 'chang_jiuyao' is not used by the 番 score table (scoring fan): "
    "长九幺 doubles only in the standard table; turn it off or choose standard scoring",
    "rob_settlement": "rule option 'rob_settlement' is not used when qiang_gang is off: no gang "
    "is ever robbed, so there is no robbed gang to settle; leave it at the profile's value or "
    "turn qiang_gang on",
}
"""Why each option of :meth:`Rules.unused_options` would be ignored, naming it."""

PROFILES: dict[str, Rules] = {
    "standard": Rules(),
    "jiuyao_fan": Rules(
        profile="jiuyao_fan",
        scoring="fan",
        draw_dealer="next_seat",
        rob_settlement="fan",
        chengbao=True,
        min_win_points=2,
    ),
}


@lru_cache(maxsize=256)
def _rules_of(items: tuple[tuple[str, type, Any], ...]) -> Rules:
    """The rules of an object of options, given as its sorted items with each value's type
    (``True == 1``, but only one of them is a yes/no): frozen, so shared."""
    return Rules._from_options({name: value for name, _type, value in items})
