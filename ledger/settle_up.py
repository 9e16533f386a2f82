"""Who pays whom: the fewest payments that clear a group's nets (a suggestion only).

Finding the fewest payments is NP-hard in general, but a table's group is small. A group of n
people with a non-zero net that splits into at most k subgroups each summing to zero needs
exactly n - k payments (each subgroup of m settles in m - 1, and no payment can clear more), so
:func:`who_pays_whom` searches the largest such split exactly, over subsets, for up to
:data:`EXACT_UP_TO` people, and settles each subgroup greedily.

>>> who_pays_whom({"a": -5, "b": 5, "c": -3, "d": 3})
[Payment(payer='a', payee='b', points=5), Payment(payer='c', payee='d', points=3)]
>>> who_pays_whom({"a": -4, "b": 1, "c": 3})
[Payment(payer='a', payee='c', points=3), Payment(payer='a', payee='b', points=1)]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from django.db.models import QuerySet, Sum

from accounts.models import User
from ledger.models import DayTally, Entry, PairBalance
from tables.models import Room, Seat

__all__ = [
    "EXACT_UP_TO",
    "Payment",
    "group_nets",
    "is_exact",
    "partners_of",
    "room_players",
    "rooms_of",
    "who_pays_whom",
]

K = TypeVar("K", bound=Hashable)

EXACT_UP_TO = 16
"""Beyond this many non-zero nets (2^n subsets) the split is found greedily: still cleared,
perhaps with a payment or two more than needed."""


@dataclass(frozen=True)
class Payment(Generic[K]):
    payer: K
    payee: K
    points: int


def who_pays_whom(nets: Mapping[K, int]) -> list[Payment[K]]:
    """Payments that bring every net to zero, as few as possible; ``nets`` must sum to zero.

    A positive net is owed to that person, a negative one is what they owe.
    """
    if sum(nets.values()) != 0:
        raise ValueError(f"nets must sum to zero, not {sum(nets.values())}")
    people = [k for k, v in nets.items() if v != 0]
    payments: list[Payment[K]] = []
    for group in _zero_sum_groups(people, nets):
        payments.extend(_settle_greedily(group, nets))
    return payments


def _zero_sum_groups(people: list[K], nets: Mapping[K, int]) -> list[list[K]]:
    """``people`` split into as many zero-sum groups as possible."""
    n = len(people)
    if n > EXACT_UP_TO:
        return [people]
    full = (1 << n) - 1
    total = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + nets[people[low]]
    # best[mask]: most zero-sum groups that ``mask`` can be split into (when it sums to zero),
    # by the usual ordering argument: along some order of its people, count the prefixes that
    # sum to zero. last[mask] remembers which person to peel off to get there.
    best = [0] * (full + 1)
    last = [0] * (full + 1)
    for mask in range(1, full + 1):
        top, pick = -1, 0
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] > top:
                top, pick = best[mask ^ bit], bit
        best[mask] = top + (1 if total[mask] == 0 else 0)
        last[mask] = pick
    groups: list[list[K]] = []
    current: list[K] = []
    mask = full
    while mask:
        if total[mask] == 0 and current:
            groups.append(current)
            current = []
        bit = last[mask]
        current.append(people[bit.bit_length() - 1])
        mask ^= bit
    if current:
        groups.append(current)
    return groups


def _settle_greedily(group: Iterable[K], nets: Mapping[K, int]) -> list[Payment[K]]:
    """A zero-sum group of m settled in at most m - 1 payments: each clears one person."""
    owing = sorted(((-nets[k], k) for k in group if nets[k] < 0), key=lambda x: -x[0])
    owed = sorted(((nets[k], k) for k in group if nets[k] > 0), key=lambda x: -x[0])
    payments: list[Payment[K]] = []
    i = j = 0
    debts = [d for d, _k in owing]
    credits = [c for c, _k in owed]
    while i < len(owing) and j < len(owed):
        points = min(debts[i], credits[j])
        payments.append(Payment(owing[i][1], owed[j][1], points))
        debts[i] -= points
        credits[j] -= points
        i += debts[i] == 0
        j += credits[j] == 0
    return payments


# ---------------------------------------------------------------- the group of a room


def room_players(room: Room) -> list[User]:
    """Everyone who sat at ``room`` as a person: its seats now and anyone its hands booked."""
    ids = set(Seat.objects.filter(room=room, user__isnull=False).values_list("user_id", flat=True))
    booked = Entry.objects.filter(room=room, kind=Entry.Kind.HAND)
    ids |= set(booked.filter(payer__isnull=False).values_list("payer_id", flat=True))
    ids |= set(booked.filter(payee__isnull=False).values_list("payee_id", flat=True))
    return list(User.objects.filter(pk__in=ids).order_by("pk"))


def is_exact(nets: Mapping[K, int]) -> bool:
    """Whether :func:`who_pays_whom` finds the fewest payments for these nets (else greedy)."""
    return sum(1 for v in nets.values() if v) <= EXACT_UP_TO


def group_nets(
    users: Iterable[User], *, room: Room | None = None, within: QuerySet[Entry] | None = None
) -> dict[User, int]:
    """What each of ``users`` is owed (+) or owes (-) the others, by every entry between them
    (in ``room`` only, if given: a room's table settles its own points; of ``within`` only,
    if given: a club's book over a period).

    Every entry counts for its payee, settlements included (see :class:`Entry`). Bot seats
    are nobody's to settle with. Sums to zero.
    """
    people = {u.pk: u for u in users}
    nets: dict[int, int] = defaultdict(int)
    between = (Entry.objects if within is None else within).filter(
        payer__in=people, payee__in=people
    )
    if room is not None:
        between = between.filter(room=room)
    rows = between.values_list("payer_id", "payee_id").annotate(points=Sum("points"))
    for payer, payee, points in rows:
        nets[payee] += points
        nets[payer] -= points
    return {u: nets[pk] for pk, u in people.items()}


def partners_of(user: User) -> list[User]:
    """The people ``user`` can settle with: anyone they have points with in the book."""
    ids = PairBalance.objects.filter(user=user, other__isnull=False).values("other_id")
    return sorted(User.objects.filter(pk__in=ids), key=lambda u: (u.name.lower(), u.pk))


def rooms_of(user: User, limit: int = 20) -> list[Room]:
    """The rooms ``user`` played hands in (as a person), most recent first."""
    played = DayTally.objects.filter(user=user, match__isnull=False).values("match__room_id")
    return list(Room.objects.filter(pk__in=played).order_by("-created_at")[:limit])
