"""The shared test deals: scripted hands (an explicit wall and action log in the replay format,
docs/engine.md) and the deals several test modules play. A fixture module, not a test module.

A test writes the four deals, the head draws in the order they will be drawn and any tail
tiles by draw position; :func:`deal` deals them, :func:`hand_record` turns them into the JSON
record that ``python -m engine.replay`` reads, and :func:`play` replays it with the real judge.

>>> act(0, "discard", "3m")
[0, {'type': 'discard', 'tile': '3m'}]
>>> ring({0: "123m", 1: "", 2: "", 3: ""})
Traceback (most recent call last):
...
ValueError: seat 0 is dealt 3 tiles, not 14
"""

from __future__ import annotations

import json
from typing import Any

from engine.actions import Action
from engine.hand import HandState, apply, legal_actions, new_hand, waiting_on
from engine.hand_log import check_record, replay
from engine.rules import Rules
from engine.tiles import format_tile, parse_tile, parse_tiles
from engine.wall import TILE_COUNT, full_set, ring_from_draw_order

DICE = (1, 1, 1, 1)
"""Break at the 下家's wall; the indicator is the tile at draw position 132."""
INDICATOR_POS = 132
INDICATOR = "7z"
"""白 turned up: the 宝 is 中 (5z)."""
TAIL = 135
"""Draw position of the tail stack's lower tile: the first replacement draw under
``burn_upper`` (134, the upper one, is burned; ``single_tile`` takes 134 first)."""


def ring(
    hands: dict[int, str],
    draws: str = "",
    tail: dict[int, str] | None = None,
    *,
    dealer: int = 0,
    indicator: str = INDICATOR,
    rules: Rules | None = None,
) -> list[str]:
    """The 136 ring tiles (tile text) that deal ``hands`` (13 each, 14 for the dealer), then
    give ``draws`` from the head in order; ``tail`` puts tiles at draw positions. Every other
    position gets the leftover tiles, highest kinds first."""
    rules = rules or Rules()
    order: list[int | None] = [None] * TILE_COUNT
    dealt = {s: parse_tiles(hands[s]) for s in range(4)}
    for s, tiles in dealt.items():
        want = 14 if s == dealer else 13
        if len(tiles) != want:
            raise ValueError(f"seat {s} is dealt {len(tiles)} tiles, not {want}")
    seats = [(dealer + i) % 4 for i in range(4)]
    pos = 0
    for r in range(3):
        for s in seats:
            for t in dealt[s][4 * r : 4 * r + 4]:
                order[pos] = t
                pos += 1
    for s in seats:
        order[pos] = dealt[s][12]
        pos += 1
    order[pos] = dealt[dealer][13]
    pos += 1
    for t in parse_tiles(draws):
        if pos == INDICATOR_POS:
            pos += 1
        order[pos] = t
        pos += 1
    order[INDICATOR_POS] = parse_tile(indicator)
    for p, text in (tail or {}).items():
        if order[p] is not None:
            raise ValueError(f"draw position {p} is already taken")
        order[p] = parse_tile(text)
    pool = [0] * 34
    for k in full_set():
        pool[k] += 1
    for slot in order:
        if slot is not None:
            pool[slot] -= 1
            if pool[slot] < 0:
                raise ValueError(f"more than four {format_tile(slot)} in the script")
    rest = [k for k in range(34) for _ in range(pool[k])]
    filled = [slot if slot is not None else rest.pop() for slot in order]
    return [format_tile(t) for t in ring_from_draw_order(rules, filled, (DICE[0], DICE[1]))]


def deal(
    hands: dict[int, str],
    draws: str = "",
    tail: dict[int, str] | None = None,
    *,
    dealer: int = 0,
    rules: Rules | None = None,
) -> HandState:
    """A hand dealt from the script (see :func:`ring`), before anyone acts."""
    rules = rules or Rules()
    wall = [parse_tile(t) for t in ring(hands, draws, tail, dealer=dealer, rules=rules)]
    return new_hand(rules, dealer, wall=wall, dice=DICE)


def act(seat: int, kind: str, tile: str | None = None, **extra: str) -> list[Any]:
    """One log entry: ``act(0, "discard", "3m")`` is ``[0, {"type": "discard", "tile": "3m"}]``."""
    action: dict[str, Any] = {"type": kind}
    if tile is not None:
        action["tile"] = tile
    action.update(extra)
    return [seat, action]


