"""What the command-line tests share: running a tool as its users do."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

Tool = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def tool() -> Tool:
    """``tool("engine.score", *args, stdin=…)``: ``python -m`` in a subprocess from the
    repository's root; the exit status is the caller's to check."""

    def run(module: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", module, *args],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
            timeout=60,
        )

    return run
