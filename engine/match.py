"""A match: several hands at one table, the deal passing by §2, running totals.

>>> from engine.rules import Rules
>>> m = Match(Rules(), hands_total=4, seed="table-1")
>>> m.dealer in range(4)
True
>>> h = m.start_hand("hand-1")
>>> h.dealer == m.dealer
True
>>> Match.from_json(m.to_json()) == m
True
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from typing import Any

from engine.hand import HandState, new_hand
from engine.rules import Rules

__all__ = ["Match", "first_dealer"]


def first_dealer(rules: Rules, seed: int | str, owner: int = 0) -> tuple[int, list[list[int]]]:
    """The first dealer and the rolls that chose it (§2), reproducible from ``seed``.

    ``owner_roll``: the owner's sum S counts seats from the owner (owner = 1).
    ``highest_roll``: everyone rolls, the highest sum deals, tied seats roll again.
    """
    rng = random.Random(f"first-dealer:{seed}")
    rolls: list[list[int]] = []
    if rules.first_dealer == "owner_roll":
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        rolls.append(dice)
        return (owner + sum(dice) - 1) % 4, rolls
    seats = [0, 1, 2, 3]
    while True:
        sums = {s: rng.randint(1, 6) + rng.randint(1, 6) for s in seats}
        rolls.append([sums.get(s, 0) for s in range(4)])
        top = max(sums.values())
        seats = [s for s in seats if sums[s] == top]
        if len(seats) == 1:
            return seats[0], rolls


@dataclass
class Match:
    """Hands in sequence; ``hands_total`` None = open-ended."""

    rules: Rules
    hands_total: int | None = None
    seed: int | str | None = None
    owner: int = 0
    hand_no: int = 0
    dealer: int = -1
    totals: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    history: list[dict[str, Any]] = field(default_factory=list)
    first_rolls: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.seed is None:
            self.seed = secrets.token_hex(8)  # recorded, so the first dealer is replayable
        if self.dealer < 0:
            self.dealer, self.first_rolls = first_dealer(self.rules, self.seed, self.owner)

    @property
    def over(self) -> bool:
        return self.hands_total is not None and self.hand_no >= self.hands_total

    def start_hand(self, seed: int | str | None = None) -> HandState:
        """Deal the next hand with the current dealer."""
        if self.over:
            raise ValueError("the match is over")
        return new_hand(self.rules, self.dealer, seed)

    def finish_hand(self, result: dict[str, Any]) -> None:
        """Book a finished hand's ``result`` (from ``HandState.result``)."""
        for seat, pts in enumerate(result["totals"]):
            self.totals[seat] += int(pts)
        self.history.append(
            {"hand_no": self.hand_no, "dealer": self.dealer, "totals": list(result["totals"])}
        )
        self.dealer = int(result["next_dealer"])
        self.hand_no += 1

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "hands_total": self.hands_total,
            "seed": self.seed,
            "owner": self.owner,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "totals": list(self.totals),
            "history": [dict(h) for h in self.history],
            "first_rolls": [list(r) for r in self.first_rolls],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Match:
        return cls(
            rules=Rules.from_json(d["rules"]),
            hands_total=d["hands_total"],
            seed=d["seed"],
            owner=d["owner"],
            hand_no=d["hand_no"],
            dealer=d["dealer"],
            totals=list(d["totals"]),
            history=[dict(h) for h in d["history"]],
            first_rolls=[list(r) for r in d["first_rolls"]],
        )
