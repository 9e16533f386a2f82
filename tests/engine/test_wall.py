from __future__ import annotations

import pytest

from engine.rules import Rules
from engine.wall import TILE_COUNT, Wall, WallError, break_stack, full_set, ring_from_draw_order

R = Rules()
DICE = (1, 1, 1, 1)


def _wall(rules: Rules = R) -> Wall:
    order = list(range(136))  # tiles named by draw position, only for positions
    ring = ring_from_draw_order(rules, [full_set()[i] for i in order], (1, 1))
    return Wall.build(rules, ring=ring, dice=DICE)


def test_seeded_shuffle_is_reproducible_and_seed_recorded() -> None:
    a, b = Wall.build(R, seed="abc"), Wall.build(R, seed="abc")
    assert a.ring == b.ring and a.dice == b.dice
    assert sorted(a.ring) == full_set()
    fresh = Wall.build(R)
    assert fresh.seed is not None
    again = Wall.build(R, seed=fresh.seed)
    assert again.ring == fresh.ring


def test_break_positions() -> None:
    # The ring runs clockwise: the dealer's wall (0-16), the 上家's, the 对家's, the 下家's.
    assert break_stack(R, (1, 1)) == 3 * 17  # T=2: the 下家's wall, U=1: its first stack
    assert break_stack(R.with_options(break_offset="plus_one"), (1, 1)) == 3 * 17 + 1
    assert break_stack(R, (2, 1)) == 2 * 17  # T=3: the 对家's
    assert break_stack(R, (2, 2)) == 17 + 1  # T=4: the 上家's, U=2
    assert break_stack(R, (6, 6)) == 17 + 5  # T=12: the 上家 again
    assert break_stack(R, (4, 1)) == 0  # T=5: the dealer's own wall


def test_explicit_wall_draw_order() -> None:
    tiles = full_set()
    ring = ring_from_draw_order(R, tiles, (2, 5))
    w = Wall.build(R, ring=ring, dice=(2, 5, 3, 3))
    assert w.tiles == tiles
    assert [w.draw() for _ in range(5)] == tiles[:5]


def test_bad_explicit_wall_and_dice() -> None:
    with pytest.raises(WallError):
        Wall.build(R, ring=[0] * 136, dice=DICE)
    with pytest.raises(WallError):
        Wall.build(R, ring=full_set(), dice=(0, 1, 2, 3))


def test_indicator_is_skipped_by_head_draws() -> None:
    w = _wall()
    for _ in range(53):
        w.draw()
    w.set_indicator()
    assert w.indicator_pos == 132  # V = 2: second stack from the tail, its top tile
    assert w.live_count() == TILE_COUNT - 53 - 1
    drawn_positions: list[int] = []
    while w.live_count():
        before = [p for p in range(136) if not w.gone[p]]
        w.draw()
        after = [p for p in range(136) if not w.gone[p]]
        drawn_positions.extend(set(before) - set(after))
    assert 132 not in drawn_positions
    assert not w.gone[132]
    with pytest.raises(WallError):
        w.draw()


def test_replacement_burns_upper_and_takes_under_indicator() -> None:
    w = _wall()
    for _ in range(53):
        w.draw()
    w.set_indicator()
    assert w.replacement(R) == w.tiles[135]
    assert w.burned == [134]
    # Next tail stack holds the indicator: take the tile under it, nothing burned.
    assert w.replacement(R) == w.tiles[133]
    assert w.burned == [134]
    assert w.indicator_pos == 132 and not w.gone[132]
    assert w.live_count() == 136 - 53 - 1 - 3


def test_replacement_single_tile_option() -> None:
    rules = R.with_options(replacement="single_tile")
    w = _wall(rules)
    for _ in range(53):
        w.draw()
    w.set_indicator()
    assert [w.replacement(rules) for _ in range(3)] == [w.tiles[134], w.tiles[135], w.tiles[133]]
    assert w.burned == []


def test_json_round_trip() -> None:
    w = _wall()
    w.draw()
    w.set_indicator()
    w.replacement(R)
    assert Wall.from_json(w.to_json()) == w
