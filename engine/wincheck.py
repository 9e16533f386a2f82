"""``python -m engine.wincheck``: entry point: see :mod:`engine.cli.wincheck`."""

from __future__ import annotations

from engine.cli.wincheck import main

__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
