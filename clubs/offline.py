"""Physical games in the club's book: a hand played at someone's table, scored by the engine
from the 算分器's query, proposed to its four players and booked once all four confirmed.

The score is never typed in: the query is the 算分器's (``tables.calculator``), the engine
judges it, and the engine's own payment functions (``engine.outcome``) turn the score into
payments. Only the win is paid: who ganged what at a physical table is not in the query.
"""

from __future__ import annotations

from django.db import transaction
from django.http import QueryDict
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from clubs.models import Club, ClubEntry, Membership, OfflineAnswer, OfflineHand
from clubs.selectors import VIEWING
from clubs.services import ClubError
from engine.outcome import HandEnd, Payment, flyer_extra, self_draw_payments
from engine.rules import Rules
from engine.tiles import parse_tile
from ledger.services import offline_entries_create
from tables.calculator.calculate import CalculatorForm, calculator_result

__all__ = ["offline_hand_answer", "offline_hand_record", "offline_payments"]


def offline_payments(
    rules: Rules, indicator: int, winner: int, score: int, robbed: int | None
) -> list[Payment]:
    """The engine's payments for a win worth ``score`` by seat ``winner``: each other seat
    pays a self-drawn win, the robbed seat alone a 抢杠."""
    if robbed is not None:
        return [Payment(robbed, winner, flyer_extra(rules, [0] * 4, robbed, score), "qiang_gang")]
    end = HandEnd(
        rules=rules,
        dealer=winner,
        indicator=indicator,
        hands=[[] for _seat in range(4)],
        melds=[[] for _seat in range(4)],
        flown=[0] * 4,
        last_drawer=winner,
    )
    return self_draw_payments(end, winner, score)


def offline_hand_record(
    *,
    club: Club,
    by: User,
    players: list[int],
    winner: int,
    robbed: int | None,
    query: QueryDict,
) -> OfflineHand:
    """``by`` (one of the four) records a physical hand; the others are asked to confirm."""
    if len(players) != 4 or len(set(players)) != 4:
        raise ClubError(_("A hand has four different players."))
    if by.pk not in players:
        raise ClubError(_("Record only a hand you played in."))
    active = Membership.objects.filter(club=club, user_id__in=players, status__in=VIEWING)
    if active.count() != 4:
        raise ClubError(_("All four players must be members of the club."))
    if not 0 <= winner < 4 or (robbed is not None and not (0 <= robbed < 4 and robbed != winner)):
        raise ClubError(_("Choose the winner, and for a 抢杠 whose gang was robbed."))
    form = CalculatorForm(query)
    result = calculator_result(form)
    if result is None or result.error or not result.win:
        raise ClubError(_("The 算分器 must show a winning hand first."))
    won_by = form.cleaned_data.get("by") or "self_draw"
    if (won_by == "rob_gang") != (robbed is not None):
        raise ClubError(_("Choose the winner, and for a 抢杠 whose gang was robbed."))
    payments = offline_payments(
        form.rules(), parse_tile(result.indicator), winner, result.score, robbed
    )
    with transaction.atomic():
        hand = OfflineHand.objects.create(
            club=club,
            players=players,
            winner=winner,
            robbed=robbed,
            query=query.urlencode()[:1000],
            name=result.name[:100],
            score=result.score,
            transfers=[p.to_json() for p in payments],
            recorded_by=by,
        )
        OfflineAnswer.objects.create(hand=hand, user=by, agrees=True)
    return hand


def offline_hand_answer(*, hand_id: int, user: User, agrees: bool) -> OfflineHand:
    """One of the other three confirms or disputes; the fourth confirmation books the hand
    (``offline_hand`` entries). A player answers once; nobody else answers at all."""
    with transaction.atomic():
        hand = OfflineHand.objects.select_for_update().filter(pk=hand_id).first()
        if hand is None or user.pk not in hand.players:
            raise ClubError(_("Only the hand's players answer it."))
        if hand.status != OfflineHand.Status.PROPOSED:
            raise ClubError(_("This hand has already been settled or disputed."))
        if OfflineAnswer.objects.filter(hand=hand, user=user).exists():
            raise ClubError(_("You have already answered."))
        OfflineAnswer.objects.create(hand=hand, user=user, agrees=agrees)
        if not agrees:
            hand.status = OfflineHand.Status.DISPUTED
        elif OfflineAnswer.objects.filter(hand=hand, agrees=True).count() == 4:
            hand.status = OfflineHand.Status.CONFIRMED
            people = {u.pk: u for u in User.objects.filter(pk__in=hand.players)}
            seat = [people[pk] for pk in hand.players]
            entries = offline_entries_create(
                payments=[
                    (seat[t["payer"]], seat[t["payee"]], t["points"], t["reason"])
                    for t in hand.transfers
                ],
                recorded_by=hand.recorded_by,
                note=hand.name,
                now=timezone.now(),
            )
            ClubEntry.objects.bulk_create(
                ClubEntry(club_id=hand.club_id, entry=e, offline_hand=hand) for e in entries
            )
        hand.save(update_fields=["status"])
        return hand
