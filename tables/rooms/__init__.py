"""Before the match and around it: rooms made, found, joined and configured, and their pages.

``services`` writes rooms and seats, ``selectors`` reads them, ``forms`` and ``views`` are the
lobby and room pages, ``table_page`` the room page once a match runs, ``invites`` the invite
link and its QR code, ``lookup_limits`` the room numbers guessed.

May import: ``tables.play``, ``tables.screen``, ``tables.models``, ``engine``, ``ledger``.
"""
