"""``python -m tests.load.cycle``: the server's CPU per move, without sockets or clients.

One table of four people on a scratch SQLite database, played in this process through the
same code the live table runs: each move is ``inputs.table_act`` (lock, judge, save), then
the snapshot the pages are pushed from, and the four pages' pushes (``pushes.table_frame``,
what changed for each page). A held window that nobody may answer closes as the live table
closes it, without a commit: the snapshot is caught up at its deadline
(``pushes.snapshot_caught_up``) and pushed, and the next move saves it; the table's clock
runs ahead of the wall clock by the pauses so skipped. The snapshot is what the process that
made the change keeps (``pushes.snapshot_committed``); with ``--reread`` it is read again, as
every other process does (``pushes.snapshot_load``). The bots choose the moves
(``engine.play.bots``); a person's 准备 starts the next hand.

It prints the CPU milliseconds per move of each part and in all: a figure that does not
depend on what else the machine is doing, unlike the socket benchmark's latencies
(``python -m tests.load``), so two commits can be compared run against run::

    python -m tests.load.cycle --moves 2000

It also prints ``yardstick_ms``, the CPU time of a fixed loop of plain Python that no commit
changes: this kind of machine has run at speeds 2.5 times apart, so a figure is quoted with
the yardstick it was measured beside.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any
from unittest import mock

from tests.load.server import command_parser, database_ready, seat_tables

PARTS = ("move", "read", "push")

YARDSTICK_ADDS = 2_000_000


def yardstick_ms() -> float:
    """The CPU milliseconds of :data:`YARDSTICK_ADDS` additions in a plain Python loop: the
    machine's speed, whatever the code under test."""
    start = time.process_time()
    total = 0
    for i in range(YARDSTICK_ADDS):
        total += i
    return round(1000 * (time.process_time() - start), 1)


def _cycle(number: str, moves: int, seed: int, *, reread: bool = False) -> dict[str, Any]:
    from django.utils import timezone

    from engine.hand import waiting_on
    from engine.play.bots import choose_action
    from engine.views import seat_info
    from tables.models import Room
    from tables.play import clock, events, inputs
    from tables.play.protocol import Move, Ready
    from tables.play.table import load_table
    from tables.play.windows import public_step
    from tables.socket import pushes

    # The four pages are pushed here, in this thread, as their process would on its loop: the
    # changes are delivered to nobody else.
    events.delivery_register(lambda change: True)
    rng = random.Random(seed)
    table = load_table(Room.objects.get(number=number))
    assert table is not None
    users = [s.user for s in table.seats if s.user is not None]
    assert len(users) == 4
    shown = [pushes.Shown() for _ in users]
    spent = dict.fromkeys(PARTS, 0.0)
    snap: pushes.Snapshot | None = None
    done = readies = closes = 0
    # The table's clock: the wall clock, or the last window's close if that is later.
    ahead = timezone.now()
    while done < moves:
        now = max(ahead, timezone.now())
        t = load_table(Room.objects.get(number=number))
        assert t is not None and t.hand is not None
        clock.catch_up(t, now)
        asked = waiting_on(t.hand) if t.hand.phase != "ended" else []
        start = time.process_time()
        if t.hand.phase == "ended":
            readies += 1
            seat = next(s.index for s in t.seats if not s.ready)
            change = inputs.table_act(number=number, user=users[seat], message=Ready(), now=now)
        elif not asked:  # a window nobody may answer: it closes after the pause
            assert t.room.deadline is not None and snap is not None
            closes += 1
            ahead = now = t.room.deadline
            if not snap.closes_window_at(t.room.deadline):
                change = clock.advance(number, now=now)  # a close that ends the hand
            else:
                change = None
        else:
            info = seat_info(t.hand, asked[0])
            action = choose_action("basic", info, rng)
            message = Move(action=action, step=public_step(t.room))
            change = inputs.table_act(number=number, user=users[asked[0]], message=message, now=now)
        read = time.process_time()
        before = snap
        if change is None:
            assert snap is not None
            snap = pushes.snapshot_caught_up(snap, now)
        elif reread:
            snap = pushes.snapshot_load(number)
        else:
            snap = pushes.snapshot_committed(change)
        pushes.renders_carry(before, snap)
        push = time.process_time()
        for viewer, page in zip(users, shown, strict=True):
            pushes.table_frame(snap, viewer, language="zh-hans", csrf_token="bench", shown=page)
        end = time.process_time()
        spent["move"] += read - start
        spent["read"] += push - read
        spent["push"] += end - push
        done += 1
    per_change = {f"{k}_ms": round(1000 * v / moves, 2) for k, v in spent.items()}
    total = sum(spent.values())
    return {
        "changes": moves,
        "of_which_windows_closed": closes,
        "of_which_ready": readies,
        **per_change,
        "total_ms": round(1000 * total / moves, 2),
        "changes_per_cpu_second": round(moves / total, 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    p = command_parser("python -m tests.load.cycle", __doc__)
    p.add_argument("--moves", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--reread", action="store_true", help="read the table again after each change")
    args = p.parse_args(argv)
    database_ready(None, None, "cycle")
    (table,) = seat_tables(1, turn_seconds=120, first_seed=f"cycle-{args.seed}")
    # Every later deal is dealt from a secret seed: here from the run's own, so two runs
    # play the same hands and their figures compare.
    deals = random.Random(args.seed)
    with mock.patch("tables.play.moves.secrets.token_hex", lambda n: deals.randbytes(n).hex()):
        report = _cycle(table.number, args.moves, args.seed, reread=args.reread)
    print(json.dumps({**report, "yardstick_ms": yardstick_ms()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
