"""``python -m engine.bench``: entry point: see :mod:`engine.cli.bench`."""

from __future__ import annotations

from engine.cli.bench import main

__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
