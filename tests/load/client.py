"""One table's four players: real WebSocket clients that play like people who pass a lot.

Each client reads its pushed frames, waits its thinking time and then uses one of the controls
the page offers it, sending exactly the JSON htmx would. The table records, for each move, when
the last of its four screens first showed a version newer than the one the move was made on;
or, for an answer in a claim window that still waits on another asked seat, when the answering
screen's buttons went (the only screen that shows it until the window closes); or, for a
refused press, when its screen showed the refusal.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import websockets

from tests.load.wire import Control, Frame, htmx_message, parse_frame

__all__ = ["Player", "TableRun", "Timed", "choose", "move_text"]

REPRESS_SECONDS = 0.05
"""The least a client waits before pressing again after a refusal."""

TRY_AGAIN_LATER = 1013
"""The server is full: a page's socket extension (htmx's ws) retries after a random delay up
to a second, then two, four…, as :func:`retry_delay` does here."""


def retry_delay(retries: int, rng: random.Random) -> float:
    """htmx's ws extension's "full jitter": up to 2**retries seconds, at most 64.

    >>> 0 <= retry_delay(0, random.Random(1)) <= 1 and retry_delay(9, random.Random(1)) <= 64
    True
    """
    return rng.random() * float(2 ** min(retries, 6))


CLAIMS = ("peng", "gang", "chi")

PRESSES = ("hu", *CLAIMS, "pass", "discard", "ready")
"""The actions :func:`choose` presses (a page also offers 托管 and leaving, never pressed)."""


def choose(frame: Frame, rng: random.Random) -> Control | None:
    """The control a plain player uses: win when it can, rarely claim, discard what it drew.

    >>> from tests.load.wire import parse_frame
    >>> f = parse_frame('<div hx-vals=\\'{"step": 1}\\'><button ws-send name="action" value="hu">'
    ...                 '</button><button ws-send name="action" value="pass"></button></div>')
    >>> choose(f, random.Random(0)).action
    'hu'
    """
    by_action: dict[str, list[Control]] = {}
    for c in frame.controls:
        by_action.setdefault(c.action, []).append(c)
    if "hu" in by_action:
        return by_action["hu"][0]
    claims = [c for a in CLAIMS for c in by_action.get(a, [])]
    if claims and rng.random() < 0.3:
        return rng.choice(claims)
    if "pass" in by_action:
        return by_action["pass"][0]
    discards = by_action.get("discard", [])
    if discards:
        drawn = [c for c in discards if c.drawn]
        return drawn[0] if drawn and rng.random() < 0.6 else rng.choice(discards)
    if "ready" in by_action:
        return by_action["ready"][0]
    return None


class Timed(NamedTuple):
    """One timed move."""

    sent: float
    """When it was sent, by ``time.perf_counter()``."""
    latency: float
    """Seconds until the last screen that shows it had it."""
    action: str


@dataclass
class _Move:
    sent: float
    version: int
    seat: int
    action: str
    seen: set[int] = field(default_factory=set)


@dataclass
class TableRun:
    """What one table's four clients measured."""

    number: str
    hands_wanted: int
    push_sizes: list[int] = field(default_factory=list)
    moves: int = 0
    errors: int = 0
    refused_sockets: int = 0
    """Sockets the server closed with "try again later" (full), and the page opened again."""
    hands_done: int = 0
    finished: bool = False
    measuring: bool = True
    """Moves sent from here on are counted and timed (the run's window is open)."""
    timed: list[Timed] = field(default_factory=list)
    """Every timed move, in the order their screens had them."""
    _pending: list[_Move] = field(default_factory=list)
    _hands_seen: set[int] = field(default_factory=set)

    def sent(self, version: int, seat: int, action: str = "") -> None:
        if self.measuring:
            self.moves += 1
            self._pending.append(_Move(time.perf_counter(), version, seat, action))

    @property
    def latencies(self) -> list[float]:
        """Every timed move's latency (seconds), whatever was pressed."""
        return [t.latency for t in self.timed]

    @property
    def by_action(self) -> dict[str, list[float]]:
        """Each timed move's latency (seconds), by the action pressed."""
        by: dict[str, list[float]] = {}
        for t in self.timed:
            by.setdefault(t.action, []).append(t.latency)
        return by

    @property
    def in_flight(self) -> int:
        """Moves sent in the window that not all four screens have shown yet."""
        return len(self._pending)

    def received(self, seat: int, frame: Frame, at: float) -> None:
        self.push_sizes.append(frame.size)
        if frame.error:
            self.errors += 1
            # A refused press moved nothing: its refusal, on its own screen alone, is all it
            # brings. (Timed to the table's next change, it measured another player's think.)
            self._complete(lambda m: m.seat == seat, at)
        if frame.version is None:
            if frame.private and not any(c.action in PRESSES for c in frame.controls):
                # Only the seat's own part changed, and its buttons went: its answer in a claim
                # window was taken, and the table waits on another asked seat. No other screen
                # shows anything of it until the window closes (nothing may tell them a window
                # is open), so this screen is the last to have the move.
                self._complete(lambda m: m.seat == seat, at)
            return
        version = frame.version
        for m in self._pending:
            if version > m.version:
                m.seen.add(seat)
        self._complete(lambda m: len(m.seen) == 4, at)
        if frame.phase == "ended" and frame.hand is not None and frame.hand not in self._hands_seen:
            self._hands_seen.add(frame.hand)
            self.hands_done = len(self._hands_seen)
        if frame.finished:
            self.finished = True

    def _complete(self, shown: Callable[[_Move], bool], at: float) -> None:
        """Time the pending moves that are ``shown`` everywhere they will be, at ``at``."""
        still: list[_Move] = []
        for m in self._pending:
            if shown(m):
                self.timed.append(Timed(sent=m.sent, latency=at - m.sent, action=m.action))
            else:
                still.append(m)
        self._pending = still

    @property
    def done(self) -> bool:
        return self.finished or self.hands_done >= self.hands_wanted


