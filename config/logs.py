"""Logging filters: a library that logs a traceback per second while Redis is down says so
in one line a minute instead."""

from __future__ import annotations

import logging
import time

__all__ = ["OutageLines"]


class OutageLines(logging.Filter):
    """channels_redis's receive task logs "Unexpected exception in receive task" with its
    traceback once a second for as long as Redis is unreachable (hundreds in an outage of
    minutes). Each such record becomes a one-line warning naming the exception, and only the
    first in each :attr:`every` seconds passes."""

    every = 60.0

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self.last = float("-inf")

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.exc_info:
            return True
        exc = record.exc_info[1]
        record.msg = f"{record.getMessage()}: {exc.__class__.__name__}: {exc}"
        record.args = ()
        record.exc_info = None
        record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        now = time.monotonic()
        if now - self.last < self.every:
            return False
        self.last = now
        return True
