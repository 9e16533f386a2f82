"""``{% dissolve_vote board as vote %}``: the 解散 panel's data for the page's viewer."""

from __future__ import annotations

from typing import Any

from django import template

from tables.dissolve import VoteView, vote_view
from tables.table import load_table

register = template.Library()


@register.simple_tag(takes_context=True)
def dissolve_vote(context: template.Context, board: Any) -> VoteView:
    """The vote at ``board``'s table as the context's ``user`` sees it."""
    table = load_table(board.room)
    if table is None:
        return VoteView()
    user = context.get("user")
    viewer = user.pk if user is not None and user.is_authenticated else None
    return vote_view(table, viewer)
