"""The ten audited pages, set up in a scratch database: who sees each and at which address.

The pages are the lobby, sign-up, a waiting room, the live table (on the viewer's own turn),
the ledger's book and match list, a hand's record and its replay, the 算分器 and an invite
(a waiting room opened logged out). Every logged-in page is seen by one person, ``audit-a``,
who owns the live table and has a finished hand booked; the waiting room belongs to
``audit-b``, so ``audit-a``'s table stays the one running.
"""

from __future__ import annotations

from dataclasses import dataclass

TURN_SECONDS = 300
"""The live table waits this long on the viewer's turn: longer than any audit of the page."""


@dataclass(frozen=True)
class AuditPage:
    name: str
    path: str
    session: str | None
    """The ``sessionid`` cookie of the person who sees it (None: logged out)."""
    htmx: bool = False
    """The page uses htmx (its table or replay is driven by it)."""


def _session(user: object) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)  # type: ignore[attr-defined]
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()  # type: ignore[attr-defined]
    session.create()
    assert session.session_key is not None
    return session.session_key


def pages_create() -> list[AuditPage]:
    """Set the ten pages up in the database Django is configured with."""
    from accounts.models import User
    from engine.rules import Rules
    from tables.models import Room
    from tables.rooms import services
    from tests.tables.factories import played_hand, run_until_my_turn, start_with_bots

    a = User.objects.create_user(username="audit-a", password=None, display_name="小王")
    b = User.objects.create_user(username="audit-b", password=None, display_name="老李")
    hand = played_hand(a)
    live = start_with_bots(a, hands=None, seed="audit-live")
    Room.objects.filter(pk=live.pk).update(turn_seconds=TURN_SECONDS)
    live.refresh_from_db()
    run_until_my_turn(live, a)
    waiting = services.room_create(
        owner=b, name="周五牌局", is_public=True, rules=Rules(), match_length=8, turn_seconds=20
    )
    services.bot_add(room=waiting, by_user=b, index=1)
    sa, sb = _session(a), _session(b)
    return [
        AuditPage("lobby", "/", sa),
        AuditPage("signup", "/accounts/signup/", None),
        AuditPage("waiting", f"/r/{waiting.number}/", sb, htmx=True),
        AuditPage("table", f"/r/{live.number}/", sa, htmx=True),
        AuditPage("ledger", "/ledger/", sa),
        AuditPage("matches", "/ledger/matches/", sa),
        AuditPage("hand", f"/hands/{hand.pk}/", sa),
        AuditPage("replay", f"/hands/{hand.pk}/replay/", sa, htmx=True),
        AuditPage("calc", "/calc/", None),
        AuditPage("invite", f"/r/{waiting.number}/", None),
    ]
