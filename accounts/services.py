"""Writes for accounts: creating users and profile changes.

Failed logins are limited by django-axes (settings ``AXES_*``), not here.
"""

from __future__ import annotations

import secrets

from django.db import DatabaseError, IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import User

GUEST_PREFIX = "guest-"
"""Guests' usernames: the prefix and a random part, until they choose their own."""


def user_sign_up(*, username: str, password: str, display_name: str = "") -> User:
    """Create a player account. Password strength is checked by the sign-up form."""
    user = User(username=username, display_name=display_name.strip())
    user.set_password(password)
    user.full_clean()
    user.save()
    return user


def user_display_name_update(*, user: User, display_name: str) -> User:
    """Change what other players see; an empty name falls back to the username."""
    user.display_name = display_name.strip()
    user.full_clean()
    user.save(update_fields=["display_name"])
    return user


def guest_create(*, nickname: str) -> User:
    """A real account without a password, for a friend sitting down from an invite: what they
    play is booked to it like anyone's, and stays theirs once they claim it."""
    user = User(
        username=GUEST_PREFIX + secrets.token_hex(6),
        display_name=nickname.strip(),
        is_guest=True,
    )
    user.set_unusable_password()
    user.full_clean()
    user.save()
    return user


def guest_claim(*, user: User, username: str, password: str) -> User:
    """The guest becomes an ordinary account: their own username and a password (checked by
    the form). Same row, so every hand, entry and replay stays theirs."""
    if not user.is_guest:
        raise ValueError("only a guest account can be claimed")
    user.username = username
    user.set_password(password)
    user.is_guest = False
    user.full_clean()
    user.save()
    return user


class GuestLinkError(ValueError):
    """Why a guest could not be linked to an account; nothing changed."""


def guest_link(*, guest: User, account: User) -> User:
    """A guest who already has an account logs in with it: every row that names the guest
    (seats, rooms, clubs, shares) moves to the account, and the guest account is closed.

    All or nothing, in one transaction. What must never change refuses and then nothing
    moves: the 算子 book is append-only (its database triggers refuse to rewrite an entry),
    so a guest with points booked keeps them by saving the guest as its own account instead
    (:func:`guest_claim`); a club takes each member once; and one person has one seat at a
    table, so a guest seated where the account sits is refused too.
    """
    if not guest.is_guest or account.is_guest or account.pk == guest.pk or not account.is_active:
        raise GuestLinkError(_("Only a guest can be linked, and only to another account."))
    relations = [
        r for r in User._meta.related_objects if (r.one_to_many or r.one_to_one) and r.field
    ]
    try:
        with transaction.atomic():
            for rel in relations:
                model = rel.related_model
                assert not isinstance(model, str)  # resolved once the apps are loaded
                rows = model._default_manager.filter(**{rel.field.name: guest})
                fields = {f.name for f in model._meta.get_fields()}
                if rel.field.name == "user" and "room" in fields:  # a seat
                    rooms = rows.values("room")
                    shared = model._default_manager.filter(
                        **{rel.field.name: account, "room__in": rooms}
                    )
                    if shared.exists():
                        raise GuestLinkError(
                            _("This guest and your account sit at the same table.")
                        )
                rows.update(**{rel.field.name: account})
            guest.is_active = False
            guest.save(update_fields=["is_active"])
    except (IntegrityError, DatabaseError) as exc:
        raise GuestLinkError(
            _(
                "What this guest played is already in the points book, which is never "
                "rewritten: save the guest as its own account instead."
            )
        ) from exc
    return account
