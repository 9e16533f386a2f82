from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from tables.history.shares import ShareError, share_create, share_hand, share_revoke, shares_of
from tables.models import Hand
from tests.tables.factories import played_hand, start_with_bots


@pytest.fixture
def hand(user: Any) -> Hand:
    return played_hand(user)


def test_the_owner_shares_and_revokes(hand: Hand, user: Any) -> None:
    share = share_create(hand=hand, user=user)
    assert len(share.token) >= 32
    assert share_hand(token=share.token) == hand
    assert shares_of(hand) == [share]
    share_revoke(hand=hand, share_id=share.pk, user=user)
    assert share_hand(token=share.token) is None
    assert shares_of(hand) == []
    with pytest.raises(ShareError):
        share_revoke(hand=hand, share_id=share.pk, user=user)


def test_links_are_independent_and_unguessable(hand: Hand, user: Any) -> None:
    a, b = share_create(hand=hand, user=user), share_create(hand=hand, user=user)
    assert a.token != b.token
    share_revoke(hand=hand, share_id=a.pk, user=user)
    assert share_hand(token=b.token) == hand
    assert share_hand(token="not-a-token") is None


def test_only_the_owner_shares(hand: Hand, make_user: Any) -> None:
    bob = make_user("bob")
    with translation.override("en"), pytest.raises(ShareError, match="owner"):
        share_create(hand=hand, user=bob)


def test_a_hand_in_play_is_never_shared(user: Any) -> None:
    room = start_with_bots(user, seed="in-play")
    hand = Hand.objects.get(room=room, number=1)
    with translation.override("en"), pytest.raises(ShareError, match="ended"):
        share_create(hand=hand, user=user)
