"""The table's WebSocket: one consumer per open page, kept thin.

It receives and forwards: the player's inputs (parsed by :mod:`tables.play.protocol`) go to
:func:`tables.play.inputs.table_act`, and the timer for the table's next deadline to
:func:`tables.play.clock.advance`; the change each commits is announced by the service itself
(:mod:`tables.play.events`, :mod:`tables.socket.delivery`), and comes back to every page, this
one included, as the group's "changed" message (it never carries tiles), on which the page is
pushed its ``#live`` fragment, rendered for this connection's own seat.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime, timedelta
from functools import cached_property, partial
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from config.cache import UNREACHABLE
from config.clientip import scope_ip
from tables.play import clock, events, inputs, page_leases, phrases
from tables.play.protocol import Message, Phrase, PlayError, parse_text, printable
from tables.rooms import selectors, services
from tables.rooms.table_page import render_live
from tables.socket import delivery, heartbeat, limits, pushes
from tables.socket.deadline_once import ticks
from tables.socket.limits import TokenBucket
from tables.socket.scope import scope_csrf_token, scope_language, scope_origin
from tables.socket.table_threads import table_thread_call

logger = logging.getLogger(__name__)

CLOSE_NOT_LOGGED_IN = 4401
CLOSE_NO_SUCH_ROOM = 4404
CLOSE_TOO_MANY_SOCKETS = 4429
"""Refused: this account (or the room) has as many sockets open as ``TABLE_SOCKETS_*`` allow."""
CLOSE_TRY_AGAIN_LATER = 1013
"""Refused: the channel layer (Redis) can't be reached now, or this process is full
(:class:`tables.socket.limits.ProcessLoad`); the page reconnects later, with backoff."""
RETRY_AFTER = timedelta(seconds=1)


async def _refuse_unavailable(receive: Any, send: Any) -> None:
    """Answer a socket's handshake with "try again later" (1013), before any consumer state
    exists: the channel layer could not even name the socket's channel."""
    message = await receive()
    if message.get("type") == "websocket.connect":
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN_LATER})


class TableConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    number: str
    user: User | None
    alarm: asyncio.TimerHandle | None = None
    """Waits for :attr:`timer_for` (a loop timer: re-armed at almost every change, and a
    task per wait cost four tasks made and cancelled per change)."""
    ticking: asyncio.Task[None] | None = None
    """The tick the alarm started, while it runs (kept: the loop holds tasks weakly)."""
    beating: bool = False
    counted: bool = False
    grouped: bool = False
    loaded: bool = False
    """Counted among this process's open sockets (:func:`tables.socket.limits.process_load`)."""
    slots: tuple[str, ...] = ()
    inputs: TokenBucket | None = None
    throttled: bool = False
    cleaning: asyncio.Future[None] | None = None
    shown: pushes.Shown
    timer_for: datetime | None = None
    """The deadline :attr:`alarm` waits for."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shown = pushes.Shown()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Run the socket. However it ends (closed by either side, a crash in a handler, the
        channel layer failing, the task cancelled), :meth:`cleanup` runs."""
        try:
            await super().__call__(scope, receive, send)
        except UNREACHABLE as exc:
            if hasattr(self, "channel_name"):
                raise
            # Redis is down: a new socket is refused cleanly and the page retries (N4).
            logger.warning("table socket refused, the channel layer is unreachable: %s", exc)
            await _refuse_unavailable(receive, send)
        finally:
            await self.cleanup()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Run ``message``'s handler on the event loop, without a hop to the database thread.

        Channels (4.2 and later) first runs ``close_old_connections`` in the database thread
        for every message it dispatches. A push then waited for that one thread, behind
        whatever it was doing: a move's transaction, a commit's fsync, the beat of 800
        pages. That is four waits per move at every table, and a stall of the thread
        stalled every screen. This consumer reaches the database only through
        ``database_sync_to_async``, which closes old connections itself before and after
        every call, so the hop bought nothing.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    @cached_property
    def csrf_token(self) -> str:
        return scope_csrf_token(self.scope)

    @cached_property
    def language(self) -> str:
        """The page's language, as its HTTP requests chose it: fixed for the socket's life
        (switching languages reloads the page, which opens a new socket)."""
        return scope_language(self.scope)

    async def connect(self) -> None:
        self.number = str(self.scope["url_route"]["kwargs"]["number"])
        user = self.scope.get("user")
        self.user = user if isinstance(user, User) and user.is_authenticated else None
        if self.user is None:
            await self.close(code=CLOSE_NOT_LOGGED_IN)
            return
        load = limits.process_load()
        if load.full(seated=True):  # full even for a seated player: no database work at all
            heartbeat.beat().knocked(self.number, self.user.pk)  # not gone: turned away
            await self.try_again_later()
            return
        try:
            # Counted like the room page: the socket must not be a way to guess room numbers.
            room = await database_sync_to_async(services.room_find)(
                user=self.user, number=self.number, ip=scope_ip(self.scope)
            )
        except services.RoomError:
            await self.close(code=CLOSE_NO_SUCH_ROOM)
            return
        if not await database_sync_to_async(limits.connect_allowed)(
            user_id=self.user.pk, number=self.number
        ):
            await self.close(code=CLOSE_TOO_MANY_SOCKETS)
            return
        seated = await database_sync_to_async(selectors.seat_of)(room, self.user) is not None
        if not seated and load.full(seated=False):
            await self.try_again_later()
            return
        slots = await database_sync_to_async(page_leases.socket_slots_take)(
            user_id=self.user.pk, number=self.number, channel=self.channel_name, seated=seated
        )
        if slots is None:
            await self.close(code=CLOSE_TOO_MANY_SOCKETS)
            return
        self.slots = tuple(slots)
        self.inputs = TokenBucket(
            rate=settings.TABLE_INPUT_RATE, burst=settings.TABLE_INPUT_BURST, now=time.monotonic()
        )
        try:
            await self.channel_layer.group_add(events.group_name(self.number), self.channel_name)
        except UNREACHABLE as exc:
            logger.warning("table %s: socket refused, layer unreachable: %s", self.number, exc)
            await self.accept()
            await self.close(code=CLOSE_TRY_AGAIN_LATER)
            return
        self.grouped = True
        load.opened()
        self.loaded = True
        delivery.attach()
        await self.accept()
        # Counted before the first push, so that push already shows the seat online: the
        # page was served showing it so, and a push correcting it afterwards would be a
        # second swap of an unchanged table (and a layout shift).
        await database_sync_to_async(inputs.seat_connect)(number=self.number, user=self.user)
        self.counted = seated  # its seat is counted online while the page is open
        if not await self.push():
            await self.close(code=CLOSE_NO_SUCH_ROOM)
            return
        page = heartbeat.Page(
            channel=self.channel_name,
            number=self.number,
            user_id=self.user.pk if self.counted else None,
            slots=self.slots,
            shown=self.shown,
            tell=self.tell,
        )
        heartbeat.beat().join(page)
        self.beating = True

    async def disconnect(self, code: int) -> None:
        await self.cleanup()

    async def cleanup(self) -> None:
        """Give back everything this socket holds, once: its timers, its group, its seat's page
        count and its socket slots. Shielded: when the socket's task is cancelled meanwhile
        (daphne stops waiting for a closed socket after a while), the cleanup still finishes."""
        if self.cleaning is None:
            self.cleaning = asyncio.ensure_future(self._release())
        await asyncio.shield(self.cleaning)

    async def _release(self) -> None:
        # Each step runs even when an earlier one failed (a channel layer refusing
        # group_discard must not leave the seat counted as open).
        if self.beating:
            self.beating = False
            await heartbeat.beat().leave(self.channel_name)
        self.arm(None)
        if self.loaded:
            self.loaded = False
            limits.process_load().closed()
        if not hasattr(self, "number"):
            return
        try:
            if self.grouped:
                await self.channel_layer.group_discard(
                    events.group_name(self.number), self.channel_name
                )
        except Exception as exc:
            logger.warning("table %s: leaving the group failed: %s", self.number, exc)
        try:
            if self.slots:
                # First, so that the seat's page count below no longer holds this socket.
                slots, self.slots = self.slots, ()
                await database_sync_to_async(page_leases.socket_slots_release)(
                    keys=list(slots), channel=self.channel_name
                )
        except Exception as exc:
            # The leases run out by themselves (tables.play.page_leases.slot_lease).
            logger.warning("table %s: freeing the socket's slots failed: %s", self.number, exc)
        try:
            if self.counted and self.user is not None:
                self.counted = False
                await database_sync_to_async(inputs.seat_disconnect)(
                    number=self.number, user=self.user
                )
        except Exception as exc:
            # Without heartbeats the seat goes stale by itself (tables.play.presence).
            logger.warning("table %s: counting the page closed failed: %s", self.number, exc)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """One input from the page. Whatever it is, the socket stays open: a refusal or a
        failure is answered on this page's error line and changes nothing."""
        language = self.language
        if self.inputs is not None and not self.inputs.take(time.monotonic()):
            if not self.throttled:  # one refusal per flood; the rest are dropped unanswered
                self.throttled = True
                with translation.override(language):
                    await self.send_error(_("Too many inputs at once; wait a moment."))
            return
        self.throttled = False
        try:
            with translation.override(language):
                message = parse_text(text_data)  # refused here, before any table work
                if isinstance(message, Phrase):  # chat: no table work, no version bump
                    await self.phrase_broadcast(message)
                    return
            await table_thread_call(self._act)(message)
        except PlayError as exc:
            await self.send_error(str(exc))
            return
        except Exception:
            logger.exception("table %s: an input failed", self.number)
            with translation.override(language):
                await self.send_error(_("That did not go through; nothing changed. Try again."))

    def _act(self, message: Message) -> clock.Committed | None:
        assert self.user is not None
        with translation.override(self.language):
            return inputs.table_act(number=self.number, user=self.user, message=message)

    async def table_changed(self, event: dict[str, Any]) -> None:
        version = event.get("version")
        await self.push(
            fresh_after=float(event.get("at") or time.time()),
            version=version if isinstance(version, int) else None,
        )

    async def tell(self, version: int) -> None:
        """Push this page up to room version ``version`` without the channel layer
        (:mod:`tables.socket.delivery`, when the layer is down)."""
        await self.push(version=version)

    async def table_evict(self, event: dict[str, Any]) -> None:
        if self.user is not None and event.get("user_id") == self.user.pk:
            await self.close(code=CLOSE_NO_SUCH_ROOM)

    async def phrase_broadcast(self, message: Phrase) -> None:
        assert self.user is not None
        seat = await database_sync_to_async(phrases.phrase_send)(
            number=self.number, user=self.user, phrase=message.index
        )
        try:
            await self.channel_layer.group_send(
                events.group_name(self.number),
                {"type": "table.phrase", "seat": seat, "phrase": message.index},
            )
        except Exception as exc:
            logger.warning("table %s: a phrase was not sent: %s", self.number, exc)
            with translation.override(self.language):
                await self.send_error(_("That did not go through; nothing changed. Try again."))

    async def table_phrase(self, event: dict[str, Any]) -> None:
        """Another (or this) page's player said a phrase: a small fragment, not a push."""
        with translation.override(self.language):
            html = render_to_string(
                "tables/_phrase.html",
                {"seat": int(event["seat"]), "text": phrases.PHRASES[int(event["phrase"])]},
            )
        await self.send(text_data=html)

    # ------------------------------------------------------------ rendering

    def _render(self) -> tuple[str, datetime | None, bool]:
        """The seats page (before the match), rendered for this page alone."""
        with translation.override(self.language):
            html, room = render_live(
                self.number,
                self.user,
                invite_url=f"{scope_origin(self.scope)}/r/{self.number}/",
                csrf_token=self.csrf_token,
            )
        return html, (room.deadline if room else None), room is not None

    async def push(self, fresh_after: float | None = None, version: int | None = None) -> bool:
        """Send this page what changed since ``fresh_after`` (default: now) or up to room
        version ``version``; False if the room does not exist. The table is read and its
        public part rendered once per change for every page of this process
        (:mod:`tables.socket.pushes`)."""
        snap = await pushes.frame_cache().snapshot(
            self.number, time.time() if fresh_after is None else fresh_after, version
        )
        if snap.room is None:
            return False
        if snap.table is None:
            html, deadline, exists = await database_sync_to_async(self._render)()
            if not exists:
                return False
            self.shown.forget_table()
        else:
            html = pushes.table_frame(
                snap,
                self.user,
                language=self.language,
                csrf_token=self.csrf_token,
                shown=self.shown,
            )
            deadline = snap.deadline
        self.shown.version = snap.version
        if html:
            await self.send(text_data=html)
        self.arm(deadline)
        return True

    async def try_again_later(self) -> None:
        """Refuse the socket with 1013: the page's socket extension retries it with backoff."""
        await self.accept()
        await self.close(code=CLOSE_TRY_AGAIN_LATER)

    async def send_error(self, message: str) -> None:
        html = render_to_string("tables/_table_error.html", {"message": printable(message)})
        await self.send(text_data=html)

    # ------------------------------------------------------------ the table's clock

    def arm(self, deadline: datetime | None) -> None:
        """Wait for ``deadline`` (None: nothing is due); an alarm already set for it is kept
        (most pushes leave the deadline where it was)."""
        if self.alarm is not None and self.timer_for == deadline:
            return
        if self.alarm is not None:
            self.alarm.cancel()
            self.alarm = None
        self.timer_for = deadline
        if deadline is not None:
            delay = max(0.0, (deadline - timezone.now()).total_seconds()) + 0.01
            self.alarm = asyncio.get_running_loop().call_later(delay, self._ring, deadline)

    def _ring(self, deadline: datetime) -> None:
        # From here this tick runs to the end even if a push arms the next alarm meanwhile,
        # and even if the page closes: a change it commits must still reach the other pages.
        self.alarm = None
        self.ticking = asyncio.create_task(self._tick(deadline))

    async def _tick(self, deadline: datetime) -> None:
        try:
            # The table's other pages in this process wait for the same deadline: one ticks.
            kept = pushes.frame_cache().kept(self.number)
            if kept is not None and kept.closes_window_at(deadline) and kept.version is not None:
                # A held window's close is no commit (clock.catch_up): every process pushes
                # its own pages from its snapshot, caught up, without the database.
                await ticks().once(
                    self.number, deadline, partial(self._closed, deadline, kept.version)
                )
                return
            await ticks().once(
                self.number,
                deadline,
                table_thread_call(partial(clock.advance, self.number)),
                met=lambda change: change.met if change is not None else None,
            )
        except Exception:
            # A failed tick must not stop the table's clock: log it and try again shortly.
            logger.exception("table %s: advance failed", self.number)
            self.arm(timezone.now() + RETRY_AFTER)
            return
        finally:
            self.ticking = None

    async def _closed(self, deadline: datetime, version: int) -> None:
        """Push this process's pages of the table once the window closing at ``deadline`` is
        closed for readers: not a moment before, or the tick would be spent for nothing."""
        early = (deadline - timezone.now()).total_seconds()
        if early > 0:
            await asyncio.sleep(early)
        await delivery.pages_tell(self.number, version)
