"""The tile faces template tags: every kind renders, variants, and garbage is harmless."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template

from engine.tiles import KIND_COUNT, TILE_NAMES_ZH, format_tile
from tables.templatetags import mahjong_tiles as mt


def render(source: str, **context: object) -> str:
    return Template("{% load mahjong_tiles %}" + source).render(Context(context))


@pytest.mark.parametrize("kind", range(KIND_COUNT))
def test_every_kind_renders_with_data_tile_and_a_face(kind):
    code = format_tile(kind)
    html = render("{% tile code %}", code=code)
    assert html.startswith("<span ")
    assert f'data-tile="{code}"' in html
    assert f'title="{TILE_NAMES_ZH[kind]}"' in html
    svg = re.search(r"<svg[^>]*>(.*)</svg>", html, re.S)
    assert svg is not None
    assert re.search(r"<(text|circle|rect)\b", svg.group(1)), "face must draw something"


def test_int_kinds_are_accepted():
    assert 'data-tile="7z"' in render("{% tile k %}", k=33)


def test_faces_are_distinct():
    assert len(set(mt._FACES)) == KIND_COUNT


def test_tile_back_has_no_data_tile_and_no_face():
    html = render("{% tile_back %}")
    assert "tile--back" in html
    assert "data-tile" not in html
    assert "<svg" not in html
    assert "></span>" in html


def test_bao_flag_adds_class_and_badge():
    html = render('{% tile "5m" bao=True %}')
    assert "tile--bao" in html
    assert "tile-badge" in html and "宝" in html
    assert "tile--bao" not in render('{% tile "5m" %}')


def test_button_variant():
    html = render('{% tile "5m" button=True action="discard" %}')
    assert html.startswith(
        '<button type="submit" name="tile" value="5m" data-action="discard" class="tile '
    )
    assert 'data-tile="5m"' in html
    assert html.endswith("</button>")


def test_state_classes():
    html = render('{% tile "1p" drawn=True selected=True small=True extra_class="x y" %}')
    for cls in ("tile--drawn", "tile--selected", "tile--small", "x y"):
        assert cls in html


def test_rotated_swaps_the_view_box():
    html = render('{% tile "1p" rotated=True %}')
    assert 'viewBox="0 0 40 30"' in html and "rotate(90)" in html


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


def test_tile_name_filter():
    assert render('{{ "5p"|tile_name }}') == "五筒"
    assert render('{{ "zz"|tile_name }}') == ""


def test_include_template():
    from django.template.loader import render_to_string

    assert 'data-tile="3s"' in render_to_string("tables/_tile.html", {"code": "3s"})
    assert "data-tile" not in render_to_string("tables/_tile.html", {"code": ""})


def test_gallery_view(rf):
    from tables.gallery import tile_gallery

    response = tile_gallery(rf.get("/tiles/"))
    assert response.status_code == 200
    body = response.content.decode()
    for kind in range(KIND_COUNT):
        assert f'data-tile="{format_tile(kind)}"' in body


def test_bao_given_as_a_kind_or_code():
    assert "tile--bao" in render("{% tile t bao=b %}", t="1m", b=0)
    assert "tile--bao" in render("{% tile t bao=b %}", t="5z", b="5z")
    assert "tile--bao" not in render("{% tile t bao=b %}", t="5z", b="6z")
    assert "tile--bao" not in render("{% tile t bao=b %}", t="5z", b="")
    assert render("{% tiles ks bao=0 %}", ks="19m").count("tile--bao") == 1
