"""unokit's variants as TextArena games (extra ``textarena``): importing this package registers
``UNO-v0`` (Classic), ``UNO-Flip-v0``, ``UNO-Attack-v0`` and ``UNO-FlipAttack-v0`` with
TextArena's own registration, so that ``textarena.make("UNO-v0")`` works. See
:mod:`unokit.textarena.games` and ``docs/research.md``."""

from __future__ import annotations

try:
    import textarena  # noqa: F401 - checked here so that the message names the extra
except ImportError as exc:  # pragma: no cover - the extra is installed by make setup
    raise ImportError(
        f"unokit.textarena needs the optional 'textarena' extra: pip install 'unokit[textarena]' ({exc})"
    ) from None

from .games import ENV_IDS, UnoEnv, register

register()

__all__ = ["ENV_IDS", "UnoEnv", "register"]