def hand_record(
    hands: dict[int, str],
    actions: list[list[Any]],
    draws: str = "",
    tail: dict[int, str] | None = None,
    *,
    dealer: int = 0,
    rules: Rules | None = None,
    result: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A hand log line (see docs/engine.md) with an explicit wall."""
    rules = rules or Rules()
    return {
        "rules": rules.to_json(),
        "dealer": dealer,
        "wall": ring(hands, draws, tail, dealer=dealer, rules=rules),
        "dice": list(DICE),
        "actions": actions,
        "result": result,
    }


def play(record: dict[str, Any]) -> HandState:
    """Replay a record (after a JSON round trip, as a log file would carry it)."""
    record = json.loads(json.dumps(record))
    state = replay(
        Rules.from_json(record["rules"]),
        [parse_tile(t) for t in record["wall"]],
        (record["dice"][0], record["dice"][1], record["dice"][2], record["dice"][3]),
        record["actions"],
        dealer=record["dealer"],
    )
    if state.result is not None:
        # The replay tool agrees: the record with this result replays identically.
        assert check_record({**record, "result": state.result}) == []
    return state


def expect(state: HandState, **fields: Any) -> None:
    """Compare the named result fields; transfers as a sorted list of tuples."""
    result = state.result
    assert result is not None, "the hand has not ended"
    for name, want in fields.items():
        got = result[name]
        if name == "transfers":
            got = sorted((t["payer"], t["payee"], t["points"], t["reason"]) for t in got)
            want = sorted(want)
        assert got == want, f"result[{name!r}]: expected {want!r}, got {got!r}"


def play_out_discarding(state: HandState) -> list[list[Any]]:
    """Every seat passes every claim and discards the tile it drew (or its last tile) until
    the hand ends; the log entries that took."""
    log: list[list[Any]] = []
    while state.phase != "ended":
        seat = waiting_on(state)[0]
        legal = legal_actions(state, seat)
        passes = [a for a in legal if a.type == "pass"]
        if passes:
            action = passes[0]
        else:
            tile = state.drawn if state.drawn is not None else state.hands[seat][-1]
            action = Action("discard", tile=tile)
        state, _ = apply(state, seat, action)
        log.append([seat, action.to_json()])
    return log


# ---------------------------------------------------------------- deals several modules play

QUIET_2 = "2z2z3z3m6m9m1p4p7p2s5s9s4z"
QUIET_3 = "2m5m8m3p6p9p4s7s6z4z3s6m9m"
"""Hands for seats 2 and 3 of several scripts: nobody can claim the scripted discards from them."""
SEAT_2 = "4m5m7m1p2p3p4s5s6s6z6z7p8p"
SEAT_3 = "5m6m7m8m2p3p5p6p6s8m2s3s9s"
"""Seats 2 and 3 of :data:`ANGANG_DEALER`: they win on none of the dealer's tiles."""

ANGANG_DEALER = {
    0: "9p9p9p9p1s2s3s7s8s9s1z1z1z2z",  # 暗杠 9p, then waits on 2z
    1: "1m2m3m4p5p6p7s8s9s3z3z4z4z",  # waits on 3z or 4z
    2: SEAT_2,
    3: SEAT_3,
}
TAIL_TILES = {TAIL - 1: "2z", TAIL: "9m"}
"""The tail stack: upper tile 2z, lower 9m."""
ANGANG_THEN_DRAW = [act(0, "gang", "9p", gang="angang"), act(0, "discard", "9m")]
"""With :data:`ANGANG_DEALER` and :data:`TAIL_TILES`: seat 0 暗杠s 9p, burns the tail's upper
2z, discards the replacement 9m; seat 1 draws 3z and may 胡 (平胡, 4)."""

BAO_HANDS = {
    0: "5z1m4m7m2p5p8p1s3s6s4z6z2m6m",  # flies its 宝 first
    1: "1m2m3m4p5p6p7s8s9s1z1z2z2z",  # wins on its first draw: 地胡
    2: "5z5z3z3m6m9m1p4p7p2s5s9s4z",  # could 碰 the flown 宝 as 5z
    3: QUIET_3,
}

ROBBED_BY_TWO = {
    0: ANGANG_DEALER[0],  # 暗杠 9p on the first turn
    1: "1m2m3m4p5p6p7s8s9s3z3z7p8p",  # waits on 6p or 9p
    2: SEAT_2,  # wins on nothing
    3: "2m3m4m5m6m7m2p3p4p4z4z7p8p",  # waits on 6p or 9p
}
"""Both of the dealer's 下家 and 上家 may rob its 暗杠 of 9p (平胡 4 x 抢杠 6 = 24)."""
ROB_ACTIONS = [act(0, "gang", "9p", gang="angang"), act(1, "hu"), act(3, "hu")]

HEAVENLY = {0: "1m2m3m4p5p6p7s8s9s1z1z1z2z2z", 1: ANGANG_DEALER[1], 2: SEAT_2, 3: SEAT_3}
"""The dealer's 14 tiles are complete: 天胡."""
