"""tables.screen.board: what one person sees at a live table, built from the engine's seat view.

Precise situations (a claim window, a 抢杠 window, a face-down 暗杠 with a burned tile) come
from explicit walls (tests/deals.py) put into a real room's stored state; the rest
from seeded rooms played by the table's clock.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from operator import attrgetter
from typing import Any

import pytest
from django.utils import timezone

from engine.actions import Action
from engine.hand import HandState, apply, close_window, legal_actions, new_hand, waiting_on
from engine.rules import Rules
from engine.tiles import parse_tile
from engine.views import seat_view
from tables.models import Room, Seat
from tables.play.clock import schedule, table_commit
from tables.play.table import Table, load_table
from tables.rooms.table_page import render_live
from tables.screen.board import (
    Choice,
    PrivateBoard,
    PublicBoard,
    SeatPanel,
    private_board,
    public_board,
    seat_index_of,
    seat_name,
)
from tables.screen.melds import MeldView
from tables.screen.private import render_private
from tables.screen.public import render_public
from tests.deals import ANGANG_DEALER, ANGANG_THEN_DRAW, TAIL_TILES, act, hand_record
from tests.deals import play as replay_script
from tests.tables.factories import (
    hand_of,
    run_clock_until_hand_ends,
    send,
    start_with_bots,
    start_with_four_people,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

CLAIM_HANDS = {
    0: "3m9m1p4p7p2s5s8s3z4z6z6z7s9p",  # the dealer discards 3m
    1: "2m4m2p5p8p1s4s9s4z6z8m8p3s",  # 吃 3m with 24m
    2: "3m3m3m3p6p3s6s7p2p6m7m9m5p",  # 碰 or 明杠 3m
    3: "1m2m4p5p6p7s8s9s1z1z1z2z2z",  # waits on 3m: robs the 明杠
}
DISCARD_3M = [act(0, "discard", "3m")]
GANG_3M = [*DISCARD_3M, act(1, "pass"), act(2, "gang", "3m", gang="minggang")]


@dataclass
class Board:
    """What one viewer is shown: the public part and, for a seated viewer, their own."""

    public: PublicBoard
    private: PrivateBoard | None

    @property
    def me(self) -> SeatPanel | None:
        return None if self.private is None else self.public.panels[self.private.seat]


def board_for(table: Table, viewer: Any, now: datetime | None = None) -> Board:
    seat = seat_index_of(table, viewer)
    return Board(public_board(table, now), None if seat is None else private_board(table, seat))


@pytest.fixture
def people(make_user: Any) -> list[Any]:
    return [make_user(name) for name in ("alice", "bob", "carol", "dave")]


@pytest.fixture
def four(people: list[Any]) -> Room:
    """alice (the owner), bob, carol and dave in seats 0-3; a match has started."""
    return start_with_four_people(people)


def scripted(
    actions: list[list[Any]], *, rules: Rules | None = None, hands: Any = None
) -> HandState:
    hands = hands or CLAIM_HANDS
    tail = TAIL_TILES if hands is ANGANG_DEALER else None
    return replay_script(hand_record(hands, actions, draws="3z", tail=tail, rules=rules))


def with_hand(room: Room, state: HandState) -> Table:
    """The room's table as stored, with ``state`` as its current hand (saved, so pages read it)."""
    assert room.state is not None
    room.state = {**room.state, "hand": state.to_json()}
    room.save(update_fields=["state"])
    table = load_table(room)
    assert table is not None
    return table


def until_hand_ends(room: Room) -> Table:
    """Let the clock play (every seat automatic) until the current hand has ended."""
    run_clock_until_hand_ends(room)
    table = load_table(room)
    assert table is not None
    return table


def by_index(board: Board) -> dict[int, Any]:
    return {p.index: p for p in board.public.panels}


def mine(board: Board) -> PrivateBoard:
    """The viewer's own part (the viewer is seated)."""
    assert board.private is not None
    return board.private


def flags(board: Board, name: str) -> list[Any]:
    """One panel field (dotted: ``head.dealer``) for seats 0-3, in seat order."""
    return [attrgetter(name)(by_index(board)[i]) for i in range(4)]


# ---------------------------------------------------------------- names and positions


