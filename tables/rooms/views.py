"""Lobby and room pages. Thin: forms validate, services write, selectors read."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.decorators import claimed_required
from accounts.models import User
from clubs.selectors import my_clubs
from config.clientip import request_ip
from engine.rules import Rules
from tables.models import TUOGUAN_AFTER_DEFAULT, Room
from tables.play import events
from tables.play.phrases import PHRASES
from tables.rooms import selectors, services
from tables.rooms.forms import JoinForm, RoomForm, RulesForm, profile_defaults
from tables.rooms.services import RoomError, RoomLookupLimited
from tables.rooms.table_page import live_context


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _lobby_context(
    request: HttpRequest, form: RoomForm | None = None, join_form: JoinForm | None = None
) -> dict[str, object]:
    return {
        "my_clubs": my_clubs(_user(request)),
        "public_rooms": selectors.room_rows(selectors.public_rooms()),
        "my_rooms": selectors.room_rows(selectors.my_rooms(_user(request))),
        "form": form or RoomForm(),
        "join_form": join_form or JoinForm(),
        "profile_defaults": profile_defaults(),
    }


@require_http_methods(["GET"])
def lobby(request: HttpRequest) -> HttpResponse:
    # A newcomer landing on "/" should see how to sign up, not a bare login form.
    if not request.user.is_authenticated:
        return render(request, "home.html")
    return render(request, "tables/lobby.html", _lobby_context(request))


@login_required
@claimed_required
@require_http_methods(["GET", "POST"])
def room_create(request: HttpRequest) -> HttpResponse:
    form = RoomForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            room = services.room_create(
                owner=_user(request),
                name=data["name"],
                is_public=data["is_public"],
                rules=form.rules(),
                match_length=data["match_length"],
                turn_seconds=data["turn_seconds"],
                tuoguan_after=data["tuoguan_after"] or TUOGUAN_AFTER_DEFAULT,
            )
        except RoomError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("room", number=room.number)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "tables/room_form.html",
        {"form": form, "profile_defaults": profile_defaults(), "creating": True},
        status=status,
    )


@login_required
@require_POST
def join(request: HttpRequest) -> HttpResponse:
    join_form = JoinForm(request.POST)
    if join_form.is_valid():
        try:
            room = services.room_join(
                user=_user(request),
                number=join_form.cleaned_data["number"],
                ip=request_ip(request),
            )
        except RoomError as exc:
            join_form.add_error("number", str(exc))
        else:
            return redirect("room", number=room.number)
    return render(
        request, "tables/lobby.html", _lobby_context(request, join_form=join_form), status=400
    )


RoomView = Callable[..., HttpResponse]


def with_room(view: RoomView) -> RoomView:
    """Resolve ``number`` to the room through :func:`tables.rooms.services.room_find`, so every
    room URL counts numbers that lead nowhere (404) and refuses guessing (429)."""

    @wraps(view)
    def wrapped(request: HttpRequest, number: str, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            room = services.room_find(user=_user(request), number=number, ip=request_ip(request))
        except RoomLookupLimited as exc:
            return HttpResponse(str(exc), status=429, content_type="text/plain; charset=utf-8")
        except RoomError:
            raise Http404 from None
        return view(request, room, *args, **kwargs)

    return wrapped


@require_http_methods(["GET"])
def room(request: HttpRequest, number: str) -> HttpResponse:
    """The room page: seats while waiting, then the live table (kept live over WebSocket).

    The invite link is this page: opened logged out it names the room and its owner, and
    logging in or signing up from there comes back here."""
    if not request.user.is_authenticated:
        return _invite(request, number)
    return _room_page(request, number)


@with_room
def _room_page(request: HttpRequest, room: Room) -> HttpResponse:
    invite_url = request.build_absolute_uri(f"/r/{room.number}/")
    context = live_context(
        room, _user(request), invite_url=invite_url, csrf_token=get_token(request)
    )
    context["phrases"] = list(enumerate(PHRASES))
    return render(request, "tables/room.html", context)


def _invite(request: HttpRequest, number: str) -> HttpResponse:
    try:
        room = services.room_find_anonymous(ip=request_ip(request), number=number)
    except RoomLookupLimited as exc:
        return HttpResponse(str(exc), status=429, content_type="text/plain; charset=utf-8")
    except RoomError:
        raise Http404 from None
    seats = selectors.room_with_seats(room)
    return render(
        request,
        "tables/invite.html",
        {
            "room": room,
            "players": [s for s in seats if not s.is_empty],
            "free": sum(1 for s in seats if s.is_empty),
            "next": request.path,
        },
    )


@login_required
@require_POST
@with_room
def room_action(request: HttpRequest, room: Room) -> HttpResponse:
    """One endpoint for the room's buttons: ``action`` plus, for seats, ``index``."""
    user = _user(request)
    action = request.POST.get("action", "")
    try:
        index = int(request.POST.get("index", "-1"))
    except ValueError:
        index = -1
    try:
        if action == "sit":
            services.seat_take(room=room, user=user, index=index)
        elif action == "leave":
            services.seat_leave(room=room, user=user)
        elif action == "ready":
            services.seat_ready(room=room, user=user, ready=True)
        elif action == "unready":
            services.seat_ready(room=room, user=user, ready=False)
        elif action == "add-bot":
            services.bot_add(room=room, by_user=user, index=index)
        elif action == "remove":
            services.seat_clear(room=room, by_user=user, index=index)
        elif action == "start":
            services.match_start(room=room, by_user=user)
        elif action == "transfer":
            services.room_owner_transfer(room=room, by_user=user, index=index)
        elif action == "rematch":
            services.room_rematch(room=room, by_user=user)
        else:
            raise RoomError(_("Unknown room action."))
    except RoomError as exc:
        messages.error(request, str(exc))
    else:
        events.table_changed(room.number)
        if action == "leave" and room.status != Room.Status.WAITING:
            return redirect("lobby")
    return redirect("room", number=room.number)


@login_required
@require_http_methods(["GET", "POST"])
@with_room
def room_rules(request: HttpRequest, room: Room) -> HttpResponse:
    form = RulesForm(request.POST or None, rules=Rules.from_json(room.rules))
    if request.method == "POST" and form.is_valid():
        try:
            services.room_rules_update(room=room, by_user=_user(request), rules=form.rules())
        except RoomError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("room", number=room.number)
    return render(
        request,
        "tables/room_form.html",
        {"form": form, "profile_defaults": profile_defaults(), "room": room, "creating": False},
        status=400 if request.method == "POST" else 200,
    )
