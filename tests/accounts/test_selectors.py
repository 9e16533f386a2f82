"""accounts.selectors: reads by username."""

from __future__ import annotations

import pytest

from accounts import selectors

pytestmark = pytest.mark.django_db


def test_user_get_by_username_is_case_insensitive(user):
    assert selectors.user_get_by_username("ALICE") == user
    assert selectors.user_get_by_username("nobody") is None