def test_seat_name_is_the_display_name_or_bot_and_its_seat_number(
    user: Any, make_user: Any
) -> None:
    room = start_with_bots(user)
    seats = list(Seat.objects.filter(room=room).select_related("user").order_by("index"))
    assert [seat_name(s) for s in seats] == ["alice", "Bot·South", "Bot·West", "Bot·North"]
    user.display_name = "小明"
    user.save()
    seats[0].refresh_from_db()
    assert seat_name(seats[0]) == "小明"


@pytest.mark.parametrize("viewer", [0, 1, 2, 3])
def test_the_public_part_is_the_same_for_every_viewer_and_the_private_one_is_theirs(
    four: Room, people: list[Any], make_user: Any, viewer: int
) -> None:
    table = load_table(four)
    assert table is not None
    now = timezone.now()
    board = board_for(table, people[viewer], now=now)
    assert board.public == board_for(table, make_user("watcher"), now=now).public
    assert [p.index for p in board.public.panels] == [0, 1, 2, 3]  # CSS turns the table
    assert mine(board).seat == viewer
    assert board.me is not None and board.me.index == viewer
    assert board.me.head.name == people[viewer].name


def test_a_staff_notice_in_the_rooms_state_is_one_line_for_every_viewer(
    four: Room, people: list[Any], make_user: Any
) -> None:
    table = load_table(four)
    assert table is not None
    assert public_board(table).staff_notice == ""
    assert four.state is not None
    four.state["staff_notice"] = {"action": "replace", "reason": "gone", "seat": 3, "name": "dave"}
    now = timezone.now()
    board = board_for(table, people[0], now=now)
    assert board.public.staff_notice == "Staff had a bot take over the North seat, dave: gone"
    assert board.public == board_for(table, make_user("watcher"), now=now).public
    four.state["staff_notice"] = {"action": "rearm", "reason": "stuck"}
    assert public_board(table).staff_notice == "Staff restarted the clock: stuck"
    four.state["staff_notice"] = {"action": "unknown", "reason": "x"}  # no action staff take
    assert public_board(table).staff_notice == ""


def test_panels_carry_the_public_facts_of_each_seat(user: Any) -> None:
    room = start_with_bots(user, seed="board-panels")
    table = load_table(room)
    assert table is not None and table.hand is not None
    dealer = table.hand.dealer
    board = board_for(table, user)
    panels = by_index(board)
    assert flags(board, "head.dealer") == [i == dealer for i in range(4)]
    assert flags(board, "hand.hand_size") == [14 if i == dealer else 13 for i in range(4)]
    assert flags(board, "head.is_bot") == [False, True, True, True]
    assert all(panels[i].connected for i in (1, 2, 3))  # bots never go offline
    assert not panels[0].connected  # alice has no page open
    assert flags(board, "acting") == [i == dealer for i in range(4)]
    assert board.public.center.waiting_names == (seat_name(table.seats[dealer]),)
    assert (
        board.public.bar.hand_no == 1
        and board.public.bar.hands_total == 8
        and board.public.phase == "turn"
    )
    # The deal is the table's first decision; nothing was hidden yet (tables.play.windows).
    assert board.public.step == 1 and board.public.version == room.version
    view = seat_view(table.hand, 0)
    assert (
        board.public.center.tiles.indicator == view["indicator"] and board.public.bao == view["bao"]
    )
    assert board.public.wall_left == view["wall_left"] and board.public.center.dice == tuple(
        view["dice"]
    )
    assert board.public.center.tiles.burned == ()


def test_my_own_tiles_and_the_drawn_tile_kept_apart(four: Room, people: list[Any]) -> None:
    # Seat 0 has 暗杠 9p and drawn its replacement 9m: the drawn tile stands apart.
    state = scripted([act(0, "gang", "9p", gang="angang")], hands=ANGANG_DEALER)
    board = board_for(with_hand(four, state), people[0])
    assert mine(board).hand.drawn == "9m"
    assert mine(board).hand.my_hand == ("1s", "2s", "3s", "7s", "8s", "9s", "1z", "1z", "1z", "2z")
    assert mine(board).hand.can_discard and mine(board).choices.choices == ()
    assert board.me is not None and board.me.hand.melds == (
        MeldView("angang", "Concealed kong", ["9p"] * 4),
    )
    # Others see how many tiles seat 0 holds, never which.
    other = board_for(with_hand(four, state), people[1])
    assert mine(other).hand.drawn is None and "9m" not in mine(other).hand.my_hand
    assert by_index(other)[0].hand.hand_size == 11 and not mine(other).hand.can_discard


