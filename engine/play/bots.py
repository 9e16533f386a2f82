"""Bots that play a seat: ``random`` (any legal action) and ``basic`` (plays to win).

A bot sees only what the seat's player sees: it is given :func:`engine.views.seat_info`
(the same information as the JSON :func:`engine.views.seat_view`), never the state itself,
so a bot on 托管 can't cheat for the player it stands in for.

>>> import random
>>> from engine.hand import new_hand, waiting_on
>>> from engine.rules import Rules
>>> from engine.views import seat_info
>>> state = new_hand(Rules(), dealer=0, seed=7)
>>> info = seat_info(state, waiting_on(state)[0])
>>> choose_action("basic", info, random.Random(1)).type in ("discard", "gang", "hu")
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache

from engine.actions import Action
from engine.judging.judge import HandError, WinContext, judge
from engine.judging.memo import remembered
from engine.judging.shanten import discard_distances, distance, draw_distances
from engine.melds import Meld, all_terminal
from engine.rules import Rules
from engine.tiles import KIND_COUNT, TERMINAL_OR_HONOR, bao_of, is_honor, wild_counts
from engine.views import SeatInfo, unseen

__all__ = ["BOT_KINDS", "choose_action"]

Bot = Callable[[SeatInfo, random.Random], Action]


def random_bot(info: SeatInfo, rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return rng.choice(info.legal)


class _Seat:
    """The basic bot's reading of one seat's view."""

    def __init__(self, view: SeatInfo) -> None:
        assert view.seat is not None
        self.view = view
        self.rules = view.rules
        self.hand = list(view.hand)
        self.bao = view.bao
        self.indicator = view.indicator
        self.melds = [m for m in view.melds[view.seat] if m is not None]
        self.terminal_melds = all_terminal(self.melds)
        self.flown = view.flown[view.seat]
        self.legal = list(view.legal)
        self.unseen = unseen(view)

    def split(self, tiles: Sequence[int]) -> tuple[list[int], int]:
        """Natural counts and the number of 宝 (wild) among ``tiles``."""
        return wild_counts(tiles, self.bao)

    def distance(self, tiles: Sequence[int], extra_melds: int = 0) -> int:
        counts, wilds = self.split(tiles)
        return distance(
            counts, wilds, len(self.melds) + extra_melds, melds_terminal=self.terminal_melds
        )

    def after_discards(self, tiles: Sequence[int], extra_melds: int = 0) -> dict[int, int]:
        """Distance after discarding each held kind (the 宝 kind: one wild less)."""
        counts, wilds = self.split(tiles)
        melds = len(self.melds) + extra_melds
        out = discard_distances(counts, wilds, melds, melds_terminal=self.terminal_melds)
        if wilds:
            out[self.bao] = distance(counts, wilds - 1, melds, melds_terminal=self.terminal_melds)
        return out

    def after_draws(self, tiles: Sequence[int], current: int) -> list[int]:
        """Distance after drawing each kind, for ``tiles`` at distance ``current``."""
        counts, wilds = self.split(tiles)
        melds = len(self.melds)
        out = draw_distances(counts, wilds, melds, melds_terminal=self.terminal_melds)
        # A drawn 宝 is one wild more; a wild keeps no real tile, it only fills: one step.
        out[self.bao] = current - 1
        return out

    def acceptance(self, tiles: list[int], current: int) -> int:
        """Unseen tiles that would bring ``tiles`` (13 after a discard) closer to a win."""
        after = self.after_draws(tiles, current)
        return sum(n for kind, n in enumerate(self.unseen) if n and after[kind] < current)

    def winnable_waits(self, tiles: list[int], flown: int) -> int:
        """How many unseen tiles would give a declarable win after this discard."""
        key = tuple(sorted(tiles))
        melds = tuple(self.melds)
        return sum(
            self.unseen[kind]
            for kind in _shape_waits(key, melds, self.indicator)
            # a kind with none left unseen adds nothing: no need to judge it
            if self.unseen[kind] and _wins(key, melds, self.indicator, self.rules, flown, kind)
        )


@remembered
@lru_cache(maxsize=1 << 12)
def _shape_waits(
    tiles: tuple[int, ...], melds: tuple[Meld, ...], indicator: int
) -> tuple[int, ...]:
    """The kinds that complete a shape if drawn (every 宝 wild), for a tenpai hand."""
    bao = bao_of(indicator)
    counts, wilds = wild_counts(tiles, bao)
    after = draw_distances(counts, wilds, len(melds), melds_terminal=all_terminal(melds))
    after[bao] = -1  # tenpai plus a wild is complete
    return tuple(kind for kind in range(KIND_COUNT) if after[kind] < 0)


@remembered
@lru_cache(maxsize=1 << 14)
def _wins(
    tiles: tuple[int, ...],
    melds: tuple[Meld, ...],
    indicator: int,
    rules: Rules,
    flown: int,
    kind: int,
) -> bool:
    """Would drawing ``kind`` give a declarable win (the judge knows the minimum score, 飞宝)?

    Cached: a waiting hand that draws and throws a useless tile asks the same question again.
    """
    try:
        context = WinContext(flown_bao=flown)
        return judge([*tiles, kind], melds, kind, indicator, context, rules).win
    except HandError:
        return False  # a fifth copy can't be drawn


def _isolation(kind: int, tiles: Sequence[int]) -> int:
    """How little a tile works with the rest: higher is a better discard."""
    if is_honor(kind):
        return 3 if tiles.count(kind) == 1 else 0
    near = sum(1 for t in tiles if t != kind and t // 9 == kind // 9 and abs(t - kind) <= 2)
    edge = 1 if TERMINAL_OR_HONOR[kind] else 0  # honours returned above: a 1 or a 9
    return (2 - min(near, 2)) + edge - (tiles.count(kind) - 1) * 2


def _without(tiles: Sequence[int], kind: int) -> list[int]:
    rest = list(tiles)
    rest.remove(kind)
    return rest


def _best_discard(me: _Seat, discards: list[Action]) -> tuple[Action, int]:
    """The discard leaving the hand closest to a win, ties broken by acceptance.

    A 宝 is kept (it is wild) unless flying it is what makes a too-small 平胡 declarable.
    """
    after = me.after_discards(me.hand)
    best = min(after[a.tile] for a in discards if a.tile is not None)
    tied: list[tuple[int, int, Action]] = []
    for action in discards:
        assert action.tile is not None
        if after[action.tile] == best:
            tied.append((best, _isolation(action.tile, me.hand), action))
    non_bao = [entry for entry in tied if entry[2].tile != me.bao] or tied
    if best == 0:
        return _best_wait(me, tied), best
    if best <= 1 and len(non_bao) > 1:

        def accepted(entry: tuple[int, int, Action]) -> int:
            assert entry[2].tile is not None
            return me.acceptance(_without(me.hand, entry[2].tile), best)

        choice = max(non_bao, key=lambda e: (accepted(e), e[1]))
        return choice[2], best
    return max(non_bao, key=lambda e: e[1])[2], best


def _best_wait(me: _Seat, tied: list[tuple[int, int, Action]]) -> Action:
    """Of the discards that stay tenpai, the one with the most declarable waits (unseen tiles
    that win if drawn), then keeping the 宝, then the most isolated tile, then the first.

    The judge knows the minimum-score rule and 飞宝 but is slow, so it is asked lazily: each
    candidate's count lies between the waits judged winning so far and that plus the unjudged
    shape waits. The candidate with the best upper bound is refined one judged kind at a time
    until its lower bound beats every other upper bound. The choice is the one judging every
    wait of every candidate would make.
    """
    if len(tied) == 1:
        return tied[0][2]
    melds = tuple(me.melds)
    cands = []
    for index, (_, isolation, action) in enumerate(tied):
        tile = action.tile
        assert tile is not None
        rest = tuple(sorted(_without(me.hand, tile)))
        # most unseen last: popped first, they settle the count soonest
        kinds = sorted(
            (k for k in _shape_waits(rest, melds, me.indicator) if me.unseen[k]),
            key=lambda k: me.unseen[k],
        )
        flown = me.flown + (1 if tile == me.bao else 0)
        tie = (tile != me.bao, isolation, -index)
        cands.append(_Waits(rest, flown, kinds, sum(me.unseen[k] for k in kinds), tie, action))
    while True:
        cands.sort(key=lambda c: (c.high, c.tie), reverse=True)
        top = cands[0]
        rivals = [(c.high, c.tie) for c in cands[1:]]
        if not rivals or (top.low, top.tie) > max(rivals):
            return top.action
        kind = top.kinds.pop()
        if _wins(top.rest, melds, me.indicator, me.rules, top.flown, kind):
            top.low += me.unseen[kind]
        else:
            top.high -= me.unseen[kind]


class _Waits:
    """One tenpai discard's declarable waits, known between ``low`` and ``high``."""

    def __init__(
        self,
        rest: tuple[int, ...],
        flown: int,
        kinds: list[int],
        high: int,
        tie: tuple[bool, int, int],
        action: Action,
    ) -> None:
        self.rest = rest
        self.flown = flown
        self.kinds = kinds
        """Shape waits with tiles unseen, not judged yet."""
        self.low = 0
        self.high = high
        self.tie = tie
        self.action = action


