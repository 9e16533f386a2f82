"""The tile art: one SVG sprite with a ``<symbol>`` per face, the back and the 宝 mark.

Pages draw tiles with ``<use href="…/tiles/sprite.svg?v=…#t-5m">`` (see
``tables.templatetags.mahjong_tiles``), so the drawings travel once, cached, and never in a
push. The sprite is built here from the layouts below and committed as
``static/tiles/sprite.svg``; after changing the art run ``python -m tables.screen.tile_art`` (a test
checks the file is up to date).

Symbol ids: ``t-1m`` … ``t-7z`` (:func:`symbol_id`), ``t-back``, the rows ``t-backs-1`` …
``t-backs-14`` and ``t-bao``.

>>> symbol_id(0), symbol_id(33)
('t-1m', 't-7z')
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from engine.tiles import BAMBOO, CHARACTERS, DOTS, KIND_COUNT, format_tile, rank_of, suit_of

W, H = 30, 40
"""Face coordinate box: tiles are 3 : 4."""

BAO_BOX = 14
"""The 宝 mark's own square box; tiles place it in their top right corner."""

BAO_FACE = (3, 8, 24, 32)
"""Where a 宝 tile's face goes (x, y, width, height): a little smaller and lower, so the mark
in the corner covers almost none of it."""

SPRITE_PATH = Path(__file__).resolve().parents[2] / "static" / "tiles" / "sprite.svg"

RED = "#c0262d"
GREEN = "#17804a"
BLUE = "#1d3f8f"
INK = "#16202e"
IVORY = "#fbf8ef"
GOLD = "#e0a100"

# Set on each symbol that writes: a symbol used from another document inherits from the
# <use>, not from the sprite's root, so the fonts must travel with the symbol itself.
FONTS = (
    "'WenQuanYi Zen Hei','Noto Serif CJK SC','Songti SC','STSong','SimSun',"
    "'Noto Sans CJK SC','PingFang SC','Microsoft YaHei',serif"
)

_NUMERALS = "一二三四五六七八九"


def symbol_id(kind: int) -> str:
    """The sprite id of a kind's face: ``t-`` and its code."""
    return "t-" + format_tile(kind)


def _text(x: float, y: float, size: float, fill: str, char: str, stroke: float = 0.6) -> str:
    """One glyph; a thin stroke of the same colour thickens CJK fonts that lack a bold face."""
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" fill="{fill}" stroke="{fill}" '
        f'stroke-width="{stroke}" stroke-linejoin="round" text-anchor="middle">{char}</text>'
    )


# ---- 万 ------------------------------------------------------------------------------------


def characters_face(rank: int) -> str:
    """A Chinese numeral over a red 万."""
    return _text(15, 17.5, 17, INK, _NUMERALS[rank - 1]) + _text(15, 37, 17.5, RED, "万")


# ---- 筒 ------------------------------------------------------------------------------------

_Dot = tuple[float, float, float, str]  # x, y, radius, colour

_DOT_LAYOUTS: dict[int, list[_Dot]] = {
    1: [(15, 20, 12, RED)],
    2: [(15, 10.5, 7, GREEN), (15, 29.5, 7, BLUE)],
    3: [(7.5, 7.5, 5.6, BLUE), (15, 20, 5.6, RED), (22.5, 32.5, 5.6, GREEN)],
    4: [(8.5, 11, 6, BLUE), (21.5, 11, 6, GREEN), (8.5, 29, 6, GREEN), (21.5, 29, 6, BLUE)],
    5: [
        (7.5, 8.5, 5.5, BLUE),
        (22.5, 8.5, 5.5, GREEN),
        (15, 20, 5.5, RED),
        (7.5, 31.5, 5.5, GREEN),
        (22.5, 31.5, 5.5, BLUE),
    ],
    6: [(8.5, 7.5, 5.2, GREEN), (21.5, 7.5, 5.2, GREEN)]
    + [(x, y, 5.2, RED) for y in (21.5, 32.5) for x in (8.5, 21.5)],
    7: [(6.5, 5.5, 4.2, GREEN), (15, 9.5, 4.2, GREEN), (23.5, 13.5, 4.2, GREEN)]
    + [(x, y, 4.6, RED) for y in (24.5, 34.5) for x in (9, 21)],
    8: [(x, y, 4.4, BLUE) for y in (5.2, 15, 25, 34.8) for x in (8.5, 21.5)],
    9: [
        (x, y, 4.5, c) for y, c in ((6.5, BLUE), (20, RED), (33.5, GREEN)) for x in (5.5, 15, 24.5)
    ],
}


def dots_face(rank: int) -> str:
    """Circles laid out like real 筒 tiles: each a coloured ring with a dot in the middle."""
    parts = []
    for x, y, r, c in _DOT_LAYOUTS[rank]:
        parts.append(
            f'<circle cx="{x}" cy="{y}" r="{r}" fill="{c}"/>'
            f'<circle cx="{x}" cy="{y}" r="{r * 0.6:.2f}" fill="{IVORY}"/>'
            f'<circle cx="{x}" cy="{y}" r="{r * 0.34:.2f}" fill="{c}"/>'
        )
        if r > 8:  # the big 一筒 gets an extra ring and petals
            parts.append(
                f'<circle cx="{x}" cy="{y}" r="{r * 0.8:.2f}" fill="none" stroke="{IVORY}" '
                f'stroke-width="1.2" stroke-dasharray="2 1.4"/>'
            )
    return "".join(parts)


