"""unokit's variants as OpenSpiel games (extra ``openspiel``): importing this package
registers ``uno_classic``, ``uno_flip``, ``uno_attack``, ``uno_flip_attack`` and the themed
editions (``uno_flip_marvel`` ...) with ``pyspiel``, so that ``pyspiel.load_game("uno_flip(players=3)")``
works with nothing registered by hand. See :mod:`unokit.openspiel.games` for what a game is and
:mod:`unokit.openspiel.chance` for how the engine's generator maps onto chance nodes."""

from __future__ import annotations

try:
    import pyspiel  # noqa: F401 - checked here so that the message names the extra
except ImportError as exc:  # pragma: no cover - the extra is installed by make setup
    raise ImportError(
        f"unokit.openspiel needs the optional 'openspiel' extra: pip install 'unokit[openspiel]' ({exc})"
    ) from None

from .games import GAME_NAMES, UnoGame, UnoState, register

register()

__all__ = ["GAME_NAMES", "UnoGame", "UnoState", "register"]
