"""Club pages: my clubs, a club's home, its book and evening, its record, physical hands.
Thin: services check roles and write, selectors and ``clubs.book`` read."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import wraps
from typing import Any, TypeVar

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, QueryDict, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from clubs import offline, selectors, services
from clubs.book import club_book, club_chart
from clubs.forms import PresetForm
from clubs.models import AuditEntry, Club, Membership, OfflineHand
from clubs.services import ClubError, ClubLookupLimited
from config.clientip import request_ip
from ledger.export import csv_response
from ledger.models import Entry
from tables.models import Hand, Room, Seat
from tables.rooms.forms import profile_defaults
from tables.rooms.invites import invite_qr_svg


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _limited(exc: ClubError) -> HttpResponse:
    return HttpResponse(str(exc), status=429, content_type="text/plain; charset=utf-8")


ClubView = Callable[..., HttpResponse | StreamingHttpResponse]
T = TypeVar("T")


def _looked_up(find: Callable[[], T]) -> T | HttpResponse:
    """What a lookup found; 429 past the guessing limit; 404 for no club (or not the asker's)."""
    try:
        return find()
    except ClubLookupLimited as exc:
        return _limited(exc)
    except ClubError:
        raise Http404 from None


def with_club(view: ClubView) -> ClubView:
    """Resolve ``number`` for a member; anyone else gets the same 404 as for no club, and the
    miss counts against their guesses (429 past the limit)."""

    @login_required
    @wraps(view)
    def wrapped(
        request: HttpRequest, number: str, *args: Any, **kwargs: Any
    ) -> HttpResponse | StreamingHttpResponse:
        club = _looked_up(
            lambda: services.club_find(user=_user(request), number=number, ip=request_ip(request))
        )
        if isinstance(club, HttpResponse):
            return club
        return view(request, club, *args, **kwargs)

    return wrapped


@login_required
@require_http_methods(["GET", "POST"])
def club_list(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    if request.method == "POST":
        try:
            club = services.club_create(
                owner=user,
                name=request.POST.get("name", ""),
                description=request.POST.get("description", ""),
                colour=request.POST.get("colour", ""),
            )
        except ClubError as exc:
            messages.error(request, str(exc))
        else:
            return redirect("clubs:home", number=club.number)
    return render(request, "clubs/list.html", {"clubs": selectors.my_clubs(user)})


@login_required
@require_POST
def club_number(request: HttpRequest) -> HttpResponse:
    """Open a club by its number: a member's own clubs only, counted like room numbers."""
    number = request.POST.get("number", "")
    try:
        services.club_find(user=_user(request), number=number, ip=request_ip(request))
    except ClubLookupLimited as exc:
        return _limited(exc)
    except ClubError as exc:
        messages.error(request, str(exc))
        return redirect("clubs:list")
    return redirect("clubs:home", number=number.strip())


@require_http_methods(["GET", "POST"])
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: names the club; a logged-in person joins (or asks to) by POST."""
    user_id = request.user.pk if request.user.is_authenticated else None
    club = _looked_up(
        lambda: services.club_by_invite(user_id=user_id, token=token, ip=request_ip(request))
    )
    if isinstance(club, HttpResponse):
        return club
    if request.method == "POST" and user_id is not None:
        try:
            mine = services.club_join(user=_user(request), token=token, ip=request_ip(request))
        except ClubError as exc:
            messages.error(request, str(exc))
        else:
            if mine.status == Membership.Status.ACTIVE:
                return redirect("clubs:home", number=club.number)
            messages.info(request, _("Your request to join waits for an admin."))
    return render(request, "clubs/invite.html", {"club": club, "next": request.path})


@login_required
@require_http_methods(["GET"])
def guest(request: HttpRequest, token: str) -> HttpResponse:
    """A member's guest link: one friend outside the club into one of its rooms."""
    room = _looked_up(
        lambda: services.room_guest_admit(user=_user(request), token=token, ip=request_ip(request))
    )
    if isinstance(room, HttpResponse):
        return room
    return redirect("room", number=room.number)


def _rooms(request: HttpRequest, club: Club) -> list[tuple[Room, list[Seat], str]]:
    """The club's open rooms, each with its seats and its guest link."""
    rooms = Room.objects.filter(club=club).exclude(status=Room.Status.FINISHED)
    seats = Seat.objects.filter(room__in=rooms).select_related("user").order_by("index")
    by_room: dict[int, list[Seat]] = {}
    for s in seats:
        by_room.setdefault(s.room_id, []).append(s)
    user = _user(request)
    return [
        (
            r,
            by_room.get(r.pk, []),
            request.build_absolute_uri(
                reverse("clubs:guest", args=[services.guest_token(club=club, by=user, room=r)])
            ),
        )
        for r in rooms.order_by("-created_at")
    ]


@with_club
@require_http_methods(["GET"])
def home(request: HttpRequest, club: Club) -> HttpResponse:
    """The group's home: announcement, rooms, who is online, tonight's standings."""
    user = _user(request)
    mine = selectors.membership_of(club, user.pk)
    assert mine is not None
    rank: dict[str, int] = {"owner": 0, "admin": 1, "member": 2}
    members = sorted(
        Membership.objects.filter(club=club)
        .exclude(status__in=[Membership.Status.LEFT, Membership.Status.REFUSED])
        .select_related("user"),
        key=lambda m: (rank.get(m.role, 3), m.user.name.lower()),
    )
    online = services.online_members(club)
    tonight = club_book(club, "tonight")
    invite_url = request.build_absolute_uri(reverse("clubs:invite", args=[club.invite_token]))
    is_admin = mine.role in (Membership.Role.OWNER, Membership.Role.ADMIN)
    context = {
        "club": club,
        "mine": mine,
        "is_admin": is_admin,
        "is_owner": mine.role == Membership.Role.OWNER,
        "members": [m for m in members if m.status != Membership.Status.PENDING],
        "join_requests": [m for m in members if m.status == Membership.Status.PENDING],
        "online": online,
        "rooms": _rooms(request, club),
        "presets": club.presets.all(),
        "tonight": tonight,
        "invite_url": invite_url if is_admin else "",
        "invite_qr": invite_qr_svg(invite_url) if is_admin else "",
        "to_answer": selectors.offline_to_answer(club, user),
        "disputed": club.offline_hands.filter(status=OfflineHand.Status.DISPUTED)[:10]
        if is_admin
        else [],
        "preset_form": PresetForm() if is_admin else None,
        "profile_defaults": profile_defaults(),
    }
    return render(request, "clubs/home.html", context)


@with_club
@require_POST
def act(request: HttpRequest, club: Club) -> HttpResponse:
    """One endpoint for the club's buttons; each service checks the actor's role."""
    user = _user(request)
    post = request.POST
    action = post.get("action", "")
    try:
        opened = _act(club, user, action, post)
    except ClubError as exc:
        messages.error(request, str(exc))
        return redirect("clubs:home", number=club.number)
    if opened is not None:
        return redirect("room", number=opened.number)
    back = post.get("back", "")
    return redirect(back if back.startswith("/c/") else reverse("clubs:home", args=[club.number]))


def _int(value: str | None) -> int:
    try:
        return int(value or "")
    except ValueError:
        return -1


def _act(club: Club, user: User, action: str, post: Any) -> Room | None:
    """Do ``action``; the room it opened, if any."""
    reason = post.get("reason", "")
    if action == "open":
        return services.room_open(club=club, by=user, preset_id=_int(post.get("preset")))
    if action in ("admit", "refuse"):
        services.club_request_answer(
            club=club, by=user, user_id=_int(post.get("user")), admit=action == "admit"
        )
    elif action in services.DISCIPLINE:
        services.member_discipline(
            club=club, by=user, user_id=_int(post.get("user")), action=action, reason=reason
        )
    elif action in ("forbid", "allow"):
        services.forbidden_pair_set(
            club=club,
            by=user,
            first_id=_int(post.get("first")),
            second_id=_int(post.get("second")),
            forbid=action == "forbid",
            reason=reason,
        )
    elif action == "settings":
        services.club_settings_update(
            club=club,
            by=user,
            announcement=post.get("announcement"),
            point_value=post.get("point_value"),
            join_mode=post.get("join_mode"),
            revoke_invite=bool(post.get("revoke")),
        )
    elif action == "preset":
        form = PresetForm(post)
        if not form.is_valid():
            raise ClubError(_("Check the preset's settings."))
        services.preset_create(
            club=club,
            by=user,
            name=form.cleaned_data["name"],
            rules=form.rules(),
            match_length=form.cleaned_data["match_length"],
            turn_seconds=form.cleaned_data["turn_seconds"],
        )
    elif action == "seat":
        services.club_seat_move(
            club=club,
            by=user,
            number=post.get("room", ""),
            user_id=_int(post.get("user")),
            index=_int(post.get("index")) - 1,
        )
    elif action == "drop_preset":
        services.preset_delete(club=club, by=user, preset_id=_int(post.get("preset")))
    elif action == "close":
        services.club_room_close(club=club, by=user, number=post.get("room", ""), reason=reason)
    elif action == "leave":
        services.club_leave(club=club, user=user)
    elif action == "claim":
        book = club_book(club, post.get("period", "tonight"))
        services.club_claim_create(
            club=club,
            by=user,
            payer_id=_int(post.get("payer")),
            payee_id=_int(post.get("payee")),
            points=_int(post.get("points")),
            since=book.since,
        )
    elif action in ("confirm", "dispute"):
        services.club_claim_answer(
            club=club, by=user, claim_id=_int(post.get("claim")), confirm=action == "confirm"
        )
    elif action in ("agree", "disagree"):
        offline.offline_hand_answer(
            hand_id=_int(post.get("hand")), user=user, agrees=action == "agree"
        )
    else:
        raise ClubError(_("There is no such action."))
    return None


@with_club
@require_http_methods(["GET"])
def book(request: HttpRequest, club: Club) -> HttpResponse:
    """The club's book by period, the leaderboard and chart, and 'settle the evening'."""
    period = request.GET.get("period", "tonight")
    if period not in selectors.CLUB_PERIODS:
        period = "tonight"
    the_book = club_book(club, period)
    chart = club_chart(the_book, _("Running net"), _("Day"), _("Points"))
    return render(
        request,
        "clubs/book.html",
        {
            "club": club,
            "book": the_book,
            "chart": chart,
            "periods": selectors.CLUB_PERIODS,
            "me": _user(request),
            "settle": request.resolver_match is not None
            and request.resolver_match.url_name == "settle",
        },
    )


@with_club
@require_http_methods(["GET"])
def book_csv(request: HttpRequest, club: Club) -> StreamingHttpResponse:
    """The club's book as CSV, one row per entry (neutralised, streamed by ``ledger.export``)."""
    tz = timezone.get_current_timezone()
    kinds = {k: str(label) for k, label in Entry.Kind.choices}
    header = [_("Time"), _("Kind"), _("Room"), _("Payer"), _("Payee"), _("Points"), _("Note")]

    def rows() -> Iterator[list[object]]:
        entries = selectors.club_entries(club).order_by("created_at", "pk")
        for e in entries.values(
            "created_at",
            "kind",
            "room__number",
            "payer__display_name",
            "payer__username",
            "payee__display_name",
            "payee__username",
            "points",
            "note",
        ).iterator(chunk_size=2000):
            yield [
                e["created_at"].astimezone(tz).isoformat(timespec="seconds"),
                kinds.get(e["kind"], e["kind"]),
                e["room__number"] or "",
                (e["payer__display_name"] or "").strip() or e["payer__username"] or "",
                (e["payee__display_name"] or "").strip() or e["payee__username"] or "",
                e["points"],
                e["note"],
            ]

    return csv_response(f"club-{club.number}.csv", header, rows())


@with_club
@require_http_methods(["GET"])
def audit(request: HttpRequest, club: Club) -> HttpResponse:
    """The audit, and the club's 战绩: online and physical hands side by side, newest first."""
    rows = AuditEntry.objects.filter(club=club).select_related("actor", "target")[:200]
    online = Hand.objects.filter(room__club=club, result__isnull=False).select_related("room")
    hands: list[tuple[Any, str, str, Hand | OfflineHand]] = [
        (h.ended_at or h.started_at, "online", reverse("hand_detail", args=[h.pk]), h)
        for h in online.defer("actions", "rules").order_by("-ended_at")[:50]
    ]
    hands += [
        (h.created_at, "physical", f"{reverse('calculator')}?{h.query}", h)
        for h in club.offline_hands.all()[:50]
    ]
    hands.sort(key=lambda row: row[0], reverse=True)
    return render(request, "clubs/audit.html", {"club": club, "rows": rows, "hands": hands})


@with_club
@require_POST
def offline_record(request: HttpRequest, club: Club) -> HttpResponse:
    """From the 算分器: the query it scored, the four players, the winner and who was robbed."""
    post = request.POST
    query = post.get("query", "")
    robbed = _int(post.get("robbed"))
    try:
        offline.offline_hand_record(
            club=club,
            by=_user(request),
            players=[_int(post.get(f"player{i}")) for i in range(4)],
            winner=_int(post.get("winner")),
            robbed=robbed if robbed >= 0 else None,
            query=QueryDict(query),
        )
    except ClubError as exc:
        messages.error(request, str(exc))
        return redirect(f"{reverse('calculator')}?{query}")
    messages.info(request, _("Recorded: the other three players confirm it on the club page."))
    return redirect("clubs:home", number=club.number)
