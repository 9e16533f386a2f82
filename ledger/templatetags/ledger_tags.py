"""``{% pending_claims as n %}``: how many settle-up claims wait for this person's answer,
for the badge in the top bar and the lobby."""

from __future__ import annotations

from typing import Any

from django import template

from ledger.selectors import claims_to_answer

register = template.Library()


@register.simple_tag(takes_context=True)
def pending_claims(context: dict[str, Any]) -> int:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return 0
    # Once per request: the top bar and the lobby's card ask alike.
    cached: int | None = getattr(request, "_ledger_pending", None)
    if cached is None:
        cached = claims_to_answer(user).count()
        request._ledger_pending = cached  # type: ignore[union-attr]
    return cached
