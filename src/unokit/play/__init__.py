"""Playing at the terminal: ``unokit play`` (a Textual UI, :mod:`unokit.play.app`, over a
UI-free :mod:`unokit.play.session`), bots with human UNO habits (:mod:`unokit.play.forgetful`)
and the score keeper for real cards (``unokit score`` and ``unokit table``,
:mod:`unokit.play.scorekeeper`). Only :mod:`unokit.play.app` needs Textual.
"""
