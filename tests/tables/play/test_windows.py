"""tables.play.windows: a claim window tells nobody who could claim, nor who answered what.

The same discards are played twice on explicit walls, once with a seat that may 碰 and
passes, once with nobody able to claim. Every page that was not asked (the two other seats
and a spectator) must get the same frames, attribute by attribute, at the same moments.
"""

from __future__ import annotations

import asyncio
import re
import time
from html.parser import HTMLParser
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from engine.hand import HandState, legal_actions
from tables.models import Room, Seat
from tests.deals import deal
from tests.tables.factories import drain, page_open, start_with_four_people

pytestmark = pytest.mark.django_db(transaction=True)

DEALER = "1z1m4m7m2p5p8p3s6s9s2z3z4z9m"
"""The dealer's 14: it discards 东 (1z), which no seat can chi (an honour) nor win on."""
DOWNSTREAM = "4m5m7m1p2p3p4s5s6s6z6z7p8p"
ACROSS_PONG = "1z1z3m6m9m1p4p7p2s5s8s4z6z"
"""The seat across from the dealer holds a pair of 东: asked whether it 碰s."""
ACROSS_NOTHING = "2z3z3m6m9m1p4p7p2s5s8s4z6z"
"""The same seat without the pair: nobody is asked anything."""
UPSTREAM = "2m5m8m3p6p9p4s7s6z4z3s6m9m"
DRAWS = "5p9p"
PAUSE = 0.6


class Elements(HTMLParser):
    """Every start tag of a frame with its attributes, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


TIMES = ("data-now", "data-ends-at")
"""Attributes holding the server's clock (ms): two runs can't share them."""


def elements(frame: str, number: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    parser = Elements()
    parser.feed(frame.replace(number, "ROOM"))
    return [(tag, [(k, "T" if k in TIMES else v) for k, v in attrs]) for tag, attrs in parser.tags]


def step_of(frames: list[str]) -> int:
    steps = [m for f in frames for m in re.findall(r'data-step="(\d+)"', f)]
    return int(steps[-1])


def scripted_table(users: list[Any], across: str) -> Room:
    """Four people at a table whose hand is dealt from an explicit wall, nobody on 托管."""
    room = start_with_four_people(users)
    Seat.objects.filter(room=room).update(tuoguan=False)
    Room.objects.filter(pk=room.pk).update(turn_seconds=600)
    room.refresh_from_db()
    assert room.state is not None
    d = HandState.from_json(room.state["hand"]).dealer
    hands = {d: DEALER, (d + 1) % 4: DOWNSTREAM, (d + 2) % 4: across, (d + 3) % 4: UPSTREAM}
    room.state["hand"] = deal(hands, DRAWS, dealer=d).to_json()
    room.save(update_fields=["state"])
    return room


async def frames_until_quiet(comm: WebsocketCommunicator, since: float) -> list[tuple[float, str]]:
    got: list[tuple[float, str]] = []
    while not await comm.receive_nothing(timeout=PAUSE + 0.8):
        got.append((time.monotonic() - since, await comm.receive_from()))
    return got


async def play_discard(users: list[Any], spectator: Any, across: str) -> dict[str, Any]:
    """The dealer discards 东; the seat across passes if it was asked. What the unasked
    pages got from the discard on, and whether the seat across was asked."""
    room = await sync_to_async(scripted_table)(users, across)
    d = HandState.from_json(room.state["hand"]).dealer
    seats = [(d + i) % 4 for i in range(4)]
    pages = [await page_open(room, users[s]) for s in seats]
    watcher = await page_open(room, spectator)
    got = await drain([*pages, watcher])
    step = step_of(got[0])
    started = time.monotonic()
    await pages[0].send_json_to({"action": "discard", "tile": "1z", "step": str(step)})
    asked = False
    for frame in [await pages[2].receive_from(timeout=3)]:
        asked = 'value="pass"' in frame or '"pass"' in frame
    if asked:
        state = HandState.from_json(
            (await sync_to_async(Room.objects.get)(pk=room.pk)).state["hand"]
        )
        assert [a.type for a in legal_actions(state, seats[2])] == ["peng", "pass"]
        await pages[2].send_json_to({"action": "pass", "step": str(step_of([frame]))})
    watched = await asyncio.gather(
        *(frames_until_quiet(p, started) for p in (pages[1], pages[3], watcher))
    )
    stored = await sync_to_async(Room.objects.get)(pk=room.pk)
    for p in [*pages, watcher]:
        await p.disconnect()
    return {
        "asked": asked,
        "watched": watched,
        "number": room.number,
        # The close was shown without a commit of its own (tables.play.clock.catch_up).
        "stored_phase": HandState.from_json(stored.state["hand"]).phase,
    }


async def test_unasked_seats_and_spectators_get_the_same_frames_whoever_could_claim(
    make_user: Any, settings: Any
) -> None:
    settings.TABLE_CLAIM_PAUSE_SECONDS = PAUSE
    names = ["东家", "南家", "西家", "北家", "看客"]
    runs = []
    for run, across in (("a", ACROSS_NOTHING), ("b", ACROSS_PONG)):
        people = [
            await sync_to_async(make_user)(f"{run}{i}", display_name=n) for i, n in enumerate(names)
        ]
        runs.append(await play_discard(people[:4], people[4], across))
    nobody, pong = runs
    assert not nobody["asked"] and pong["asked"]
    assert nobody["stored_phase"] == pong["stored_phase"] == "claim"
    for seen_a, seen_b in zip(nobody["watched"], pong["watched"], strict=True):
        # The window opens, then closes as the next seat draws: two frames either way.
        assert len(seen_a) == len(seen_b) == 2
        for (at_a, frame_a), (at_b, frame_b) in zip(seen_a, seen_b, strict=True):
            assert elements(frame_a, nobody["number"]) == elements(frame_b, pong["number"])
            assert abs(at_a - at_b) < 0.3
