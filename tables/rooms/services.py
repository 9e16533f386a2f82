"""Writes: rooms and seats, one transaction each; they refuse with :class:`RoomError`.

A running table's inputs are :mod:`tables.play.inputs`.
"""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from clubs.selectors import club_room_visible, club_seat_refusal
from engine.rules import Rules
from tables.models import BOT_BASIC, SEATS, TUOGUAN_AFTER_DEFAULT, Hand, Match, Room, Seat
from tables.play import clock, inputs, moves
from tables.play.protocol import PlayError
from tables.rooms import lookup_limits, selectors

TURN_SECONDS_MIN = 5
TURN_SECONDS_MAX = 120
MATCH_LENGTH_MAX = 64


class RoomError(ValueError):
    """A room action that is not allowed now; the message is shown to the player."""


class RoomLookupLimited(RoomError):
    """Too many room numbers that led nowhere: look-ups are refused for a while."""


def _new_number() -> str:
    return f"{secrets.randbelow(900000) + 100000}"


def _locked(room: Room) -> Room:
    """The room row, locked for this transaction, with fresh fields."""
    return Room.objects.select_for_update().get(pk=room.pk)


def _check_settings(name: str, match_length: int | None, turn_seconds: int) -> None:
    if not name.strip():
        raise RoomError(_("Give the room a name."))
    if match_length is not None and not 1 <= match_length <= MATCH_LENGTH_MAX:
        raise RoomError(
            _("A match is 1 to %(max)d hands, or open-ended.") % {"max": MATCH_LENGTH_MAX}
        )
    if not TURN_SECONDS_MIN <= turn_seconds <= TURN_SECONDS_MAX:
        raise RoomError(
            _("The turn timer is %(min)d to %(max)d seconds.")
            % {"min": TURN_SECONDS_MIN, "max": TURN_SECONDS_MAX}
        )


def room_create(
    *,
    owner: User,
    name: str,
    is_public: bool,
    rules: Rules,
    match_length: int | None,
    turn_seconds: int = 20,
    tuoguan_after: int = TUOGUAN_AFTER_DEFAULT,
) -> Room:
    """A new waiting room with a fresh random 6-digit number; the owner sits in seat 0."""
    _check_settings(name, match_length, turn_seconds)
    for _attempt in range(20):
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    number=_new_number(),
                    name=name.strip(),
                    owner=owner,
                    is_public=is_public,
                    rules=rules.to_json(),
                    match_length=match_length,
                    turn_seconds=turn_seconds,
                    tuoguan_after=tuoguan_after,
                )
                Seat.objects.bulk_create(
                    [Seat(room=room, index=i, user=owner if i == 0 else None) for i in range(SEATS)]
                )
                return room
        except IntegrityError:
            continue  # the number was taken: draw another
    raise RoomError(_("Could not find a free room number; try again."))


def room_find(*, user: User, number: str, ip: str) -> Room:
    """The room with this number, asked for by ``user`` from address ``ip`` (join form,
    invite link, socket).

    Room numbers are the only key to private rooms, so numbers that lead nowhere are counted
    against the account (sign-ups are limited per address, so fresh accounts don't bring
    fresh guesses); past the limit in a window, guessing is refused, but never a room the
    account already sits in or owns. The address is not counted: one guesser behind a
    shared address must not lock out everyone else there (N7).
    """
    room = selectors.room_by_number(number)
    if room is not None and (room.owner_id == user.pk or selectors.seat_of(room, user)):
        return room
    return _room_lookup(room, user_id=user.pk, ip=ip, number=number)


def room_find_anonymous(*, ip: str, number: str) -> Room:
    """The room an invite link opened by someone not logged in names. Misses are counted per
    address; a correct number is never refused (neighbours behind the address were sent it)."""
    room = selectors.room_by_number(number)
    if room is not None and club_room_visible(room, None):
        return room
    return _room_lookup(room, user_id=None, ip=ip, number=number)


