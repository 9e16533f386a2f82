"""Writes of a club: creating it, joining, roles and order (each recorded in the audit), room
presets and rooms, and settling its evening. Every write checks the actor's role here, on
the server; a refusal is :class:`ClubError` and writes nothing.

Physical hands are in ``clubs.offline``.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any, TypeVar

from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from clubs.models import (
    AuditEntry,
    Club,
    ClubClaim,
    ClubSettleUp,
    ForbiddenPair,
    Membership,
    Preset,
    RoomGuest,
)
from clubs.selectors import VIEWING, club_entries, club_people, membership_of
from engine.rules import Rules
from ledger import services as ledger_services
from ledger.models import SettlementClaim
from ledger.settle_up import group_nets
from tables.models import Room, Seat
from tables.play import events
from tables.rooms import lookup_limits
from tables.rooms import services as table_services

Role = Membership.Role
Status = Membership.Status


class ClubError(ValueError):
    """A refused club action; the message is for the person who tried."""


class ClubLookupLimited(ClubError):
    """Too many club numbers or invite links that led nowhere."""


def _audit(club: Club, actor: User, action: str, target: User | None = None, **kw: str) -> None:
    AuditEntry.objects.create(club=club, actor=actor, action=action, target=target, **kw)


def _member(club: Club, user: User) -> Membership:
    mine = membership_of(club, user.pk)
    if mine is None:
        raise ClubError(_("You are not a member of this club."))
    return mine


def _admin(club: Club, user: User) -> Membership:
    mine = _member(club, user)
    if mine.role not in (Role.OWNER, Role.ADMIN) or mine.status != Status.ACTIVE:
        raise ClubError(_("Only the club's admins can do that."))
    return mine


def _owner(club: Club, user: User) -> Membership:
    mine = _member(club, user)
    if mine.role != Role.OWNER:
        raise ClubError(_("Only the club's owner (圈主) can do that."))
    return mine


def _reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise ClubError(_("Give a reason: the members read it in the club's record."))
    return reason[:200]


# ---------------------------------------------------------------- the club


def club_create(*, owner: User, name: str, description: str = "", colour: str = "") -> Club:
    """A new club with a fresh six-digit number and invite link; its creator is the 圈主."""
    if not name.strip():
        raise ClubError(_("Give the club a name."))
    for _attempt in range(20):
        try:
            with transaction.atomic():
                club = Club.objects.create(
                    number=f"{secrets.randbelow(900000) + 100000}",
                    name=name.strip()[:30],
                    description=description.strip()[:200],
                    colour=colour if _is_colour(colour) else "#1f7a4d",
                    owner=owner,
                    invite_token=secrets.token_urlsafe(16),
                )
                Membership.objects.create(
                    club=club, user=owner, role=Role.OWNER, status=Status.ACTIVE
                )
                _audit(club, owner, "create")
                return club
        except IntegrityError:
            continue
    raise ClubError(_("Could not find a free club number; try again."))


def _is_colour(text: str) -> bool:
    return (
        len(text) == 7 and text[0] == "#" and all(c in "0123456789abcdefABCDEF" for c in text[1:])
    )


Found = TypeVar("Found", Club, Room)


def _lookup(user_id: int | None, ip: str, found: Found | None, visible: bool) -> Found:
    """The guessing limits of room numbers (``tables.rooms.lookup_limits``) for club numbers
    and links: what does not exist and what is not the asker's answer alike."""
    if lookup_limits.lookup_misses_exhausted(user_id=user_id, ip=ip):
        raise ClubLookupLimited(
            _("Too many room numbers that lead nowhere; try again in a few minutes.")
        )
    if found is None or not visible:
        lookup_limits.lookup_miss_count(user_id=user_id, ip=ip)
        raise ClubError(_("No club of yours has this number or link."))
    return found


def club_find(*, user: User, number: str, ip: str) -> Club:
    """The club of ``number`` for one of its members; anyone else is answered as if there
    were none, and the miss counts against their guesses."""
    club = Club.objects.filter(number=number.strip()).first()
    visible = club is not None and membership_of(club, user.pk) is not None
    return _lookup(user.pk, ip, club, visible)