# ---- 条 ------------------------------------------------------------------------------------

_Stick = tuple[float, float, str]  # centre x, centre y, colour


def _grid(xs: Iterable[float], ys: Iterable[float], colour: str = GREEN) -> list[_Stick]:
    return [(x, y, colour) for y in ys for x in xs]


_STICK_LAYOUTS: dict[int, tuple[float, list[_Stick]]] = {  # stick height, sticks
    2: (16, _grid([15], [10.5, 29.5])),
    3: (16, [(15, 10.5, GREEN), (8.5, 29.5, GREEN), (21.5, 29.5, GREEN)]),
    4: (16, _grid([8.5, 21.5], [10.5, 29.5])),
    5: (16, [*_grid([6, 24], [10.5, 29.5]), (15, 20, RED)]),
    6: (16, _grid([6, 15, 24], [10.5, 29.5])),
    7: (11, [(15, 6.5, RED), *_grid([6, 15, 24], [20, 33])]),
    8: (16, _grid([4.5, 11.5, 18.5, 25.5], [10.5, 29.5])),
    9: (11, [(x, y, RED if x == 15 else GREEN) for y in (7, 20, 33) for x in (6, 15, 24)]),
}


def _stick(x: float, y: float, h: float, colour: str, w: float = 5) -> str:
    top = y - h / 2
    return (
        f'<rect x="{x - w / 2:.2f}" y="{top:.2f}" width="{w}" height="{h}" rx="{w / 2:.2f}" '
        f'fill="{colour}"/>'
        f'<line x1="{x - w / 2:.2f}" y1="{y}" x2="{x + w / 2:.2f}" y2="{y}" stroke="{IVORY}" '
        f'stroke-width="0.9"/>'
        f'<line x1="{x}" y1="{top + 1.6:.2f}" x2="{x}" y2="{top + h - 1.6:.2f}" '
        f'stroke="{IVORY}" stroke-opacity="0.45" stroke-width="0.7"/>'
    )


BIRD = (
    # 幺鸡: a green bird with a fanned red-and-green tail, perched on a bamboo stem.
    f'<path d="M4 36.5h22" stroke="{GREEN}" stroke-width="2.6" stroke-linecap="round"/>'
    f'<path d="M13 28.5l-1.5 7M17 28.5l1 7" stroke="{RED}" stroke-width="1.2" '
    f'stroke-linecap="round"/>'
    # tail: three long feathers sweeping down to the left
    f'<path d="M11 24C6 26 3 30 1.8 35c3-2.5 6-5 10-8z" fill="{GREEN}"/>'
    f'<path d="M11.5 22.5C6 22 3 24.5 1 28c3.5-1 7-1.8 11-3.2z" fill="{RED}"/>'
    f'<path d="M12 21C8 17.5 4.5 17.5 2 19c3.8 1.2 6.6 2.7 9.6 4.5z" fill="{GREEN}"/>'
    # body and wing
    f'<path d="M9.5 23.5C10 17 15 13.5 20 14.5c4 .8 5.5 5 4.2 9C22.5 28.5 17 30.5 13 29.5'
    f'C10.5 28.8 9.3 26.5 9.5 23.5z" fill="{GREEN}"/>'
    f'<path d="M12.5 21.5c2.5-2.5 6.5-3 9.5-1.5-1.5 3.5-5 5.5-9.2 5z" fill="{BLUE}"/>'
    f'<path d="M13.5 22.6c2-1.2 4.5-1.5 6.8-.9" stroke="{IVORY}" stroke-width=".7" fill="none"/>'
    # neck, head, crest, beak and eye
    f'<path d="M18.5 16c.5-4 1.5-7.5 4.5-9.3l2.5 2c-1.8 2-2.2 5-1.5 8.5z" fill="{GREEN}"/>'
    f'<circle cx="23.6" cy="7.6" r="3.6" fill="{GREEN}"/>'
    f'<path d="M21 4.6c.3-2.2 1.6-3.6 3-3.6-.4 1 0 1.8.7 2.3.6-1 1.7-1.5 2.8-1.3-.9.9-1.2 '
    f'2-1 3.2z" fill="{RED}"/>'
    f'<path d="M26.8 6.6l3 1.4-3 1z" fill="{RED}"/>'
    f'<circle cx="24.4" cy="7.1" r="1" fill="{IVORY}"/><circle cx="24.6" cy="7.1" r=".5" '
    f'fill="{INK}"/>'
)


