from __future__ import annotations

import pytest

from engine.tiles import (
    BAO_OF,
    COMPACT_TILES,
    KIND_COUNT,
    SUIT_START,
    TERMINAL_OR_HONOR,
    TILE_NAMES_ZH,
    TileError,
    bao_of,
    counts_of,
    format_tile,
    format_tiles,
    is_terminal_or_honor,
    parse_tile,
    parse_tiles,
    suit_of,
    tiles_of_counts,
)


def test_every_kind_round_trips_through_text() -> None:
    for kind in range(KIND_COUNT):
        assert parse_tile(format_tile(kind)) == kind


def test_compact_text_groups_by_suit_in_order() -> None:
    assert format_tiles(parse_tiles("5z 9m 1p 1m")) == "19m1p5z"
    assert parse_tiles("123m456p789s1234567z") == [
        *range(3),
        *range(12, 15),
        *range(24, 27),
        *range(27, 34),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("8z", "honors are 1z-7z"),
        ("0m", "ranks are 1-9"),
        ("12", "without a suit letter"),
        ("m", "without digits"),
        ("12x", "unexpected 'x'"),
    ],
)
def test_bad_text_is_a_clear_value_error(text: str, message: str) -> None:
    with pytest.raises(TileError, match=message):
        parse_tiles(text)
    assert issubclass(TileError, ValueError)


def test_parse_tile_wants_exactly_one() -> None:
    with pytest.raises(TileError, match="expected one tile"):
        parse_tile("12m")


@pytest.mark.parametrize(
    ("indicator", "bao"),
    [
        ("1m", "2m"),
        ("9m", "1m"),
        ("9p", "1p"),
        ("9s", "1s"),
        ("1z", "2z"),
        ("4z", "1z"),
        ("5z", "6z"),
        ("6z", "7z"),
        ("7z", "5z"),
    ],
)
def test_bao_follows_the_indicator_in_its_cycle(indicator: str, bao: str) -> None:
    assert format_tile(bao_of(parse_tile(indicator))) == bao


def test_bao_cycles_cover_every_kind_once() -> None:
    assert sorted(bao_of(k) for k in range(KIND_COUNT)) == list(range(KIND_COUNT))


def test_counts_round_trip_and_terminals() -> None:
    tiles = parse_tiles("1199m55z")
    assert tiles_of_counts(counts_of(tiles)) == tiles
    assert [k for k in range(KIND_COUNT) if is_terminal_or_honor(k)] == parse_tiles(
        "19m19p19s1234567z"
    )
    assert TILE_NAMES_ZH[parse_tile("9s")] == "九条" and TILE_NAMES_ZH[parse_tile("7z")] == "白"


def test_the_kind_tables_agree_with_the_functions() -> None:
    assert tuple(bao_of(k) for k in range(KIND_COUNT)) == BAO_OF
    assert [k for k in range(KIND_COUNT) if TERMINAL_OR_HONOR[k]] == [
        *parse_tiles("19m19p19s1234567z")
    ]
    assert all(
        SUIT_START[k] == min(j for j in range(KIND_COUNT) if suit_of(j) == suit_of(k))
        for k in range(KIND_COUNT)
    )


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("123m456p789s55z", ("123", "456", "789", "55")),
        ("55z", (None, None, None, "55")),
        ("", (None, None, None, None)),
    ],
)
def test_compact_tiles_reads_suits_in_order(text: str, groups: tuple[str | None, ...]) -> None:
    m = COMPACT_TILES.fullmatch(text)
    assert m is not None and m.groups() == groups
    # and the groups are the text parse_tiles reads
    assert parse_tiles(text) == parse_tiles(
        "".join(f"{g}{letter}" for g, letter in zip(groups, "mpsz", strict=True) if g)
    )


@pytest.mark.parametrize("text", ["55z123m", "1m1m", "8z", "0m", "1m 2m", "1x"])
def test_other_text_is_not_compact(text: str) -> None:
    assert COMPACT_TILES.fullmatch(text) is None
