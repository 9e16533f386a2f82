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
settle()
print(any(o is kept for o in gc.get_objects()))   # frozen: out of the collector's sight
print(gc.get_freeze_count() > 0, gc.get_threshold()[0] == YOUNG_THRESHOLD)
later = [object()]                     # made after: still collected as usual
print(any(o is later for o in gc.get_objects()))
"""


def _run(code: str) -> list[str]:
    """What a child process running ``code`` printed, word by word."""
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()


def test_settle_freezes_what_lives_at_start_and_nothing_after() -> None:
    assert _run(CHILD) == ["False", "True", "True", "True"]


def test_settle_keeps_collecting_cycles_made_after_it() -> None:
    child = CHILD.split("print(")[0] + (
        "import weakref\n"
        "class Node: pass\n"
        "a = Node(); a.me = a; probe = weakref.ref(a); del a\n"
        "gc.collect()\n"
        "print(probe() is None)\n"
    )
    assert _run(child) == ["True"]