# ---------------------------------------------------------------- choices


def test_a_claim_window_offers_chi_peng_gang_and_pass_to_those_who_may(
    four: Room, people: list[Any]
) -> None:
    table = with_hand(four, scripted(DISCARD_3M))
    chi = board_for(table, people[1])
    assert [c.action for c in mine(chi).choices.choices] == ["chi", "pass"]
    assert mine(chi).choices.choices[0].tiles == ["2m", "3m", "4m"]
    assert json.loads(mine(chi).choices.choices[0].hx_vals) == {"tile": "3m", "tiles": "24m"}
    assert json.loads(mine(chi).choices.choices[1].hx_vals) == {}
    assert not mine(chi).hand.can_discard and mine(chi).hand.drawn is None

    peng = board_for(table, people[2])
    assert [(c.action, c.label, c.tiles) for c in mine(peng).choices.choices] == [
        ("peng", "Pong", ["3m"] * 3),
        ("gang", "Exposed kong", ["3m"] * 4),
        ("pass", "Pass", []),
    ]
    assert json.loads(mine(peng).choices.choices[1].hx_vals) == {"tile": "3m", "gang": "minggang"}
    assert all(c.score is None for c in mine(peng).choices.choices)

    # The discarder and a seat with no claim get nothing to press.
    for seat in (0, 3):
        board = board_for(table, people[seat])
        assert mine(board).choices.choices == () and not mine(board).hand.can_discard
    for board in (chi, peng):
        assert (
            mine(board).choices.window_tile == "3m" and mine(board).choices.window_from == "alice"
        )
    # Only an asked seat knows it is asked (its buttons): who may claim would tell what they
    # hold, so the public part, the same for everyone, shows the discarder's turn going on.
    for seat in (0, 1, 2, 3):
        board = board_for(table, people[seat])
        assert board.public.phase == "turn" and board.public.center.waiting_names == ("alice",)
        assert flags(board, "acting") == [True, False, False, False]
        assert board.public.deadline is None  # no countdown in a window: the asked see theirs


def test_a_self_drawn_hu_shows_its_score_and_pattern(four: Room, people: list[Any]) -> None:
    state = scripted(ANGANG_THEN_DRAW, hands=ANGANG_DEALER)
    board = board_for(with_hand(four, state), people[1])
    hu = [c for c in mine(board).choices.choices if c.action == "hu"]
    assert hu == [Choice("hu", "Hu 平胡", {"type": "hu", "tile": "3z"}, score=4)]
    assert mine(board).hand.can_discard and mine(board).hand.drawn == "3z"
    assert not [
        c for c in mine(board).choices.choices if c.action == "pass"
    ]  # one's own turn: discard


def test_robbing_a_gang_previews_the_robbers_score(four: Room, people: list[Any]) -> None:
    board = board_for(with_hand(four, scripted(GANG_3M)), people[3])
    assert [c.action for c in mine(board).choices.choices] == ["hu", "pass"]
    hu = mine(board).choices.choices[0]
    assert hu.score == 24  # 平胡 4 x 抢杠 6, what the robbed seat would pay
    assert hu.label == "Hu 平胡"
    assert mine(board).choices.window_tile == "3m" and mine(board).choices.window_from == "carol"
    assert not mine(board).hand.can_discard
    # The robbed seat waits and may not answer its own gang.
    assert mine(board_for(with_hand(four, scripted(GANG_3M)), people[2])).choices.choices == ()


def test_a_spectator_gets_no_hand_no_choices_and_sits_nobody_at_the_bottom(
    four: Room, make_user: Any
) -> None:
    table = with_hand(four, scripted(DISCARD_3M))
    for viewer in (make_user("watcher"), None):
        board = board_for(table, viewer)
        assert board.me is None and board.private is None
        assert flags(board, "hand.hand_size") == [13] * 4


# ---------------------------------------------------------------- burned and face-down tiles


