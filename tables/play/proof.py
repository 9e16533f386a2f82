"""A deal anyone can verify: the seed's commitment at the deal, and the hand's log line after it.

When a hand is dealt its seed is secret, but its SHA-256 (the commitment) is shown to the
table. The wall is a pure function of the seed, so once the hand has ended and the seed is
revealed, anyone can check ``sha256(seed)`` against the commitment (the wall was fixed before
the first tile was drawn) and re-deal and re-play the hand with ``python -m engine.replay``.

>>> seed_commitment("abc")
'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from engine.hand import new_hand
from engine.rules import Rules
from tables.models import Hand

__all__ = [
    "DealProof",
    "deal_proof",
    "hand_finished",
    "hand_log_filename",
    "hand_log_line",
    "hand_log_record",
    "seed_commitment",
]


def seed_commitment(seed: str) -> str:
    """The SHA-256 of a hand's seed, hex: public from the deal on, the seed only after the end."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def hand_finished(hand: Hand) -> bool:
    """Has the hand ended with a result? Only then are its seed, wall and hands public.

    A hand stopped by closing the room has no result: what was left of its wall stays secret.
    """
    return hand.result is not None


def hand_log_record(hand: Hand) -> dict[str, Any]:
    """The hand as one record of ``engine.replay``'s log format (``docs/engine.md``)."""
    if not hand_finished(hand):
        raise ValueError("a hand's log (and its seed) is given out only once it has ended")
    # The dice come from the seed too; written out so the line reads like any other log line.
    dealt = new_hand(Rules.from_json(hand.rules), hand.dealer, hand.seed)
    return {
        "rules": hand.rules,
        "dealer": hand.dealer,
        "seed": hand.seed,
        "dice": list(dealt.wall.dice),
        "seed_sha256": hand.seed_hash,
        "actions": hand.actions,
        "result": hand.result,
    }


def hand_log_line(hand: Hand) -> str:
    """:func:`hand_log_record` as the one JSON line ``python -m engine.replay FILE`` reads."""
    return json.dumps(hand_log_record(hand), ensure_ascii=False, separators=(",", ":")) + "\n"


def hand_log_filename(hand: Hand) -> str:
    return f"hand-{hand.pk}.jsonl"


@dataclass
class DealProof:
    """What a hand's record shows about its deal: the commitment, and after the end the seed."""

    commitment: str
    seed: str | None
    """None while the hand is in play (or was stopped without a result)."""
    log_line: str | None
    filename: str

    @property
    def seed_matches(self) -> bool:
        return self.seed is not None and seed_commitment(self.seed) == self.commitment


def deal_proof(hand: Hand) -> DealProof:
    """The commitment of ``hand``'s deal, and its seed and log line only once it has ended."""
    done = hand_finished(hand)
    return DealProof(
        commitment=hand.seed_hash,
        seed=hand.seed if done else None,
        log_line=hand_log_line(hand) if done else None,
        filename=hand_log_filename(hand),
    )
