"""Player actions and their JSON form.

>>> a = Action("chi", tile=4, tiles=(3, 5))
>>> a.to_json()
{'type': 'chi', 'tile': '5m', 'tiles': '46m'}
>>> Action.from_json(a.to_json()) == a
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.tiles import TileError, format_tile, format_tiles, parse_tile, parse_tiles

__all__ = ["ACTION_TYPES", "GANG_TYPES", "Action", "ActionError"]

ACTION_TYPES = ("discard", "chi", "peng", "gang", "hu", "pass")
GANG_TYPES = ("minggang", "bugang", "angang", "liangbao")


class ActionError(ValueError):
    """Malformed action JSON."""


@dataclass(frozen=True, slots=True)
class Action:
    """One player action. ``tile`` is the tile acted on; ``tiles`` the hand tiles of a 吃."""

    type: str
    tile: int | None = None
    tiles: tuple[int, ...] = ()
    gang: str | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type}
        if self.tile is not None:
            d["tile"] = format_tile(self.tile)
        if self.tiles:
            d["tiles"] = format_tiles(self.tiles)
        if self.gang is not None:
            d["gang"] = self.gang
        return d

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Parse ``{"type": "discard", "tile": "5m"}`` and the like.

        >>> Action.from_json({"type": "discard", "tile": "5m"})
        Action(type='discard', tile=4, tiles=(), gang=None)
        >>> Action.from_json({"type": "fly"})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        engine.actions.ActionError: unknown action type 'fly'; expected one of ...
        """
        if not isinstance(data, dict):
            raise ActionError(f"an action is an object like {{'type': 'discard'}}, got {data!r}")
        kind = data.get("type")
        if kind not in ACTION_TYPES:
            raise ActionError(
                f"unknown action type {kind!r}; expected one of {', '.join(ACTION_TYPES)}"
            )
        tile: int | None = None
        tiles: tuple[int, ...] = ()
        try:
            if data.get("tile") is not None:
                if not isinstance(data["tile"], str):
                    raise ActionError(f"tile must be text like '5m', got {data['tile']!r}")
                tile = parse_tile(data["tile"])
            if data.get("tiles"):
                if not isinstance(data["tiles"], str):
                    raise ActionError(f"tiles must be text like '46m', got {data['tiles']!r}")
                tiles = tuple(sorted(parse_tiles(data["tiles"])))
        except TileError as exc:
            raise ActionError(f"bad tile in action: {exc}") from None
        gang = data.get("gang")
        if kind == "gang" and gang not in GANG_TYPES:
            raise ActionError(f"gang must be one of {', '.join(GANG_TYPES)}, got {gang!r}")
        if kind != "gang" and gang is not None:
            raise ActionError(f"only a gang action has 'gang', not {kind!r}")
        if kind != "chi" and tiles:
            raise ActionError(f"only a chi action has 'tiles', not {kind!r}")
        if kind in ("discard", "peng", "gang") and tile is None:
            raise ActionError(f"a {kind} action needs a tile")
        if kind == "chi" and (tile is None or len(tiles) != 2):
            raise ActionError("a chi action needs the claimed tile and two tiles from hand")
        return cls(kind, tile, tiles, gang)
