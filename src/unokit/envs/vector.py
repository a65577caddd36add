"""Batched environments on the compiled kernel (extras ``rl`` and ``fast``).

* :class:`UnoVectorEnv` is a :class:`gymnasium.vector.VectorEnv` of ``num_envs`` tables, each
  the single-agent game of :class:`unokit.envs.gymnasium.UnoEnv`: one seat against bots, here
  compiled bots (``random``, ``rlcard_rule``) that pick exactly what the Python bots pick. With
  the same seed and actions, table ``i`` plays exactly the episodes of ``UnoEnv`` reset with
  seed ``seed + i``: same observations, masks and rewards.
* :class:`UnoBatchEnv` is the batched multi-agent form of the PettingZoo environment: every
  seat is an agent, each step takes one action per table for its seat to act, and returns the
  observation and mask of the next seat to act and every seat's reward.

Both use the observation vectors and action ids of :mod:`unokit.encoding` and the
environments' catch rule (``uno_catch="auto"``: the next seat catches every missed UNO call;
``"never"``), autoreset tables at the next step (Gymnasium's ``NEXT_STEP`` mode: the action
given to a finished table is ignored and the table is dealt anew). ``threads`` shares the
tables between that many cores; the default, 1, steps them in the calling thread, which was the
fastest on a shared machine by far (``docs/envs.md``, "Batched environments"). Masks are
``bool``. Episodes are single hands (``rounds=1``); the kernel plays the options of
:data:`unokit.fast.SUPPORTED_OPTIONS` and refuses the others.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from ..core.errors import IllegalActionError, OptionError, quote
from ..core.rng import MASK64
from ..fast import kernel as K
from ..fast.batch import MAX_BATCH, Batch, whole_seeds
from .session import DEFAULT_MAX_CYCLES, REWARDS, check_env_arguments, decision_limit

#: The largest seed of a table (the kernel keeps seeds as signed 64-bit words).
_SEED_HIGH = (1 << 63) - 1
#: The default of ``threads``: one, the calling thread (measured in docs/envs.md).
DEFAULT_THREADS = 1

#: The bots the kernel plays, by name.
COMPILED_BOTS: dict[str, int] = {"random": K.POLICY_RANDOM, "rlcard_rule": K.POLICY_RLCARD_RULE}


def _catch_rule(uno_catch: str, catch_probability: float) -> str:
    if uno_catch not in ("auto", "never"):
        raise OptionError(f"uno_catch must be 'auto' or 'never', not {uno_catch!r}")
    if catch_probability != 1.0:
        raise OptionError("the batched environments catch every missed UNO call (catch_probability=1.0) or none")
    return uno_catch


class _Tables:
    """The tables of a batched environment: a :class:`~unokit.fast.Batch` plus each table's
    bots' and seeds' generators, stepped by :func:`unokit.fast.kernel.env_step`."""

    def __init__(
        self,
        variant: str,
        players: int,
        num_envs: int,
        agent: int,
        policies: list[int],
        reward: str,
        uno_catch: str,
        catch_probability: float,
        history: int,
        max_cycles: int,
        max_decisions: int | None,
        threads: int,
        options: dict[str, Any],
    ) -> None:
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise OptionError(f"threads must be a whole number, 1 or more, not {threads!r}")
        self.threads = threads
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= MAX_BATCH:
            raise OptionError(f"num_envs must be a whole number from 1 to {MAX_BATCH:,}, not {quote(num_envs)}")
        if reward not in REWARDS:
            raise OptionError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        rule = _catch_rule(uno_catch, catch_probability)
        self.batch = Batch(variant, players, num_envs, 0, history=history, uno_catch=rule, **options)
        self.players = players
        self.agent = agent
        self.reward = reward
        self.policies = np.asarray(policies, np.int64)
        self.bots = np.zeros((num_envs, players), np.int64)
        self.gens = np.zeros((num_envs, 2), np.int64)
        self.limit = decision_limit(players, max_cycles, max_decisions)
        enc = self.batch.encoding
        self.obs = np.zeros((num_envs, enc.size), np.float32)
        self.masks = np.zeros((num_envs, enc.num_actions), np.bool_)
        self.pending = np.full(num_envs, -2, np.int64)  # -1: running; -2: deal from the generator

    def advance(self, actions: NDArray[np.int64]) -> None:
        batch = self.batch
        args = (
            batch.state,
            batch.rules_vector,
            actions,
            self.pending,
            self.agent,
            self.policies,
            self.bots,
            self.gens,
            self.limit,
            self.obs,
            self.masks,
        )
        if self.threads > 1:
            K.env_step(*args, self.threads)
        else:
            K.env_step_serial(*args)
        self.pending[:] = -1

    def reset(self, seed: int | Sequence[int] | None) -> None:
        """Deal every table: from ``seed + i``, or ``seed[i]`` (whole numbers from 0 to
        ``2**63 - 1``; anything else is refused, never rounded), or random seeds."""
        n = len(self.pending)
        if seed is None:
            self.pending[:] = [secrets.randbits(63) for _ in range(n)]
        elif isinstance(seed, Sequence | np.ndarray) and not isinstance(seed, str):
            self.pending[:] = whole_seeds(seed, n, _SEED_HIGH, "table")
        else:
            first = whole_seeds([seed], 1, _SEED_HIGH, "table")[0]
            seeds = [(int(first) + i) & MASK64 for i in range(n)]
            if any(s > _SEED_HIGH for s in seeds):
                raise OptionError(f"the batched environments take seeds from 0 to 2**63 - 1, not up to {seeds[-1]}")
            self.pending[:] = seeds
        self.advance(np.zeros(n, np.int64))

    def check(
        self, actions: Any, live: NDArray[np.bool_], raise_illegal: bool
    ) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
        """The action ids of one step and which ``live`` tables got an illegal one; with
        ``raise_illegal``, :class:`~unokit.IllegalActionError` names the first such table."""
        ids = np.asarray(actions)
        if ids.shape != (len(live),) or not np.issubdtype(ids.dtype, np.integer):
            raise IllegalActionError(f"step takes {len(live)} whole action ids, got {actions!r}")
        ids = ids.astype(np.int64)
        n_actions = self.masks.shape[1]
        inside = (ids >= 0) & (ids < n_actions)
        legal = self.masks[np.arange(len(ids)), np.clip(ids, 0, n_actions - 1)] & inside
        illegal: NDArray[np.bool_] = live & ~legal
        if raise_illegal and illegal.any():
            g = int(np.flatnonzero(illegal)[0])
            raise IllegalActionError(
                f"table {g}: action {ids[g]} is not legal now; legal ids: {np.flatnonzero(self.masks[g]).tolist()}"
            )
        return ids, illegal

    def rewards(self, ended: NDArray[np.bool_]) -> NDArray[np.float64]:
        """Each seat's reward in the tables whose hand ``ended`` this step (zeros elsewhere)."""
        n = self.players
        out = np.zeros((len(ended), n))
        for g in np.flatnonzero(ended):
            winner = self.batch.round_winner(int(g))
            if winner is None:
                continue  # truncated, not ended
            if self.reward == "hand":
                out[g] = -1.0 / (n - 1)
                out[g, winner] = 1.0
            else:
                points = self.batch.hand_points(int(g))
                out[g] = [-float(p) for p in points]
                out[g, winner] = float(sum(points) - points[winner])
        return out

    def hand_info(self, ended: NDArray[np.bool_]) -> dict[str, Any]:
        """``info`` entries for the tables whose hand ``ended``: ``winner`` (-1 elsewhere) and
        ``scores`` (each seat's, zeros elsewhere), with Gymnasium's ``_winner`` / ``_scores``
        masks saying which tables hold a value."""
        n = len(ended)
        winner = np.full(n, -1, np.int64)
        scores = np.zeros((n, self.players), np.int64)
        start = int(self.batch.rules_vector[K.C_S_SCORES])
        rows = np.flatnonzero(ended)
        if len(rows):
            winner[rows] = self.batch.state[rows, K.F_ROUND_WINNER]
            scores[rows] = self.batch.state[rows, start : start + self.players]
        return {"winner": winner, "_winner": ended.copy(), "scores": scores, "_scores": ended.copy()}

    def status(self) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
        """Terminated and truncated tables (the hand ended / ran out of decisions)."""
        done = self.batch.done
        truncated = ~done & (self.batch.steps >= self.limit)
        return done, truncated


class UnoVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """``num_envs`` tables of :class:`unokit.envs.gymnasium.UnoEnv` (one agent seat against
    compiled bots) stepped together. Keywords as in ``UnoEnv``; ``opponents`` name bots of
    :data:`COMPILED_BOTS`. ``info["action_mask"]`` is the ``bool`` mask of each table; a table
    given an illegal action ends its episode with ``illegal_reward`` and
    ``info["illegal_action"]`` (or, with ``illegal_action="raise"``, nothing moves and
    :class:`~unokit.IllegalActionError` names the table)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 - Gymnasium's API

    def __init__(
        self,
        variant: str = "classic",
        num_envs: int = 64,
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
        threads: int = DEFAULT_THREADS,
        **options: Any,
    ) -> None:
        if isinstance(opponents, str) or not opponents:
            raise OptionError("opponents must be a non-empty list of bot names, e.g. ['random']")
        unknown = [name for name in opponents if name not in COMPILED_BOTS]
        if unknown:
            raise OptionError(f"the batched environments play the bots {', '.join(COMPILED_BOTS)}, not {unknown}")
        players = 1 + len(opponents)
        check_env_arguments(None, max_cycles, max_decisions)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise OptionError(f"seat must be a seat number from 0 to {players - 1}, not {seat!r}")
        if illegal_action not in ("terminate", "raise"):
            raise OptionError(f"illegal_action must be 'terminate' or 'raise', not {illegal_action!r}")
        policies = [0] * players
        for k, name in enumerate(opponents):
            policies[(seat + 1 + k) % players] = COMPILED_BOTS[name]
        self.tables = _Tables(
            variant,
            players,
            num_envs,
            seat,
            policies,
            reward,
            uno_catch,
            catch_probability,
            history,
            max_cycles,
            max_decisions,
            threads,
            options,
        )
        self.encoding = self.tables.batch.encoding
        self.num_envs = num_envs
        self.seat = seat
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.single_observation_space = spaces.Box(low=0.0, high=self.encoding.high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.encoding.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._needs_reset = np.ones(num_envs, np.bool_)
        self._started = False

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Deal every table: table ``i`` from seed ``seed + i`` (or ``seed[i]``); later hands of
        a table follow from its seed as ``UnoEnv``'s do."""
        self.tables.reset(seed)
        self._needs_reset[:] = False
        self._started = True
        return self.tables.obs.copy(), {"action_mask": self.tables.masks.copy()}

    def step(
        self, actions: Any
    ) -> tuple[NDArray[np.float32], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """Apply one action id per table (ignored for the tables being dealt anew)."""
        if not self._started:
            raise IllegalActionError("call reset() before step()")
        tables = self.tables
        live = ~self._needs_reset
        ids, illegal = tables.check(actions, live, raise_illegal=self.illegal_action == "raise")
        tables.pending[self._needs_reset] = -2
        ids = np.where(illegal, 0, ids)
        was_running = live & ~illegal
        if illegal.any():  # those tables end here and take no action: mark them finished for the kernel
            tables.pending[illegal] = -1
            frozen = tables.batch.state[illegal].copy()
            tables.batch.state[illegal, K.F_DEC] = K.D_OVER
        tables.advance(ids)
        if illegal.any():
            tables.batch.state[illegal] = frozen
            for row in np.flatnonzero(illegal).tolist():
                tables.obs[row] = tables.batch.observation(row, self.seat)
                tables.masks[row] = tables.batch.mask(row)
        terminated, truncated = tables.status()
        terminated = terminated & was_running
        truncated = truncated & was_running
        rewards = tables.rewards(terminated)[:, self.seat]
        info: dict[str, Any] = {"action_mask": tables.masks.copy(), **tables.hand_info(terminated)}
        if illegal.any():
            rewards[illegal] = self.illegal_reward
            terminated = terminated | illegal
            info["illegal_action"] = illegal
        self._needs_reset = terminated | truncated
        return tables.obs.copy(), rewards, terminated, truncated, info


class UnoBatchEnv:
    """The multi-agent game of the PettingZoo environment on ``num_envs`` tables at once:
    every seat is an agent. :meth:`step` takes one action per table, for its seat to act;
    ``rewards[i, s]`` is seat ``s``'s reward at table ``i`` (non-zero when a hand ends),
    ``info["to_act"]`` the seat the returned observation and mask belong to. Keywords as in
    :class:`unokit.envs.pettingzoo.UnoAECEnv`. Its spaces are those of a Gymnasium vector
    environment: ``single_observation_space`` / ``single_action_space`` for one table (every
    seat's are the same), ``observation_space`` / ``action_space`` for the batch."""

    def __init__(
        self,
        variant: str = "classic",
        players: int = 2,
        num_envs: int = 64,
        *,
        reward: str = "hand",
        uno_catch: str = "auto",
        catch_probability: float = 1.0,
        history: int = 2,
        max_cycles: int = DEFAULT_MAX_CYCLES,
        max_decisions: int | None = None,
        threads: int = DEFAULT_THREADS,
        **options: Any,
    ) -> None:
        check_env_arguments(None, max_cycles, max_decisions)
        self.tables = _Tables(
            variant,
            players,
            num_envs,
            -1,
            [0] * players,
            reward,
            uno_catch,
            catch_probability,
            history,
            max_cycles,
            max_decisions,
            threads,
            options,
        )
        self.encoding = self.tables.batch.encoding
        self.num_envs = num_envs
        self.players = players
        self.single_observation_space = spaces.Box(low=0.0, high=self.encoding.high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.encoding.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._needs_reset = np.ones(num_envs, np.bool_)
        self._started = False

    def _info(self, ended: NDArray[np.bool_] | None = None) -> dict[str, Any]:
        to_act = self.tables.batch.to_act
        info = {"action_mask": self.tables.masks.copy(), "to_act": np.maximum(to_act, 0)}
        if ended is not None:
            info.update(self.tables.hand_info(ended))
        return info

    def reset(self, seed: int | Sequence[int] | None = None) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Deal every table (table ``i`` from ``seed + i``, as the PettingZoo env's ``reset``)."""
        self.tables.reset(seed)
        self._needs_reset[:] = False
        self._started = True
        return self.tables.obs.copy(), self._info()

    def step(
        self, actions: Any
    ) -> tuple[NDArray[np.float32], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """Apply one action id per table; an illegal id raises
        :class:`~unokit.IllegalActionError` and moves no table."""
        if not self._started:
            raise IllegalActionError("call reset() before step()")
        tables = self.tables
        live = ~self._needs_reset
        ids, _illegal = tables.check(actions, live, raise_illegal=True)
        tables.pending[self._needs_reset] = -2
        tables.advance(np.where(live, ids, 0))
        terminated, truncated = tables.status()
        terminated &= live
        truncated &= live
        rewards = tables.rewards(terminated)
        self._needs_reset = terminated | truncated
        return tables.obs.copy(), rewards, terminated, truncated, self._info(terminated)
