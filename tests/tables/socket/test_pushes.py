"""tables.socket.pushes: one read and one public render per change per process, shared by its
pages."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from engine.hand import HandState, waiting_on
from engine.play.bots import choose_action
from engine.tiles import format_tile
from engine.views import seat_info
from tables.models import Room, Seat
from tables.play import clock, events, inputs
from tables.play.protocol import AnswerDissolve, Move, ProposeDissolve, Ready, parse_text
from tables.play.table import Table, load_table
from tables.play.windows import public_step
from tables.screen import private
from tables.socket import pushes
from tables.socket.routing import websocket_urlpatterns
from tests.tables.factories import drain, start_with_four_people

pytestmark = pytest.mark.django_db(transaction=True)


def four_people_waiting(users: list[Any]) -> Room:
    """Four people seated, none on 托管, the turn timer long: nothing moves on its own."""
    room = start_with_four_people(users)
    Seat.objects.filter(room=room).update(tuoguan=False)
    Room.objects.filter(pk=room.pk).update(turn_seconds=600)
    room.refresh_from_db()
    return room


async def connect(room: Room, user: Any) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/table/{room.number}/")
    comm.scope["user"] = user
    comm.scope["cookies"] = {django_settings.LANGUAGE_COOKIE_NAME: "en"}
    connected, _ = await comm.connect()
    assert connected
    return comm


def dealer_discards(room: Room, users: list[Any]) -> None:
    room.refresh_from_db()
    assert room.state is not None
    state = HandState.from_json(room.state["hand"])
    tile = format_tile(state.hands[state.turn][0])
    step = public_step(room)
    message = parse_text(json.dumps({"action": "discard", "tile": tile, "step": step}))
    inputs.table_act(number=room.number, user=users[state.turn], message=message)


def public_part(html: str) -> str:
    """``#table-public`` as pushed (it ends where the private part or the clock begins)."""
    start = html.index('<div id="table-public"')
    ends = [html.find(m, start) for m in ('<div id="table-private"', '<i id="table-clock"')]
    return html[start : min(e for e in ends if e >= 0)]


async def test_four_pages_share_one_read_and_one_public_render_per_change(
    make_user: Any,
) -> None:
    users = [await sync_to_async(make_user)(f"p{i}") for i in range(4)]
    room = await sync_to_async(four_people_waiting)(users)
    comms = [await connect(room, u) for u in users]
    await drain(comms)
    cache = pushes.frame_cache()
    loads = cache.loads
    await sync_to_async(dealer_discards)(room, users)
    await events.table_changed_async(room.number)
    got = await drain(comms)
    assert [len(g) for g in got] == [1, 1, 1, 1]
    assert cache.loads == loads + 1  # one read for the four pages
    publics = {public_part(g[0]) for g in got}
    assert len(publics) == 1  # the very same bytes for everyone
    for g in got:  # pushed out of band: the page keeps its root and swaps the parts
        root = g[0][: g[0].index(">") + 1]
        assert root.startswith('<div id="table-public"') and 'hx-swap-oob="morph"' in root
    snap = cache.snapshots[room.number]
    assert len(snap.public) == 1 and len(snap.private) == 4
    for c in comms:
        await c.disconnect()


async def test_a_push_sends_only_what_changed_for_that_page(make_user: Any) -> None:
    users = [await sync_to_async(make_user)(f"p{i}") for i in range(4)]
    room = await sync_to_async(four_people_waiting)(users)
    comms = [await connect(room, u) for u in users]
    first = await drain(comms)
    assert first[0][0].startswith('<div id="live" hx-swap-oob="morph"><section class="table"')
    assert 'data-me="0"' in first[0][0] and 'data-me="3"' in first[3][0]
    # Nothing changed for anyone: a message about the same table pushes nothing.
    await events.table_changed_async(room.number)
    assert await drain(comms) == [[], [], [], []]
    # The dealer discards: everyone's public part changes; the dealer's own part too.
    await sync_to_async(dealer_discards)(room, users)
    await events.table_changed_async(room.number)
    got = await drain(comms)
    dealer = next(
        i for i, g in enumerate(first) if 'class="tile-row tile-hand can-discard"' in g[0]
    )
    for i, g in enumerate(got):
        assert len(g) == 1 and 'id="table-public"' in g[0] and 'id="table-clock"' in g[0]
        if i == dealer:
            assert 'id="table-private"' in g[0]
    for c in comms:
        await c.disconnect()


def test_a_snapshot_reads_the_room_in_two_queries_four_while_a_vote_runs(
    make_user: Any, django_assert_num_queries: Any
) -> None:
    users = [make_user(f"p{i}") for i in range(4)]
    room = four_people_waiting(users)
    # The room and its seats with their users: the hand's id and commitment, and whether a
    # 解散 vote runs, are in the room's state.
    with django_assert_num_queries(2):
        snap = pushes.snapshot_load(room.number)
    assert snap.table is not None and snap.table.hand_id is not None
    assert snap.table.seed_hash is not None
    assert snap.room is not None and snap.deadline == snap.room.deadline
    assert pushes.snapshot_load("999999").room is None
    inputs.table_act(number=room.number, user=users[0], message=ProposeDissolve())
    with django_assert_num_queries(4):  # the votes and the open one's answers
        snap = pushes.snapshot_load(room.number)
    assert snap.votes.vote is not None and snap.votes.proposers == {0}


