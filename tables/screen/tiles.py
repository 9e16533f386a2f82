"""Tiles as HTML: a tile, a row, a face-down back, each a reference into the cached sprite and
labelled in the page's language. The template tags (``{% load mahjong_tiles %}``) and the
pushes' renderers both use these."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable
from functools import cache

from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from engine.tiles import (
    HONORS,
    KIND_COUNT,
    TileError,
    format_tile,
    parse_tile,
    parse_tiles,
    rank_of,
    suit_of,
)
from tables.screen.memo import remembered
from tables.screen.tile_art import BACKS_MAX, BACKS_PITCH, BAO_BOX, BAO_FACE, H, W, symbol_id

SPRITE = "tiles/sprite.svg"

logger = logging.getLogger(__name__)

_TileKey = tuple[int, bool, bool, bool, bool, bool, str, bool, str, bool, bool]


_RANKS = (
    pgettext_lazy("tile rank", "1"),
    pgettext_lazy("tile rank", "2"),
    pgettext_lazy("tile rank", "3"),
    pgettext_lazy("tile rank", "4"),
    pgettext_lazy("tile rank", "5"),
    pgettext_lazy("tile rank", "6"),
    pgettext_lazy("tile rank", "7"),
    pgettext_lazy("tile rank", "8"),
    pgettext_lazy("tile rank", "9"),
)


_HONOR_NAMES = (
    pgettext_lazy("tile", "East Wind"),
    pgettext_lazy("tile", "South Wind"),
    pgettext_lazy("tile", "West Wind"),
    pgettext_lazy("tile", "North Wind"),
    pgettext_lazy("tile", "Red Dragon"),
    pgettext_lazy("tile", "Green Dragon"),
    pgettext_lazy("tile", "White Dragon"),
)


def tile_label(kind: int) -> str:
    """A kind's name in the active language: 五万 / 5 Characters, 东风 / East Wind."""
    suit, rank = suit_of(kind), rank_of(kind)
    if suit == HONORS:
        return str(_HONOR_NAMES[rank - 1])
    names = (
        ngettext("%(rank)s Character", "%(rank)s Characters", rank),
        ngettext("%(rank)s Dot", "%(rank)s Dots", rank),
        ngettext("%(rank)s Bamboo", "%(rank)s Bamboo", rank),
    )
    return names[suit] % {"rank": _RANKS[rank - 1]}


@cache
def sprite_url() -> str:
    """The sprite's URL with a hash of its bytes, so each version is cached for good."""
    path = finders.find(SPRITE)
    if not isinstance(path, str):
        raise FileNotFoundError(SPRITE)
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:8]
    return f"{static(SPRITE)}?v={digest}"


def _use(symbol: str, extra: str = "", *, local: bool = False) -> str:
    return f'<use href="{"" if local else sprite_url()}#{symbol}"{extra}/>'


@cache
def sprite_inline() -> str:
    """The sprite's symbols as one invisible ``<svg>`` for a page that references them by
    ``#id`` alone (the live table: every push then carries short references)."""
    path = finders.find(SPRITE)
    if not isinstance(path, str):
        raise FileNotFoundError(SPRITE)
    with open(path, encoding="utf-8") as f:
        body = f.read()
    body = body[body.index(">", body.index("<svg")) + 1 : body.rindex("</svg>")]
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" class="tile-sprite" aria-hidden="true" '
        'style="position:absolute;width:0;height:0;overflow:hidden">' + body + "</svg>"
    )


def _svg(
    kind: int | None, *, bao: bool = False, rotated: bool = False, local: bool = False
) -> SafeString:
    """The tile's drawing: a ``<use>`` of its symbol (``None``: the back), 宝 mark inside."""
    # A face beside the 宝 mark, or turned sideways, is not the svg's own box: say where.
    box = (0, 0, W, H) if rotated and not bao else BAO_FACE if bao else None
    size = f' x="{box[0]}" y="{box[1]}" width="{box[2]}" height="{box[3]}"' if box else ""
    face = _use("t-back" if kind is None else symbol_id(kind), size, local=local)
    if bao:  # the mark sits inside the tile's own box, so no container can clip it
        face += _use(
            "t-bao",
            f' class="tile-badge" x="{W - BAO_BOX}" y="0" width="{BAO_BOX}" height="{BAO_BOX}"',
            local=local,
        )
    if rotated:
        face = f'<g transform="translate({H} 0) rotate(90)">{face}</g>'
        return mark_safe(f'<svg viewBox="0 0 {H} {W}">{face}</svg>')
    view = f' viewBox="0 0 {W} {H}"' if bao else ""  # a lone face fills the svg by itself
    return mark_safe(f"<svg{view}>{face}</svg>")


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
    local: bool = False,
) -> SafeString:
    """HTML of one face-up tile, or ``""`` if ``code`` is not a tile.

    ``button``: a submit button named ``tile``; with ``ws_send`` it sends over the page's
    WebSocket instead (htmx ``ws-send``), taking the other values from ``hx-vals`` above it.
    ``local``: the page inlines the sprite (:func:`sprite_inline`): the tile refers to
    ``#t-5m`` alone and leaves out the ``title`` (its ``aria-label`` names it), the short form
    the live table pushes.
    """
    kind = to_kind(code)
    if kind is None:
        logger.warning("not a tile: %r", code)
        return mark_safe("")
    key: _TileKey = (
        kind,
        bao,
        drawn,
        selected,
        small,
        rotated,
        str(extra_class or ""),
        button,
        str(action),
        ws_send,
        local,
    )
    # A table push is mostly tiles and a hand shows few distinct ones: each is built once per
    # process and language.
    return remembered("tile", key, lambda: _tile_html(*key))


