"""Declared melds: 吃, 碰, 明杠, 补杠, 暗杠 and 亮宝杠, with the ``kind:tiles`` notation.

>>> m = parse_meld("peng:555z")
>>> m.kind, m.tiles, m.is_gang
('peng', (31, 31, 31), False)
>>> str(parse_meld("chi:312m"))
'chi:123m'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.tiles import TileError, format_tiles, is_honor, is_terminal_or_honor, parse_tiles

__all__ = ["GANG_KINDS", "MELD_KINDS", "Meld", "MeldError", "all_terminal", "parse_meld"]

MELD_KINDS = ("chi", "peng", "minggang", "bugang", "angang", "liangbao")
GANG_KINDS = frozenset({"minggang", "bugang", "angang"})
"""Gangs of four tiles; 亮宝杠 (three indicator tiles) is scored as a gang but is a triple."""


class MeldError(ValueError):
    """A meld whose kind or tiles are not a legal meld."""


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld laid on the table. ``claimed_from`` is the absolute seat whose discard
    completed it (吃, 碰, 明杠, and 补杠's original 碰), else ``None``."""

    kind: str
    tiles: tuple[int, ...]
    claimed_from: int | None = None

    @property
    def is_gang(self) -> bool:
        """True for the four-tile gangs (明杠/补杠/暗杠)."""
        return self.kind in GANG_KINDS

    @property
    def is_concealed(self) -> bool:
        return self.kind in ("angang", "liangbao")

    def __str__(self) -> str:
        return f"{self.kind}:{format_tiles(self.tiles)}"

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "tiles": format_tiles(self.tiles), "from": self.claimed_from}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Meld:
        frm = data.get("from")
        meld = parse_meld(f"{data['kind']}:{data['tiles']}")
        return cls(meld.kind, meld.tiles, frm if isinstance(frm, int) else None)


def parse_meld(text: str) -> Meld:
    """Parse ``"chi:123m"``, ``"minggang:7777p"`` …; raises :class:`MeldError` when the
    text is not a meld of that kind."""
    kind, sep, tiles_text = str(text).partition(":")
    kind = kind.strip()
    if not sep or kind not in MELD_KINDS:
        raise MeldError(
            f"bad meld {text!r}: write kind:tiles with kind one of {', '.join(MELD_KINDS)}"
        )
    try:
        tiles = tuple(sorted(parse_tiles(tiles_text)))
    except TileError as exc:
        raise MeldError(f"bad meld {text!r}: {exc}") from None
    if kind == "chi":
        ok = (
            len(tiles) == 3
            and not is_honor(tiles[0])
            and tiles[0] // 9 == tiles[2] // 9
            and tiles[1] == tiles[0] + 1
            and tiles[2] == tiles[0] + 2
        )
        if not ok:
            raise MeldError(f"bad meld {text!r}: 吃 is three consecutive tiles of one suit")
    else:
        size = 4 if kind in GANG_KINDS else 3
        if len(tiles) != size or len(set(tiles)) != 1:
            raise MeldError(f"bad meld {text!r}: {kind} is {size} identical tiles")
    return Meld(kind, tiles)


def all_terminal(melds: Iterable[Meld]) -> bool:
    """Every declared meld is 1s, 9s or honors: a 九幺 hand may still be behind them.

    >>> all_terminal([parse_meld("peng:111z"), parse_meld("peng:999m")])
    True
    >>> all_terminal([parse_meld("chi:123m")])
    False
    """
    return all(is_terminal_or_honor(k) for m in melds for k in m.tiles)
