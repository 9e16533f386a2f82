from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone, translation

from ledger.models import Entry
from tables.models import AuditEntry, Hand, Match, Room, Seat
from tables.play import clock
from tables.play.table import load_table
from tables.screen.board import public_board
from tables.screen.public import render_public
from tables.screen.settlement import settlement_of
from tables.staff import desk
from tables.staff.desk import StaffError
from tests.tables.factories import (
    hand_of,
    run_clock_until_hand_ends,
    send,
    start_with_bots,
    start_with_four_people,
)

pytestmark = pytest.mark.usefixtures("english")


def test_each_action_needs_staff_and_a_reason(people: Any, referee: Any) -> None:
    room, users = people
    actions: list[Callable[..., None]] = [
        desk.staff_room_dissolve,
        desk.staff_hand_close,
        desk.staff_clock_rearm,
    ]
    for act in actions:
        with pytest.raises(StaffError, match="Only staff"):
            act(staff=users[0], number=room.number, reason="because")
        with pytest.raises(StaffError, match="reason"):
            act(staff=referee, number=room.number, reason="   ")
    with pytest.raises(StaffError, match="Only staff"):
        desk.staff_seat_replace(staff=users[0], number=room.number, seat_index=1, reason="x")
    assert not AuditEntry.objects.exists()
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING


def test_dissolving_ends_the_match_unpaid_and_is_audited(people: Any, referee: Any) -> None:
    room, _users = people
    desk.staff_room_dissolve(staff=referee, number=room.number, reason="players asked by mail")
    room.refresh_from_db()
    hand = Hand.objects.get(room=room)
    assert room.status == Room.Status.FINISHED and room.deadline is None
    assert hand.ended_at is not None and hand.result is None
    assert not Entry.objects.filter(hand=hand).exists()
    assert Match.objects.get(room=room).ended_at is not None
    entry = AuditEntry.objects.get()
    assert (entry.staff, entry.action, entry.reason) == (
        referee,
        "dissolve",
        "players asked by mail",
    )
    with pytest.raises(StaffError, match="over"):
        desk.staff_room_dissolve(staff=referee, number=room.number, reason="again")


def test_a_replaced_player_is_played_by_a_bot_on_the_next_turn(
    make_user: Callable[..., Any], referee: Any
) -> None:
    users = [make_user(n) for n in ("alice", "bob", "carol", "dave")]
    room = start_with_four_people(users)
    Seat.objects.filter(room=room).update(tuoguan=False)  # nobody moves by themselves
    state = hand_of(room)
    turn = state.turn
    desk.staff_seat_replace(staff=referee, number=room.number, seat_index=turn, reason="gone")
    seat = Seat.objects.get(room=room, index=turn)
    assert seat.user is None and seat.bot and not seat.tuoguan
    room.refresh_from_db()
    assert room.deadline is not None and room.deadline < timezone.now() + timedelta(seconds=5)
    assert clock.advance(room.number, now=room.deadline)
    after = hand_of(room)
    assert after.step == state.step + 1 and after.log[-1][0] == turn
    assert AuditEntry.objects.get().detail == f"Seat {turn + 1}: {users[turn].name}"
    with pytest.raises(StaffError, match="bot already"):
        desk.staff_seat_replace(staff=referee, number=room.number, seat_index=turn, reason="x")
    with pytest.raises(StaffError, match="no such seat"):
        desk.staff_seat_replace(staff=referee, number=room.number, seat_index=7, reason="x")


def test_closing_a_stuck_hand_books_nothing_and_the_match_goes_on(
    people: Any, referee: Any
) -> None:
    room, _users = people
    entries = Entry.objects.count()
    desk.staff_hand_close(staff=referee, number=room.number, reason="stuck for an hour")
    hand = Hand.objects.get(room=room, number=1)
    assert hand.result is not None and hand.result["outcome"] == "draw"
    assert hand.result["totals"] == [0, 0, 0, 0] and hand.ended_at is not None
    assert Entry.objects.count() == entries and not Entry.objects.filter(hand=hand).exists()
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    assert room.state is not None and room.state["match"]["totals"] == [0, 0, 0, 0]
    assert hand_of(room).phase == "ended"
    assert AuditEntry.objects.get().detail == "Hand 1"
    # #36: the table is told why; the reason rides with the result to every page and record.
    assert hand.result["staff_reason"] == "stuck for an hour"
    assert settlement_of(hand.result, ["a", "b", "c", "d"], [[], [], [], []]).staff_reason == (
        "stuck for an hour"
    )
    with pytest.raises(StaffError, match="No hand is in play"):
        desk.staff_hand_close(staff=referee, number=room.number, reason="again")


def test_rearming_gives_a_fresh_deadline_and_moves_what_is_due(people: Any, referee: Any) -> None:
    room, _users = people
    long_ago = timezone.now() - timedelta(hours=1)
    Room.objects.filter(pk=room.pk).update(deadline=long_ago, turn_deadline=long_ago)
    now = timezone.now()
    desk.staff_clock_rearm(
        staff=referee, number=room.number, reason="nobody's page is open", now=now
    )
    room.refresh_from_db()
    # Everyone is on 托管 here: the re-armed clock's first beat is due at once and done.
    assert room.deadline is not None and room.deadline > long_ago
    assert AuditEntry.objects.get().action == "rearm"


