"""Judging a hand: is it a win, what does it score, how far is it from one.

:mod:`~engine.judging.shape` is the table-driven "sets plus a pair with k wilds" look-up
(its data in :mod:`~engine.judging.suit_table`), :mod:`~engine.judging.patterns` every
scorable reading of 14 tiles, :mod:`~engine.judging.scoring` the score tables,
:mod:`~engine.judging.validity` which hands can exist,
:mod:`~engine.judging.judge` the judgement API, :mod:`~engine.judging.shanten` the distance
to a win, :mod:`~engine.judging.win_check` the state machine's door, and
:mod:`~engine.judging.memo` the one registry of every module-level memo.
"""
