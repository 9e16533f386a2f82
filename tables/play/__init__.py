"""One move, one transaction: the live table's rules around the engine.

A message is parsed (``protocol``), the room row locked and loaded (``table``, ``rows``), the
move applied through the engine (``moves``, ``dissolve``, ``phrases``), the table committed
with its next deadline (``clock``), and the pages told when it commits (``events``, to which
the socket side registers its delivery: this package never imports it). ``presence`` (counted by
``page_leases``) and ``windows`` say who is at the table and which step its pages show;
``proof`` is the deal's commitment.

May import: ``engine``, ``ledger``, ``tables.models``. Never asyncio, never HTML, and nothing
from the other sub-packages of ``tables``.
"""