def club_by_invite(*, user_id: int | None, token: str, ip: str) -> Club:
    """The club a live invite link names (a revoked link leads nowhere)."""
    club = Club.objects.filter(invite_token=token).first() if token else None
    return _lookup(user_id, ip, club, True)


def club_join(*, user: User, token: str, ip: str) -> Membership:
    """Join by the invite link: at once or as a request, as the club chooses."""
    club = club_by_invite(user_id=user.pk, token=token, ip=ip)
    with transaction.atomic():
        mine, _new = Membership.objects.select_for_update().get_or_create(club=club, user=user)
        if mine.status in VIEWING:
            return mine
        if mine.status == Status.REMOVED:
            raise ClubError(_("An admin removed you from this club."))
        mine.status = Status.ACTIVE if club.join_mode == Club.JoinMode.AUTO else Status.PENDING
        mine.role = Role.MEMBER
        mine.joined_at = timezone.now()
        mine.save(update_fields=["status", "role", "joined_at"])
        if mine.status == Status.ACTIVE:
            _audit(club, user, "join")
        return mine


def club_request_answer(*, club: Club, by: User, user_id: int, admit: bool) -> Membership:
    _admin(club, by)
    with transaction.atomic():
        mine = Membership.objects.select_for_update().filter(
            club=club, user_id=user_id, status=Status.PENDING
        )
        request = mine.select_related("user").first()
        if request is None:
            raise ClubError(_("There is no such request to join."))
        request.status = Status.ACTIVE if admit else Status.REFUSED
        request.save(update_fields=["status"])
        _audit(club, by, "admit" if admit else "refuse", request.user)
        return request


def club_leave(*, club: Club, user: User) -> None:
    """Leave the club; the person's history stays in its book."""
    mine = _member(club, user)
    if mine.role == Role.OWNER:
        raise ClubError(_("The owner (圈主) cannot leave the club."))
    mine.status = Status.LEFT
    mine.role = Role.MEMBER
    mine.save(update_fields=["status", "role"])
    _audit(club, user, "leave")
    _evict(club, user)


def club_settings_update(
    *,
    club: Club,
    by: User,
    announcement: str | None = None,
    point_value: str | None = None,
    join_mode: str | None = None,
    revoke_invite: bool = False,
) -> Club:
    """An admin sets the announcement, the joining and the invite link; the 圈主 alone the
    display value of a point."""
    _admin(club, by)
    if point_value is not None:
        _owner(club, by)
        club.point_value = point_value.strip()[:20]
        _audit(club, by, "point_value", detail=club.point_value)
    if announcement is not None:
        club.announcement = announcement.strip()[:200]
        _audit(club, by, "announce")
    if join_mode in Club.JoinMode.values:
        club.join_mode = join_mode
        _audit(club, by, "join_mode", detail=join_mode)
    if revoke_invite:
        club.invite_token = secrets.token_urlsafe(16)
        _audit(club, by, "new_link")
    club.save()
    return club


# ---------------------------------------------------------------- order

DISCIPLINE = ("mute", "unmute", "suspend", "reinstate", "remove", "admin", "member")


def member_discipline(*, club: Club, by: User, user_id: int, action: str, reason: str) -> None:
    """Mute, suspend or remove a member (or undo it); the 圈主 alone makes or unmakes an
    admin, and an admin acts only on plain members."""
    mine = _admin(club, by)
    if action not in DISCIPLINE:
        raise ClubError(_("There is no such action."))
    reason = _reason(reason)
    target = Membership.objects.filter(club=club, user_id=user_id, status__in=VIEWING).first()
    if target is None or target.user_id == by.pk:
        raise ClubError(_("There is no such member."))
    if target.role == Role.OWNER or (target.role == Role.ADMIN and mine.role != Role.OWNER):
        raise ClubError(_("Only the owner (圈主) can act on an admin."))
    if action in ("admin", "member") and mine.role != Role.OWNER:
        raise ClubError(_("Only the club's owner (圈主) can do that."))
    changes: dict[str, dict[str, Any]] = {
        "mute": {"muted": True},
        "unmute": {"muted": False},
        "suspend": {"status": Status.SUSPENDED},
        "reinstate": {"status": Status.ACTIVE},
        "remove": {"status": Status.REMOVED, "role": Role.MEMBER},
        "admin": {"role": Role.ADMIN},
        "member": {"role": Role.MEMBER},
    }
    fields = changes[action]
    Membership.objects.filter(pk=target.pk).update(**fields)
    _audit(club, by, action, target.user, reason=reason)
    if action == "remove":
        _evict(club, target.user)


