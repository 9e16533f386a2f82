"""State to HTML: what each page shows of a table, and the HTML pushed for it, with no I/O.

``board`` builds the view model from a loaded table; ``public`` renders the part every page
shares, ``private`` a seat's own part; ``settlement``, ``melds``, ``discard_hints``,
``rule_labels``, ``vote_panel`` and ``tiles`` (drawn by ``tile_art``) are the pieces they
show; ``memo`` remembers rendered pieces by what they show.

May import: ``engine``, ``tables.models``, ``tables.play``. Never ``tables.socket``.
"""