def _room_lookup(room: Room | None, *, user_id: int | None, ip: str, number: str) -> Room:
    if lookup_limits.lookup_misses_exhausted(user_id=user_id, ip=ip):
        raise RoomLookupLimited(
            _("Too many room numbers that lead nowhere; try again in a few minutes.")
        )
    if room is None or not club_room_visible(room, user_id):
        lookup_limits.lookup_miss_count(user_id=user_id, ip=ip)
        raise RoomError(_("There is no room %(number)s.") % {"number": number.strip() or "—"})
    return room


def room_join(*, user: User, number: str, ip: str) -> Room:
    """The room with this number (the invite code); it must still be open."""
    room = room_find(user=user, number=number, ip=ip)
    if room.status == Room.Status.FINISHED:
        raise RoomError(_("Room %(number)s has finished.") % {"number": room.number})
    return room


def _require_waiting(room: Room) -> None:
    if room.status != Room.Status.WAITING:
        raise RoomError(_("The match has started: seats and rules can no longer change."))


def _require_owner(room: Room, user: User) -> None:
    if room.owner_id != user.pk:
        raise RoomError(_("Only the room owner can do that."))


def _seat(room: Room, index: int) -> Seat:
    if not 0 <= index < SEATS:
        raise RoomError(_("There is no such seat."))
    return Seat.objects.select_for_update().get(room=room, index=index)


def seat_take(*, room: Room, user: User, index: int) -> Seat:
    """Sit down in an empty seat; a player who is already seated moves seats."""
    with transaction.atomic():
        room = _locked(room)
        _require_waiting(room)
        seat = _seat(room, index)
        if seat.user_id == user.pk:
            return seat
        if not seat.is_empty:
            raise RoomError(_("That seat is taken."))
        _club_seat_check(room, user)
        Seat.objects.filter(room=room, user=user).update(user=None, ready=False)
        seat.user = user
        seat.ready = False
        seat.save(update_fields=["user", "ready"])
        return seat


def _club_seat_check(room: Room, user: User) -> None:
    """A club's rules on who sits (禁止同桌, suspension); ``clubs.selectors`` decides."""
    refusal = club_seat_refusal(room, user)
    if refusal is not None:
        raise RoomError(refusal)


def seat_leave(*, room: Room, user: User) -> None:
    """Stand up. Once the match has started the seat stays the player's (so do its points)
    and goes on 托管: the bot plays it until the player comes back and takes control."""
    if room.status == Room.Status.PLAYING:
        try:
            inputs.table_change(
                room.number,
                user,
                lambda t, seat: moves.tuoguan_set(t, seat, True, Seat.TuoguanReason.LEFT),
            )
        except PlayError as exc:
            raise RoomError(str(exc)) from None
        return
    with transaction.atomic():
        room = _locked(room)
        _require_waiting(room)
        if room.owner_id == user.pk:
            # The owner's roll picks the first dealer (§2), so the owner keeps a seat.
            raise RoomError(_("The room's owner keeps a seat; close the room instead."))
        if not Seat.objects.filter(room=room, user=user).update(user=None, ready=False):
            raise RoomError(_("You are not seated in this room."))


def seat_ready(*, room: Room, user: User, ready: bool) -> Seat:
    """准备 (or not) before the match starts."""
    with transaction.atomic():
        room = _locked(room)
        _require_waiting(room)
        seat = Seat.objects.select_for_update().filter(room=room, user=user).first()
        if seat is None:
            raise RoomError(_("Take a seat first."))
        seat.ready = ready
        seat.save(update_fields=["ready"])
        return seat


def bot_add(*, room: Room, by_user: User, index: int) -> Seat:
    """The owner puts a bot in an empty seat before the start; bots are always ready."""
    with transaction.atomic():
        room = _locked(room)
        _require_owner(room, by_user)
        _require_waiting(room)
        seat = _seat(room, index)
        if not seat.is_empty:
            raise RoomError(_("That seat is taken."))
        seat.bot = BOT_BASIC
        seat.ready = True
        seat.save(update_fields=["bot", "ready"])
        return seat


