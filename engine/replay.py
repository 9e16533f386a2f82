"""``python -m engine.replay``: entry point: see :mod:`engine.cli.replay`."""

from __future__ import annotations

from engine.cli.replay import main

__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
