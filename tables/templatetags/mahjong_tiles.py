"""Mahjong tiles as references into the cached sprite: ``{% load mahjong_tiles %}``.

A tile is ``<span class="tile …" data-tile="5m" role="img" aria-label="…">`` around
``<svg><use href="/static/tiles/sprite.svg?v=…#t-5m"/></svg>``: the drawings live once in
``static/tiles/sprite.svg`` (built by ``tables.screen.tile_art``), cached by the browser, so pages
and pushes carry only references. The ``?v=`` is a hash of the sprite's bytes, so a new sprite
is a new URL and the old one may be cached forever.

Tags:

* ``{% tile "5m" %}`` — one face-up tile. Options: ``bao=True`` (gold highlight and, unless
  small, the 宝 mark in its corner), ``drawn=True``, ``selected=True``, ``small=True``
  (rivers, melds), ``rotated=True`` (a tile lying sideways, e.g. a claimed tile in a meld),
  ``extra_class="…"``, and ``button=True action="discard"`` to render
  ``<button type="submit" name="tile" value="5m" data-action="discard" …>`` instead.
  The tile may be given as text (``"5m"``) or as a kind ``int`` (0–33).
* ``{% tile_back %}`` — a face-down tile: no ``data-tile`` and no face.
* ``{% tile_backs 13 %}`` — a row of face-down tiles as one image (an opponent's hand).
* ``{% tiles "123m55z" bao="5z" %}`` — a row of tiles (text or a list of kinds/codes);
  tiles of the ``bao`` kind get the 宝 highlight. Same ``small``/``extra_class``/``button``
  options.
* ``{% tile_sprite_url %}`` — the sprite's versioned URL (``base.html`` preloads it).
* ``{% tile_sprite_inline %}`` — the sprite's symbols inlined once in a page; where the
  context says ``tiles_local``, tiles then refer to ``#t-5m`` alone and carry no ``title``
  (the live table, whose every push is made of tiles).
* ``{{ "5m"|tile_name }}`` — the tile's name in the page's language (五万, 5 Characters).

Every tile is labelled in the page's language (五万 / 5 Characters, 东风 / East Wind).
Garbage tile codes render as an empty string (and log a warning) rather than breaking a page;
every caller-supplied value goes through :func:`~django.utils.html.format_html`.
"""

from __future__ import annotations

import logging

from django import template
from django.template import Context
from django.utils.safestring import SafeString, mark_safe

from tables.screen.tiles import (
    is_bao,
    render_back,
    render_backs,
    render_tile,
    render_tiles,
    sprite_inline,
    sprite_url,
    tile_label,
    to_kind,
)

register = template.Library()
logger = logging.getLogger(__name__)


def _local(context: Context) -> bool:
    """The page inlines the sprite (``tiles_local`` in the context): short references."""
    return bool(context.get("tiles_local"))


@register.simple_tag(name="tile", takes_context=True)
def tile_tag(
    context: Context,
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
    return render_tile(
        code,
        bao=is_bao(code, bao),
        drawn=bool(drawn),
        selected=bool(selected),
        small=bool(small),
        rotated=bool(rotated),
        extra_class=extra_class,
        button=bool(button),
        action=action,
        ws_send=bool(ws_send),
        local=_local(context),
    )


@register.simple_tag(name="tile_back", takes_context=True)
def tile_back_tag(
    context: Context, extra_class: str = "", small: bool = False, rotated: bool = False
) -> SafeString:
    """``{% tile_back %}``: a face-down tile."""
    return render_back(
        small=bool(small), rotated=bool(rotated), extra_class=extra_class, local=_local(context)
    )


@register.simple_tag(name="tile_backs", takes_context=True)
def tile_backs_tag(context: Context, count: object) -> SafeString:
    """``{% tile_backs p.hand_size %}``: that many face-down tiles, drawn as one row."""
    if isinstance(count, bool) or not isinstance(count, int):
        logger.warning("not a count of tiles: %r", count)
        return mark_safe("")
    return render_backs(count, local=_local(context))


@register.simple_tag(name="tile_sprite_inline")
def tile_sprite_inline_tag() -> SafeString:
    """``{% tile_sprite_inline %}``: the sprite itself, once in a page whose tiles say
    ``tiles_local`` (the live table)."""
    return mark_safe(sprite_inline())


@register.simple_tag(name="tile_sprite_url")
def tile_sprite_url_tag() -> str:
    """``{% tile_sprite_url %}``: the sprite's versioned URL."""
    return sprite_url()


@register.simple_tag(name="tiles", takes_context=True)
def tiles_tag(
    context: Context,
    codes: object,
    bao: object = None,
    extra_class: str = "",
    small: bool = False,
    button: bool = False,
    action: str = "discard",
    ws_send: bool = False,
) -> SafeString:
    """``{% tiles "123m55z" bao="5z" %}``: a row of tiles; tiles of the ``bao`` kind glow.

    ``codes`` is tile text or a list of kinds/codes; garbage renders as ``""``. One tag for
    a row, not a ``{% for %}`` around ``{% tile %}``: a table push is mostly rows of tiles,
    and the template loop cost more than the tiles themselves.
    """
    return render_tiles(
        codes,
        bao=bao,
        extra_class=extra_class,
        small=bool(small),
        button=bool(button),
        action=action,
        ws_send=bool(ws_send),
        local=_local(context),
    )


@register.filter(name="tile_name")
def tile_name(code: object) -> str:
    """``{{ "5m"|tile_name }}`` → ``五万`` (``5 Characters`` in English); ``""`` for garbage."""
    kind = to_kind(code)
    return "" if kind is None else tile_label(kind)