@dataclass
class Player:
    """One seat's browser page, as far as the socket is concerned."""

    table: TableRun
    seat: int
    url: str
    page_url: str
    headers: dict[str, str]
    think: float
    rng: random.Random
    handshakes: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(1))
    """Shared by all players: how many may be opening their socket at once. Browsers do not
    all connect in the same millisecond; 1,600 handshakes at once overflow the server's
    listen backlog, and the refused ones fail the run."""
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    seated: asyncio.Event | None = None
    """Shared by all players: set once every socket is open. Nobody presses before it, so
    the tables that connected first do not load the server while the last ones still open
    their sockets (past daphne's 5 s handshake limit, a socket is refused)."""
    step: int | None = None
    """The step of the public part shown last: htmx sends it with every move (the root's
    ``hx-vals`` reads it from the page when the button is pressed)."""
    version: int | None = None
    """The version of the public part shown last (what a move's latency is counted from)."""
    buttons: Frame | None = None
    """The seat's own part shown last: the buttons a press uses. It is replaced by every push
    that carries a new one, with or without a public part."""

    async def play(self) -> None:
        """Play until the table is done or the task is cancelled (the run's end); a socket
        refused or closed with "try again later" is opened again after a backoff, as a page's."""
        retries = 0
        while True:
            try:
                await self._play_one_socket()
                return
            except websockets.ConnectionClosed as closed:
                if closed.rcvd is None or closed.rcvd.code != TRY_AGAIN_LATER:
                    raise
            self.table.refused_sockets += 1
            await asyncio.sleep(retry_delay(retries, self.rng))
            retries += 1

    async def _play_one_socket(self) -> None:
        async with self.handshakes:
            ws = await websockets.connect(
                self.url,
                additional_headers=self.headers,
                max_size=2**22,
                open_timeout=60,
                # A browser never pings (it only answers the server's pings), and 800 clients
                # that connected in the same second would ping the server in one burst.
                ping_interval=None,
            )
        async with ws:
            self.connected.set()
            thinking: asyncio.Task[None] | None = None
            try:
                # No timeout around recv(): asyncio.wait_for made a task and a timer for every
                # push, and woke every quiet socket each second, in the process that shares
                # the machine with the servers it measures. The run ends by cancelling this.
                while not self.table.done:
                    text = await ws.recv()
                    at = time.perf_counter()  # the screen has it: what it does next is the page's
                    frame = parse_frame(text if isinstance(text, str) else text.decode())
                    self.table.received(self.seat, frame, at)
                    if self.shows(frame) and (thinking is None or thinking.done()):
                        thinking = asyncio.create_task(self._press(ws, again=frame.error))
            finally:
                if thinking is not None:
                    thinking.cancel()

    def shows(self, frame: Frame) -> bool:
        """The page now shows ``frame``: whether to think and press a button, because it
        brought new buttons or refused a press (whose buttons are still there). A press
        already being thought about uses whatever buttons are shown when it is made."""
        if frame.step is not None:
            self.step = frame.step
        if frame.version is not None:
            self.version = frame.version
        if frame.private:
            self.buttons = frame
            return True
        return frame.error

    def press(self) -> str | None:
        """The message a press of one of the buttons shown now sends (None: no button)."""
        control = None if self.buttons is None else choose(self.buttons, self.rng)
        if control is None or self.version is None:
            return None
        self.table.sent(self.version, self.seat, control.action)
        return move_text(control, step=self.step, page_url=self.page_url)

    async def _press(self, ws: websockets.ClientConnection, *, again: bool) -> None:
        if self.seated is not None:
            await self.seated.wait()
        thinking = self.think * self.rng.uniform(0.5, 1.5)
        # A refused press is not hammered at full speed: the push it missed is on its way.
        await asyncio.sleep(max(thinking, REPRESS_SECONDS) if again else thinking)
        text = self.press()
        if text is not None:
            await ws.send(text)


def move_text(control: Control, *, step: int | None, page_url: str) -> str:
    """What the page sends for ``control``: the private part's buttons carry no step, so the
    page adds the step of the public part it shows (the root's ``hx-vals`` reads it), unless
    the control has its own.

    >>> import json
    >>> json.loads(move_text(Control({"action": "pass"}), step=9, page_url="/r/1/"))["step"]
    9
    """
    if "step" not in control.message:
        control = replace(control, message={**control.message, "step": step})
    return htmx_message(control, page_url=page_url)
