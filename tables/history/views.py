"""A finished hand's page, its replay, share links and log for ``engine.replay``, and a room's
record. Thin views.

Every way in ends in the same friendly 404 when the hand is not there for this visitor:
unknown, still in play, not theirs, or a revoked link. Which of these it was is not said.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from accounts.models import User
from tables.history import selectors as hand_selectors
from tables.history.record import room_record, room_record_visible
from tables.history.replays import replay_frame
from tables.history.shares import ShareError, share_create, share_hand, share_revoke, shares_of
from tables.models import Hand
from tables.play.proof import deal_proof, hand_finished, hand_log_filename, hand_log_line
from tables.rooms import selectors
from tables.rooms.views import with_room
from tables.screen.board import seat_name


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def missing(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/replay_missing.html", status=404)


def _players_hand(request: HttpRequest, hand_id: int) -> Hand | None:
    """The hand if it has ended and the visitor sat at its table (or owns the room)."""
    hand = hand_selectors.hand_visible_to(hand_id, _user(request))
    return hand if hand is not None and hand_finished(hand) else None


def _step(request: HttpRequest) -> int:
    try:
        return int(request.GET.get("step", "0"))
    except ValueError:
        return 0


def _render_replay(request: HttpRequest, hand: Hand, *, shared: bool) -> HttpResponse:
    names = [seat_name(s) for s in selectors.room_with_seats(hand.room)]
    frame = replay_frame(hand, _step(request), names)
    context = {"hand": hand, "frame": frame, "base": request.path, "shared": shared}
    # A step button gets the frame alone; a history restore (htmx missed its cache on Back)
    # needs the whole page, as does a plain visit.
    htmx: HtmxDetails = request.htmx  # type: ignore[attr-defined]  # django-htmx's middleware
    fragment = bool(htmx) and not htmx.history_restore_request
    template = "tables/_replay_frame.html" if fragment else "tables/replay.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request", "HX-History-Restore-Request"))
    return response


@login_required
@require_GET
def hand_replay(request: HttpRequest, hand_id: int) -> HttpResponse:
    """``/hands/<id>/replay/?step=N``: for the table's players once the hand has ended."""
    hand = _players_hand(request, hand_id)
    if hand is None:
        return missing(request)
    return _render_replay(request, hand, shared=False)


@require_GET
def shared_replay(request: HttpRequest, token: str) -> HttpResponse:
    """``/replays/<token>/?step=N``: for anyone holding a link in force."""
    hand = share_hand(token=token)
    if hand is None:
        return missing(request)
    return _render_replay(request, hand, shared=True)


@login_required
@require_GET
def hand_log(request: HttpRequest, hand_id: int) -> HttpResponse:
    """The hand as one JSON line for ``python -m engine.replay``: seed included, so only after
    the end."""
    hand = _players_hand(request, hand_id)
    if hand is None:
        return missing(request)
    response = HttpResponse(hand_log_line(hand), content_type="application/x-ndjson")
    response["Content-Disposition"] = f'attachment; filename="{hand_log_filename(hand)}"'
    return response


def _share_change(
    request: HttpRequest, hand_id: int, change: Callable[[Hand, User], object]
) -> HttpResponse:
    """The owner's share buttons: do ``change``, say why if refused, back to the record."""
    hand = _players_hand(request, hand_id)
    if hand is None:
        return missing(request)
    try:
        change(hand, _user(request))
    except ShareError as exc:
        messages.error(request, str(exc))
    return redirect("hand_detail", hand_id=hand.pk)


@login_required
@require_POST
def share_new(request: HttpRequest, hand_id: int) -> HttpResponse:
    return _share_change(request, hand_id, lambda hand, user: share_create(hand=hand, user=user))


@login_required
@require_POST
def share_end(request: HttpRequest, hand_id: int, share_id: int) -> HttpResponse:
    return _share_change(
        request,
        hand_id,
        lambda hand, user: share_revoke(hand=hand, share_id=share_id, user=user),
    )


@login_required
@require_http_methods(["GET"])
def hand_detail(request: HttpRequest, hand_id: int) -> HttpResponse:
    """One hand of the ledger: who paid whom, and why."""
    hand = hand_selectors.hand_visible_to(hand_id, _user(request))
    if hand is None:
        raise Http404
    user = _user(request)
    return render(
        request,
        "tables/hand_detail.html",
        {
            "record": hand_selectors.hand_record(hand),
            "proof": deal_proof(hand),
            "can_share": hand_finished(hand) and hand.room.owner_id == user.pk,
            "shares": shares_of(hand),
        },
    )


@login_required
@require_http_methods(["GET"])
@with_room
def record(request: HttpRequest, room: Any) -> HttpResponse:
    """The room's record: matches, hands, 解散 votes with their answers, the audit log."""
    user = request.user
    assert isinstance(user, User)
    if not room_record_visible(room, user):
        raise Http404
    return render(request, "tables/room_record.html", {"record": room_record(room)})
