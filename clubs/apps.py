from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "clubs"
    verbose_name = _("亲友圈")

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from clubs.signals import claim_saved
        from ledger.models import SettlementClaim

        post_save.connect(claim_saved, sender=SettlementClaim, dispatch_uid="clubs.claim_saved")
