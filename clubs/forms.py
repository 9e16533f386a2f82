"""A room preset: a room's settings without "public" (a club's rooms are the club's only)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from tables.rooms.forms import RoomForm


class PresetForm(RoomForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, prefix="preset", **kwargs)
        del self.fields["is_public"]
        self.fields["name"].label = _("Preset name (玩法)")
