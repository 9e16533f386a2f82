"""Playing a seat from its own view (:class:`engine.views.SeatInfo`), never from the hand's state.

:mod:`engine.play.bots` chooses actions, :mod:`engine.play.hints` shows a waiting hand's
听牌, and :mod:`engine.play.preview` prices the 胡 button: none of them can read what the
seat may not see, because none of them is given the state.
"""
