"""OpenSpiel's bots as unokit bots: ``openspiel:ismcts[:SIMULATIONS]`` wherever a bot spec
goes in ``unokit eval`` (and ``openspiel:random``).

A unokit bot sees a :class:`~unokit.View` only, so the bot hands OpenSpiel a state of the game
that agrees with the view (the unseen cards dealt by the engine's determiniser, the seat's
memory kept): OpenSpiel's ISMCTS resamples from the information state anyway. Its rollouts are
random play, which in UNO goes on for hundreds of decisions, so the game it searches ends a
rollout after ``horizon`` decisions with no winner (0 to every seat): a demonstration of the
interface rather than a strong player (``docs/research.md`` measures it).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, TypeVar

import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ..bots.base import Bot
from ..core.actions import Action
from ..core.determinise import Determiniser
from ..core.observation import View
from ..core.rng import MASK64, Rng
from .games import GAME_NAMES, UnoGame, UnoState, _Table

#: The algorithms of ``openspiel:NAME``.
ALGORITHMS = ("ismcts", "random")
#: ISMCTS simulations per decision unless the spec says otherwise.
DEFAULT_SIMULATIONS = 10
#: Decisions after which a rollout of the searched game ends with no winner.
HORIZON = 40


T = TypeVar("T")


class RandomState:
    """What OpenSpiel's ISMCTS and rollouts ask of numpy's ``RandomState`` (``uniform``,
    ``randint``, ``shuffle``, ``choice``), drawn from unokit's seeded generator instead."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def uniform(self) -> float:
        return self.rng.random()

    def randint(self, n: int) -> int:
        return self.rng.below(int(n))

    def shuffle(self, items: list[Any]) -> None:
        self.rng.shuffle(items)

    def choice(self, items: Sequence[T], p: Sequence[float] | None = None) -> T:
        if p is None:
            return items[self.rng.below(len(items))]
        x = self.rng.random()
        total = 0.0
        for item, q in zip(items, p, strict=True):
            total += q
            if x < total:
                return item
        return items[-1]


@lru_cache(maxsize=16)
def _game(variant: str, players: int, horizon: int) -> UnoGame:
    game: UnoGame = pyspiel.load_game(f"{GAME_NAMES[variant]}(players={players},max_decisions={horizon})")
    return game


def state_of_view(game: UnoGame, view: View, seed: int) -> UnoState:
    """A state of ``game`` that ``view``'s seat cannot tell from the real one."""
    world = Determiniser(view).game(seed & MASK64, (seed * 0x9E3779B97F4A7C15) & MASK64)
    live = view._game
    world.known = {h: {view.seat: list(v[view.seat])} for h, v in live.known.items() if v.get(view.seat)}
    table = _Table(game)
    session = copy.copy(game.session)
    session.load(world)
    table.session = session
    table.need = None
    table.resampled = True
    return UnoState(game, table)


class OpenSpielBot(Bot):
    """One of OpenSpiel's bots playing through :func:`state_of_view` (games of the standard
    deck without house rules that change the action table)."""

    name = "openspiel"

    def __init__(self, seed: int = 0, algorithm: str = "ismcts", simulations: int = DEFAULT_SIMULATIONS) -> None:
        super().__init__(seed)
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown OpenSpiel bot {algorithm!r}; they are {', '.join(ALGORITHMS)}")
        if simulations < 1:
            raise ValueError(f"simulations must be 1 or more, not {simulations}")
        self.algorithm = algorithm
        self.simulations = simulations
        self.random_state = RandomState(Rng(seed ^ 0x0F5E7))

    @classmethod
    def from_spec(cls, spec: str, seed: int) -> OpenSpielBot:
        """``openspiel:ismcts``, ``openspiel:ismcts:20`` or ``openspiel:random``."""
        parts = spec.split(":")
        if len(parts) not in (2, 3) or parts[0] != "openspiel":
            raise ValueError(f"write an OpenSpiel bot as 'openspiel:ismcts[:SIMULATIONS]', not {spec!r}")
        try:
            simulations = int(parts[2]) if len(parts) == 3 else DEFAULT_SIMULATIONS
        except ValueError:
            raise ValueError(f"the simulations of {spec!r} must be a whole number") from None
        return cls(seed, parts[1], simulations)

    def act(self, view: View) -> Action:
        game = _game(view.variant, view.players, HORIZON)
        state = state_of_view(game, view, self.rng.next64())
        legal = state.legal_actions()
        if self.algorithm == "random" or len(legal) == 1:
            code = int(legal[self.rng.below(len(legal))])
        else:
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self.random_state)
            bot = ismcts.ISMCTSBot(
                game, evaluator, uct_c=2.0, max_simulations=self.simulations, random_state=self.random_state
            )
            # OpenSpiel's default resampler draws from an unseeded sampler: resample from ours.
            bot.set_resampler(lambda s, player: s.resample_from_infostate(player, self.random_state.uniform))
            code = int(bot.step(state))
        action = game.encoding.decode(code, view.side, view.seat)
        assert action is not None
        return action
