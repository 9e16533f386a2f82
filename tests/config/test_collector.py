"""config.collector: run in a child process, since freezing is for the life of a process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

CHILD = """
import gc
from config.collector import YOUNG_THRESHOLD, settle

kept = [object()]                      # alive before the server listens, alive after
assert any(o is kept for o in gc.get_objects())
pacer = settle()
print(any(o is kept for o in gc.get_objects()))   # frozen: out of the collector's sight
print(gc.get_freeze_count() > 0, gc.get_threshold()[0] == YOUNG_THRESHOLD)
later = [object()]                     # made after: still collected as usual
print(any(o is later for o in gc.get_objects()))
"""

CYCLES = """
import weakref
class Node: pass
def cycles(n):
    nodes = [Node() for _ in range(n)]
    for node in nodes:
        node.me = node
    return nodes
"""


def _run(code: str) -> list[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()


def test_settle_freezes_what_lives_at_start_and_nothing_after() -> None:
    assert _run(CHILD) == ["False", "True", "True", "True"]


SETTLED = CHILD.split("print(")[0]
"""A child process as a server is once it listens: settled, with its pacer."""


def test_settle_keeps_collecting_cycles_made_after_it() -> None:
    child = (
        SETTLED
        + CYCLES
        + "probe = weakref.ref(cycles(1)[0])\ngc.collect()\nprint(probe() is None)\n"
    )
    assert _run(child) == ["True"]


def test_a_tick_freezes_what_survived_since_the_last() -> None:
    child = SETTLED + (
        "later = [object()]\n"
        "pacer.tick()\n"
        "print(any(o is later for o in gc.get_objects()))\n"
        "newer = [object()]\n"
        "print(any(o is newer for o in gc.get_objects()))\n"
    )
    assert _run(child) == ["False", "True"]


FROZEN_CYCLES = """
from config.collector import RECLAIM_EVERY, RECLAIM_GROWTH
few = cycles(10); probe_few = weakref.ref(few[0])
pacer.tick(); del few; gc.collect()
print(probe_few() is None)            # frozen while reachable: the usual collections miss it
print(pacer.reclaim_if_grown())       # ten more frozen is not a quarter more
many = cycles(int(pacer.frozen_after_reclaim * RECLAIM_GROWTH) + 1)
probe_many = weakref.ref(many[0])
pacer.tick(); del many; gc.collect()
print(probe_many() is None)
pacer.ticks = RECLAIM_EVERY - 1
pacer.tick()                          # the tick that looks: a quarter more, a full collection
print(pacer.reclaims, probe_few() is None, probe_many() is None)
print(gc.get_freeze_count() == pacer.frozen_after_reclaim > 0)
"""


def test_a_frozen_cycle_waits_for_the_full_collection_once_the_frozen_have_grown() -> None:
    child = SETTLED + CYCLES + FROZEN_CYCLES
    assert _run(child) == ["False", "False", "False", "1", "True", "True", "True"]
