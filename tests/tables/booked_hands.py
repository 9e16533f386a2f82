"""Two hands booked before the rules fixes of issue #33, as the site stored them: seed, dealer,
rules, log and the result booked with the book's entries. A fixture module, not a test module.

Both were played by ``engine.simulate`` with the engine as it stood before that fix (seeds
``old33:1251`` and ``strict33:551``); the deals below are what those seeds deal today too (the
wall is a pure function of the seed). Each booked result is worked out here from the rules:

- :data:`QIDUI_BAODIAO`: seat 1 (the dealer) is dealt ``11359m588p22s2255z``; the indicator
  4m makes 5m the 宝. It discards 9m and, after three discards and a pass, draws 5m. The 13
  tiles before the draw are five pairs (11m 88p 22s 22z 55z), two singles (3m 5p) and one 宝:
  the old engine called the drawn 宝 and the lone one two wilds and booked 七对宝吊 (12,
  §7); each of the three others paid 12 on the 自摸 (§8). Today it is 有宝七对, 8 each.
- :data:`STRICT_CHI_BAO`: ``strict_no_bao`` on. The indicator 2s makes 3s the 宝. Seat 3 吃s
  seat 2's 1s with 2s 3s, so the 宝 sits in its 吃; it wins on a drawn 5m with
  ``567m567p44456s``: 平胡, 无宝 in the concealed tiles, booked 4 from each of the three others
  (§7, §8). Today the 宝 in the 吃 makes it 有宝平胡 (2), which can't be declared: today's
  engine refuses the logged 胡 (action 37 of 37).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from engine.rules import Rules
from ledger.services import hand_entries_create
from tables.models import Hand, Match, Room, Seat
from tables.play.proof import seed_commitment
from tables.rooms import services
from tests.deals import act


@dataclass(frozen=True)
class BookedHand:
    seed: str
    dealer: int
    rules: Rules
    actions: list[list[Any]]
    result: dict[str, Any]


def _self_draw(
    winner: int, tile: str, name: str, status: str, score: int, hands: list[str], patterns: str
) -> dict[str, Any]:
    """A 自摸 result as the engine books it: each other seat pays ``score`` (§8)."""
    others = [(winner + k) % 4 for k in (1, 2, 3)]
    return {
        "outcome": "self_draw",
        "winners": [winner],
        "robbed": None,
        "winning_tile": tile,
        "judgements": {
            str(winner): {
                "name": name,
                "score": score,
                "patterns": [patterns],
                "bao_status": status,
                "fan": 0,
                "base": score,
                "reason": "",
                "breakdown": [{"label": name, "value": score, "kind": "base"}],
            }
        },
        "scores": {str(winner): score},
        "transfers": [
            {"payer": p, "payee": winner, "points": score, "reason": "self_draw"} for p in others
        ],
        "totals": [3 * score if s == winner else -score for s in range(4)],
        "next_dealer": winner,
        "hands": hands,
    }


QIDUI_BAODIAO = BookedHand(
    seed="old33:1251",
    dealer=1,
    rules=Rules(),
    actions=[
        act(1, "discard", "9m"),
        act(2, "discard", "8m"),
        act(3, "discard", "1s"),
        act(0, "discard", "4z"),
        act(3, "pass"),
        act(1, "hu", "5m"),
    ],
    result=_self_draw(
        1,
        "5m",
        "七对宝吊",
        "baodiao",
        12,
        ["33448m2357p5s335z", "11355m588p22s2255z", "24466p33678s111z", "17m23699p258s446z"],
        "qidui",
    ),
)

_STRICT_LOG = (
    "0:9s 1:peng:9s 1:8s 2:1s 3:chi:1s:23s 3:1z 0:3z 1:4m 2:2z 0:peng:2z 0:4z 1:9p 2:9m 3:4z "
    "0:7z 1:7m 2:1p 3:2z 0:7z 1:1p 2:2s 3:3m 0:6m 1:1m 2:2s 3:1z 0:1m 1:8p 2:pass 2:9s 3:7p "
    "0:pass 0:8s 1:6p 2:pass 2:9p 3:hu:5m"
)


def _logged(entry: str) -> list[Any]:
    """``"1:peng:9s"``, ``"3:chi:1s:23s"``, ``"2:pass"``; a bare tile is a discard."""
    seat, *rest = entry.split(":")
    if rest[0] in ("peng", "hu"):
        return act(int(seat), rest[0], rest[1])
    if rest[0] == "chi":
        return act(int(seat), "chi", rest[1], tiles=rest[2])
    if rest[0] == "pass":
        return act(int(seat), "pass")
    return act(int(seat), "discard", rest[0])


STRICT_CHI_BAO = BookedHand(
    seed="strict33:551",
    dealer=0,
    rules=Rules().with_options(strict_no_bao=True),
    actions=[_logged(e) for e in _STRICT_LOG.split()],
    result=_self_draw(
        3,
        "5m",
        "平胡",
        "wubao",
        4,
        ["22m246789p55z", "999m234p3345s", "34567m345678p68s", "567m567p44456s"],
        "pinghu",
    ),
)


def store_booked(owner: Any, booked: BookedHand) -> Hand:
    """A room of ``owner`` (seat 0) and three bots whose first hand is ``booked``, stored and
    booked in the ledger as the table would have done it."""
    room = services.room_create(
        owner=owner,
        name="Booked",
        is_public=True,
        rules=booked.rules,
        match_length=1,
        turn_seconds=20,
    )
    Seat.objects.filter(room=room, index__gt=0).update(bot="basic")
    match = Match.objects.create(room=room, number=1, rules=booked.rules.to_json(), match_length=1)
    now = timezone.now()
    hand = Hand.objects.create(
        room=room,
        match=match,
        number=1,
        dealer=booked.dealer,
        seed=booked.seed,
        seed_hash=seed_commitment(booked.seed),
        rules=booked.rules.to_json(),
        actions=booked.actions,
        result=booked.result,
        ended_at=now,
    )
    hand_entries_create(
        hand=hand, users=[owner, None, None, None], transfers=booked.result["transfers"], now=now
    )
    Room.objects.filter(pk=room.pk).update(status=Room.Status.FINISHED)
    hand.refresh_from_db()
    return hand
