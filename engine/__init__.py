"""The Shangrao mahjong (上饶麻将) rules engine: pure Python, no Django, no I/O.

Start with :mod:`engine.tiles` (tile notation), :mod:`engine.rules` (rule sets),
:mod:`engine.judge` (is this a win, and what does it score) and :mod:`engine.hand`
(one hand as a state machine the server drives).
"""
