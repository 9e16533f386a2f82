"""The tile sprite: one symbol per kind, the back and the 宝 mark; the file is up to date."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from engine.tiles import KIND_COUNT, format_tile
from tables.screen import tile_art

SVG = "{http://www.w3.org/2000/svg}"


def symbols() -> dict[str, ET.Element]:
    root = ET.fromstring(tile_art.SPRITE_PATH.read_text(encoding="utf-8"))
    return {s.attrib["id"]: s for s in root.iter(SVG + "symbol")}


def test_the_committed_sprite_is_built_from_the_art() -> None:
    # After changing tables/screen/tile_art.py run `python -m tables.screen.tile_art`.
    assert tile_art.SPRITE_PATH.read_text(encoding="utf-8") == tile_art.sprite_svg()


def test_every_kind_the_back_and_the_bao_mark_have_a_symbol() -> None:
    found = symbols()
    faces = {f"t-{format_tile(k)}" for k in range(KIND_COUNT)} | {"t-back", "t-bao"}
    rows = {f"t-backs-{n}" for n in range(1, tile_art.BACKS_MAX + 1)}
    assert set(found) == faces | rows
    for sid in faces:
        assert len(found[sid]) > 0, f"{sid} draws nothing"
        box = (tile_art.BAO_BOX,) * 2 if sid == "t-bao" else (tile_art.W, tile_art.H)
        assert found[sid].attrib["viewBox"] == f"0 0 {box[0]} {box[1]}"


def test_a_row_of_backs_is_that_many_backs_within_its_box() -> None:
    for n in range(1, tile_art.BACKS_MAX + 1):
        row = symbols()[f"t-backs-{n}"]
        uses = list(row)
        assert [u.attrib["href"] for u in uses] == ["#t-back"] * n
        width = int(row.attrib["viewBox"].split()[2])
        assert max(int(u.attrib["x"]) for u in uses) + tile_art.W == width


def test_faces_are_distinct_and_written_ones_carry_their_fonts() -> None:
    faces = [tile_art.face_svg(k) for k in range(KIND_COUNT)]
    assert len(set(faces)) == KIND_COUNT
    for sid, symbol in symbols().items():
        if symbol.find(f".//{SVG}text") is not None:
            assert "font-family" in symbol.attrib, sid


def test_the_bird_is_drawn_not_written() -> None:
    bird = symbols()["t-1s"]
    assert bird.find(f".//{SVG}path") is not None and bird.find(f".//{SVG}text") is None


def test_the_bao_mark_says_bao() -> None:
    mark = symbols()["t-bao"]
    assert [t.text for t in mark.iter(SVG + "text")] == ["宝"]


def test_the_sprite_is_served_to_be_cached_for_good(
    client: Any, settings: Any, tmp_path: Any
) -> None:
    # As production serves it: collected under a name with its hash, gzipped beside it.
    from django.core.management import call_command
    from django.templatetags.static import static

    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    call_command("collectstatic", "--noinput", verbosity=0)
    url = static("tiles/sprite.svg")
    assert url != "/static/tiles/sprite.svg"
    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert response["Content-Encoding"] == "gzip"
    assert "immutable" in response["Cache-Control"]
    response = client.get(url)
    body = b"".join(response.streaming_content)
    assert body.decode() == tile_art.sprite_svg()