def _tile_html(
    kind: int,
    bao: bool,
    drawn: bool,
    selected: bool,
    small: bool,
    rotated: bool,
    extra_class: str,
    button: bool,
    action: str,
    ws_send: bool,
    local: bool,
) -> SafeString:
    text = format_tile(kind)
    name = tile_label(kind)
    label = pgettext("tile", "%(name)s (宝)") % {"name": name} if bao else name
    if drawn:  # a screen reader names the tile just drawn as such, as the eye sees it apart
        label = pgettext("tile", "%(name)s, just drawn") % {"name": label}
    classes = _classes(
        "tile",
        "tile--bao" if bao else "",
        "tile--drawn" if drawn else "",
        "tile--selected" if selected else "",
        "tile--small" if small else "",
        "tile--rotated" if rotated else "",
        extra_class,
    )
    # A small tile (river, meld, bar) is too small for a readable mark: its gold frame says 宝.
    face = _svg(kind, bao=bao and not small, rotated=rotated, local=local)
    title = "" if local else format_html(' title="{}"', label)
    if button:
        # ws-send buttons must not submit a form: htmx sends them over the socket on click.
        opening = '<button type="button" ws-send ' if ws_send else '<button type="submit" '
        return format_html(
            opening + 'name="tile" value="{}" data-action="{}" class="{}" '
            'data-tile="{}"{} aria-label="{}">{}</button>',
            text,
            action,
            classes,
            text,
            title,
            label,
            face,
        )
    return format_html(
        '<span class="{}" data-tile="{}"{} role="img" aria-label="{}">{}</span>',
        classes,
        text,
        title,
        label,
        face,
    )


def render_back(
    *, small: bool = False, rotated: bool = False, extra_class: str = "", local: bool = False
) -> SafeString:
    """HTML of a face-down tile: no ``data-tile``, no face."""
    classes = _classes(
        "tile",
        "tile--back",
        "tile--small" if small else "",
        "tile--rotated" if rotated else "",
        str(extra_class or ""),
    )
    return format_html(
        '<span class="{}" role="img" aria-label="{}">{}</span>',
        classes,
        pgettext("tile", "Face-down tile"),
        _svg(None, rotated=rotated, local=local),
    )


def render_backs(count: int, *, local: bool = False) -> SafeString:
    """HTML of ``count`` face-down tiles in a row: one image, one ``<use>``."""
    count = min(count, BACKS_MAX)
    if count <= 0:
        return mark_safe("")
    label = ngettext("%(n)s face-down tile", "%(n)s face-down tiles", count) % {"n": count}
    return format_html(
        '<span class="tile-backs" style="--n: {}" role="img" aria-label="{}">{}</span>',
        count,
        label,
        mark_safe(
            f'<svg viewBox="0 0 {count * BACKS_PITCH - 2} {H}">'
            f"{_use(f't-backs-{count}', local=local)}</svg>"
        ),
    )


def is_bao(code: object, bao: object) -> bool:
    """Whether tile ``code`` glows as a 宝: ``bao`` is a flag, or the 宝's kind or code.

    >>> is_bao("5z", "5z"), is_bao("5z", "1m"), is_bao("5z", ""), is_bao("5z", True)
    (True, False, False, True)
    """
    if isinstance(bao, bool):
        return bao
    bao_kind = _bao_kind(bao)
    return bao_kind is not None and bao_kind == to_kind(code)


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


def render_tiles(
    codes: object,
    *,
    bao: object = None,
    extra_class: str = "",
    small: bool = False,
    button: bool = False,
    action: str = "discard",
    ws_send: bool = False,
    local: bool = False,
) -> SafeString:
    """HTML of a row of tiles (:func:`tiles_tag`, for callers that are not templates)."""
    kinds = _kinds_of(codes)
    if kinds is None:
        logger.warning("not tiles: %r", codes)
        return mark_safe("")
    bao_kind = _bao_kind(bao)
    extra_class = str(extra_class or "")
    return mark_safe(
        "".join(
            render_tile(
                k,
                bao=k == bao_kind,
                small=small,
                extra_class=extra_class,
                button=button,
                action=action,
                ws_send=ws_send,
                local=local,
            )
            for k in kinds
        )
    )
