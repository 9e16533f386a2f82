"""One hand of Shangrao mahjong as a pure state machine (§3-§5, §8).

The server drives it: :func:`new_hand`, then ask :func:`waiting_on` who must act,
offer :func:`legal_actions`, feed answers to :func:`apply` (which returns a new state
and the events, for the server only), and show each player :func:`engine.views.seat_view`. Draws are
automatic: they happen inside :func:`apply` when a turn passes. Replays of a logged hand live
in :mod:`engine.replay`.

>>> from engine.rules import Rules
>>> s = new_hand(Rules(), dealer=0, seed=1)
>>> waiting_on(s)
[0]
>>> len(s.hands[0]), len(s.hands[1])
(14, 13)
>>> s.phase, s.wall.live_count()
('turn', 82)
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action
from engine.judge import WinContext
from engine.melds import Meld
from engine.rules import Rules
from engine.settlement import flyer_extra, gang_payments, self_draw_payments, transfer
from engine.tiles import KIND_COUNT, bao_of, format_tile, format_tiles, is_honor, parse_tile
from engine.wall import Wall
from engine.win_check import WinCheck, judged

__all__ = [
    "HandState",
    "IllegalAction",
    "abandon",
    "apply",
    "legal_actions",
    "new_hand",
    "waiting_on",
]


_BAO_OF = [bao_of(k) for k in range(KIND_COUNT)]


class IllegalAction(ValueError):
    """An action that is out of turn, not legal now, or stale; the state is unchanged."""


@dataclass
class HandState:
    """Everything about one hand. Seats are 0-3 in turn order (下家 of ``s`` is ``s+1``)."""

    rules: Rules
    dealer: int
    wall: Wall
    hands: list[list[int]]
    melds: list[list[Meld]] = field(default_factory=lambda: [[], [], [], []])
    rivers: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    flown: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    phase: str = "turn"
    """``turn`` (the turn seat acts), ``claim`` (discard window), ``rob`` (抢杠), ``ended``."""
    turn: int = 0
    drawn: int | None = None
    """The tile the turn player just drew (None after a claim and on the dealer's first turn)."""
    after_claim: bool = False
    gang_draws: int = 0
    """Replacement draws in a row in this turn (杠开 chain length)."""
    draws: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    any_discard: bool = False
    any_meld: bool = False
    last_drawer: int = 0
    pending: dict[str, Any] | None = None
    """Open window: kind, from, tile, eligible seats, answers (JSON-safe)."""
    log: list[list[Any]] = field(default_factory=list)
    """``[seat, action_json]`` in order: enough for :func:`engine.replay.replay`."""
    step: int = 0
    result: dict[str, Any] | None = None

    @property
    def seed(self) -> int | str | None:
        """The shuffle seed (a fresh one is generated and kept when none was given)."""
        return self.wall.seed

    @property
    def indicator(self) -> int:
        pos = self.wall.indicator_pos
        assert pos is not None
        return self.wall.tiles[pos]

    @property
    def bao(self) -> int:
        return _BAO_OF[self.indicator]  # asked several times per action: a table, not a call

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "dealer": self.dealer,
            "wall": self.wall.to_json(),
            "hands": [list(h) for h in self.hands],
            "melds": [[m.to_json() for m in ms] for ms in self.melds],
            "rivers": [list(r) for r in self.rivers],
            "flown": list(self.flown),
            "phase": self.phase,
            "turn": self.turn,
            "drawn": self.drawn,
            "after_claim": self.after_claim,
            "gang_draws": self.gang_draws,
            "draws": list(self.draws),
            "any_discard": self.any_discard,
            "any_meld": self.any_meld,
            "last_drawer": self.last_drawer,
            "pending": copy.deepcopy(self.pending),
            "log": copy.deepcopy(self.log),
            "step": self.step,
            "result": copy.deepcopy(self.result),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> HandState:
        return cls(
            rules=Rules.from_json(d["rules"]),
            dealer=d["dealer"],
            wall=Wall.from_json(d["wall"]),
            hands=[list(h) for h in d["hands"]],
            melds=[[Meld.from_json(m) for m in ms] for ms in d["melds"]],
            rivers=[list(r) for r in d["rivers"]],
            flown=list(d["flown"]),
            phase=d["phase"],
            turn=d["turn"],
            drawn=d["drawn"],
            after_claim=d["after_claim"],
            gang_draws=d["gang_draws"],
            draws=list(d["draws"]),
            any_discard=d["any_discard"],
            any_meld=d["any_meld"],
            last_drawer=d["last_drawer"],
            pending=copy.deepcopy(d["pending"]),
            log=copy.deepcopy(d["log"]),
            step=d["step"],
            result=copy.deepcopy(d["result"]),
        )


# ---------------------------------------------------------------- setup


def new_hand(
    rules: Rules,
    dealer: int,
    seed: int | str | None = None,
    *,
    wall: list[int] | None = None,
    dice: tuple[int, int, int, int] | None = None,
) -> HandState:
    """Shuffle (or take the explicit ring ``wall``), break, deal and turn up the indicator.

    ``dice`` = break pair + 宝 pair; drawn from the seed when not given.
    """
    if dealer not in range(4):
        raise ValueError(f"dealer is a seat 0-3, got {dealer!r}")
    w = Wall.build(rules, seed, ring=wall, dice=dice)
    hands: list[list[int]] = [[], [], [], []]
    order = [(dealer + i) % 4 for i in range(4)]
    for _ in range(3):
        for s in order:
            hands[s].extend(w.draw() for _ in range(4))
    for s in order:
        hands[s].append(w.draw())
    hands[dealer].append(w.draw())
    for h in hands:
        h.sort()
    w.set_indicator()
    return HandState(rules=rules, dealer=dealer, wall=w, hands=hands, turn=dealer)


# ---------------------------------------------------------------- queries


def _count(hand: list[int], kind: int) -> int:
    return hand.count(kind)


def _can_replace(state: HandState) -> bool:
    # A 4-tile gang needs a replacement draw; none may be declared on an empty wall.
    return state.wall.live_count() > 0


def _self_draw_check(state: HandState, seat: int) -> WinCheck | None:
    hand = state.hands[seat]
    if state.after_claim or len(hand) % 3 != 2:
        return None
    heavenly = seat == state.dealer and state.draws[seat] == 0 and not state.any_discard
    earthly = (
        seat != state.dealer
        and state.draws[seat] == 1
        and not state.any_meld
        and state.gang_draws == 0
    )
    # After a 亮宝杠 the drawn tile may have gone into the meld, and a dealer's first 14 were
    # dealt, not drawn: judge the hand as it stands, with no drawn tile to make a 宝吊.
    drawn = state.drawn
    held = drawn is not None and drawn in hand
    tile = drawn if drawn is not None and held else hand[-1]
    return judged(
        hand,
        state.melds[seat],
        tile,
        state.indicator,
        state.rules,
        WinContext(
            win_by="self_draw",
            gang_draws=state.gang_draws,
            flown_bao=state.flown[seat],
            heavenly=heavenly and not state.any_meld,
            earthly=earthly,
            drawn_held=held,
        ),
    )


def _turn_actions(state: HandState, seat: int) -> list[Action]:
    hand = state.hands[seat]
    acts: list[Action] = []
    if not state.after_claim:
        check = _self_draw_check(state, seat)
        if check is not None and check.win:
            acts.append(Action("hu", tile=state.drawn))
        if _can_replace(state):
            fours = sorted({k for k in hand if hand.count(k) == 4}) if len(hand) >= 4 else []
            acts.extend(Action("gang", tile=k, gang="angang") for k in fours)
            for m in state.melds[seat]:
                k = m.tiles[0]
                if m.kind != "peng" or k not in hand:
                    continue
                if state.rules.bugang_any_time or state.drawn == k:
                    acts.append(Action("gang", tile=k, gang="bugang"))
        ind = state.indicator
        if _count(hand, ind) == 3:
            acts.append(Action("gang", tile=ind, gang="liangbao"))
    acts.extend(_DISCARDS[k] for k in sorted(set(hand)))
    return acts


_DISCARDS = [Action("discard", tile=k) for k in range(KIND_COUNT)]
"""Actions are immutable; these are asked for on every turn."""


def _claim_options(state: HandState, seat: int, frm: int, tile: int) -> list[Action]:
    if seat == frm:
        return []
    hand = state.hands[seat]
    n = hand.count(tile)
    downstream = seat == (frm + 1) % 4
    if n < 2 and not downstream:
        return []  # the common case, asked three times per discard: nothing to claim
    if tile == state.bao and not state.rules.bao_discard_claimable:
        return []
    acts: list[Action] = []
    if n >= 2:
        acts.append(Action("peng", tile=tile))
    if n >= 3 and _can_replace(state):
        acts.append(Action("gang", tile=tile, gang="minggang"))
    if downstream and not is_honor(tile):
        r = tile % 9
        for lo in (tile - 2, tile - 1, tile):
            if lo // 9 != tile // 9 or lo % 9 > 6 or lo % 9 > r or lo < 0:
                continue
            need = tuple(k for k in (lo, lo + 1, lo + 2) if k != tile)
            if all(k in hand for k in need):
                acts.append(Action("chi", tile=tile, tiles=need))
    return acts


def waiting_on(state: HandState) -> list[int]:
    """Seats that must answer now (empty once the hand has ended)."""
    if state.phase == "ended":
        return []
    if state.phase == "turn":
        return [state.turn]
    assert state.pending is not None
    answers = state.pending["answers"]
    return [s for s in state.pending["eligible"] if answers[s] is None]


def legal_actions(state: HandState, seat: int) -> list[Action]:
    """What ``seat`` may do now (empty when it is not asked)."""
    if seat not in waiting_on(state):
        return []
    if state.phase == "turn":
        return _turn_actions(state, seat)
    assert state.pending is not None
    if state.phase == "claim":
        opts = _claim_options(state, seat, state.pending["from"], state.pending["tile"])
        return [*opts, Action("pass")]
    # 抢杠 window: eligible seats were checked for a win when it opened.
    return [Action("hu", tile=state.pending["tile"]), Action("pass")]


# ---------------------------------------------------------------- transitions


def _match(legal: list[Action], action: Action) -> Action | None:
    for a in legal:
        if a.type != action.type:
            continue
        if a.type in ("hu", "pass"):
            return a
        if (
            a.tile == action.tile
            and a.gang == action.gang
            and a.tiles == tuple(sorted(action.tiles))
        ):
            return a
    return None


def apply(
    state: HandState, seat: int, action: Action, *, step: int | None = None
) -> tuple[HandState, list[dict[str, Any]]]:
    """Apply one action; returns a new state and the events. The input is never changed;
    :class:`IllegalAction` is raised for anything not legal right now.

    The events are for the server (logs, tests), not for players: a window's event names
    the seats asked, which tells what they hold. Players get :func:`engine.views.seat_view`.

    ``step``: the ``state.step`` the client acted on; a different one means the action
    was chosen on an older view (stale) and is refused even if it happens to be legal.
    """
    if not isinstance(action, Action):
        raise IllegalAction(f"expected an Action, got {type(action).__name__}")
    if step is not None and step != state.step:
        raise IllegalAction(f"stale action: made at step {step}, the hand is at {state.step}")
    if state.phase == "ended":
        raise IllegalAction("the hand is over")
    if seat not in range(4):
        raise IllegalAction(f"no seat {seat!r}")
    if seat not in waiting_on(state):
        raise IllegalAction(f"seat {seat} is not asked to act now")
    chosen = _plainly_legal(state, seat, action) or _match(legal_actions(state, seat), action)
    if chosen is None:
        raise IllegalAction(f"{_describe(action)} is not legal for seat {seat} now")
    s = _copy(state)
    s.log.append([seat, chosen.to_json()])
    s.step += 1
    events: list[dict[str, Any]] = []
    if s.phase == "turn":
        _apply_turn(s, seat, chosen, events)
    else:
        assert s.pending is not None
        s.pending["answers"][seat] = chosen.to_json()
        events.append({"type": "answered", "seat": seat})
        if not waiting_on(s):
            if s.phase == "claim":
                _close_claim(s, events)
            else:
                _close_rob(s, events)
    return s, events


def abandon(state: HandState) -> HandState:
    """The hand ended where it stands as a draw in which nobody pays (not even for gangs):
    what a referee does with a hand that cannot go on. The dealer passes as after a draw.

    >>> from engine.rules import Rules
    >>> s = abandon(new_hand(Rules(), dealer=1, seed="doc"))
    >>> s.phase, s.result["outcome"], s.result["totals"], s.result["transfers"]
    ('ended', 'draw', [0, 0, 0, 0], [])
    """
    if state.phase == "ended":
        raise IllegalAction("the hand is over")
    s = _copy(state)
    _end(s, [], win_by="draw", tile=None, robbed=None, events=[], gangs=[])
    return s


def _copy(state: HandState) -> HandState:
    """A copy that ``apply`` may change freely: every list it mutates is new.

    Much cheaper than ``copy.deepcopy``: the rules and melds are immutable, the wall's ring and
    draw order are never written after the deal, and log entries are never changed once logged.
    """
    pending = state.pending
    if pending is not None:
        pending = dict(pending)
        pending["eligible"] = list(pending["eligible"])
        pending["answers"] = list(pending["answers"])
    w = state.wall
    wall = Wall(
        seed=w.seed,
        ring=w.ring,
        dice=w.dice,
        tiles=w.tiles,
        gone=list(w.gone),
        indicator_pos=w.indicator_pos,
        burned=list(w.burned),
    )
    return HandState(
        rules=state.rules,
        dealer=state.dealer,
        wall=wall,
        hands=[list(h) for h in state.hands],
        melds=[list(m) for m in state.melds],
        rivers=[list(r) for r in state.rivers],
        flown=list(state.flown),
        phase=state.phase,
        turn=state.turn,
        drawn=state.drawn,
        after_claim=state.after_claim,
        gang_draws=state.gang_draws,
        draws=list(state.draws),
        any_discard=state.any_discard,
        any_meld=state.any_meld,
        last_drawer=state.last_drawer,
        pending=pending,
        log=list(state.log),
        step=state.step,
        result=None if state.result is None else copy.deepcopy(state.result),
    )


def _plainly_legal(state: HandState, seat: int, action: Action) -> Action | None:
    """The legal action ``action`` stands for when that is plain without listing them all:
    a discard of a held tile on one's turn, a pass when asked. ``seat`` is asked to act.

    Most actions are one of these, and listing the turn's actions means judging the hand.
    """
    if action.tiles or action.gang is not None:
        return None
    if action.type == "discard" and state.phase == "turn":
        tile = action.tile
        if tile is not None and 0 <= tile < KIND_COUNT and tile in state.hands[seat]:
            return _DISCARDS[tile]
    elif action.type == "pass" and state.phase in ("claim", "rob"):
        return _PASS
    return None


_PASS = Action("pass")


def _describe(action: Action) -> str:
    text = action.type
    if action.gang:
        text += f" ({action.gang})"
    if action.tile is not None:
        text += f" {format_tile(action.tile)}"
    return text


def _apply_turn(s: HandState, seat: int, a: Action, events: list[dict[str, Any]]) -> None:
    hand = s.hands[seat]
    if a.type == "hu":
        check = _self_draw_check(s, seat)
        assert check is not None and check.win
        win_tile = s.drawn if s.drawn is not None else hand[-1]
        _end(s, [(seat, check)], win_by="self_draw", tile=win_tile, robbed=None, events=events)
        return
    if a.type == "discard":
        assert a.tile is not None
        hand.remove(a.tile)
        s.rivers[seat].append(a.tile)
        s.any_discard = True
        s.drawn = None
        s.after_claim = False
        s.gang_draws = 0
        ev: dict[str, Any] = {"type": "discard", "seat": seat, "tile": format_tile(a.tile)}
        if a.tile == s.bao:
            s.flown[seat] += 1  # 飞宝: public, doubles this player's own win
            ev["flown_bao"] = True
        events.append(ev)
        _open_claim(s, seat, a.tile, events)
        return
    assert a.type == "gang" and a.tile is not None
    k = a.tile
    if a.gang == "liangbao":
        for _ in range(3):
            hand.remove(k)
        s.melds[seat].append(Meld("liangbao", (k, k, k)))
        s.any_meld = True
        events.append({"type": "gang", "seat": seat, "gang": "liangbao", "tile": format_tile(k)})
        return  # scores only: no replacement, can't be robbed; the player still discards
    _declare_gang(s, seat, k, str(a.gang), None, events)


def _declare_gang(
    s: HandState, seat: int, k: int, kind: str, frm: int | None, events: list[dict[str, Any]]
) -> None:
    ev: dict[str, Any] = {"type": "gang_declared", "seat": seat, "gang": kind}
    if not (kind == "angang" and s.rules.angang_face_down):
        ev["tile"] = format_tile(k)
    events.append(ev)
    robbers: list[int] = []
    if s.rules.qiang_gang:
        for o in ((seat + i) % 4 for i in range(1, 4)):
            if _rob_check(s, o, k).win:
                robbers.append(o)
    s.pending = {
        "kind": "rob",
        "from": seat,
        "tile": k,
        "gang": kind,
        "claimed_from": frm,
        "eligible": robbers,
        "answers": [None, None, None, None],
    }
    s.phase = "rob"
    if not robbers:
        _close_rob(s, events)
    else:
        events.append({"type": "rob_window", "seats": list(robbers)})


def _rob_check(s: HandState, seat: int, k: int) -> WinCheck:
    return judged(
        [*s.hands[seat], k],
        s.melds[seat],
        k,
        s.indicator,
        s.rules,
        WinContext(win_by="rob_gang", flown_bao=s.flown[seat]),
    )


def _open_claim(s: HandState, frm: int, tile: int, events: list[dict[str, Any]]) -> None:
    eligible = [o for o in ((frm + i) % 4 for i in range(1, 4)) if _claim_options(s, o, frm, tile)]
    s.pending = {
        "kind": "claim",
        "from": frm,
        "tile": tile,
        "eligible": eligible,
        "answers": [None, None, None, None],
    }
    s.phase = "claim"
    if eligible:
        events.append({"type": "claim_window", "seats": list(eligible)})
    else:
        _close_claim(s, events)


def _close_claim(s: HandState, events: list[dict[str, Any]]) -> None:
    assert s.pending is not None
    frm, tile = s.pending["from"], s.pending["tile"]
    answers = [None if a is None else Action.from_json(a) for a in s.pending["answers"]]
    s.pending = None
    # 碰/杠 over 吃; only one seat can hold two of the tile, so no tie among them.
    best: tuple[int, Action] | None = None
    for o in ((frm + i) % 4 for i in range(1, 4)):
        a = answers[o]
        if a is None or a.type == "pass":
            continue
        if best is None or (best[1].type == "chi" and a.type != "chi"):
            best = (o, a)
    if best is None:
        _next_draw(s, (frm + 1) % 4, events)
        return
    seat, a = best
    s.rivers[frm].pop()  # the claimed tile leaves the river
    s.any_meld = True
    hand = s.hands[seat]
    if a.type == "gang":
        s.turn = seat
        events.append(
            {"type": "claim", "seat": seat, "claim": "minggang", "tile": format_tile(tile)}
        )
        # The gang lands only when the robbing window closes: a robbed gang never does.
        _declare_gang(s, seat, tile, "minggang", frm, events)
        return
    if a.type == "peng":
        hand.remove(tile)
        hand.remove(tile)
        meld = Meld("peng", (tile, tile, tile), frm)
    else:
        for t in a.tiles:
            hand.remove(t)
        meld = Meld("chi", tuple(sorted((*a.tiles, tile))), frm)
    s.melds[seat].append(meld)
    events.append({"type": "claim", "seat": seat, "claim": a.type, "meld": str(meld)})
    s.turn = seat
    s.phase = "turn"
    s.drawn = None
    s.after_claim = True  # must discard at once, no gang this turn
    s.gang_draws = 0


def _close_rob(s: HandState, events: list[dict[str, Any]]) -> None:
    assert s.pending is not None
    p = s.pending
    seat, k, kind = p["from"], p["tile"], p["gang"]
    robbers = [o for o in p["eligible"] if p["answers"][o] is not None]
    robbers = [o for o in robbers if p["answers"][o]["type"] == "hu"]
    s.pending = None
    if robbers:
        _robbed(s, seat, k, kind, robbers, events)
        return
    hand = s.hands[seat]
    if kind == "minggang":
        for _ in range(3):
            hand.remove(k)
        s.melds[seat].append(Meld("minggang", (k,) * 4, p["claimed_from"]))
    elif kind == "bugang":
        hand.remove(k)
        for i, m in enumerate(s.melds[seat]):
            if m.kind == "peng" and m.tiles[0] == k:
                s.melds[seat][i] = Meld("bugang", (k,) * 4, m.claimed_from)
                break
    else:
        for _ in range(4):
            hand.remove(k)
        s.melds[seat].append(Meld("angang", (k,) * 4))
    s.any_meld = True
    events.append({"type": "gang", "seat": seat, "gang": kind})
    s.phase = "turn"
    s.turn = seat
    s.after_claim = False
    chain = s.gang_draws + 1
    tile = s.wall.replacement(s.rules)
    s.hands[seat].append(tile)
    s.hands[seat].sort()
    s.drawn = tile
    s.gang_draws = chain
    s.last_drawer = seat
    s.draws[seat] += 1
    events.append({"type": "draw", "seat": seat, "replacement": True})


def _robbed(
    s: HandState, seat: int, k: int, kind: str, robbers: list[int], events: list[dict[str, Any]]
) -> None:
    """End the hand on a robbed gang: the one robbed tile leaves the ganger, and each robber
    wins with it.

    For 补杠 the 碰 stays a 碰 and for 暗杠 the ganger keeps the other three; a 明杠's robbed tile
    is the claimed discard, already out of the river. With several robbers (一炮多响) each is
    judged with the tile, but there is only one: it joins the hand of the robber who deals
    next (the first in turn order after the robbed player), so the result's ``hands`` hold
    136 tiles with the rest; the others' hands show their 13 tiles and ``winning_tile`` names
    what they won with.
    """
    checks = [(o, _rob_check(s, o, k)) for o in robbers]
    cancelled: list[int] = []
    if s.rules.rob_settlement == "fan":
        # judged on the robbers' hands before the robbed tile joins one of them
        cancelled = [t for t in _chain_gang_tiles(s, seat) if _robbable(s, robbers, t)]
    if kind != "minggang":
        s.hands[seat].remove(k)
    taker = _first_after(seat, robbers)
    s.hands[taker].append(k)
    s.hands[taker].sort()
    payments = gang_payments(
        s,
        robbed=seat,
        cancelled=cancelled,
        bao_gang_robbed=s.rules.rob_settlement == "fan" and k == s.bao,
    )
    _end(s, checks, win_by="rob_gang", tile=k, robbed=seat, events=events, gangs=payments)


def _first_after(seat: int, seats: Sequence[int]) -> int:
    """The seat of ``seats`` first in turn order after ``seat``."""
    return min(seats, key=lambda o: (o - seat) % 4)


def _chain_gang_tiles(s: HandState, seat: int) -> list[int]:
    """The kinds of the gangs ``seat`` landed earlier in this turn's chain (before the one now
    being robbed), read back from the log: ``gang_draws`` counts them exactly, and between
    them only rob-window answers of other seats and 亮宝杠 (no replacement) are logged."""
    tiles: list[int] = []
    for who, a in reversed(s.log):
        if len(tiles) > s.gang_draws:
            break
        if who == seat and a["type"] == "gang" and a["gang"] != "liangbao":
            tiles.append(parse_tile(a["tile"]))
    return tiles[1 : s.gang_draws + 1]


def _robbable(s: HandState, robbers: list[int], tile: int) -> bool:
    # §9: "unless the robber's hand also wins on their tiles"; any robber's does
    return any(_rob_check(s, o, tile).win for o in robbers)


def _next_draw(s: HandState, seat: int, events: list[dict[str, Any]]) -> None:
    if s.wall.live_count() == 0:
        _end(s, [], win_by="draw", tile=None, robbed=None, events=events)
        return
    tile = s.wall.draw()
    s.hands[seat].append(tile)
    s.hands[seat].sort()
    s.turn = seat
    s.phase = "turn"
    s.drawn = tile
    s.after_claim = False
    s.gang_draws = 0
    s.last_drawer = seat
    s.draws[seat] += 1
    events.append({"type": "draw", "seat": seat})


# ---------------------------------------------------------------- settlement


def _end(
    s: HandState,
    winners: list[tuple[int, WinCheck]],
    *,
    win_by: str,
    tile: int | None,
    robbed: int | None,
    events: list[dict[str, Any]],
    gangs: list[dict[str, Any]] | None = None,
) -> None:
    """Settle and end the hand; ``gangs``: the gang payments when not the plain ones."""
    transfers: list[dict[str, Any]] = []
    for w, check in winners:
        if win_by == "rob_gang":
            assert robbed is not None
            transfers.append(transfer(robbed, w, flyer_extra(s, robbed, check.score), "qiang_gang"))
        else:
            transfers.extend(self_draw_payments(s, w, check.score, flat=check.flat))
    transfers.extend(gang_payments(s) if gangs is None else gangs)
    if winners:
        if robbed is not None:
            next_dealer = _first_after(robbed, [w for w, _ in winners])
        else:
            next_dealer = winners[0][0]
    elif s.rules.draw_dealer == "next_seat":
        next_dealer = (s.dealer + 1) % 4
    else:
        next_dealer = s.last_drawer
    totals = [0, 0, 0, 0]
    for t in transfers:
        totals[t["payer"]] -= t["points"]
        totals[t["payee"]] += t["points"]
    s.result = {
        "outcome": "draw" if not winners else win_by,
        "winners": [w for w, _ in winners],
        "robbed": robbed,
        "winning_tile": None if tile is None else format_tile(tile),
        "judgements": {str(w): copy.deepcopy(c.detail) for w, c in winners},
        "scores": {str(w): c.score for w, c in winners},
        "transfers": transfers,
        "totals": totals,
        "next_dealer": next_dealer,
        "hands": [format_tiles(h) for h in s.hands],
    }
    s.phase = "ended"
    s.pending = None
    events.append({"type": "end", "result": copy.deepcopy(s.result)})
