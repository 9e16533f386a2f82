"""Finished hands: replays, the record of a room, shared replay links and their pages.

May import: ``tables.rooms``, ``tables.screen``, ``tables.play``, ``tables.models``.
"""
