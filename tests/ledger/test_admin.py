"""The admin reads the book and never writes it; players are deactivated, not deleted."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from ledger.models import Entry


@pytest.fixture
def superuser(staff: Any) -> Any:
    staff.is_superuser = True
    staff.save()
    return staff


@pytest.fixture
def entry(user: Any, bob: Any, superuser: Any) -> Entry:
    return Entry.objects.create(
        kind=Entry.Kind.CORRECTION, payer=user, payee=bob, points=3, note="n", recorded_by=superuser
    )


def test_entries_and_claims_are_read_only(client: Client, superuser: Any, entry: Entry) -> None:
    client.force_login(superuser)
    assert client.get("/admin/ledger/entry/").status_code == 200
    assert client.get(f"/admin/ledger/entry/{entry.pk}/change/").status_code == 200
    assert client.get("/admin/ledger/entry/add/").status_code == 403
    assert client.post(f"/admin/ledger/entry/{entry.pk}/change/", {"points": 1}).status_code == 403
    assert (
        client.post(f"/admin/ledger/entry/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert client.get("/admin/ledger/settlementclaim/add/").status_code == 403
    assert Entry.objects.get().points == 3


def test_players_with_entries_are_deactivated_not_deleted(
    client: Client, superuser: Any, user: Any, entry: Entry, make_user: Any
) -> None:
    client.force_login(superuser)
    listing = client.get("/admin/accounts/user/").content.decode()
    assert "delete_selected" not in listing and "deactivate_users" in listing
    assert client.get(f"/admin/accounts/user/{user.pk}/delete/").status_code == 403
    newcomer = make_user("newcomer")
    assert client.get(f"/admin/accounts/user/{newcomer.pk}/delete/").status_code == 200
    client.post(
        "/admin/accounts/user/",
        {"action": "deactivate_users", "_selected_action": [user.pk]},
    )
    user.refresh_from_db()
    assert not user.is_active
