"""Mahjong tile faces drawn as inline SVG: ``{% load mahjong_tiles %}``.

Tags:

* ``{% tile "5m" %}`` — one face-up tile, ``<span class="tile …" data-tile="5m">…svg…</span>``.
  Options: ``bao=True`` (gold 宝 highlight and corner badge), ``drawn=True``,
  ``selected=True``, ``small=True`` (rivers, melds), ``rotated=True`` (a tile lying sideways,
  e.g. a claimed tile in a meld), ``extra_class="…"``, and ``button=True action="discard"``
  to render ``<button type="submit" name="tile" value="5m" data-action="discard" …>`` instead.
  The tile may be given as text (``"5m"``) or as a kind ``int`` (0–33).
* ``{% tile_back %}`` — a face-down tile: no ``data-tile`` and no face.
* ``{% tiles "123m55z" bao="5z" %}`` — a row of tiles (text or a list of kinds/codes);
  tiles of the ``bao`` kind get the 宝 highlight. Same ``small``/``extra_class`` options.

Garbage tile codes render as an empty string (and log a warning) rather than breaking a page.
Faces are built once at import from constants; every caller-supplied value goes through
:func:`~django.utils.html.format_html`, so nothing the caller passes is emitted unescaped.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from engine.tiles import (
    BAMBOO,
    CHARACTERS,
    DOTS,
    KIND_COUNT,
    TILE_NAMES_ZH,
    TileError,
    format_tile,
    parse_tile,
    parse_tiles,
    rank_of,
    suit_of,
)

register = template.Library()
logger = logging.getLogger(__name__)

W, H = 30, 40
"""Face coordinate box: tiles are 3 : 4."""

RED = "#c0262d"
GREEN = "#17804a"
BLUE = "#1d3f8f"
INK = "#16202e"
IVORY = "#fbf8ef"

_NUMERALS = "一二三四五六七八九"


def _text(x: float, y: float, size: float, fill: str, char: str, stroke: float = 0.6) -> str:
    """One glyph; a thin stroke of the same colour thickens CJK fonts that lack a bold face."""
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" font-weight="700" fill="{fill}" '
        f'stroke="{fill}" stroke-width="{stroke}" stroke-linejoin="round" '
        f'text-anchor="middle">{char}</text>'
    )


# ---- 万 ------------------------------------------------------------------------------------


def characters_face(rank: int) -> str:
    """A Chinese numeral over a red 万."""
    return _text(15, 17.5, 16, INK, _NUMERALS[rank - 1]) + _text(15, 36.5, 16.5, RED, "万")


# ---- 筒 ------------------------------------------------------------------------------------

_Dot = tuple[float, float, float, str]  # x, y, radius, colour

_DOT_LAYOUTS: dict[int, list[_Dot]] = {
    1: [(15, 20, 11, RED)],
    2: [(15, 11, 6.5, GREEN), (15, 29, 6.5, BLUE)],
    3: [(7.5, 8, 5.2, BLUE), (15, 20, 5.2, RED), (22.5, 32, 5.2, GREEN)],
    4: [(8.5, 11, 5.5, BLUE), (21.5, 11, 5.5, GREEN), (8.5, 29, 5.5, GREEN), (21.5, 29, 5.5, BLUE)],
    5: [
        (8, 9, 5, BLUE),
        (22, 9, 5, GREEN),
        (15, 20, 5, RED),
        (8, 31, 5, GREEN),
        (22, 31, 5, BLUE),
    ],
    6: [(8.5, 8, 4.8, GREEN), (21.5, 8, 4.8, GREEN)]
    + [(x, y, 4.8, RED) for y in (22, 32.5) for x in (8.5, 21.5)],
    7: [(6.5, 5.5, 3.9, GREEN), (15, 9.5, 3.9, GREEN), (23.5, 13.5, 3.9, GREEN)]
    + [(x, y, 4.3, RED) for y in (24.5, 34) for x in (9, 21)],
    8: [(x, y, 4.1, BLUE) for y in (5.5, 15, 25, 34.5) for x in (9, 21)],
    9: [(x, y, 4.2, c) for y, c in ((7, BLUE), (20, RED), (33, GREEN)) for x in (6, 15, 24)],
}


def dots_face(rank: int) -> str:
    """Circles laid out like real 筒 tiles: each a coloured ring with a dot in the middle."""
    parts = []
    for x, y, r, c in _DOT_LAYOUTS[rank]:
        parts.append(
            f'<circle cx="{x}" cy="{y}" r="{r}" fill="{c}"/>'
            f'<circle cx="{x}" cy="{y}" r="{r * 0.62:.2f}" fill="{IVORY}"/>'
            f'<circle cx="{x}" cy="{y}" r="{r * 0.32:.2f}" fill="{c}"/>'
        )
        if r > 8:  # the big 一筒 gets an extra ring
            parts.append(
                f'<circle cx="{x}" cy="{y}" r="{r * 0.8:.2f}" fill="none" stroke="{IVORY}" '
                f'stroke-width="1"/>'
            )
    return "".join(parts)


# ---- 条 ------------------------------------------------------------------------------------

_Stick = tuple[float, float, str]  # centre x, centre y, colour


def _grid(xs: Iterable[float], ys: Iterable[float], colour: str = GREEN) -> list[_Stick]:
    return [(x, y, colour) for y in ys for x in xs]


_STICK_LAYOUTS: dict[int, tuple[float, list[_Stick]]] = {  # stick height, sticks
    2: (15, _grid([15], [11, 29])),
    3: (15, [(15, 11, GREEN), (9, 29, GREEN), (21, 29, GREEN)]),
    4: (15, _grid([9, 21], [11, 29])),
    5: (15, [*_grid([6, 24], [11, 29]), (15, 20, RED)]),
    6: (15, _grid([6, 15, 24], [11, 29])),
    7: (10, [(15, 7, RED), *_grid([6, 15, 24], [20, 32.5])]),
    8: (15, _grid([4.5, 11.5, 18.5, 25.5], [11, 29])),
    9: (10, [(x, y, RED if x == 15 else GREEN) for y in (7.5, 20, 32.5) for x in (6, 15, 24)]),
}


def _stick(x: float, y: float, h: float, colour: str, w: float = 4.6) -> str:
    top = y - h / 2
    return (
        f'<rect x="{x - w / 2:.2f}" y="{top:.2f}" width="{w}" height="{h}" rx="{w / 2:.2f}" '
        f'fill="{colour}"/>'
        f'<line x1="{x - w / 2:.2f}" y1="{y}" x2="{x + w / 2:.2f}" y2="{y}" stroke="{IVORY}" '
        f'stroke-width="0.9"/>'
        f'<line x1="{x}" y1="{top + 1.6:.2f}" x2="{x}" y2="{top + h - 1.6:.2f}" '
        f'stroke="{IVORY}" stroke-opacity="0.45" stroke-width="0.7"/>'
    )


def bamboo_face(rank: int) -> str:
    """Bamboo sticks laid out like real 条 tiles; 一条 is a single tall stick with a red band."""
    if rank == 1:
        return (
            _stick(15, 20, 32, GREEN, w=9)
            + f'<rect x="10.5" y="17" width="9" height="6" fill="{RED}"/>'
        )
    if rank == 8:  # outer sticks upright, inner pairs leaning together: Λ over V
        parts = [_stick(x, y, 15, GREEN, w=4) for y in (11, 29) for x in (4, 26)]
        for y, lean in ((11, 1), (29, -1)):
            for x, sign in ((11.8, 1), (18.2, -1)):
                parts.append(
                    f'<g transform="rotate({13 * sign * lean} {x} {y})">'
                    f"{_stick(x, y, 14, GREEN, w=4)}</g>"
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
            f'<rect x="6" y="7" width="18" height="26" rx="2" fill="none" stroke="{BLUE}" '
            f'stroke-width="2.4"/>'
            f'<rect x="9.5" y="10.5" width="11" height="19" rx="1" fill="none" stroke="{BLUE}" '
            f'stroke-width="1"/>'
        )
    return _text(15, 28.5, 23, _HONOR_COLOURS[rank - 1], "东南西北中发"[rank - 1])


def face_svg(kind: int) -> str:
    """The inner SVG markup (no ``<svg>`` wrapper) of a kind's face."""
    suit, rank = suit_of(kind), rank_of(kind)
    if suit == CHARACTERS:
        return characters_face(rank)
    if suit == DOTS:
        return dots_face(rank)
    if suit == BAMBOO:
        return bamboo_face(rank)
    return honor_face(rank)


