"""The staff desk: every table in play at a glance, what staff may do to one, and its pages.

May import: ``tables.rooms``, ``tables.screen``, ``tables.play``, ``tables.models``.
"""
