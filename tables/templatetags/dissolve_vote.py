"""``{% dissolve_vote board as vote %}``: the 解散 panel's data for the board's viewer."""

from __future__ import annotations

from typing import Any

from django import template

from tables.dissolve import VoteView, vote_view

register = template.Library()


@register.simple_tag
def dissolve_vote(board: Any) -> VoteView:
    """The vote at ``board``'s table as the board's viewer sees it (built from the board, so
    a push costs a query or two more, not a second load of the table)."""
    names = [p.name for p in sorted(board.panels, key=lambda p: p.index)]
    return vote_view(
        room=board.room,
        names=names,
        my_index=board.me.index if board.me is not None else None,
        finished=board.finished,
    )