def test_the_desk_lists_tables_in_play_with_stuck_ones_first(
    people: Any, referee: Any, make_user: Callable[..., Any]
) -> None:
    room, _users = people
    calm = start_with_bots(make_user("erin"), seed="desk-calm")
    now = timezone.now()
    Room.objects.filter(pk=room.pk).update(deadline=now - timedelta(minutes=10))
    Room.objects.filter(pk=calm.pk).update(moved_at=now - timedelta(hours=1))
    Seat.objects.filter(room=calm, index=0).update(connections=1, last_seen=now)
    rows = desk.desk_rows(now)
    assert [r.room.number for r in rows] == [room.number, calm.number]
    stuck, fine = rows
    assert stuck.stuck and not fine.stuck
    assert stuck.deadline_overdue == 600 and stuck.hand_no == 1
    assert [s.name for s in stuck.seats] == ["alice", "bob", "carol", "dave"]
    assert stuck.turn == [stuck.seats[hand_of(room).turn].name]
    assert fine.seats[0].connected and fine.seats[0].heartbeat_age == 0
    assert fine.since_move == 3600
    desk.staff_room_dissolve(staff=referee, number=room.number, reason="done")
    assert [r.room.number for r in desk.desk_rows(now)] == [calm.number]


# ---------------------------------------------------------------- #36: the table is told


def notice_shown(room: Room) -> str:
    """The staff notice every page of the room shows, in the active language."""
    room.refresh_from_db()
    table = load_table(room)
    assert table is not None
    return public_board(table).staff_notice


def test_a_dissolve_tells_the_table_why_in_the_match_summary(people: Any, referee: Any) -> None:
    room, _users = people
    desk.staff_room_dissolve(staff=referee, number=room.number, reason="players asked by mail")
    room.refresh_from_db()
    assert room.state is not None
    assert room.state["staff_notice"] == {"action": "dissolve", "reason": "players asked by mail"}
    assert notice_shown(room) == "Staff dissolved the match: players asked by mail"
    table = load_table(room)
    assert table is not None
    html = str(render_public(table))
    # Said once, in the match's summary (the line under the bar is for a match going on).
    assert html.count("data-staff-notice") == 1
    summary = html[html.index('id="match-summary"') :]
    assert "Staff dissolved the match: players asked by mail</p>" in summary
    with translation.override("zh-hans"):
        assert notice_shown(room) == "管理员解散了比赛：players asked by mail"


def test_a_seat_replace_names_the_seat_and_its_player_for_everyone(
    make_user: Callable[..., Any], referee: Any
) -> None:
    users = [
        make_user("alice"),
        make_user("lee", display_name="小李"),
        make_user("c"),
        make_user("d"),
    ]
    room = start_with_four_people(users)
    desk.staff_seat_replace(staff=referee, number=room.number, seat_index=1, reason="走了")
    # Seat 1 is the 南 seat; the name is the person's, not the bot's now in the seat.
    assert notice_shown(room) == "Staff had a bot take over the South seat, 小李: 走了"
    with translation.override("zh-hans"):
        assert notice_shown(room) == "管理员让机器人接替了 南家 小李：走了"
    table = load_table(room)
    assert table is not None
    assert (
        '<p class="staff-notice" role="status" data-staff-notice>'
        "Staff had a bot take over the South seat, 小李: 走了</p>"
    ) in str(render_public(table))


def test_a_rearm_notice_lasts_until_the_next_hand_and_a_new_action_replaces_it(
    people: Any, referee: Any
) -> None:
    room, users = people
    desk.staff_clock_rearm(staff=referee, number=room.number, reason="clock <stuck>")
    assert notice_shown(room) == "Staff restarted the clock: clock <stuck>"
    table = load_table(room)
    assert table is not None
    assert "Staff restarted the clock: clock &lt;stuck&gt;</p>" in str(render_public(table))
    run_clock_until_hand_ends(room)
    assert (
        notice_shown(room) == "Staff restarted the clock: clock <stuck>"
    )  # hand over, not yet next
    for user in users:
        send(room, user, {"action": "ready"})
    assert hand_of(room).step == 0  # the second hand is dealt
    assert notice_shown(room) == ""
    assert room.state is not None and "staff_notice" not in room.state
    table = load_table(room)
    assert table is not None
    assert "data-staff-notice" not in str(render_public(table))
    # A new notice replaces the last; a hand closed by staff says why in its settlement.
    desk.staff_clock_rearm(staff=referee, number=room.number, reason="again")
    desk.staff_seat_replace(staff=referee, number=room.number, seat_index=0, reason="left")
    assert notice_shown(room) == "Staff had a bot take over the East seat, alice: left"
    desk.staff_hand_close(staff=referee, number=room.number, reason="stuck")
    assert notice_shown(room) == ""