def seat_clear(*, room: Room, by_user: User, index: int) -> Seat:
    """The owner empties a seat (a player or a bot) before the start; not the owner's own."""
    with transaction.atomic():
        room = _locked(room)
        _require_owner(room, by_user)
        _require_waiting(room)
        seat = _seat(room, index)
        if seat.is_empty:
            raise RoomError(_("That seat is already empty."))
        if seat.user_id == by_user.pk:
            raise RoomError(_("You cannot remove yourself; leave the seat instead."))
        seat.user = None
        seat.bot = ""
        seat.ready = False
        seat.save(update_fields=["user", "bot", "ready"])
        return seat


def room_rules_update(*, room: Room, by_user: User, rules: Rules) -> Room:
    """Change the rules; they lock once the match has started."""
    with transaction.atomic():
        room = _locked(room)
        _require_owner(room, by_user)
        if room.status != Room.Status.WAITING:
            raise RoomError(_("The rules are locked once the match has started."))
        room.rules = rules.to_json()
        room.save(update_fields=["rules"])
        Seat.objects.filter(room=room, bot="").update(ready=False)
        return room


def match_start(*, room: Room, by_user: User, first_seed: str | None = None) -> Room:
    """The owner starts once all four seats are filled and every person is ready.

    ``first_seed`` fixes the first deal, for tests that need a known hand; never from a page.
    """
    with transaction.atomic():
        room = _locked(room)
        _require_owner(room, by_user)
        _require_waiting(room)
        seats = list(room.seats.all())
        if any(seat.is_empty for seat in seats) or len(seats) != SEATS:
            raise RoomError(_("All four seats must be filled (add bots for empty seats)."))
        if not all(seat.ready for seat in seats if not seat.bot):
            raise RoomError(_("Everyone must be ready before the match starts."))
        clock.table_commit(moves.match_begin(room, first_seed=first_seed), timezone.now())
        return room


def room_close(*, room: Room) -> Room:
    """An admin closes a room: a match in progress stops where it is (hands already played
    stay in the ledger), a waiting room stops taking players."""
    with transaction.atomic():
        room = _locked(room)
        room.status = Room.Status.FINISHED
        room.deadline = None
        room.turn_deadline = None
        room.save(update_fields=["status", "deadline", "turn_deadline"])
        # A hand cut off in play ends with no result: nobody pays for it. Its log, kept in
        # room.state while it was played, goes to its record.
        state = room.state or {}
        if state.get("hand") and state.get("hand_id"):
            Hand.objects.filter(pk=int(state["hand_id"]), ended_at__isnull=True).update(
                actions=state["hand"]["log"]
            )
        Hand.objects.filter(room=room, ended_at__isnull=True).update(ended_at=timezone.now())
        Match.objects.filter(room=room, ended_at=None).update(ended_at=timezone.now())
        return room


def room_owner_transfer(*, room: Room, by_user: User, index: int) -> Room:
    """The owner hands the room to the person in seat ``index`` (a person, not a bot)."""
    with transaction.atomic():
        room = _locked(room)
        _require_owner(room, by_user)
        if not 0 <= index < SEATS:
            raise RoomError(_("There is no such seat."))
        seat = Seat.objects.select_related("user").get(room=room, index=index)
        if seat.user is None:
            raise RoomError(_("Only a person seated in the room can become its owner."))
        if seat.user_id == by_user.pk:
            raise RoomError(_("You already own this room."))
        room.owner = seat.user
        room.version += 1
        room.save(update_fields=["owner", "version"])
        return room


def room_rematch(*, room: Room, by_user: User) -> Room:
    """After a match has ended the owner opens the next one in the same room: the room waits
    again (rules may change), everyone presses 准备 again, and the owner starts it; its
    scores start from zero (a new ``Match`` row at the start)."""
    with transaction.atomic():
        room = _locked(room)
        _require_owner(room, by_user)
        if room.status != Room.Status.FINISHED or not Match.objects.filter(room=room).exists():
            raise RoomError(_("A new match can start only after a match has ended."))
        room.status = Room.Status.WAITING
        room.state = None
        room.deadline = None
        room.turn_deadline = None
        room.version += 1
        room.save(update_fields=["status", "state", "deadline", "turn_deadline", "version"])
        Seat.objects.filter(room=room, bot="").update(ready=False, tuoguan=False)
        Seat.objects.filter(room=room).exclude(bot="").update(ready=True, tuoguan=False)
        return room
