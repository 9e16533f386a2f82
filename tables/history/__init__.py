"""Finished hands: a hand's record (``selectors``), its replay (``replays``), shared replay links
(``shares``), a room's record (``record``) and their pages (``views``).

May import: ``tables.rooms``, ``tables.screen``, ``tables.play``, ``tables.models``.
"""
