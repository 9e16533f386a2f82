"""Reads of a club: who belongs and in what role, which rooms a person may see or sit in,
and the club's book (the club's rooms, its physical hands and its settle-ups) by period."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from clubs.models import Club, ClubSettleUp, ForbiddenPair, Membership, OfflineHand, RoomGuest
from ledger.models import Entry
from ledger.selectors import period_start
from tables.models import Room, Seat

__all__ = [
    "CLUB_PERIODS",
    "VIEWING",
    "club_entries",
    "club_muted",
    "club_of",
    "club_people",
    "club_period_start",
    "club_room_visible",
    "club_seat_refusal",
    "forbidden_pair_for",
    "membership_of",
    "my_clubs",
    "offline_recording",
    "offline_to_answer",
]

CLUB_PERIODS = ("tonight", "week", "month", "settled", "all")
VIEWING = (Membership.Status.ACTIVE, Membership.Status.SUSPENDED)
"""Statuses that may open the club's pages; a suspended member reads but may not sit."""
EVENING_STARTS_AT = 12
"""An evening runs from noon to the next noon, so a game past midnight is still tonight's."""


def membership_of(club: Club, user_id: int | None) -> Membership | None:
    """``user_id``'s membership that lets them in (active or suspended), or None."""
    if user_id is None:
        return None
    return Membership.objects.filter(club=club, user_id=user_id, status__in=VIEWING).first()


def club_of(user: User, number: str) -> Club | None:
    """The club of this number if ``user`` belongs to it; None for any other number, existing
    or not, so the answer never tells which clubs exist."""
    return (
        Club.objects.filter(
            number=number.strip(),
            memberships__user=user,
            memberships__status__in=VIEWING,
        )
        .select_related("owner")
        .first()
    )


def my_clubs(user: User) -> QuerySet[Club]:
    return Club.objects.filter(memberships__user=user, memberships__status__in=VIEWING).order_by(
        "name"
    )


def club_room_visible(room: Room, user_id: int | None) -> bool:
    """A club's room is seen by its members, its guests (invited by its guest link) and
    whoever already sits in it; any other room by everyone who has its number."""
    if room.club_id is None:
        return True
    if user_id is None:
        return False
    member = Membership.objects.filter(
        club_id=room.club_id, user_id=user_id, status__in=VIEWING
    ).exists()
    return (
        member
        or RoomGuest.objects.filter(room=room, user_id=user_id).exists()
        or Seat.objects.filter(room=room, user_id=user_id).exists()
    )


def club_muted(number: str, user_id: int) -> bool:
    """Is ``user_id`` muted by the club whose room ``number`` is (no phrases at its tables)?"""
    return Membership.objects.filter(
        club__rooms__number=number, user_id=user_id, muted=True
    ).exists()


def forbidden_pair_for(room: Room, user: User) -> User | None:
    """Someone seated at ``room`` whom ``user`` may not sit with (禁止同桌), or None."""
    if room.club_id is None:
        return None
    seated = Seat.objects.filter(room=room, user__isnull=False).exclude(user=user)
    ids = list(seated.values_list("user_id", flat=True))
    pair = ForbiddenPair.objects.filter(
        Q(first=user, second_id__in=ids) | Q(second=user, first_id__in=ids), club_id=room.club_id
    ).first()
    if pair is None:
        return None
    return pair.second if pair.first_id == user.pk else pair.first


def club_seat_refusal(room: Room, user: User) -> str | None:
    """Why ``user`` may not sit at ``room`` (a club's), or None: every way of sitting down
    asks this."""
    if room.club_id is None:
        return None
    mine = Membership.objects.filter(club_id=room.club_id, user=user).first()
    if mine is not None and mine.status == Membership.Status.SUSPENDED:
        return _("An admin of this club has suspended you: you cannot sit at its tables.")
    other = forbidden_pair_for(room, user)
    if other is not None:
        return _("The club does not let you sit at the same table as %(name)s.") % {
            "name": other.name
        }
    return None


def club_period_start(club: Club, period: str, now: datetime | None = None) -> datetime | None:
    """tonight (from noon), this week, this month, since the club last settled up, or all."""
    if period == "tonight":
        local = timezone.localtime(now)
        noon = local.replace(hour=EVENING_STARTS_AT, minute=0, second=0, microsecond=0)
        return noon if local >= noon else noon - timedelta(days=1)
    if period == "settled":
        last = ClubSettleUp.objects.filter(club=club).order_by("-at").first()
        return last.at + timedelta(microseconds=1) if last is not None else None
    return period_start(period, now) if period in ("week", "month") else None


def club_entries(club: Club, since: datetime | None = None) -> QuerySet[Entry]:
    """The club's book: every entry of its rooms, its physical hands and its settle-ups."""
    entries = Entry.objects.filter(
        Q(room__club=club) | Q(club_link__club=club) | Q(claim__club_link__club=club)
    ).exclude(payer__isnull=True, payee__isnull=True)
    if since is not None:
        entries = entries.filter(created_at__gte=since)
    return entries


def club_people(club: Club, entries: QuerySet[Entry] | None = None) -> list[User]:
    """Everyone the book names (members, and those who left: their history stays) and every
    active member, by name."""
    book = entries if entries is not None else club_entries(club)
    ids = set(book.filter(payer__isnull=False).values_list("payer_id", flat=True))
    ids |= set(book.filter(payee__isnull=False).values_list("payee_id", flat=True))
    active = Membership.objects.filter(club=club, status__in=VIEWING).values("user_id")
    people = User.objects.filter(Q(pk__in=ids) | Q(pk__in=active))
    return sorted(people, key=lambda u: (u.name.lower(), u.pk))


def offline_to_answer(club: Club, user: User) -> list[OfflineHand]:
    """Physical hands ``user`` played that still wait for their answer."""
    waiting = OfflineHand.objects.filter(club=club, status=OfflineHand.Status.PROPOSED)
    return [
        h
        for h in waiting.exclude(answers__user=user)
        if user.pk in h.players and h.recorded_by_id != user.pk
    ]


def offline_recording(user: object, number: str) -> dict[str, object] | None:
    """What the 算分器 needs to offer recording its hand as a physical hand of club
    ``number``: the club and its members, for one of them; None otherwise (and for anyone
    else alike, existing club or not)."""
    if not isinstance(user, User) or not number:
        return None
    club = club_of(user, number)
    if club is None:
        return None
    members = Membership.objects.filter(club=club, status__in=VIEWING).select_related("user")
    people = sorted((m.user for m in members), key=lambda u: (u.pk != user.pk, u.name.lower()))
    return {"club": club, "members": people}