@pytest.mark.parametrize("replacement", ["burn_upper", "single_tile"])
def test_burned_tiles_are_shown_to_everyone(
    four: Room, people: list[Any], make_user: Any, replacement: str
) -> None:
    rules = Rules().with_options(replacement=replacement)
    state = scripted([act(0, "gang", "9p", gang="angang")], hands=ANGANG_DEALER, rules=rules)
    table = with_hand(four, state)
    expected = ["2z"] if replacement == "burn_upper" else []
    for viewer in (people[0], people[2], make_user("watcher")):
        assert board_for(table, viewer).public.center.tiles.burned == tuple(expected)


@pytest.mark.parametrize("face_down", [True, False])
def test_a_face_down_angang_shows_no_tiles_to_the_others(
    four: Room, people: list[Any], make_user: Any, face_down: bool
) -> None:
    rules = Rules().with_options(angang_face_down=face_down)
    state = scripted(ANGANG_THEN_DRAW, hands=ANGANG_DEALER, rules=rules)
    table = with_hand(four, state)
    seen = None if face_down else ["9p"] * 4
    for viewer in (people[1], people[3], make_user("watcher")):
        assert by_index(board_for(table, viewer))[0].hand.melds == (
            MeldView("angang", "Concealed kong", seen),
        )
        html, _ = render_live(four.number, viewer, invite_url="/", csrf_token="x")
        assert html.count('data-tile="9p"') == (0 if face_down else 4)
    # Its owner always sees the four tiles.
    assert by_index(board_for(table, people[0]))[0].hand.melds[0].tiles == seen
    assert mine(board_for(table, people[0])).hand.hidden_melds == (
        (MeldView("angang", "Concealed kong", ["9p"] * 4),) if face_down else ()
    )
    html, _ = render_live(four.number, people[0], invite_url="/", csrf_token="x")
    assert html.count('data-tile="9p"') == 4


def test_a_face_down_angang_is_laid_open_once_the_hand_ends(four: Room, people: list[Any]) -> None:
    rules = Rules().with_options(angang_face_down=True)
    state = scripted([*ANGANG_THEN_DRAW, act(1, "hu")], hands=ANGANG_DEALER, rules=rules)
    board = board_for(with_hand(four, state), people[2])
    assert by_index(board)[0].hand.melds[0].tiles == ["9p"] * 4


# ---------------------------------------------------------------- the hand's end


def test_between_hands_only_the_owner_may_end_the_match(user: Any, make_user: Any) -> None:
    room = start_with_bots(user, hands=None, tuoguan=True, seed="board-end")
    table = until_hand_ends(room)
    owner = board_for(table, user)
    assert owner.public.phase == "ended" and mine(owner).controls.can_end_match
    assert owner.public.bar.hand_no == 1  # the hand just played, not the next one
    assert owner.public.settlement is not None and owner.public.settlement.outcome in {
        "self_draw",
        "rob_gang",
        "draw",
    }
    assert mine(owner).choices.choices == () and not mine(owner).hand.can_discard
    assert board_for(table, make_user("watcher")).private is None
    # The bots are ready at once; the table waits for alice's 准备.
    assert flags(owner, "acting") == [True, False, False, False]
    assert flags(owner, "ready") == [False, True, True, True]


def test_no_ending_the_match_while_a_hand_is_played(four: Room, people: list[Any]) -> None:
    table = with_hand(four, scripted(DISCARD_3M))
    assert not mine(board_for(table, people[0])).controls.can_end_match  # the owner, mid-hand
    assert board_for(table, people[0]).public.settlement is None


def test_a_finished_match_shows_its_totals_and_cannot_be_ended(user: Any) -> None:
    room = start_with_bots(user, hands=1, tuoguan=True, seed="board-finished")
    table = until_hand_ends(room)
    assert table.finished
    board = board_for(table, user)
    assert board.public.finished and not mine(board).controls.can_end_match
    assert board.public.center.waiting_names == () and board.public.seconds_left is None
    points = [p for _, p in board.public.match_totals]
    assert points == sorted(points, reverse=True) and sum(points) == 0
    assert sorted(board.public.match_totals) == sorted(
        (seat_name(s), int(table.match.totals[s.index])) for s in table.seats
    )
    assert board.public.settlement is not None


# ---------------------------------------------------------------- the countdown


