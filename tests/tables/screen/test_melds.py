"""tables.screen.melds: melds and tile strings from the engine's views, as a page shows them."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from tables.screen.melds import MeldView, meld_label, melds_view, tile_codes

pytestmark = pytest.mark.usefixtures("english")


def test_tile_codes_split_the_engine_text_one_code_a_tile() -> None:
    assert tile_codes("123m55z") == ["1m", "2m", "3m", "5z", "5z"]
    assert tile_codes("") == []


def test_a_face_down_kong_has_no_tiles_and_others_show_theirs() -> None:
    rows: list[dict[str, Any]] = [
        {"kind": "angang", "tiles": None},
        {"kind": "peng", "tiles": "555p"},
    ]
    assert melds_view(rows) == [
        MeldView("angang", "Concealed kong", None),
        MeldView("peng", "Pong", ["5p", "5p", "5p"]),
    ]


def test_a_meld_is_named_in_the_page_language_and_an_unknown_kind_kept() -> None:
    assert meld_label("liangbao") == "Bao kong"
    assert meld_label("mystery") == "mystery"
    with translation.override("zh-hans"):
        assert meld_label("peng") != "Pong"
