"""The engine's command-line tools; ``python -m engine.<tool>`` runs each.

:mod:`~engine.cli.wincheck` and :mod:`~engine.cli.score` answer lines of text (their formats
are contracts, see ``README.md``), :mod:`~engine.cli.simulate` lets bots play,
:mod:`~engine.cli.replay` checks a hand log and :mod:`~engine.cli.bench` times the three hot
paths. The rules themselves live in the library: these only read, call and write.
"""