def _evict(club: Club, user: User) -> None:
    """Close the person's pages at the club's rooms (they may no longer see them)."""
    for number in Room.objects.filter(club=club).values_list("number", flat=True):
        events.member_evicted(number, user.pk)


def forbidden_pair_set(
    *, club: Club, by: User, first_id: int, second_id: int, forbid: bool, reason: str
) -> None:
    """禁止同桌: mark (or unmark) two members who may not sit at one table."""
    _admin(club, by)
    reason = _reason(reason)
    a, b = sorted((first_id, second_id))
    members = Membership.objects.filter(club=club, user_id__in=(a, b), status__in=VIEWING)
    if a == b or members.count() != 2:
        raise ClubError(_("Choose two different members."))
    if forbid:
        ForbiddenPair.objects.get_or_create(club=club, first_id=a, second_id=b)
    else:
        ForbiddenPair.objects.filter(club=club, first_id=a, second_id=b).delete()
    names = " / ".join(m.user.name for m in members.select_related("user"))
    _audit(club, by, "forbid" if forbid else "allow", reason=reason, detail=names[:100])


# ---------------------------------------------------------------- rooms


def preset_create(
    *,
    club: Club,
    by: User,
    name: str,
    rules: Rules,
    match_length: int | None,
    turn_seconds: int,
) -> Preset:
    _admin(club, by)
    if not name.strip():
        raise ClubError(_("Give the preset a name."))
    preset = Preset.objects.create(
        club=club,
        name=name.strip()[:40],
        rules=rules.to_json(),
        match_length=match_length,
        turn_seconds=turn_seconds,
    )
    _audit(club, by, "preset", detail=preset.name)
    return preset


def preset_delete(*, club: Club, by: User, preset_id: int) -> None:
    _admin(club, by)
    Preset.objects.filter(club=club, pk=preset_id).delete()


def room_open(*, club: Club, by: User, preset_id: int) -> Room:
    """A member opens a room from a preset in one tap: the club's, private, the opener in
    seat 0."""
    mine = _member(club, by)
    if mine.status != Status.ACTIVE:
        raise ClubError(_("An admin of this club has suspended you: you cannot sit at its tables."))
    preset = Preset.objects.filter(club=club, pk=preset_id).first()
    if preset is None:
        raise ClubError(_("There is no such preset."))
    with transaction.atomic():
        try:
            room = table_services.room_create(
                owner=by,
                name=preset.name,
                is_public=False,
                rules=Rules.from_json(preset.rules),
                match_length=preset.match_length,
                turn_seconds=preset.turn_seconds,
            )
        except table_services.RoomError as exc:
            raise ClubError(str(exc)) from None
        Room.objects.filter(pk=room.pk).update(club=club)
        room.club = club
        return room


def club_seat_move(*, club: Club, by: User, number: str, user_id: int, index: int) -> None:
    """An admin seats a member at one of the club's waiting rooms (or moves them there):
    the same seat taking as the member's own, 禁止同桌 included."""
    _admin(club, by)
    room = Room.objects.filter(club=club, number=number).first()
    member = membership_of(club, user_id)
    if room is None or member is None:
        raise ClubError(_("There is no such room in this club."))
    try:
        table_services.seat_take(room=room, user=member.user, index=index)
    except table_services.RoomError as exc:
        raise ClubError(str(exc)) from None
    _audit(club, by, "seat", member.user, detail=f"{room.number}:{index + 1}")
    events.table_changed(room.number)


GUEST_LINK_SALT = "clubs.room-guest"
GUEST_LINK_DAYS = 2
"""A guest link lasts the evening it was made for, and the morning after."""