_FACES: tuple[str, ...] = tuple(face_svg(k) for k in range(KIND_COUNT))
_SUIT_CLASSES = ("tile--m", "tile--p", "tile--s", "tile--z")


def _svg(kind: int, rotated: bool) -> SafeString:
    if rotated:
        return mark_safe(
            f'<svg class="tile-face" viewBox="0 0 {H} {W}" aria-hidden="true" focusable="false">'
            f'<g transform="translate({H} 0) rotate(90)">{_FACES[kind]}</g></svg>'
        )
    return mark_safe(
        f'<svg class="tile-face" viewBox="0 0 {W} {H}" aria-hidden="true" focusable="false">'
        f"{_FACES[kind]}</svg>"
    )


def to_kind(code: object) -> int | None:
    """A kind from ``"5m"`` or an int 0–33; ``None`` for anything else."""
    if isinstance(code, bool):
        return None
    if isinstance(code, int):
        return code if 0 <= code < KIND_COUNT else None
    if isinstance(code, str):
        try:
            return parse_tile(code)
        except TileError:
            return None
    return None


def _classes(*parts: str) -> str:
    return " ".join(p for p in parts if p)


def render_tile(
    code: object,
    *,
    bao: bool = False,
    drawn: bool = False,
    selected: bool = False,
    small: bool = False,
    rotated: bool = False,
    extra_class: str = "",
    button: bool = False,
    action: str = "discard",
    ws_send: bool = False,
) -> SafeString:
    """HTML of one face-up tile, or ``""`` if ``code`` is not a tile.

    ``button``: a submit button named ``tile``; with ``ws_send`` it sends over the page's
    WebSocket instead (htmx ``ws-send``), taking the other values from ``hx-vals`` above it.
    """
    kind = to_kind(code)
    if kind is None:
        logger.warning("not a tile: %r", code)
        return mark_safe("")
    text = format_tile(kind)
    name = TILE_NAMES_ZH[kind]
    title = f"{name}（宝）" if bao else name
    classes = _classes(
        "tile",
        _SUIT_CLASSES[suit_of(kind)],
        "tile--bao" if bao else "",
        "tile--drawn" if drawn else "",
        "tile--selected" if selected else "",
        "tile--small" if small else "",
        "tile--rotated" if rotated else "",
        str(extra_class or ""),
    )
    badge = mark_safe('<span class="tile-badge" aria-hidden="true">宝</span>') if bao else ""
    face = _svg(kind, rotated)
    if button:
        # ws-send buttons must not submit a form: htmx sends them over the socket on click.
        opening = '<button type="button" ws-send ' if ws_send else '<button type="submit" '
        return format_html(
            opening + 'name="tile" value="{}" data-action="{}" class="{}" '
            'data-tile="{}" title="{}" aria-label="{}">{}{}</button>',
            text,
            str(action),
            classes,
            text,
            title,
            title,
            face,
            badge,
        )
    return format_html(
        '<span class="{}" data-tile="{}" title="{}" role="img" aria-label="{}">{}{}</span>',
        classes,
        text,
        title,
        title,
        face,
        badge,
    )