def bamboo_face(rank: int) -> str:
    """Bamboo sticks laid out like real 条 tiles; 一条 is the bird (幺鸡)."""
    if rank == 1:
        return BIRD
    if rank == 8:  # outer sticks upright, inner pairs leaning together: Λ over V
        parts = [_stick(x, y, 16, GREEN, w=4.4) for y in (10.5, 29.5) for x in (4, 26)]
        for y, lean in ((10.5, 1), (29.5, -1)):
            for x, sign in ((11.8, 1), (18.2, -1)):
                parts.append(
                    f'<g transform="rotate({13 * sign * lean} {x} {y})">'
                    f"{_stick(x, y, 15, GREEN, w=4.4)}</g>"
                )
        return "".join(parts)
    h, sticks = _STICK_LAYOUTS[rank]
    return "".join(_stick(x, y, h, c) for x, y, c in sticks)


# ---- 字 ------------------------------------------------------------------------------------

_HONOR_COLOURS = (INK, INK, INK, INK, RED, GREEN)


def honor_face(rank: int) -> str:
    """东南西北 in dark ink, 中 red, 发 green, 白 a blue frame."""
    if rank == 7:
        return (
            f'<rect x="5" y="6" width="20" height="28" rx="2" fill="none" stroke="{BLUE}" '
            f'stroke-width="2.6"/>'
            f'<rect x="9" y="10" width="12" height="20" rx="1" fill="none" stroke="{BLUE}" '
            f'stroke-width="1.1"/>'
        )
    return _text(15, 29, 25, _HONOR_COLOURS[rank - 1], "东南西北中发"[rank - 1], stroke=0.7)


def face_svg(kind: int) -> str:
    """The inner SVG markup of a kind's face, in the 30 × 40 box."""
    suit, rank = suit_of(kind), rank_of(kind)
    if suit == CHARACTERS:
        return characters_face(rank)
    if suit == DOTS:
        return dots_face(rank)
    if suit == BAMBOO:
        return bamboo_face(rank)
    return honor_face(rank)


BACK = (
    # Face down: pale jade, so that even the smallest back stands out from the felt by more
    # than 3:1 (the felt runs from #185a3c to #2f8a5f; jade #cde8d8 is 3.4:1 against its
    # lightest), with a dark rim, a green inner frame and a round medallion.
    '<rect x=".6" y=".6" width="28.8" height="38.8" rx="2.6" fill="#cde8d8" stroke="#134d33" '
    'stroke-width="1.2"/>'
    '<rect x="4" y="4" width="22" height="32" rx="1.5" fill="none" stroke="#2f9466" '
    'stroke-width="1.4"/>'
    '<path d="M15 11l8 9-8 9-8-9z" fill="#9fd0b6"/>'
    '<circle cx="15" cy="20" r="4.2" fill="#1f6f4a" stroke="#134d33" stroke-width="1.2"/>'
    '<circle cx="15" cy="20" r="1.6" fill="#cde8d8"/>'
)

BACKS_MAX = 14
"""Rows of face-down tiles come as one symbol each, ``t-backs-1`` … ``t-backs-14``: an
opponent's concealed hand is then one ``<use>``, not one per tile."""

BACKS_PITCH = W + 2
"""A row of backs puts one every 32 units: a 30-unit tile and a 2-unit gap."""


def backs_row(count: int) -> str:
    """The inside of ``t-backs-<count>``: ``count`` backs side by side."""
    return "".join(
        f'<use href="#t-back" x="{i * BACKS_PITCH}" width="{W}" height="{H}"/>'
        for i in range(count)
    )


BAO = (
    # The 宝 mark: a red seal with a gold rim and a pale 宝 as large as the seal allows.
    f'<rect x=".5" y=".5" width="13" height="13" rx="3" fill="{RED}" stroke="{GOLD}" '
    f'stroke-width="1"/>' + _text(7, 11.8, 11.5, "#fff4cf", "宝", stroke=0.3)
)


def _symbol(symbol: str, body: str, box: tuple[int, int] = (W, H)) -> str:
    fonts = f' font-family="{FONTS}" font-weight="700"' if "<text" in body else ""
    return f'<symbol id="{symbol}" viewBox="0 0 {box[0]} {box[1]}"{fonts}>{body}</symbol>\n'


def sprite_svg() -> str:
    """The whole sprite file: every face, the back and the 宝 mark."""
    symbols = [_symbol(symbol_id(k), face_svg(k)) for k in range(KIND_COUNT)]
    symbols.append(_symbol("t-back", BACK))
    for n in range(1, BACKS_MAX + 1):
        symbols.append(_symbol(f"t-backs-{n}", backs_row(n), (n * BACKS_PITCH - 2, H)))
    symbols.append(_symbol("t-bao", BAO, (BAO_BOX, BAO_BOX)))
    return (
        '<svg xmlns="http://www.w3.org/2000/svg">\n'
        "<!-- Built by `python -m tables.screen.tile_art` from tables/screen/tile_art.py:"
        " edit that. -->\n" + "".join(symbols) + "</svg>\n"
    )


if __name__ == "__main__":
    SPRITE_PATH.parent.mkdir(parents=True, exist_ok=True)
    SPRITE_PATH.write_text(sprite_svg(), encoding="utf-8")
    sys.stdout.write(f"wrote {SPRITE_PATH}\n")
