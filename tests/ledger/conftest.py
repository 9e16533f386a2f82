"""Fixtures for the book's tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import translation


@pytest.fixture
def english() -> Any:
    """Messages are matched in English (the site's source language)."""
    with translation.override("en"):
        yield


@pytest.fixture
def staff(make_user: Callable[..., Any]) -> Any:
    boss = make_user("boss")
    boss.is_staff = True
    boss.save()
    return boss


@pytest.fixture
def bob(make_user: Callable[..., Any]) -> Any:
    return make_user("bob", display_name="小明")