async def test_a_seat_whose_view_did_not_change_is_not_rendered_again(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    users = [await sync_to_async(make_user)(f"p{i}") for i in range(4)]
    room = await sync_to_async(four_people_waiting)(users)
    comms = [await connect(room, u) for u in users]
    await drain(comms)
    renders: list[int] = []
    render = private.render_private_board

    def counted(board: Any, *, csrf_token: str) -> Any:
        renders.append(board.seat)
        return render(board, csrf_token=csrf_token)

    monkeypatch.setattr("tables.socket.pushes.render_private_board", counted)
    await sync_to_async(dealer_discards)(room, users)
    await events.table_changed_async(room.number)
    got = await drain(comms)
    changed = [i for i, g in enumerate(got) if g and 'id="table-private"' in g[0]]
    # Rendered exactly for the seats whose part changed (the discarder's, the next drawer's),
    # and the others' parts came from the previous change's renders.
    assert sorted(renders) == changed and 0 < len(changed) < 4
    for c in comms:
        await c.disconnect()


def _without_clock(html: str) -> str:
    """A push without the server's time (the one part that differs from one render to the
    next)."""
    return re.sub(r'<i id="table-clock" hidden data-now="\d+"></i>', "", html)


def _basic_move(t: Table, user: Any, seat: int, rng: random.Random) -> clock.Committed | None:
    """Seat ``seat``'s person plays what the basic bot would."""
    assert t.hand is not None
    action = choose_action("basic", seat_info(t.hand, seat), rng)
    message = Move(action=action, step=public_step(t.room))
    return inputs.table_act(number=t.room.number, user=user, message=message)


def test_a_change_is_pushed_from_the_table_as_saved_as_if_read_again(make_user: Any) -> None:
    """The process that commits a change pushes from the table it saved; every other process
    reads it again. Both give every seat the same bytes, change after change: moves, claim
    windows the clock closes, a 解散 vote proposed, answered and refused, hands ended and
    readied; and neither asks the database anything while it is drawn."""
    users = [make_user(f"p{i}") for i in range(4)]
    room = four_people_waiting(users)
    rng = random.Random(7)
    compared = voted = 0
    for n in range(260):
        t = load_table(Room.objects.get(pk=room.pk))
        assert t is not None and t.hand is not None
        if t.finished:
            break
        asked = waiting_on(t.hand) if t.hand.phase != "ended" else []
        change: clock.Committed | None
        if n == 12:  # a vote, then its refusal, while the hand runs
            change = inputs.table_act(number=room.number, user=users[0], message=ProposeDissolve())
        elif n == 13:
            agree = AnswerDissolve(agree=True)
            change = inputs.table_act(number=room.number, user=users[2], message=agree)
        elif n == 14:
            refuse = AnswerDissolve(agree=False)
            change = inputs.table_act(number=room.number, user=users[1], message=refuse)
        elif t.hand.phase == "ended":
            seat = next(s.index for s in t.seats if not s.ready)
            change = inputs.table_act(number=room.number, user=users[seat], message=Ready())
        elif not asked:
            assert t.room.deadline is not None
            change = clock.advance(room.number, now=t.room.deadline)
        else:
            change = _basic_move(t, users[asked[0]], asked[0], rng)
        assert change is not None
        kept = pushes.snapshot_committed(change)
        read = pushes.snapshot_load(room.number)
        assert kept.version == read.version == change.version
        voted += bool(kept.votes.answers)
        for viewer in [*users, None]:
            # Pages are drawn on the event loop, where the database is out of reach.
            with CaptureQueriesContext(connection) as queries:
                pushed = [
                    _without_clock(
                        pushes.table_frame(
                            snap, viewer, language="zh-hans", csrf_token="t", shown=pushes.Shown()
                        )
                    )
                    for snap in (kept, read)
                ]
            assert not queries.captured_queries, f"change {n}, seat of {viewer}"
            assert pushed[0] == pushed[1], f"change {n}, seat of {viewer}"
        compared += 1
    # Two hands (their settlements and the match's end included), the vote seen.
    assert kept.table is not None and kept.table.finished
    assert compared > 80 and voted > 0


def test_a_snapshot_is_fresh_by_time_or_by_the_version_it_saw() -> None:
    room = Room(number="1", version=7)
    snap = pushes.Snapshot(loaded_at=100.0, room=room, table=None)
    assert snap.fresh(99.0) and snap.fresh(100.0)
    assert not snap.fresh(101.0)  # a change that is not the game's, sent after the read
    assert snap.fresh(101.0, version=7) and snap.fresh(101.0, version=6)
    assert not snap.fresh(101.0, version=8)
    assert not pushes.Snapshot(loaded_at=100.0, room=None, table=None).fresh(101.0, version=1)


async def test_the_process_that_made_a_move_pushes_it_without_reading_the_table(
    make_user: Any,
) -> None:
    users = [await sync_to_async(make_user)(f"p{i}") for i in range(4)]
    room = await sync_to_async(four_people_waiting)(users)
    comms = [await connect(room, u) for u in users]
    await drain(comms)
    cache = pushes.frame_cache()
    loads = cache.loads
    stored = (await Room.objects.aget(pk=room.pk)).state
    assert stored is not None
    state = HandState.from_json(stored["hand"])
    tile = format_tile(state.hands[state.turn][0])
    move = {
        "action": "discard",
        "tile": tile,
        "step": public_step(await Room.objects.aget(pk=room.pk)),
    }
    await comms[state.turn].send_to(text_data=json.dumps(move))
    got = await drain(comms)
    assert all(len(g) == 1 and 'id="table-public"' in g[0] for g in got)
    assert cache.loads == loads  # pushed from the table the move saved
    assert cache.snapshots[room.number].version == (await Room.objects.aget(pk=room.pk)).version
    for c in comms:
        await c.disconnect()


def test_a_read_between_two_pages_pushes_carries_what_the_other_pages_show() -> None:
    """A committed change offered; one page is pushed from it, then it is read again (a
    message with no version) before the other pages were pushed: their seats' parts rendered
    before are still what they show, so they are carried on too."""
    view: Any = object()
    shown = pushes.Snapshot(loaded_at=1.0, room=Room(number="1", version=7), table=None)
    for seat in (0, 1):
        shown.private[(seat, "en", "t")] = f"<div>{seat}</div>"
        shown.rendered[(seat, "en", "t")] = (view, f"<div>{seat}</div>")
    offered = pushes.Snapshot(loaded_at=2.0, room=Room(number="1", version=8), table=None)
    pushes.renders_carry(shown, offered)
    offered.private[(0, "en", "t")] = "<div>0 now</div>"  # seat 0's page pushed from it
    offered.rendered[(0, "en", "t")] = (view, "<div>0 now</div>")
    read = pushes.Snapshot(loaded_at=3.0, room=Room(number="1", version=8), table=None)
    pushes.renders_carry(offered, read)
    assert read.rendered == {
        (0, "en", "t"): (view, "<div>0 now</div>"),
        (1, "en", "t"): (view, "<div>1</div>"),  # seat 1's page not pushed since: kept
    }


def test_a_window_closed_by_catching_up_pushes_what_its_commit_would(
    make_user: Any, settings: Any
) -> None:
    """A held window's close reaches the pages from the snapshot, caught up in memory at its
    deadline (no read, no commit), in the same bytes as the close committed and read again;
    the snapshot it was caught up from stays as it was."""
    settings.TABLE_CLAIM_PAUSE_SECONDS = 1.0
    users = [make_user(f"w{i}") for i in range(4)]
    room = four_people_waiting(users)
    rng = random.Random(11)
    kept: pushes.Snapshot | None = None
    closed = served_as_they_were = plain_draws = 0
    for _ in range(120):
        t = load_table(Room.objects.get(pk=room.pk))
        assert t is not None and t.hand is not None
        if t.hand.phase == "ended" or closed >= 12:
            break
        asked = waiting_on(t.hand)
        if not asked:
            assert kept is not None and t.room.deadline is not None
            due = t.room.deadline
            if kept.closes_window_at(due):
                assert kept.table is not None and kept.room is not None
                for viewer in users:  # the pages show the window
                    _frame(kept, viewer)
                held = (kept.table.hand, dict(kept.room.state or {}))
                caught = pushes.snapshot_caught_up(kept, due)
                assert (kept.table.hand, kept.room.state) == held
                served_as_they_were += len(caught.private)
                assert caught.table is not None and caught.table.hand is not None
                assert kept.table.hand is not None
                # No claim landed: the next seat drew, no tile moved in sight.
                plain_draws += caught.table.hand.melds == kept.table.hand.melds
                change = clock.advance(room.number, now=due)
                assert change is not None
                committed = pushes.snapshot_committed(change)
                assert caught.version == change.version - 1  # the read saved nothing
                for viewer in [*users, None]:
                    assert _frame(caught, viewer) == _frame(committed, viewer)
                closed += 1
                kept = committed
                continue
            change = clock.advance(room.number, now=due)
        else:
            change = _basic_move(t, users[asked[0]], asked[0], rng)
        assert change is not None
        kept = pushes.snapshot_committed(change)
    assert closed >= 5
    # A close with no claim leaves the three other seats' parts as they were; a claim, none.
    assert plain_draws >= 3 and served_as_they_were == 3 * plain_draws


def _frame(snap: pushes.Snapshot, viewer: Any) -> str:
    """What a page that showed nothing yet is pushed, without the server's time."""
    shown = pushes.Shown()
    return _without_clock(
        pushes.table_frame(snap, viewer, language="zh-hans", csrf_token="t", shown=shown)
    )
