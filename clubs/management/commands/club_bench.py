"""``manage.py club_bench --hands 10000``: the ledger's scratch book given to one club of its
players, and the club's pages timed as its 圈主 sees them (``ledger_bench`` does the rest)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from clubs import services
from clubs.models import Membership
from ledger.management.commands.ledger_bench import Command as LedgerBench
from ledger.seeding import SeededBook
from tables.models import Room


class Command(LedgerBench):
    help = "Seed a synthetic book, give it to one club, and time the club's pages."

    def pages(self, book: SeededBook, options: dict[str, Any]) -> dict[str, str]:
        club = services.club_create(owner=book.players[0], name="bench")
        Membership.objects.bulk_create(
            Membership(club=club, user=u, status=Membership.Status.ACTIVE) for u in book.players[1:]
        )
        Room.objects.update(club=club)
        return {
            "club home (tonight)": reverse("clubs:home", args=[club.number]),
            "club book, this month": reverse("clubs:book", args=[club.number]) + "?period=month",
            "club book, all time": reverse("clubs:book", args=[club.number]) + "?period=all",
            "settle the evening": reverse("clubs:settle", args=[club.number]),
            "club CSV": reverse("clubs:csv", args=[club.number]),
            "club record": reverse("clubs:audit", args=[club.number]),
        }
