"""Fixtures for the engine's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.judging import memo


@pytest.fixture(autouse=True)
def _fresh_memos_around_patching(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that patches anything starts and ends with the engine's memos empty, so a
    patched answer neither meets a remembered one nor is remembered after the test."""
    patching = "monkeypatch" in request.fixturenames
    if patching:
        memo.clear()
    yield
    if patching:
        memo.clear()
