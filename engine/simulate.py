"""``python -m engine.simulate``: entry point: see :mod:`engine.cli.simulate`."""

from __future__ import annotations

from engine.cli.simulate import main

__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
