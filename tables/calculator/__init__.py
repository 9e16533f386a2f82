"""The 算分器 (score calculator): a query read into the engine's scoring, and its answer
(``calculate``), and its page (``views``).

May import: ``tables.rooms`` (the rules form), ``engine``.
"""
