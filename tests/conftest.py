"""Shared fixtures for the site's tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

PASSWORD = "tiles-and-dice-42"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """No persistent connections in tests: Channels does database work in executor threads,
    and each would keep its connection for CONN_MAX_AGE, holding the PostgreSQL test
    database open when pytest-django drops it at the end."""
    from django.conf import settings

    for db in settings.DATABASES.values():
        db["CONN_MAX_AGE"] = 0


@pytest.fixture(scope="session", autouse=True)
def _static_files_by_name() -> Iterator[None]:
    """Static files under their own names: production's storage hashes them from the
    manifest that collectstatic writes, which a test run need not have made (the audits,
    ``python -m tests.audit``, check the hashed names in production mode)."""
    from django.test import override_settings

    plain = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=plain, STATIC_ROOT=None, WHITENOISE_USE_FINDERS=True):
        yield


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """Each test gets its own channel layer: every async test runs its own event loop, and
    channels_redis binds its locks to the loop that first used them, so a receive left
    waiting by one test broke every later test's sockets ("bound to a different event loop")."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """MD5 hashing in tests: sign-up and login tests would otherwise spend seconds hashing."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_claim_pause(settings: Any) -> None:
    """Windows close as the engine sees fit (no pause after every discard), so tables driven
    by the clock or by services move at once; the tests of the pause set it themselves."""
    settings.TABLE_CLAIM_PAUSE_SECONDS = 0


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the site's default language: a request through the test client
    activates the page's language in this thread (``LocaleMiddleware``) and leaves it there."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def password() -> str:
    """A password that passes Django's validators; every ``make_user`` user has it."""
    return PASSWORD


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    """Create users: ``make_user("alice")``, ``make_user("bob", display_name="小明")``."""
    from accounts import services

    def make(username: str = "alice", *, display_name: str = "", password: str = PASSWORD) -> Any:
        return services.user_sign_up(
            username=username, password=password, display_name=display_name
        )

    return make


@pytest.fixture
def user(make_user: Callable[..., Any]) -> Any:
    """A player called alice."""
    return make_user("alice")


@pytest.fixture
def english() -> Iterator[None]:
    """Messages matched in English (the site's source language); use with
    ``pytestmark = pytest.mark.usefixtures("english")``."""
    from django.utils import translation

    with translation.override("en"):
        yield
