"""The tile template tags: every kind is a labelled <use> of the sprite, variants, garbage."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.utils import translation

from engine.tiles import KIND_COUNT, TILE_NAMES_ZH, format_tile
from tables.screen import tiles

USE = re.compile(r'<use href="/static/tiles/sprite\.svg\?v=[0-9a-f]{8}#(t-\w+)"')
HONOURS_ZH = ("东风", "南风", "西风", "北风", "红中", "发财", "白板")
DRAWING = re.compile(r"<(path|circle|rect|line|text|g|symbol)[\s>/]")


def render(source: str, **context: object) -> str:
    return Template("{% load mahjong_tiles %}" + source).render(Context(context))


@pytest.mark.parametrize("kind", range(KIND_COUNT))
def test_every_kind_is_a_labelled_use_of_its_symbol(kind):
    code = format_tile(kind)
    with translation.override("zh-hans"):  # the labels asserted below are the Chinese ones
        html = render("{% tile code %}", code=code)
    assert html.startswith("<span ")
    assert f'data-tile="{code}"' in html
    assert 'role="img"' in html
    # Suited tiles are named as in the engine; honours by their full names (东风, 红中).
    name = TILE_NAMES_ZH[kind] if kind < 27 else HONOURS_ZH[kind - 27]
    assert f'aria-label="{name}"' in html and f'title="{name}"' in html
    assert USE.findall(html) == [f"t-{code}"]
    assert not DRAWING.search(html)


def test_labels_follow_the_page_language():
    with translation.override("en"):
        assert 'aria-label="5 Characters"' in render('{% tile "5m" %}')
        assert 'aria-label="1 Dot"' in render('{% tile "1p" %}')
        assert 'aria-label="9 Bamboo"' in render('{% tile "9s" %}')
        assert 'aria-label="East Wind"' in render('{% tile "1z" %}')
        assert 'aria-label="White Dragon (宝)"' in render('{% tile "7z" bao=True %}')
        assert 'aria-label="Face-down tile"' in render("{% tile_back %}")
        assert render('{{ "3s"|tile_name }}') == "3 Bamboo"
    with translation.override("zh-hans"):
        assert 'aria-label="东风"' in render('{% tile "1z" %}')
        assert 'aria-label="红中（宝）"' in render('{% tile "5z" bao=True %}')
        assert 'aria-label="暗牌"' in render("{% tile_back %}")


def test_every_english_label_is_distinct():
    with translation.override("en"):
        assert len({tiles.tile_label(k) for k in range(KIND_COUNT)}) == KIND_COUNT


def test_int_kinds_are_accepted():
    assert 'data-tile="7z"' in render("{% tile k %}", k=33)


def test_tile_back_is_the_back_symbol_without_data_tile():
    html = render("{% tile_back %}")
    assert "tile--back" in html
    assert "data-tile" not in html
    assert USE.findall(html) == ["t-back"]


def test_sprite_url_is_versioned_by_the_sprites_bytes():
    url = render("{% tile_sprite_url %}")
    assert re.fullmatch(r"/static/tiles/sprite\.svg\?v=[0-9a-f]{8}", url)
    assert url == tiles.sprite_url()


def test_bao_flag_adds_class_and_the_mark_inside_the_tile():
    html = render('{% tile "5m" bao=True %}')
    assert "tile--bao" in html
    assert USE.findall(html) == ["t-5m", "t-bao"]
    # The mark's box lies within the tile's 30 × 40 box: nothing around it can clip it.
    box = re.search(r'class="tile-badge" x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)"', html)
    assert box is not None
    x, y, w, h = map(int, box.groups())
    assert 'viewBox="0 0 30 40"' in html and x >= 0 and x + w <= 30 and y >= 0 and y + h <= 40
    plain = render('{% tile "5m" %}')
    assert "tile--bao" not in plain and "t-bao" not in plain
    small = render('{% tile "5m" bao=True small=True %}')  # too small to read: the frame says it
    assert "tile--bao" in small and USE.findall(small) == ["t-5m"] and "（宝）" in small


def test_button_variant():
    html = render('{% tile "5m" button=True action="discard" %}')
    assert html.startswith(
        '<button type="submit" name="tile" value="5m" data-action="discard" class="tile"'
    )
    assert 'data-tile="5m"' in html and 'aria-label="五万"' in html
    assert html.endswith("</button>")


def test_state_classes():
    html = render('{% tile "1p" drawn=True selected=True small=True extra_class="x y" %}')
    for cls in ("tile--drawn", "tile--selected", "tile--small", "x y"):
        assert cls in html


def test_rotated_swaps_the_view_box():
    html = render('{% tile "1p" rotated=True %}')
    assert 'viewBox="0 0 40 30"' in html and "rotate(90)" in html
    assert 'width="30" height="40"' in html


@pytest.mark.parametrize("bad", ["", "0m", "8z", "5", "55m", "<script>", None, 34, -1, True, []])
def test_bad_codes_render_empty(bad):
    assert render("{% tile code %}", code=bad) == ""


def test_extra_class_and_action_are_escaped():
    html = render('{% tile "5m" button=True action=a extra_class=c %}', a='"><script>', c='"><b>')
    assert "<script>" not in html and "<b>" not in html
    assert "&quot;&gt;&lt;script&gt;" in html


def test_tiles_row_with_bao():
    html = render('{% tiles "123m55z" bao="5z" %}')
    assert re.findall(r'data-tile="(\w+)"', html) == ["1m", "2m", "3m", "5z", "5z"]
    assert html.count("tile--bao") == 2


def test_tiles_accepts_lists_and_rejects_garbage():
    assert render("{% tiles ks %}", ks=[0, "9p", 33]).count("data-tile=") == 3
    assert render('{% tiles "12x" %}') == ""
    assert render("{% tiles ks %}", ks=[0, "bad"]) == ""
    assert render("{% tiles 5 %}") == ""


def test_tiles_button_row():
    html = render('{% tiles "19m" button=True %}')
    assert html.count('<button type="submit" name="tile"') == 2


def test_a_tiles_row_is_the_same_bytes_as_its_tiles_one_by_one():
    """Templates draw rows (a river, a hand of buttons) with one ``{% tiles %}``; it must be
    exactly the loop of ``{% tile %}`` it replaced, the extra class and the sprite's short
    references (``tiles_local``) included."""
    codes = ["1m", "5z", "9p", "5z"]
    for local in (False, True):
        loop = render(
            '{% for t in ts %}{% tile t bao=b small=True extra_class="x" %}{% endfor %}',
            ts=codes,
            b="5z",
            tiles_local=local,
        )
        row = render(
            '{% tiles ts bao=b small=True extra_class="x" %}',
            ts=codes,
            b="5z",
            tiles_local=local,
        )
        assert row == loop
        assert row.count(' x"') == 4 and ("#t-" in row)
    buttons = render(
        "{% for t in ts %}{% tile t bao=b button=True ws_send=True %}{% endfor %}", ts=codes, b="5z"
    )
    assert render("{% tiles ts bao=b button=True ws_send=True %}", ts=codes, b="5z") == buttons
    assert buttons.count('<button type="button" ws-send name="tile"') == 4
    assert render("{% tiles ts %}", ts=[]) == ""


def test_tile_name_filter():
    assert render('{{ "5p"|tile_name }}') == "五筒"
    assert render('{{ "zz"|tile_name }}') == ""


def test_bao_given_as_a_kind_or_code():
    assert "tile--bao" in render("{% tile t bao=b %}", t="1m", b=0)
    assert "tile--bao" in render("{% tile t bao=b %}", t="5z", b="5z")
    assert "tile--bao" not in render("{% tile t bao=b %}", t="5z", b="6z")
    assert "tile--bao" not in render("{% tile t bao=b %}", t="5z", b="")
    assert render("{% tiles ks bao=0 %}", ks="19m").count("tile--bao") == 1


def test_a_row_of_a_whole_hand_draws_nothing_itself():
    html = render('{% tiles "123456789m12345z" bao="5z" %}{% tile "5z" bao=True %}{% tile_back %}')
    assert not DRAWING.search(html)
    assert len(USE.findall(html)) == 15 + 2 + 1  # faces, two 宝 marks, the back


def test_a_row_of_backs_is_one_labelled_use():
    with translation.override("en"):
        html = render("{% tile_backs n %}", n=13)
    assert USE.findall(html) == [] and "#t-backs-13" in html
    assert 'aria-label="13 face-down tiles"' in html and 'style="--n: 13"' in html
    assert not DRAWING.search(html)
    assert render("{% tile_backs 0 %}") == "" and render("{% tile_backs 'x' %}") == ""


def test_a_page_that_inlines_the_sprite_gets_short_references_and_no_titles():
    source = "{% tile code bao=bao %}{% tile_back %}{% tile_backs 3 %}{% tile code button=True %}"
    html = render(source, code="5m", bao="5m", tiles_local=True)
    assert re.findall(r'<use href="([^"]*)"', html) == [
        "#t-5m",
        "#t-bao",
        "#t-back",
        "#t-backs-3",
        "#t-5m",
    ]
    assert "title=" not in html and html.count("aria-label=") == 4
    assert "sprite.svg" not in html


def test_the_inlined_sprite_holds_every_symbol_and_shows_nothing():
    html = render("{% tile_sprite_inline %}")
    assert html.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="tile-sprite"')
    assert 'aria-hidden="true"' in html and "width:0;height:0" in html
    for kind in range(KIND_COUNT):
        assert f'<symbol id="t-{format_tile(kind)}"' in html
    assert '<symbol id="t-bao"' in html and html.count("<svg") == 1


def test_a_tile_built_once_is_never_served_in_another_catalog():
    """Built tiles are kept per translation catalog: the same tile in turn under Chinese,
    English, and no translation at all (what ``deactivate_all`` leaves) is labelled by each."""
    with translation.override("zh-hans"):
        assert 'aria-label="五万"' in tiles.render_tile("5m")
    with translation.override("en"):
        assert 'aria-label="5 Characters"' in tiles.render_tile("5m")
    with translation.override(None):  # deactivated: the source strings
        assert 'aria-label="5 Characters"' in tiles.render_tile("5m")
    with translation.override("zh-hans"):
        assert tiles.render_tile("5m") is tiles.render_tile("5m")  # built once, then kept
        assert 'aria-label="五万"' in tiles.render_tile("5m")
