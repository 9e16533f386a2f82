"""The Shangrao mahjong (上饶麻将) rules engine: pure Python, no Django, no I/O.

The public API, by what it is for:

* :mod:`engine.tiles` (tile kinds and the ``1m…7z`` notation), :mod:`engine.rules` (the
  profiles and every option), :mod:`engine.melds` (declared melds);
* :mod:`engine.hand` (one hand as a state machine the server drives: ``new_hand``,
  ``waiting_on``, ``legal_actions``, ``apply``), :mod:`engine.views` (what one seat may
  see), :mod:`engine.hints`, :mod:`engine.preview`, :mod:`engine.match`, :mod:`engine.bots`;
* :mod:`engine.judging` (is this a win, and what does it score: ``judging.judge.judge``;
  how far from one: ``judging.shanten``);
* :mod:`engine.hand_log` (re-play a hand from its log and compare its end) and
  :mod:`engine.selfplay` (bots play whole hands).

The command-line tools (``python -m engine.wincheck``, ``engine.score``, ``engine.simulate``,
``engine.replay``, ``engine.bench``) live in :mod:`engine.cli`; see ``docs/engine.md``.
"""
