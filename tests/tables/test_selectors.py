from __future__ import annotations

from typing import Any

from engine.rules import Rules
from ledger.models import Entry
from tables import selectors, services
from tables.models import Hand


def hand_entry(**fields: Any) -> Entry:
    return Entry.objects.create(kind=Entry.Kind.HAND, **fields)


def test_public_rooms_counts_and_privacy(room: Any, user: Any, make_user: Any) -> None:
    services.bot_add(room=room, by_user=user, index=1)
    services.seat_take(room=room, user=make_user("bob"), index=2)
    private = services.room_create(
        owner=user, name="secret", is_public=False, rules=Rules(), match_length=None
    )
    rooms = list(selectors.public_rooms())
    assert rooms == [room]
    assert rooms[0].seated == 3  # type: ignore[attr-defined]
    assert private not in rooms


def test_my_rooms(room: Any, user: Any, make_user: Any) -> None:
    bob = make_user("bob")
    assert list(selectors.my_rooms(bob)) == []
    services.seat_take(room=room, user=bob, index=2)
    assert list(selectors.my_rooms(bob)) == [room]
    assert list(selectors.my_rooms(user)) == [room]


def test_room_by_number_and_seats(room: Any) -> None:
    assert selectors.room_by_number(room.number) == room
    assert selectors.room_by_number("nope") is None
    assert [s.index for s in selectors.room_with_seats(room)] == [0, 1, 2, 3]


def test_rules_summary_names_overrides() -> None:
    rules = Rules.profile_named("jiuyao_fan").with_options(qiang_gang=False, min_win_points=6)
    summary = selectors.rules_summary(rules.to_json())
    labels = dict(summary.changes)
    assert len(summary.changes) == 2
    assert any(v == "6" for v in labels.values())
    assert selectors.rules_summary(Rules().to_json()).changes == []


def test_ledger_nets_points_per_player_and_hand(room: Any, user: Any, make_user: Any) -> None:
    bob, carol = make_user("bob"), make_user("carol")
    h1 = Hand.objects.create(room=room, number=1, dealer=0, seed="s", rules={})
    h2 = Hand.objects.create(room=room, number=2, dealer=1, seed="t", rules={})
    Entry.objects.create(
        kind="hand", hand=h1, payer_seat=1, payee_seat=0, payer=bob, payee=user, points=8
    )
    Entry.objects.create(
        kind="hand", hand=h1, payer_seat=2, payee_seat=0, payer=carol, payee=user, points=8
    )
    Entry.objects.create(
        kind="hand", hand=h2, payer_seat=0, payee_seat=1, payer=user, payee=bob, points=3
    )
    ledger = selectors.ledger_for(user)
    assert ledger.total == 13
    assert dict((u.username, p) for u, p in ledger.against) == {"bob": 5, "carol": 8}
    assert {row.hand.number: row.points for row in ledger.hands} == {1: 16, 2: -3}
    assert selectors.ledger_for(bob).total == -5


def test_every_rule_option_and_choice_has_words() -> None:
    """A new engine option must not reach the room form or card as its raw name."""
    from engine.rules import OPTION_CHOICES
    from tables.selectors import OPTION_LABELS, VALUE_LABELS

    options = set(Rules().to_json()) - {"profile"}
    assert options <= set(OPTION_LABELS), options - set(OPTION_LABELS)
    for name, values in OPTION_CHOICES.items():
        assert set(values) <= set(VALUE_LABELS.get(name, {})), name


def test_ledger_rows_add_up_with_bots_and_group_by_match(
    room: Any, user: Any, make_user: Any
) -> None:
    bob = make_user("bob")
    other_room = services.room_create(
        owner=user, name="Saturday", is_public=True, rules=Rules(), match_length=None
    )
    h1 = Hand.objects.create(room=room, number=1, dealer=0, seed="s", rules={})
    h2 = Hand.objects.create(room=other_room, number=1, dealer=0, seed="t", rules={})
    # A bot seat pays and is paid with no account on its side.
    Entry.objects.create(
        kind="hand", hand=h1, payer_seat=2, payee_seat=0, payer=None, payee=user, points=4
    )
    Entry.objects.create(
        kind="hand", hand=h1, payer_seat=1, payee_seat=0, payer=bob, payee=user, points=4
    )
    Entry.objects.create(
        kind="hand", hand=h2, payer_seat=0, payee_seat=3, payer=user, payee=None, points=10
    )
    ledger = selectors.ledger_for(user)
    assert ledger.total == -2
    assert ledger.against_bots == -6
    assert sum(p for _u, p in ledger.against) + ledger.against_bots == ledger.total
    by_room = {m.room.name: (m.points, [h.hand.pk for h in m.hands]) for m in ledger.matches}
    assert by_room == {room.name: (8, [h1.pk]), "Saturday": (-10, [h2.pk])}
    assert [m.room.pk for m in ledger.matches] == [other_room.pk, room.pk]  # newest first
