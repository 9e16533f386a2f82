from __future__ import annotations

from typing import Any

from engine.rules import Rules
from ledger.models import Entry
from tables.models import Room
from tables.rooms import selectors, services
from tests.tables.booked_hands import QIDUI_BAODIAO, STRICT_CHI_BAO, store_booked
from tests.tables.factories import played_hand


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


def test_every_rule_option_and_choice_has_words() -> None:
    """A new engine option must not reach the room form or card as its raw name."""
    from engine.rules import OPTION_CHOICES
    from tables.rooms.selectors import OPTION_LABELS, VALUE_LABELS

    options = set(Rules().to_json()) - {"profile"}
    assert options <= set(OPTION_LABELS), options - set(OPTION_LABELS)
    for name, values in OPTION_CHOICES.items():
        assert set(values) <= set(VALUE_LABELS.get(name, {})), name


def test_room_versions_are_read_for_the_rooms_that_exist(room: Any, user: Any) -> None:
    other = services.room_create(
        owner=user, name="other", is_public=True, rules=Rules(), match_length=None
    )
    Room.objects.filter(pk=room.pk).update(version=7)
    Room.objects.filter(pk=other.pk).update(version=3)
    numbers = [room.number, other.number, "999999"]  # a room gone: not there
    assert selectors.room_versions(numbers) == {room.number: 7, other.number: 3}
    assert selectors.room_versions([]) == {}


def test_a_hand_record_shows_the_booked_settlement_even_when_judged_otherwise_today(
    user: Any,
) -> None:
    # Booked 七对宝吊 12 from each of the three others; today's engine says 有宝七对 8.
    hand = store_booked(user, QIDUI_BAODIAO)
    record = selectors.hand_record(hand)
    assert record.earlier_ruling and record.settlement is not None and record.bao == "5m"
    assert [(w.pattern_name, w.score) for w in record.settlement.winners] == [("七对宝吊", 12)]
    assert [p for _, p in record.settlement.hand_totals] == [-12, 36, -12, -12]
    # Its book entries say the same: what the record shows is what was paid.
    assert sorted(e.points for e in Entry.objects.filter(hand=hand)) == [12, 12, 12]


def test_a_hand_record_of_a_win_today_refuses_keeps_its_melds_and_booked_points(
    user: Any,
) -> None:
    hand = store_booked(user, STRICT_CHI_BAO)
    record = selectors.hand_record(hand)
    assert record.earlier_ruling and record.settlement is not None and record.bao == "3s"
    (winner,) = record.settlement.winners
    assert (winner.pattern_name, winner.score) == ("平胡", 4)
    assert [m.tiles for m in winner.melds] == [["1s", "2s", "3s"]]
    assert [p for _, p in record.settlement.hand_totals] == [-4, -4, -4, 12]


def test_a_hand_record_judged_alike_today_has_no_note(user: Any) -> None:
    record = selectors.hand_record(played_hand(user))
    assert record.settlement is not None and not record.earlier_ruling