def render_back(*, small: bool = False, rotated: bool = False, extra_class: str = "") -> SafeString:
    """HTML of a face-down tile: no ``data-tile``, no face."""
    classes = _classes(
        "tile",
        "tile--back",
        "tile--small" if small else "",
        "tile--rotated" if rotated else "",
        str(extra_class or ""),
    )
    return format_html('<span class="{}" role="img" aria-label="暗牌"></span>', classes)


@register.simple_tag(name="tile")
def tile_tag(
    code: object,
    bao: object = False,
    extra_class: str = "",
    button: bool = False,
    action: str = "discard",
    drawn: bool = False,
    selected: bool = False,
    small: bool = False,
    rotated: bool = False,
    ws_send: bool = False,
) -> SafeString:
    """``{% tile "5m" bao=False extra_class="" button=False action="discard" %}``.

    ``bao`` is a flag, or the 宝 kind itself (``bao=bao_code``): then the tile glows only if
    it is of that kind, handy in ``{% for t in hand %}{% tile t bao=bao %}{% endfor %}``.
    """
    if isinstance(bao, bool):
        is_bao = bao
    else:
        bao_kind = _bao_kind(bao)
        is_bao = bao_kind is not None and bao_kind == to_kind(code)
    return render_tile(
        code,
        bao=is_bao,
        drawn=bool(drawn),
        selected=bool(selected),
        small=bool(small),
        rotated=bool(rotated),
        extra_class=extra_class,
        button=bool(button),
        action=action,
        ws_send=bool(ws_send),
    )


@register.simple_tag(name="tile_back")
def tile_back_tag(extra_class: str = "", small: bool = False, rotated: bool = False) -> SafeString:
    """``{% tile_back %}``: a face-down tile."""
    return render_back(small=bool(small), rotated=bool(rotated), extra_class=extra_class)


def _bao_kind(bao: object) -> int | None:
    if bao is None or bao is False or bao == "":
        return None
    return to_kind(bao)


def _kinds_of(codes: object) -> list[int] | None:
    if isinstance(codes, str):
        try:
            return parse_tiles(codes)
        except TileError:
            return None
    if isinstance(codes, Iterable):
        kinds = [to_kind(c) for c in codes]
        if any(k is None for k in kinds):
            return None
        return [k for k in kinds if k is not None]
    return None


@register.simple_tag(name="tiles")
def tiles_tag(
    codes: object,
    bao: object = None,
    extra_class: str = "",
    small: bool = False,
    button: bool = False,
    action: str = "discard",
) -> SafeString:
    """``{% tiles "123m55z" bao="5z" %}``: a row of tiles; tiles of the ``bao`` kind glow.

    ``codes`` is tile text or a list of kinds/codes; garbage renders as ``""``.
    """
    kinds = _kinds_of(codes)
    if kinds is None:
        logger.warning("not tiles: %r", codes)
        return mark_safe("")
    bao_kind = _bao_kind(bao)
    return format_html_join(
        "",
        "{}",
        (
            (
                render_tile(
                    k,
                    bao=k == bao_kind,
                    small=bool(small),
                    extra_class=extra_class,
                    button=bool(button),
                    action=action,
                ),
            )
            for k in kinds
        ),
    )


@register.filter(name="tile_name")
def tile_name(code: object) -> str:
    """``{{ "5m"|tile_name }}`` → ``五万``; ``""`` for garbage."""
    kind = to_kind(code)
    return "" if kind is None else TILE_NAMES_ZH[kind]
