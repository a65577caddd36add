"""Bots: players that see only a :class:`~unokit.View`. ``make_bot(name, seed)`` builds one.

On the command line a bot is named by a *spec*: a level of the ladder (``beginner``, ``easy``,
``normal``, ``hard``, ``expert``: :mod:`unokit.bots.levels`), an engine name of
:data:`BOT_CLASSES` (for scripts), ``external:<command>``, a program speaking
``unokit-bot/1`` (:mod:`unokit.bots.external`), or ``policy:<file.onnx>``, a trained policy
(:mod:`unokit.bots.policy`, extra ``policy``). :func:`make_bot` is the one place that
resolves a name."""

from __future__ import annotations

from importlib import import_module
from pathlib import PurePath

from .base import Bot
from .levels import LEVELS, level_names, make_level_bot
from .random_bot import RandomBot

#: Bot names usable from the command line, as "module:Class" under unokit.bots (loaded lazily).
BOT_CLASSES: dict[str, str] = {
    "random": "random_bot:RandomBot",
    "rlcard_rule": "rule_bots:RlcardRuleBot",
    "heuristic": "heuristic:HeuristicBot",
    "ismcts": "ismcts:IsmctsBot",
    "ismcts_fast": "ismcts_fast:FastIsmctsBot",  # needs the optional 'fast' extra (numba)
    "ismcts_belief": "belief:BeliefIsmctsBot",  # the same, reading the opponent's hand ('fast')
}
#: The prefix of a bot spec that runs a program: ``external:python3 mybot.py``.
EXTERNAL_PREFIX = "external:"
#: The prefix of a bot spec that plays a policy file: ``policy:runs/ppo.onnx``.
POLICY_PREFIX = "policy:"


def bot_names() -> list[str]:
    """The names of the bots that are installed (their module imports)."""
    names = []
    for name, target in BOT_CLASSES.items():
        try:
            import_module(f"{__name__}.{target.partition(':')[0]}")
        except ImportError:
            continue
        names.append(name)
    return names


def bot_label(spec: str) -> str:
    """What a player reads for the bot ``spec`` where the catalogue has no words for it: a
    policy by its file's name without folders or suffix (``policy:runs/ppo.onnx`` is ``ppo``),
    a program by its command (``external:python3 mybot.py``), anything else as it is."""
    if spec.startswith(POLICY_PREFIX):
        return PurePath(spec.removeprefix(POLICY_PREFIX)).stem or spec
    return spec.removeprefix(EXTERNAL_PREFIX)


def registry_keys() -> list[str]:
    """The catalogue keys of the bots people choose, the levels and the engine's bots: each
    one's name and one-line description (``docs/i18n.md``)."""
    return [key for name in (*LEVELS, *BOT_CLASSES) for key in (f"bot.{name}", f"bot.{name}.help")]


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot called ``name`` (a level, an engine name, or ``policy:<file.onnx>``) with its
    own RNG seeded by ``seed``; a level's bot comes without its human habits
    (:func:`unokit.bots.levels.for_people` adds them).

    Raises ``ValueError`` naming the levels and the known bots when ``name`` is unknown or not
    installed, and :class:`~unokit.bots.policy.PolicyError` (a ``ValueError``) for a policy file
    it cannot use.
    """
    if name in LEVELS:
        return make_level_bot(name, seed, BOT_CLASSES)
    if name.startswith(POLICY_PREFIX):
        from .policy import PolicyBot, policy_path

        path = policy_path(name)
        assert path is not None
        return PolicyBot(seed, path)
    target = BOT_CLASSES.get(name)
    if target is None:
        raise ValueError(
            f"unknown bot {name!r}; levels are {', '.join(level_names())}; bots are {', '.join(bot_names())}, "
            "'external:<command>' and 'policy:<file.onnx>'"
        )
    module_name, _, class_name = target.partition(":")
    try:
        module = import_module(f"{__name__}.{module_name}")
    except ImportError as exc:
        raise ValueError(f"bot {name!r} is not available: {exc}") from None
    cls = getattr(module, class_name)
    bot: Bot = cls(seed)
    return bot


def external_command(spec: str) -> str | None:
    """The command of an ``external:<command>`` spec, ``None`` for any other spec; raise
    ``ValueError`` when the command is missing."""
    if not spec.startswith(EXTERNAL_PREFIX):
        return None
    command = spec[len(EXTERNAL_PREFIX) :].strip()
    if not command:
        raise ValueError("write an external bot as 'external:<command>', e.g. 'external:python3 bot.py'")
    return command


def check_bot_spec(spec: str, variant: str | None = None, players: int | None = None) -> None:
    """Raise ``ValueError`` naming the known bots when ``spec`` names no bot (an external
    program is not started), or a policy file made for another game than ``variant`` with
    ``players`` seats (when given)."""
    if external_command(spec) is None:
        bot = make_bot(spec, 0)
        if variant is not None and players is not None and spec.startswith(POLICY_PREFIX):
            from ..core.errors import OptionError
            from ..core.variants import get_rules
            from .policy import PolicyBot

            assert isinstance(bot, PolicyBot)
            try:
                name = get_rules(variant).name
            except OptionError:
                return  # a bad variant is reported where the variant is checked
            bot.policy.check_game(name, players)


__all__ = [
    "BOT_CLASSES",
    "EXTERNAL_PREFIX",
    "POLICY_PREFIX",
    "Bot",
    "RandomBot",
    "bot_label",
    "bot_names",
    "check_bot_spec",
    "external_command",
    "level_names",
    "make_bot",
    "registry_keys",
]
