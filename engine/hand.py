"""One hand's transitions (§3-§5, §8): one idea, the moves of play, each a branch of :func:`apply`.

The state is :class:`engine.state.HandState`; the result is settled by :mod:`engine.outcome`.
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
import dataclasses
from typing import Any

from engine.actions import Action
from engine.judging.judge import WinContext
from engine.judging.win_check import WinCheck, judged
from engine.melds import Meld
from engine.outcome import HandEnd, Outcome, first_after, settle
from engine.rules import Rules
from engine.state import HandState, Window
from engine.tiles import KIND_COUNT, format_tile, is_honor, parse_tile
from engine.wall import Wall

__all__ = [
    "HandState",
    "IllegalAction",
    "abandon",
    "apply",
    "close_window",
    "hu_check",
    "is_stale",
    "legal_actions",
    "new_hand",
    "view_step",
    "waiting_on",
]


class IllegalAction(ValueError):
    """An action that is out of turn, not legal now, or stale; the state is unchanged."""


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
_UNANSWERED: tuple[Action | None, ...] = (None, None, None, None)


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
    window = state.pending
    assert window is not None
    return [s for s in window.eligible if window.answers[s] is None]


def view_step(state: HandState) -> int:
    """The step every seat's view shows, and a move made on that view names: ``state.step``,
    but in a window the step it opened at.

    Each answer in a window is logged and moves ``state.step`` on, but none changes what
    another asked seat may do. So the answers don't move the view's step: an asked seat's
    view stays the same whoever else answers, which keeps secret whether anyone else was
    asked at all, and two seats answering at the same moment are both taken.

    >>> from engine.rules import Rules
    >>> from engine.actions import Action
    >>> s = new_hand(Rules(), dealer=0, seed=1)
    >>> s, _ = apply(s, 0, Action("discard", s.hands[0][0]), hold=True)
    >>> opened = view_step(s)
    >>> for seat in waiting_on(s):
    ...     s, _ = apply(s, seat, Action("pass"), step=opened, hold=True)
    >>> view_step(s) == opened
    True
    """
    window = state.pending
    if window is None:
        return state.step
    return state.step - window.given


def is_stale(state: HandState, step: int) -> bool:
    """Whether a move made on the view of ``step`` was made on an older view than the one
    ``state`` shows (:func:`view_step`; ``state.step`` itself is taken too).

    >>> from engine.rules import Rules
    >>> s = new_hand(Rules(), dealer=0, seed=1)
    >>> is_stale(s, s.step), is_stale(s, s.step - 1)
    (False, True)
    """
    return step not in (state.step, view_step(state))


def legal_actions(state: HandState, seat: int) -> list[Action]:
    """What ``seat`` may do now (empty when it is not asked)."""
    if seat not in waiting_on(state):
        return []
    if state.phase == "turn":
        return _turn_actions(state, seat)
    window = state.pending
    assert window is not None
    if window.kind == "claim":
        opts = _claim_options(state, seat, window.frm, window.tile)
        return [*opts, Action("pass")]
    # 抢杠 window: eligible seats were checked for a win when it opened.
    return [Action("hu", tile=window.tile), Action("pass")]


def hu_check(state: HandState, seat: int) -> WinCheck | None:
    """The judgement a 胡 by ``seat`` now would be settled with; None when 胡 is not legal.

    >>> from engine.rules import Rules
    >>> hu_check(new_hand(Rules(), dealer=0, seed=1), 0) is None  # no win in the deal
    True
    """
    if not any(a.type == "hu" for a in legal_actions(state, seat)):
        return None
    window = state.pending
    if window is None:
        return _self_draw_check(state, seat)
    return _rob_check(state, seat, window.tile)


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
    state: HandState, seat: int, action: Action, *, step: int | None = None, hold: bool = False
) -> tuple[HandState, list[dict[str, Any]]]:
    """Apply one action; returns a new state and the events. The input is never changed;
    :class:`IllegalAction` is raised for anything not legal right now.

    ``hold``: every discard opens a claim window and every gang a 抢杠 window, even when no
    seat may answer, and a window stays open once all have answered, until
    :func:`close_window`. A table that pauses the same after every discard then shows nobody
    whether some seat could claim (the window itself would tell). The log and the outcome
    are the same either way: :func:`engine.replay.replay` plays it without holding.

    The events are for the server (logs, tests), not for players: a window's event names
    the seats asked, which tells what they hold. Players get :func:`engine.views.seat_view`.

    ``step``: the step of the view the client acted on (:func:`view_step`, or
    ``state.step``); another one means the action was chosen on an older view (stale) and is
    refused even if it happens to be legal.
    """
    if not isinstance(action, Action):
        raise IllegalAction(f"expected an Action, got {type(action).__name__}")
    if step is not None and is_stale(state, step):
        raise IllegalAction(f"stale action: made at step {step}, the hand is at {view_step(state)}")
    if state.phase == "ended":
        raise IllegalAction("the hand is over")
    if seat not in range(4):
        raise IllegalAction(f"no seat {seat!r}")
    if seat not in waiting_on(state):
        raise IllegalAction(f"seat {seat} is not asked to act now")
    chosen = _plainly_legal(state, seat, action) or _match(legal_actions(state, seat), action)
    if chosen is None:
        raise IllegalAction(f"{_describe(action)} is not legal for seat {seat} now")
    s = state.copy()
    s.log.append([seat, chosen.to_json()])
    s.step += 1
    events: list[dict[str, Any]] = []
    if s.phase == "turn":
        _apply_turn(s, seat, chosen, events, hold)
    else:
        assert s.pending is not None
        s.pending = s.pending.answered(seat, chosen)
        events.append({"type": "answered", "seat": seat})
        if not waiting_on(s) and not hold:
            _close_window(s, events, hold)
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
    s = state.copy()
    end = HandEnd(s.rules, s.dealer, s.indicator, s.hands, s.melds, s.flown, s.last_drawer)
    drawn = settle(end, [], win_by="draw", tile=None)
    s.result = dataclasses.replace(drawn, payments=()).to_json()
    s.phase = "ended"
    s.pending = None
    return s


def close_window(state: HandState) -> tuple[HandState, list[dict[str, Any]]]:
    """Close a window held open by ``apply(..., hold=True)`` once no seat is still asked: the
    claim (or the gang) lands, or the next seat draws. Not an action: nothing is logged and
    the step stays. Windows it opens in turn (a 明杠's 抢杠 window) are held too.

    >>> from engine.rules import Rules
    >>> from engine.actions import Action
    >>> s = new_hand(Rules(), dealer=0, seed=1)
    >>> s, _ = apply(s, 0, Action("discard", s.hands[0][0]), hold=True)
    >>> for seat in waiting_on(s):
    ...     s, _ = apply(s, seat, Action("pass"), hold=True)
    >>> s.phase, waiting_on(s)
    ('claim', [])
    >>> s, _ = close_window(s)
    >>> s.phase, s.turn, len(s.log)
    ('turn', 1, 1)
    """
    if state.phase not in ("claim", "rob") or waiting_on(state):
        raise IllegalAction("no window to close: none is open, or a seat is still asked")
    s = state.copy()
    events: list[dict[str, Any]] = []
    _close_window(s, events, True)
    return s, events


def _close_window(s: HandState, events: list[dict[str, Any]], hold: bool) -> None:
    if s.phase == "claim":
        _close_claim(s, events, hold)
    else:
        _close_rob(s, events)


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


def _apply_turn(
    s: HandState, seat: int, a: Action, events: list[dict[str, Any]], hold: bool
) -> None:
    hand = s.hands[seat]
    if a.type == "hu":
        check = _self_draw_check(s, seat)
        assert check is not None and check.win
        win_tile = s.drawn if s.drawn is not None else hand[-1]
        _end(s, [(seat, check)], "self_draw", win_tile, events)
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
        _open_claim(s, seat, a.tile, events, hold)
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
    _declare_gang(s, seat, k, str(a.gang), None, events, hold)


def _declare_gang(
    s: HandState,
    seat: int,
    k: int,
    kind: str,
    frm: int | None,
    events: list[dict[str, Any]],
    hold: bool,
) -> None:
    ev: dict[str, Any] = {"type": "gang_declared", "seat": seat, "gang": kind}
    if not (kind == "angang" and s.rules.angang_face_down):
        ev["tile"] = format_tile(k)
    events.append(ev)
    robbers: list[int] = []
    if s.rules.qiang_gang:
        for o in ((seat + i) % 4 for i in range(1, 4)):
            # §4: a 明杠's discarder may not rob it: that would be a win on its own discard
            if o != frm and _rob_check(s, o, k).win:
                robbers.append(o)
    s.pending = Window("rob", seat, k, tuple(robbers), _UNANSWERED, kind, frm)
    s.phase = "rob"
    if robbers:
        events.append({"type": "rob_window", "seats": list(robbers)})
    elif not hold:
        _close_rob(s, events)


def _rob_check(s: HandState, seat: int, k: int) -> WinCheck:
    return judged(
        [*s.hands[seat], k],
        s.melds[seat],
        k,
        s.indicator,
        s.rules,
        WinContext(win_by="rob_gang", flown_bao=s.flown[seat]),
    )


def _open_claim(
    s: HandState, frm: int, tile: int, events: list[dict[str, Any]], hold: bool
) -> None:
    eligible = [o for o in ((frm + i) % 4 for i in range(1, 4)) if _claim_options(s, o, frm, tile)]
    s.pending = Window("claim", frm, tile, tuple(eligible), _UNANSWERED)
    s.phase = "claim"
    if eligible:
        events.append({"type": "claim_window", "seats": list(eligible)})
    elif not hold:
        _close_claim(s, events, hold)


def _close_claim(s: HandState, events: list[dict[str, Any]], hold: bool) -> None:
    assert s.pending is not None
    frm, tile, answers = s.pending.frm, s.pending.tile, s.pending.answers
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
        _declare_gang(s, seat, tile, "minggang", frm, events, hold)
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
    p = s.pending
    assert p is not None and p.gang is not None
    seat, k, kind = p.frm, p.tile, p.gang
    robbers = [o for o in p.eligible if (a := p.answers[o]) is not None and a.type == "hu"]
    s.pending = None
    if robbers:
        _robbed(s, seat, k, kind, robbers, events)
        return
    hand = s.hands[seat]
    if kind == "minggang":
        for _ in range(3):
            hand.remove(k)
        s.melds[seat].append(Meld("minggang", (k,) * 4, p.claimed_from))
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
    taker = first_after(seat, robbers)
    s.hands[taker].append(k)
    s.hands[taker].sort()
    bao_gang = s.rules.rob_settlement == "fan" and k == s.bao
    _end(s, checks, "rob_gang", k, events, robbed=seat, cancelled=cancelled, bao_gang=bao_gang)


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
        _end(s, [], "draw", None, events)
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


# ---------------------------------------------------------------- the end


def _end(
    s: HandState,
    winners: list[tuple[int, WinCheck]],
    win_by: Outcome,
    tile: int | None,
    events: list[dict[str, Any]],
    *,
    robbed: int | None = None,
    cancelled: list[int] | None = None,
    bao_gang: bool = False,
) -> None:
    """Settle (:func:`engine.outcome.settle`) and end the hand; no ``winners``: 流局."""
    end = HandEnd(s.rules, s.dealer, s.indicator, s.hands, s.melds, s.flown, s.last_drawer)
    result = settle(
        end, winners, win_by=win_by, tile=tile, robbed=robbed, cancelled=cancelled or (),
        bao_gang_robbed=bao_gang,
    )  # fmt: skip
    s.result = result.to_json()
    s.phase = "ended"
    s.pending = None
    events.append({"type": "end", "result": copy.deepcopy(s.result)})
