"""The pending-claims badge: in the top bar and on the lobby, for the one who must answer."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from ledger import services


def test_the_other_sees_a_badge_until_they_answer(
    client: Client, user: Any, bob: Any, staff: Any
) -> None:
    services.correction_create(staff=staff, payer=user, payee=bob, points=6, note="d")
    claim = services.settlement_claim_create(recorded_by=user, payer=user, payee=bob, points=6)
    settle = reverse("ledger:settle")
    client.force_login(bob)
    lobby = client.get(reverse("lobby"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert f'href="{settle}" class="nav-badge"' in lobby  # the top bar
    assert "1 笔结账等你回复" in lobby  # the lobby's card
    book = client.get(reverse("ledger:book")).content.decode()
    assert 'class="nav-badge"' in book
    # The one who recorded it has nothing to answer.
    client.force_login(user)
    assert 'class="nav-badge"' not in client.get(reverse("lobby")).content.decode()
    services.settlement_claim_confirm(claim_id=claim.pk, user=bob)
    client.force_login(bob)
    assert 'class="nav-badge"' not in client.get(reverse("lobby")).content.decode()
