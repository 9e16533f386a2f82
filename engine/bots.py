"""Bots that play a seat: ``random`` (any legal action) and ``basic`` (plays to win).

A bot sees only what the seat's player sees: it decides from :func:`engine.hand.seat_view`,
never from the state itself, so a bot on 托管 can't cheat for the player it stands in for.

>>> import random
>>> from engine.hand import new_hand, waiting_on
>>> from engine.rules import Rules
>>> state = new_hand(Rules(), dealer=0, seed=7)
>>> seat = waiting_on(state)[0]
>>> choose_action("basic", state, seat, random.Random(1)).type in ("discard", "gang", "hu")
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.actions import Action
from engine.hand import HandState, legal_actions, seat_view
from engine.judge import WinContext, winning_tiles
from engine.melds import Meld
from engine.shanten import distance
from engine.tiles import KIND_COUNT, is_honor, parse_tile, parse_tiles

__all__ = ["BOT_KINDS", "choose_action"]

Bot = Callable[[HandState, int, random.Random], Action]


def random_bot(state: HandState, seat: int, rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return rng.choice(legal_actions(state, seat))


class _Seat:
    """The basic bot's reading of one seat's view."""

    def __init__(self, state: HandState, seat: int) -> None:
        view = seat_view(state, seat)
        self.view = view
        self.rules = state.rules
        self.hand = parse_tiles(view["hand"])
        self.bao = parse_tile(view["bao"])
        self.indicator = parse_tile(view["indicator"])
        self.melds = [Meld.from_json(m) for m in view["melds"][seat]]
        self.flown = int(view["flown"][seat])
        self.legal = [Action.from_json(a) for a in view["legal"]]
        seen = [0] * KIND_COUNT
        for kind in self.hand:
            seen[kind] += 1
        for river in view["rivers"]:
            for text in river:
                seen[parse_tile(text)] += 1
        for row in view["melds"]:
            for m in row:
                if m["tiles"]:
                    for kind in parse_tiles(m["tiles"]):
                        seen[kind] += 1
        seen[self.indicator] += 1
        self.unseen = [max(0, 4 - n) for n in seen]

    def distance(self, tiles: Sequence[int], extra_melds: int = 0) -> int:
        counts = [0] * KIND_COUNT
        wilds = 0
        for kind in tiles:
            if kind == self.bao:
                wilds += 1
            else:
                counts[kind] += 1
        return distance(counts, wilds, len(self.melds) + extra_melds)

    def acceptance(self, tiles: list[int], current: int) -> int:
        """Unseen tiles that would bring ``tiles`` (13 after a discard) closer to a win."""
        total = 0
        for kind in range(KIND_COUNT):
            if self.unseen[kind] and self.distance([*tiles, kind]) < current:
                total += self.unseen[kind]
        return total

    def winnable_waits(self, tiles: list[int], flown: int) -> int:
        """How many unseen tiles would give a declarable win after this discard."""
        waits = winning_tiles(
            tiles, self.melds, self.indicator, self.rules, WinContext(flown_bao=flown)
        )
        return sum(self.unseen[kind] for kind, _ in waits)


def _isolation(kind: int, tiles: Sequence[int]) -> int:
    """How little a tile works with the rest: higher is a better discard."""
    if is_honor(kind):
        return 3 if tiles.count(kind) == 1 else 0
    near = sum(1 for t in tiles if t != kind and t // 9 == kind // 9 and abs(t - kind) <= 2)
    edge = 1 if kind % 9 in (0, 8) else 0
    return (2 - min(near, 2)) + edge - (tiles.count(kind) - 1) * 2


def _best_discard(me: _Seat, discards: list[Action]) -> tuple[Action, int]:
    """The discard leaving the hand closest to a win, ties broken by acceptance.

    A 宝 is kept (it is wild) unless flying it is what makes a too-small 平胡 declarable.
    """
    scored: list[tuple[int, int, Action, list[int]]] = []
    for action in discards:
        assert action.tile is not None
        rest = list(me.hand)
        rest.remove(action.tile)
        scored.append((me.distance(rest), _isolation(action.tile, me.hand), action, rest))
    best = min(d for d, _, _, _ in scored)
    tied = [entry for entry in scored if entry[0] == best]
    non_bao = [entry for entry in tied if entry[2].tile != me.bao] or tied
    if best == 0:
        # Tenpai: judge the real waits, which knows the minimum-score rule and 飞宝.
        def waits(entry: tuple[int, int, Action, list[int]]) -> int:
            flies = 1 if entry[2].tile == me.bao else 0
            return me.winnable_waits(entry[3], me.flown + flies)

        choice = max(tied, key=lambda e: (waits(e), e[2].tile != me.bao, e[1]))
        return choice[2], best
    if best <= 1 and len(non_bao) > 1:
        choice = max(non_bao, key=lambda e: (me.acceptance(e[3], best), e[1]))
        return choice[2], best
    return max(non_bao, key=lambda e: e[1])[2], best


def _claim_gain(me: _Seat, action: Action) -> bool:
    """Does this claim bring the hand closer to a win than passing?"""
    now = me.distance(me.hand)
    rest = list(me.hand)
    for kind in action.tiles or _claimed_tiles(action, me.hand):
        rest.remove(kind)
    if action.type == "gang":
        return me.distance(rest, extra_melds=1) <= now
    after = min(
        me.distance([t for j, t in enumerate(rest) if j != i], extra_melds=1)
        for i in range(len(rest))
    )
    return after < now


def _claimed_tiles(action: Action, hand: Sequence[int]) -> tuple[int, ...]:
    """The tiles a 碰/明杠 takes from the hand: two or three of the claimed kind."""
    assert action.tile is not None
    need = 2 if action.type == "peng" else 3
    return (action.tile,) * min(need, hand.count(action.tile))


def basic_bot(state: HandState, seat: int, rng: random.Random) -> Action:
    """Plays to win: takes every legal win, keeps 宝, discards by distance and acceptance,
    claims only when it helps, gangs when it costs nothing."""
    me = _Seat(state, seat)
    by_type: dict[str, list[Action]] = {}
    for action in me.legal:
        by_type.setdefault(action.type, []).append(action)
    if "hu" in by_type:
        return by_type["hu"][0]
    discards = by_type.get("discard", [])
    if discards:
        for gang in by_type.get("gang", []):
            if gang.gang in ("angang", "bugang", "liangbao"):
                return gang
        return _best_discard(me, discards)[0]
    for kind in ("gang", "peng", "chi"):
        for claim in by_type.get(kind, []):
            if _claim_gain(me, claim):
                return claim
    if "pass" in by_type:
        return by_type["pass"][0]
    return rng.choice(me.legal)


BOT_KINDS: dict[str, Bot] = {"random": random_bot, "basic": basic_bot}


def choose_action(kind: str, state: HandState, seat: int, rng: random.Random) -> Action:
    """The action bot ``kind`` takes for ``seat`` now; raises ``ValueError`` for an unknown kind."""
    try:
        bot = BOT_KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}; choose one of {', '.join(BOT_KINDS)}") from None
    return bot(state, seat, rng)
