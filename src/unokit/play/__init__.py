"""Playing at the terminal: ``unokit play`` (a Textual UI, :mod:`unokit.play.app`, over a
UI-free :mod:`unokit.play.session`, whose bots keep human habits from
:mod:`unokit.bots.habits`) and the score keeper for real cards (``unokit score`` and ``unokit table``,
:mod:`unokit.play.scorekeeper`). Only :mod:`unokit.play.app` needs Textual.
"""