def guest_token(*, club: Club, by: User, room: Room) -> str:
    """A member's link that lets one friend outside the club into this one room."""
    _member(club, by)
    if room.club_id != club.pk:
        raise ClubError(_("There is no such room in this club."))
    return signing.dumps(room.number, salt=GUEST_LINK_SALT)


def room_guest_admit(*, user: User, token: str, ip: str) -> Room:
    """The guest link opened: its room is now visible to ``user``. A link that is not one
    (or has lapsed) counts as a guess and leads nowhere, like a wrong room number."""
    try:
        number = signing.loads(token, salt=GUEST_LINK_SALT, max_age=GUEST_LINK_DAYS * 86400)
    except signing.BadSignature:
        number = None
    found = Room.objects.filter(number=number, club__isnull=False).first() if number else None
    open_ = found is not None and found.status != Room.Status.FINISHED
    room = _lookup(user.pk, ip, found, open_)
    RoomGuest.objects.get_or_create(room=room, user=user)
    return room


def club_room_close(*, club: Club, by: User, number: str, reason: str) -> Room:
    """An admin closes (dissolves) one of the club's rooms, with a reason in the audit."""
    _admin(club, by)
    reason = _reason(reason)
    room = Room.objects.filter(club=club, number=number).first()
    if room is None:
        raise ClubError(_("There is no such room in this club."))
    with transaction.atomic():
        table_services.room_close(room=room)
        _audit(club, by, "close_room", reason=reason, detail=room.number)
    events.table_changed(room.number)
    return room


def online_members(club: Club) -> set[int]:
    """Members with a page open at one of the club's unfinished tables."""
    seats = Seat.objects.filter(room__club=club, user__isnull=False, connections__gt=0).exclude(
        room__status=Room.Status.FINISHED
    )
    return set(seats.values_list("user_id", flat=True))


# ---------------------------------------------------------------- settling the evening


def club_claim_create(
    *,
    club: Club,
    by: User,
    payer_id: int,
    payee_id: int,
    points: int,
    since: datetime | None,
) -> SettlementClaim:
    """One of the evening's transfers becomes a settle-up claim (one tap). Only a member
    who pays or is paid records it, and only up to what the period's nets say."""
    _member(club, by)
    entries = club_entries(club, since)
    nets = {u.pk: n for u, n in group_nets(club_people(club, entries), within=entries).items()}
    if payer_id not in nets or payee_id not in nets:
        raise ClubError(_("Both must be in the club's book."))
    if points > min(-nets[payer_id], nets[payee_id]):
        raise ClubError(_("That is more than the evening's nets ask for."))
    people = {u.pk: u for u in User.objects.filter(pk__in=(payer_id, payee_id))}
    with transaction.atomic():
        try:
            claim = ledger_services.settlement_claim_create(
                recorded_by=by,
                payer=people[payer_id],
                payee=people[payee_id],
                points=points,
                note=_("亲友圈 %(name)s") % {"name": club.name},
                suggested=points,
            )
        except ledger_services.LedgerError as exc:
            raise ClubError(str(exc)) from None
        ClubClaim.objects.create(club=club, claim=claim, since=since)
    return claim


def club_claim_answer(*, club: Club, by: User, claim_id: int, confirm: bool) -> None:
    """The other party answers a club claim (a confirmation may mark the club settled:
    ``clubs.signals``)."""
    if not ClubClaim.objects.filter(club=club, claim_id=claim_id).exists():
        raise ClubError(_("There is no settlement waiting for your answer."))
    try:
        if confirm:
            ledger_services.settlement_claim_confirm(claim_id=claim_id, user=by)
        else:
            ledger_services.settlement_claim_dispute(claim_id=claim_id, user=by)
    except ledger_services.LedgerError as exc:
        raise ClubError(str(exc)) from None


def club_settled_if_square(*, link: ClubClaim, by_id: int) -> None:
    """After a club claim was confirmed: if every net of the period it settles is now zero,
    the club's book is settled from this moment."""
    entries = club_entries(link.club, link.since)
    nets = group_nets(club_people(link.club, entries), within=entries)
    if not any(nets.values()):
        ClubSettleUp.objects.create(club=link.club, by_id=by_id)
        AuditEntry.objects.create(club=link.club, actor_id=by_id, action="settled")
