"""A pair's history (me and one person, or me and one room's bot seat): one page of rows at a
time, newest first, each with the running balance, read through the pair's own index
(``entry_pair_created``), so a page costs the same in a long book as in a short one."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet, Sum
from django.utils import timezone

from accounts.models import User
from ledger.models import Entry, PairBalance
from ledger.selectors import Counterparty, signed
from tables.models import Room

__all__ = ["PAIR_ROWS_PER_PAGE", "Pair", "PairRow", "pair_between"]


@dataclass
class PairRow:
    """A hand both played (its net between the two) or a settlement/correction between them."""

    kind: str
    when: datetime
    points: int
    """What ``me`` is owed by the other from this row (+) or owes them (-)."""
    balance: int
    """``me``'s running net against the other up to and including this row."""
    hand_id: int | None = None
    hand_number: int | None = None
    room_number: str = ""
    note: str = ""


@dataclass
class Pair:
    party: Counterparty
    rows: list[PairRow]
    """One page, newest first."""
    total: int
    """The balance over the whole period (all pages)."""
    older: str = ""
    """The cursor of the next (older) page, or "" on the last."""
    since: datetime | None = None


PAIR_ROWS_PER_PAGE = 100
"""A phone scrolls a hundred rows well, not thousands."""


def _pair_entries(me: User, party: Counterparty) -> list[QuerySet[Entry]]:
    """The pair's entries as two querysets each served by one index range, newest first."""
    if party.user is not None:
        return [
            Entry.objects.filter(payer=me, payee=party.user),
            Entry.objects.filter(payer=party.user, payee=me),
        ]
    bot = {"room__number": party.room_number}
    return [
        Entry.objects.filter(payer=me, payee__isnull=True, payee_seat=party.seat, **bot),
        Entry.objects.filter(payee=me, payer__isnull=True, payer_seat=party.seat, **bot),
    ]


def _cursor(text: str) -> tuple[datetime, int] | None:
    """``<ISO time>~<entry id>`` of the last row shown, or None for anything else."""
    at, _sep, pk = text.partition("~")
    try:
        when, number = datetime.fromisoformat(at), int(pk)
    except ValueError:
        return None
    return (when, number) if timezone.is_aware(when) else None


def pair_between(
    me: User,
    party: Counterparty,
    *,
    room: Room | None = None,
    since: datetime | None = None,
    before: str = "",
    per_page: int = PAIR_ROWS_PER_PAGE,
) -> Pair:
    """One page of every hand and settlement between ``me`` and ``party``, newest first, with
    the running balance; ``before`` is the cursor a previous page gave as ``older``.

    A hand's several payments (the win, gang points) make one row.
    """
    parts = _pair_entries(me, party)
    if room is not None:
        parts = [q.filter(room=room) for q in parts]
    if since is not None:
        parts = [q.filter(created_at__gte=since) for q in parts]
    if room is None and since is None and party.user is not None:
        total = int(
            PairBalance.objects.filter(user=me, other=party.user)
            .values_list("points", flat=True)
            .first()
            or 0
        )
    else:
        total = sum(q.aggregate(n=Sum(signed(me)))["n"] or 0 for q in parts)
    cursor = _cursor(before) if before else None
    balance = total
    if cursor is not None:
        at, pk = cursor
        newer = Q(created_at__gt=at) | Q(created_at=at, id__gte=pk)
        before_it = Q(created_at__lt=at) | Q(created_at=at, id__lt=pk)
        balance -= sum(q.filter(newer).aggregate(n=Sum(signed(me)))["n"] or 0 for q in parts)
        parts = [q.filter(before_it) for q in parts]
    # Enough raw entries for a page: a hand between two makes at most a few.
    limit = per_page * 4 + 8
    raw: list[Any] = sorted(
        (
            r
            for q in parts
            for r in q.order_by("-created_at", "-id").values(
                "id",
                "kind",
                "points",
                "hand_id",
                "hand__number",
                "room__number",
                "note",
                "created_at",
                "payee_id",
            )[:limit]
        ),
        key=lambda r: (r["created_at"], r["id"]),
        reverse=True,
    )[:limit]
    groups: list[tuple[PairRow, dict[str, Any]]] = []
    for r in raw:
        net = r["points"] if r["payee_id"] == me.pk else -r["points"]
        last = groups[-1][0] if groups else None
        if last is not None and r["kind"] == "hand" and last.hand_id == r["hand_id"]:
            last.points += net
            groups[-1] = (last, r)
            continue
        row = PairRow(
            kind=r["kind"],
            when=r["created_at"],
            points=net,
            balance=0,
            hand_id=r["hand_id"] if r["kind"] == "hand" else None,
            hand_number=r["hand__number"],
            room_number=r["room__number"] or "",
            note=r["note"],
        )
        groups.append((row, r))
    more = len(raw) == limit
    if more and len(groups) > 1:
        groups.pop()  # perhaps cut short by the limit: it starts the next page
    if len(groups) > per_page:
        groups, more = groups[:per_page], True
    for row, _r in groups:
        row.balance = balance
        balance -= row.points
    older = ""
    if more and groups:
        end = groups[-1][1]
        older = f"{end['created_at'].isoformat()}~{end['id']}"
    return Pair(party=party, rows=[g[0] for g in groups], total=total, older=older, since=since)