def _claim_gain(me: _Seat, action: Action) -> bool:
    """Does this claim bring the hand closer to a win than passing?"""
    now = me.distance(me.hand)
    rest = list(me.hand)
    for kind in action.tiles or _claimed_tiles(action, me.hand):
        rest.remove(kind)
    if action.type == "gang":
        return me.distance(rest, extra_melds=1) <= now
    return min(me.after_discards(rest, extra_melds=1).values()) < now


def _claimed_tiles(action: Action, hand: Sequence[int]) -> tuple[int, ...]:
    """The tiles a 碰/明杠 takes from the hand: two or three of the claimed kind."""
    assert action.tile is not None
    need = 2 if action.type == "peng" else 3
    return (action.tile,) * min(need, hand.count(action.tile))


def basic_bot(info: SeatInfo, rng: random.Random) -> Action:
    """Plays to win: takes every legal win, keeps 宝, discards by distance and acceptance,
    claims only when it helps, gangs when it costs nothing."""
    me = _Seat(info)
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


def choose_action(kind: str, info: SeatInfo, rng: random.Random) -> Action:
    """The action bot ``kind`` takes for ``info``'s seat now, from that seat's view; raises
    ``ValueError`` for an unknown kind or a seat that is not asked to act."""
    try:
        bot = BOT_KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}; choose one of {', '.join(BOT_KINDS)}") from None
    if info.seat is None or not info.legal:
        raise ValueError(f"seat {info.seat!r} has nothing to choose: it is not asked to act")
    return bot(info, rng)
