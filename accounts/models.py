from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

DISPLAY_NAME_MAX_LENGTH = 30


class User(AbstractUser):
    """A player. ``display_name`` is what other players see at the table."""

    display_name = models.CharField(
        _("display name"),
        max_length=DISPLAY_NAME_MAX_LENGTH,
        blank=True,
        help_text=_("Shown to other players. Leave empty to use your username."),
    )

    is_guest = models.BooleanField(
        _("guest"),
        default=False,
        db_default=False,  # rows written by code that predates the column are not guests
        help_text=_("Sat down from an invite with a nickname only; no password yet."),
    )

    @property
    def name(self) -> str:
        """The display name, or the username when no display name is set."""
        return self.display_name.strip() or self.username

    def __str__(self) -> str:
        return self.name