@pytest.mark.parametrize(
    ("left", "seconds"),
    [(timedelta(seconds=7), 7), (timedelta(seconds=7.2), 8), (timedelta(seconds=-3), 0)],
)
def test_the_countdown_rounds_up_and_stops_at_zero(
    four: Room, people: list[Any], left: timedelta, seconds: int
) -> None:
    table = with_hand(four, scripted([]))
    now = timezone.now()
    table.room.turn_deadline = now + left
    board = board_for(table, people[0], now=now)
    assert board.public.seconds_left == seconds and board.public.deadline == now + left


def test_no_countdown_without_a_turn_deadline(four: Room, people: list[Any]) -> None:
    table = with_hand(four, scripted([]))
    table.room.turn_deadline = None
    board = board_for(table, people[1])
    assert board.public.seconds_left is None and board.public.deadline is None


def test_the_countdown_runs_for_a_person_to_act_and_not_for_bots(user: Any) -> None:
    room = start_with_bots(user, seed="board-clock-4")  # alice deals
    table = load_table(room)
    assert table is not None and table.hand is not None and table.hand.dealer == 0
    assert room.turn_deadline is not None
    now = room.turn_deadline - timedelta(seconds=12)
    assert board_for(table, user, now=now).public.seconds_left == 12
    # The same table while a bot deals: the bot's beat is no person's countdown.
    bots_deal = start_with_bots(user, seed="board-clock")
    table = load_table(bots_deal)
    assert table is not None and table.hand is not None and table.hand.dealer == 1
    board = board_for(table, user)
    assert board.public.center.waiting_names == ("Bot·South",) and board.public.seconds_left is None


def test_a_ready_seat_sees_its_waits_and_nobody_else_does(
    four: Room, people: list[Any], make_user: Any
) -> None:
    table = with_hand(four, scripted(DISCARD_3M))
    ready = mine(board_for(table, people[3])).hints.hints
    assert ready is not None and ready.distance == 0 and not ready.too_small
    assert "3m" in [code for code, _left, _score in ready.waits]
    assert board_for(table, make_user("watcher")).private is None
    html, _room = render_live(four.number, people[3], invite_url="/", csrf_token="t")
    hints_html = html[html.index('id="hints"') :]
    assert 'data-tile="3m"' in hints_html[: hints_html.index("</div>")]
    html, _room = render_live(four.number, people[1], invite_url="/", csrf_token="t")
    assert 'data-tile="3m"' not in html[html.index('id="hints"') :].split("</div>")[0]


# ---------------------------------------------------------------- hidden windows (D2)


def _held_discard(start: HandState, tile: int) -> HandState:
    state, _events = apply(start, start.turn, Action("discard", tile), hold=True)
    return state


def _faceless(html: str) -> str:
    """``html`` with every tile's identity and the 听牌 hints left out: what is left is what a
    page shows around the tiles."""
    html = re.sub(r'<div id="hints".*?</div>', "", html, flags=re.S)
    return re.sub(r'(data-tile|aria-label|href|value)="[^"]*"', r'\1=""', html)


def test_a_seat_not_asked_cannot_tell_a_claim_window_from_none(
    four: Room, people: list[Any]
) -> None:
    """The dealer discards a tile one seat may claim, or one nobody may: the public part and
    the private part of every seat not asked look the same (but for the tile itself)."""
    start = scripted([])
    by_asked: dict[int, tuple[HandState, list[int]]] = {}
    for tile in sorted(set(start.hands[start.turn])):
        state = _held_discard(start, tile)
        by_asked.setdefault(len(waiting_on(state)), (state, waiting_on(state)))
    assert 0 in by_asked and any(n > 0 for n in by_asked), sorted(by_asked)
    none, _ = by_asked[0]
    some, asked = by_asked[min(n for n in by_asked if n > 0)]
    assert none.phase == some.phase == "claim"  # held: a window after every discard
    now = timezone.now()
    pages = []
    kept = dict(four.state or {})
    for state in (none, some):
        four.state = dict(kept)  # both from the same table: the same public counters
        table = with_hand(four, state)
        schedule(table, now)
        public = render_public(table)
        privates = [_faceless(render_private(table, s, csrf_token="t")) for s in range(4)]
        pages.append((public, privates))
    (public_none, private_none), (public_some, private_some) = pages
    assert 'data-phase="turn"' in public_none and "countdown" not in public_none
    assert _faceless(public_none) == _faceless(public_some)
    for seat in set(range(4)) - set(asked):
        assert private_none[seat] == private_some[seat], seat
    for seat in asked:  # the asked seat alone sees the window: its buttons, its countdown
        assert 'id="actions"' in private_some[seat] and 'id="actions"' not in private_none[seat]


