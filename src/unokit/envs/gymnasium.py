"""Gymnasium single-agent environments: one seat against unokit bots.

>>> import gymnasium, unokit.envs
>>> env = gymnasium.make("unokit/Classic-v0", opponents=["random", "random"])
>>> obs, info = env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].nonzero()[0][0]))

The agent sits in seat ``seat`` (default 0); ``opponents`` names a bot (``make_bot``) for
each other seat, in seat order after the agent, so the table has ``1 + len(opponents)``
seats. The observation is the ``float32`` vector of :mod:`unokit.encoding`; the legal
actions are :meth:`UnoEnv.action_masks` (the ``bool`` mask over the action ids, the method
sb3-contrib's ``MaskablePPO`` calls), also given as ``info["action_mask"]``. ``info`` names the
agent's ``seat``, the seat ``to_act`` and the open ``decision``, and at the end of a hand its
``winner``, each seat's ``points`` and the game's ``scores``. An episode is one hand unless
the engine option ``rounds`` says otherwise; ``max_decisions`` truncates it sooner.

Illegal actions: by default (``illegal_action="terminate"``) an illegal id ends the episode
with reward ``illegal_reward`` (-1) and ``info["illegal_action"] = True``; the game is not
changed and no other action is played in its place. ``illegal_action="raise"`` raises
:class:`~unokit.IllegalActionError` instead. (Gymnasium's ``check_env`` steps with unmasked
random actions, so the registered default must not raise.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..core.errors import IllegalActionError, InvalidActionError, OptionError
from ..core.variants import VARIANT_NAMES, get_rules
from ..encoding import Mask, Obs
from .picture import table_image
from .session import DEFAULT_MAX_CYCLES, RENDER_MODES, Session, check_env_arguments, decision_limit

#: Registered ids and their variants: ``unokit/<Variant>-v0``, the variant's name in CamelCase.
GYM_IDS: dict[str, str] = {
    f"unokit/{''.join(part.capitalize() for part in name.split('_'))}-v0": name for name in VARIANT_NAMES
}


class UnoEnv(gymnasium.Env[Obs, np.int64]):
    """One seat of a unokit game against bots. See the module docstring for the options;
    ``reward``, ``uno_catch``, ``catch_probability``, ``history``, ``max_cycles``,
    ``max_decisions`` and ``render_mode`` are as in :class:`unokit.envs.pettingzoo.UnoAECEnv`;
    other keywords are engine options."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012 - Gymnasium's API

    def __init__(
        self,
        variant: str = "classic",
        opponents: Sequence[str] = ("random",),
        *,
        seat: int = 0,
        reward: str = "hand",
        uno_catch: str = "auto",
        catch_probability: float = 1.0,
        history: int = 2,
        max_cycles: int = DEFAULT_MAX_CYCLES,
        max_decisions: int | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: object,
    ) -> None:
        rules = get_rules(variant)
        if isinstance(opponents, str) or not opponents:
            raise OptionError("opponents must be a non-empty list of bot names, e.g. ['random']")
        players = 1 + len(opponents)
        for name in opponents:
            make_bot(name)  # unknown bots raise ValueError here
        check_env_arguments(render_mode, max_cycles, max_decisions)
        if illegal_action not in ("terminate", "raise"):
            raise OptionError(f"illegal_action must be 'terminate' or 'raise', not {illegal_action!r}")
        self.session = Session(
            rules.name,
            players,
            uno_catch=uno_catch,
            catch_probability=catch_probability,
            reward=reward,
            history=history,
            options=options,
        )
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise OptionError(f"seat must be a seat number from 0 to {players - 1}, not {seat!r}")
        self.encoding = self.session.encoding
        self.seat = seat
        self.opponents = list(opponents)
        self.max_cycles = max_cycles
        self.max_decisions = max_decisions
        self.limit = decision_limit(players, max_cycles, max_decisions)
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(low=0.0, high=self.encoding.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self.bots: list[Bot | None] = [None] * players
        self._done = True

    # ------------------------------------------------------------------ helpers
    def action_masks(self) -> Mask:
        """The ``bool`` mask of the agent's legal action ids now (all ``False`` once the episode
        is over): sb3-contrib's convention, also ``info["action_mask"]``."""
        if self._done:
            return self.encoding.zero_mask()
        return self.session.mask(self.seat)

    def _info(self, ended: bool = False) -> dict[str, Any]:
        session = self.session
        info: dict[str, Any] = {
            "action_mask": self.action_masks(),
            "decision": session.game.decision,
            "seat": self.seat,
            "to_act": session.actor,
        }
        if ended:
            info.update(session.hand_info())
        return info

    def _play_bots(self) -> float:
        """Let the bots decide until it is the agent's turn or the game is over; return the
        agent's reward meanwhile."""
        session = self.session
        game = session.game
        total = 0.0
        limit = self.limit
        while not game.is_over and session.actor != self.seat and session.decisions < limit:
            seat = session.actor
            assert seat is not None
            bot = self.bots[seat]
            assert bot is not None
            if session.offers:  # a bot offered a jump (jump_in=true) jumps when its react says so
                reaction = bot.react(session.views[seat])
                if reaction is not None and reaction in session.jumps(seat):
                    total += session.apply(reaction, seat)[self.seat]
                else:
                    session.decline()
                continue
            total += session.apply(bot.act(session.views[seat]), seat)[self.seat]
        return total

    # ------------------------------------------------------------------ the API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """Deal a new hand and play the bots up to the agent's first decision.

        ``reset(seed=s)`` deals the game ``unokit.new_game`` deals with seed ``s``; bots and
        catches are seeded from ``s`` too, and later unseeded resets follow from it. A hand
        that ends before the agent's first decision (a freak deal) is dealt again.
        """
        super().reset(seed=seed)
        session = self.session
        next_seed: int | None = seed
        for _deal in range(1000):
            session.reset(next_seed)
            next_seed = None
            self.bots = [None] * session.players
            for k, name in enumerate(self.opponents):
                s = (self.seat + 1 + k) % session.players
                bot = make_bot(name, session.rng.next64())
                bot.reset(s)
                self.bots[s] = bot
            self._play_bots()
            if not session.game.is_over and session.actor == self.seat:
                break
        else:
            raise RuntimeError("no deal reached the agent's first decision within max_cycles (1000 tries)")
        self._done = False
        if self.render_mode == "human":
            self._print()
        return session.observe(self.seat), self._info()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Apply the agent's action id, then the bots' decisions up to its next one."""
        if self._done:
            raise IllegalActionError("the episode is over; call reset()")
        session = self.session
        before = session.result
        try:
            rewards = session.act(action)
        except (IllegalActionError, InvalidActionError):
            if self.illegal_action == "raise":
                raise
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return session.observe(self.seat), self.illegal_reward, True, False, info
        reward = rewards[self.seat] + self._play_bots()
        terminated = session.game.is_over
        truncated = not terminated and session.decisions >= self.limit
        self._done = terminated or truncated
        if self.render_mode == "human":
            self._print()
        info = self._info(ended=session.result is not before)
        return session.observe(self.seat), reward, terminated, truncated, info

    def render(self) -> Any:
        """``ansi``: the table as text (every hand shown); ``rgb_array``: its picture
        (:mod:`unokit.envs.picture`); ``human``: prints the text (also at every reset and step)
        and returns ``None``."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.render_mode == "rgb_array":
            return table_image(self.session.game)
        if self.render_mode == "human":
            self._print()
            return None
        return self._text()

    def _text(self) -> str:
        names = [f"seat {s}" + (" (agent)" if s == self.seat else "") for s in range(self.session.players)]
        return self.session.render(names)

    def _print(self) -> None:
        print(self._text(), flush=True)

    def close(self) -> None:
        """Nothing to release."""


def register_envs() -> None:
    """Register the Gymnasium ids (``unokit/Classic-v0``, …); repeated calls do nothing."""
    for env_id, variant in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="unokit.envs.gymnasium:UnoEnv", kwargs={"variant": variant})


register_envs()
