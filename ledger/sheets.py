"""A match's score sheet (记分表): one row per hand, one column per seat, running totals.

Loaded in a fixed number of queries (the match, its hands, the entries summed per hand, seat
and reason, the seats' people), then laid out in Python like a paper sheet.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, Sum
from django.utils.translation import gettext as _

from accounts.models import User
from ledger.models import Entry
from ledger.stats import GANG_REASONS, BiggestHand, PlayerStats
from tables.models import SEATS, Hand, Match, Seat, bot_name

__all__ = ["Sheet", "SheetRow", "match_visible_to", "sheet_for"]


def match_visible_to(match_id: int, user: User) -> Match | None:
    """A match, if ``user`` may read its sheet: booked in the room, seated there, its owner,
    or staff. Anyone else gets None (the page answers 404)."""
    match = Match.objects.select_related("room").filter(pk=match_id).first()
    if match is None:
        return None
    room = match.room
    if user.is_staff or room.owner_id == user.pk:
        return match
    booked = Entry.objects.filter(Q(payer=user) | Q(payee=user), room=room)
    if Seat.objects.filter(room=room, user=user).exists() or booked.exists():
        return match
    return None


@dataclass
class SheetRow:
    hand_id: int
    number: int
    dealer: str
    winner: str
    name: str
    """The winning hand's name, or 流局."""
    points: list[int]
    totals: list[int]

    @property
    def cells(self) -> list[tuple[int, int]]:
        """Each seat's ``(points this hand, running total)``."""
        return list(zip(self.points, self.totals, strict=True))


@dataclass
class Sheet:
    match: Match
    players: list[str]
    """Each seat's people in the order they were booked ("A / B" when someone took over)."""
    rows: list[SheetRow]
    totals: list[int]
    stats: list[PlayerStats] = field(default_factory=list)

    @property
    def columns(self) -> list[tuple[str, int, PlayerStats]]:
        return list(zip(self.players, self.totals, self.stats, strict=True))


def _seat_people(match: Match) -> list[str]:
    """Who sat in each seat of the match: from its entries, else the room's seats now."""
    pairs = Entry.objects.filter(match=match).values_list(
        "payer_seat", "payer_id", "payee_seat", "payee_id"
    )
    by_seat: dict[int, list[int | None]] = defaultdict(list)
    for a_seat, a_id, b_seat, b_id in pairs.distinct():
        for seat, uid in ((a_seat, a_id), (b_seat, b_id)):
            if seat is not None and uid not in by_seat[seat]:
                by_seat[seat].append(uid)
    seats = {s.index: s for s in Seat.objects.filter(room=match.room).select_related("user")}
    booked = Entry.objects.filter(match=match)
    parties = Q(pk__in=booked.values("payer_id")) | Q(pk__in=booked.values("payee_id"))
    users = {u.pk: u for u in User.objects.filter(parties)}
    names = []
    for index in range(SEATS):
        uids = by_seat.get(index)
        if not uids:
            now = seats.get(index)
            uids = [now.user_id if now is not None else None]
        # Within its own room's sheet a bot needs no room number: its seat names it.
        label = [users[u].name if u in users else bot_name(index) for u in uids]
        names.append(" / ".join(label))
    return names


def sheet_for(match: Match) -> Sheet:
    """The match's sheet: every finished hand with each seat's points and running totals, and
    each seat's statistics over the match."""
    players = _seat_people(match)
    per_hand: dict[int, list[int]] = defaultdict(lambda: [0] * SEATS)
    gang = [0] * SEATS
    sums = (
        Entry.objects.filter(match=match, kind=Entry.Kind.HAND)
        .values("hand_id", "payer_seat", "payee_seat", "reason")
        .annotate(p=Sum("points"))
    )
    for r in sums:
        pts = per_hand[r["hand_id"]]
        pts[r["payer_seat"]] -= r["p"]
        pts[r["payee_seat"]] += r["p"]
        if r["reason"] in GANG_REASONS:
            gang[r["payer_seat"]] -= r["p"]
            gang[r["payee_seat"]] += r["p"]
    hands = (
        Hand.objects.filter(match=match, result__isnull=False)
        .order_by("number")
        .values("pk", "number", "dealer", "result")
    )
    stats = [PlayerStats(gang_points=g) for g in gang]
    rows: list[SheetRow] = []
    running = [0] * SEATS
    for h in hands:
        result: dict[str, Any] = h["result"] or {}
        points = per_hand.get(h["pk"], [0] * SEATS)
        running = [a + b for a, b in zip(running, points, strict=True)]
        winners: list[int] = result.get("winners", [])
        judgements = result.get("judgements", {})
        for seat, s in enumerate(stats):
            s.hands += 1
            s.points += points[seat]
            if seat in winners:
                s.wins += 1
                s.self_draw_wins += result.get("outcome") == "self_draw"
                s.patterns[judgements[str(seat)]["name"]] += 1
            if result.get("robbed") == seat:
                s.robbed += 1
            if points[seat] > 0 and (s.biggest is None or points[seat] > s.biggest.points):
                s.biggest = BiggestHand(h["pk"], h["number"], match.room.number, points[seat])
        rows.append(
            SheetRow(
                hand_id=h["pk"],
                number=h["number"],
                dealer=players[h["dealer"]],
                winner=" / ".join(players[w] for w in winners),
                name=" / ".join(judgements[str(w)]["name"] for w in winners) or _("Drawn (流局)"),
                points=points,
                totals=running,
            )
        )
    return Sheet(match=match, players=players, rows=rows, totals=running, stats=stats)