def _pages(room: Room, state: HandState, now: Any) -> tuple[str, list[str]]:
    table = with_hand(room, state)
    schedule(table, now)
    privates: list[str] = [render_private(table, s, csrf_token="t") for s in range(4)]
    return render_public(table), privates


def test_an_answer_in_an_open_window_shows_nothing_to_the_seats_not_asked(four: Room) -> None:
    """The dealer discards 3m, which seat 1 may 吃 and seat 2 may 碰. Seat 2 answers 碰 while
    the window still waits on seat 1: until it closes, the public part and every other seat's
    own part are the bytes they were (the discard keeps its river's mark, seat 1's buttons
    their step), so no page but seat 2's is pushed anything."""
    opened = _held_discard(scripted([]), parse_tile("3m"))
    asked = waiting_on(opened)
    assert {1, 2} <= set(asked), asked
    peng = next(a for a in legal_actions(opened, 2) if a.type == "peng")
    answered, _events = apply(opened, 2, peng, hold=True)
    assert answered.phase == "claim" and 1 in waiting_on(answered)
    now = timezone.now()
    public_opened, private_opened = _pages(four, opened, now)
    public_answered, private_answered = _pages(four, answered, now)
    assert "has-last" in public_opened
    assert public_answered == public_opened
    for seat in (0, 1, 3):
        assert private_answered[seat] == private_opened[seat], seat
    assert private_answered[2] != private_opened[2]  # its buttons went


def test_two_seats_answering_the_same_window_at_once_are_both_taken(
    four: Room, people: list[Any]
) -> None:
    """Seats 1 and 2 each press 过 on the buttons their page shows, at the same moment: the
    second answer is not refused as stale (its page could not have changed in between)."""
    table = with_hand(four, _held_discard(scripted([]), parse_tile("3m")))
    table_commit(table, timezone.now())
    # Both pages show the same public part, whose step their answers carry.
    html = render_public(table)
    step = int(re.search(r'data-step="(\d+)"', html).group(1))  # type: ignore[union-attr]
    for seat in (2, 1):
        send(four, people[seat], {"action": "pass", "step": step})
    answers = [entry for entry in hand_of(four).log if entry[1]["type"] == "pass"]
    assert sorted(who for who, _action in answers) == [1, 2]


@pytest.mark.parametrize("seed", ["d2-a", "d2-b", "d2-c"])
def test_no_answer_in_a_window_shows_on_any_other_page(four: Room, seed: str) -> None:
    """A whole hand with a window after every discard and gang, in which every seat asked
    answers (claiming half the time it may): after each answer that leaves the window open,
    the public part and every other seat's own part are the bytes they were."""
    rng = random.Random(seed)
    state = new_hand(Rules(), dealer=0, seed=seed)
    now = timezone.now()
    pages = _pages(four, state, now)
    compared = claims = 0
    while state.phase != "ended":
        if state.phase != "turn" and not waiting_on(state):
            state, _events = close_window(state)
            pages = _pages(four, state, now)
            continue
        seat = waiting_on(state)[0] if state.phase == "turn" else rng.choice(waiting_on(state))
        legal = legal_actions(state, seat)
        wins = [a for a in legal if a.type == "hu"]
        claiming = [a for a in legal if a.type in ("chi", "peng", "gang")]
        if state.phase == "turn":
            action = rng.choice([a for a in legal if a.type == "discard"])
        elif wins:
            action = wins[0]
        elif claiming and rng.random() < 0.5:
            action = rng.choice(claiming)
        else:
            action = next(a for a in legal if a.type == "pass")
        answering = state.phase != "turn"
        state, _events = apply(state, seat, action, hold=True)
        before, pages = pages, _pages(four, state, now)
        if answering and state.phase != "ended":
            assert pages[0] == before[0], (seed, seat, action)
            for other in set(range(4)) - {seat}:
                assert pages[1][other] == before[1][other], (seed, seat, action, other)
            compared += 1
            claims += action.type != "pass"
    assert compared >= 5 and claims >= 1, (compared, claims)
