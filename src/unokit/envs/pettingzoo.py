"""PettingZoo AEC environments for every unokit variant.

>>> from unokit.envs.pettingzoo import env
>>> table = env(variant="flip", players=4)
>>> table.reset(seed=42)
>>> for agent in table.agent_iter():
...     obs, reward, terminated, truncated, info = table.last()
...     action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0])
...     table.step(action)

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers). Each agent acts when its seat must
decide; the observation is a dict with ``observation`` (``float32`` vector,
:mod:`unokit.encoding`) and ``action_mask`` (``int8``, the dtype Gymnasium's
``Discrete.sample(mask)`` asserts); :meth:`UnoAECEnv.action_mask` gives the same mask as
``bool``. One episode is one hand (``rounds=1``) unless the engine option ``rounds`` says
otherwise. At the end of a hand every agent's ``info`` holds its ``winner``, each seat's
``points`` and the game's ``scores``. See ``docs/envs.md``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.logger import warn
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper, TerminateIllegalWrapper

from ..core.errors import OptionError
from ..core.game import Game
from ..core.variants import VARIANT_NAMES, get_rules
from ..encoding import Mask
from .picture import table_image
from .session import DEFAULT_MAX_CYCLES, RENDER_MODES, Session, check_env_arguments, decision_limit

#: The versioned environment name of each variant (``uno_<variant>_v0``).
ENV_NAMES: dict[str, str] = {name: f"uno_{name}_v0" for name in VARIANT_NAMES}


class UnoAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """The raw AEC environment (no wrappers); build it with :func:`raw_env` or :func:`env`.

    Options: ``reward`` (``"hand"``: +1 to the hand's winner, -1/(n-1) to the others;
    ``"points"``: the winner gets the points left in the other hands, each other seat minus
    its own), ``uno_catch`` / ``catch_probability`` (the catch rule of
    :mod:`unokit.envs.session`), ``history`` (plays per seat in the observation),
    ``max_cycles`` (truncate after ``max_cycles * players`` decisions), ``max_decisions``
    (truncate after that many decisions, when fewer), ``render_mode`` (``None``, ``"ansi"``:
    ``render()`` returns the table as text, ``"human"``: printed at every step,
    ``"rgb_array"``: its picture); any other keyword is an engine option (``stacking=True``,
    ``rounds=3``, ...).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's API; each instance gets its own copy
        "render_modes": list(RENDER_MODES),
        "name": "uno_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "classic",
        players: int = 2,
        *,
        reward: str = "hand",
        uno_catch: str = "auto",
        catch_probability: float = 1.0,
        history: int = 2,
        max_cycles: int = DEFAULT_MAX_CYCLES,
        max_decisions: int | None = None,
        render_mode: str | None = None,
        **options: object,
    ) -> None:
        super().__init__()
        rules = get_rules(variant)
        check_env_arguments(render_mode, max_cycles, max_decisions)
        self.session = Session(
            rules.name,
            players,
            uno_catch=uno_catch,
            catch_probability=catch_probability,
            reward=reward,
            history=history,
            options=options,
        )
        self.encoding = self.session.encoding
        self.metadata = {**self.metadata, "name": ENV_NAMES[rules.name]}
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.max_decisions = max_decisions
        self.limit = decision_limit(players, max_cycles, max_decisions)
        self.possible_agents: list[str] = [f"player_{s}" for s in range(players)]
        self.agents: list[str] = []
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        enc = self.encoding
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=0.0, high=enc.high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(enc.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = {agent: spaces.Discrete(enc.num_actions) for agent in self.possible_agents}
        self._rewarded = False
        self._informed = False
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand; ``reset(seed=s)`` deals the game ``unokit.new_game`` deals with seed
        ``s`` (and the same options), and later unseeded resets follow from ``s``."""
        self.session.reset(seed)
        self._start_episode()

    def load(self, game: Game) -> None:
        """Start an episode from an existing game instead of a new deal (for example a
        ``Game.from_position(...)`` of this variant and number of seats)."""
        if game.is_over:
            raise OptionError("the game is over")
        self.session.load(game)
        self._start_episode()

    def _start_episode(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._rewarded = False
        self._informed = False
        actor = self.session.actor
        assert actor is not None
        self.agent_selection = self.possible_agents[actor]
        if self.render_mode == "human":
            self.render()

    def action_mask(self, agent: str) -> Mask:
        """The ``bool`` mask of ``agent``'s legal action ids now (all ``False`` unless it is the
        agent to act): ``observe(agent)["action_mask"]`` as ``bool``."""
        seat = self._seat[agent]
        done = self.terminations.get(agent, True) or self.truncations.get(agent, True)
        return self.encoding.zero_mask() if done else self.session.mask(seat)

    def observe(self, agent: str) -> dict[str, Any]:
        mask = self.action_mask(agent).view(np.int8)  # Gymnasium's sample(mask) asserts int8
        return {"observation": self.session.observe(self._seat[agent]), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Apply ``action`` (an id) for ``agent_selection``. An illegal id raises
        :class:`~unokit.IllegalActionError` and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        session = self.session
        before = session.result
        rewards = session.act(action)  # raises before anything changes
        self._cumulative_rewards[agent] = 0.0
        agents = self.possible_agents
        if any(rewards) or self._rewarded:  # most steps reward nobody: skip the dict work
            self._rewarded = any(rewards)
            cumulative = self._cumulative_rewards
            for s, r in enumerate(rewards):
                self.rewards[agents[s]] = r
                cumulative[agents[s]] += r
        if session.result is not before:  # a hand ended: say how, to every agent, for this step
            ended = session.hand_info()
            self.infos = {agent: dict(ended) for agent in self.agents}
            self._informed = True
        elif self._informed:
            self.infos = {agent: {} for agent in self.agents}
            self._informed = False
        actor = session.actor  # the seat to act, or a seat offered a jump (jump_in=true)
        if actor is None:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = agents[actor]
            if session.decisions >= self.limit:
                self.truncations = dict.fromkeys(self.agents, True)
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        """``ansi``: the table as text (every hand shown); ``rgb_array``: its picture; ``human``:
        prints the text and returns ``None``."""
        if self.render_mode is None:
            warn("You are calling render method without specifying any render mode.")
            return None
        if self.render_mode == "rgb_array":
            return table_image(self.session.game)
        text = self.session.render(self.possible_agents)
        if self.render_mode == "human":
            print(text, flush=True)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` with ``last()`` and ``step()`` forwarded directly
    once the environment has been reset. The base class reaches every attribute through two
    ``__getattr__`` calls, which cost more than the engine's whole decision; the checks it
    makes are the same."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        out: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return out

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)


def raw_env(variant: str = "classic", players: int = 2, **kwargs: Any) -> UnoAECEnv:
    """The unwrapped AEC environment (see :class:`UnoAECEnv` for the options)."""
    return UnoAECEnv(variant, players, **kwargs)


def env(variant: str = "classic", players: int = 2, *, illegal: str = "raise", **kwargs: Any) -> Any:
    """The AEC environment with PettingZoo's ``OrderEnforcingWrapper`` (:class:`OrderEnforcing`).

    ``illegal="raise"`` (default): an illegal action raises ``IllegalActionError``.
    ``illegal="terminate"``: PettingZoo's ``TerminateIllegalWrapper`` ends the episode instead,
    with reward -1 for the offender.
    """
    if illegal not in ("raise", "terminate"):
        raise OptionError(f"illegal must be 'raise' or 'terminate', not {illegal!r}")
    out: Any = raw_env(variant, players, **kwargs)
    if illegal == "terminate":
        out = TerminateIllegalWrapper(out, illegal_reward=-1)
    return OrderEnforcing(out)


class VersionedEnv:
    """A versioned name such as ``uno_flip_v0``, used like a PettingZoo module:
    ``uno_flip_v0.env(players=4)``."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.name = ENV_NAMES[variant]

    def env(self, players: int = 2, **kwargs: Any) -> Any:
        """:func:`env` for this variant."""
        return env(self.variant, players, **kwargs)

    def raw_env(self, players: int = 2, **kwargs: Any) -> UnoAECEnv:
        """:func:`raw_env` for this variant."""
        return raw_env(self.variant, players, **kwargs)

    def __repr__(self) -> str:
        return f"<{self.name}>"


uno_classic_v0 = VersionedEnv("classic")
uno_flip_v0 = VersionedEnv("flip")
uno_attack_v0 = VersionedEnv("attack")
uno_flip_attack_v0 = VersionedEnv("flip_attack")
_BY_NAME = {name: variant for variant, name in ENV_NAMES.items()}


def __getattr__(name: str) -> VersionedEnv:
    """The versioned environment of every other variant, by its name (``uno_flip_marvel_v0``)."""
    variant = _BY_NAME.get(name)
    if variant is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return VersionedEnv(variant)


__all__ = [
    "ENV_NAMES",
    "UnoAECEnv",
    "VersionedEnv",
    "env",
    "raw_env",
    "uno_attack_v0",
    "uno_classic_v0",
    "uno_flip_attack_v0",
    "uno_flip_v0",
]
