"""``python -m engine.score``: entry point: see :mod:`engine.cli.score`."""

from __future__ import annotations

from engine.cli.score import main

__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
