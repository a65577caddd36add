"""The ``ismcts_fast`` bot: the ``ismcts`` search run on the compiled kernel (extra ``fast``).

It decides as :class:`~unokit.bots.ismcts.IsmctsBot` does (the same answers without search, the
same reads of the opponent's draws, the engine's :class:`~unokit.core.determinise.Determiniser`
for what it cannot see), but every imagined game lives in a kernel row and the whole search
(dealing the unseen cards, walking the tree, rollouts, scoring) runs compiled in
:mod:`unokit.fast.search`, many times faster, so its default budget is many times larger. Games
the kernel does not play (other variants, options or launchers; see ``docs/fast.md``) are
searched by the Python engine instead, with the ``ismcts`` budget: :attr:`FastIsmctsBot.engine`
says which engine the last search used, and :func:`engine_for` which one a game gets.

Importing this module needs numba (``pip install "unokit[fast]"``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..core.actions import Action
from ..core.determinise import Determiniser
from ..core.errors import OptionError
from ..core.game import Game
from ..core.observation import View
from ..core.rng import MASK64
from ..encoding import Encoding
from ..fast import kernel as K
from ..fast import search as S
from ..fast.load import as_int64, load_game
from ..fast.tables import resolve_options, rules_for
from .ismcts import (
    DEFAULT_EXPLORATION,
    DEFAULT_ITERATIONS,
    EXTRA_CARD_TERM,
    FEATURE_TERMS,
    HAND_SIZE_TERM,
    ChoiceValue,
    Evaluation,
    IsmctsBot,
    card_weights,
    searched_actions,
)

#: Iterations per decision on the kernel, by variant (games the kernel does not play get the
#: ``ismcts`` budgets of :data:`unokit.bots.ismcts.DEFAULT_ITERATIONS`). More (35,000) was not
#: clearly stronger in 2-player Classic and brings the slowest decision close to 0.2 s on a
#: loaded core (``docs/ismcts.md``).
FAST_ITERATIONS = {"classic": 20000, "attack": 20000, "flip": 20000, "flip_attack": 20000}
#: The rollout policy (:data:`unokit.fast.search.POLICIES`; ``greedy_color`` was not measured
#: stronger in 2-player Classic) and its length in decisions before the hand-strength model
#: scores the table (``None``: to the end of the hand).
FAST_POLICY = "greedy"
FAST_ROLLOUT_DEPTH: int | None = 8
#: How the search picks the action of a new node among the untried ones (:data:`EXPANSIONS`):
#: trying the rollout policy's action first was measured stronger in 2-player Classic.
FAST_EXPANSION = "policy"
#: ``random``: uniformly; ``policy``: the rollout policy's action when it is untried, else
#: uniformly among the others.
EXPANSIONS = ("random", "policy")
#: How the other seats choose in the tree (a key of :data:`OPPONENT_MODELS`): ``tree``, by UCB1
#: over statistics pooled across determinisations, as the searching seat does. Letting them
#: play the rollout policy with their determinised hands was measured weaker in 2-player
#: Classic (``docs/ismcts.md``).
FAST_OPPONENTS = "tree"
#: Opponent models: the decisions (a bit per ``unokit.fast.kernel.D_*``) at which the other
#: seats play the rollout policy with their determinised hands instead of choosing by UCB1:
#: none (``tree``), all (``policy``), all but whether to challenge a Wild Draw card
#: (``policy_unless_challenge``: the greedy policy never challenges).
OPPONENT_MODELS = {"tree": 0, "policy": ~0, "policy_unless_challenge": ~(1 << K.D_CHALLENGE)}
#: Whether to read the colour the opponent names with a wild (``Reads(named_colors=True)``):
#: off, as it was not measured stronger in 2-player Classic (``docs/ismcts.md``).
FAST_READ_COLORS = False
#: Whether to weight the deal of the opponent's hand by what its plays say (``read_plays``).
FAST_READ_PLAYS = False
#: The log-strength of a wild card in the ``spend`` model: about one card of a mid-sized hand
#: (each costs 0.2-0.26 in :data:`~unokit.bots.ismcts.HAND_SIZE_TERM`), chosen rather than fitted.
SPEND_WILD_TERM = 0.25
#: Hand-strength models that score the cut-short rollouts, each as ``(HAND_SIZE_TERM,
#: EXTRA_CARD_TERM, FEATURE_TERMS)`` over :data:`unokit.bots.ismcts.FEATURES`: ``heuristic``,
#: fitted on hands between ``heuristic`` bots (the model ``ismcts`` uses); ``self``, fitted on
#: 5,000 hands between two of these searches at 5,000 iterations (``scripts/fit_hand_model.py
#: --bot ismcts_fast --iterations 5000 --hands 5000 --seed 2``); ``spend``, ``heuristic`` with a
#: wild worth :data:`SPEND_WILD_TERM` instead of almost four cards, so that a seat with nothing
#: else to play spends its wild rather than draw (the fitted models price a wild by how often
#: its holder wins, so a search that scores tables with them keeps its wilds and draws).
HAND_MODELS: dict[str, tuple[tuple[float, ...], float, tuple[float, ...]]] = {
    "heuristic": (HAND_SIZE_TERM, EXTRA_CARD_TERM, FEATURE_TERMS),
    "spend": (HAND_SIZE_TERM, EXTRA_CARD_TERM, (SPEND_WILD_TERM, *FEATURE_TERMS[1:])),
    "self": (
        (
            0.0,
            0.0,
            -0.576,
            -0.848,
            -1.029,
            -1.164,
            -1.289,
            -1.444,
            -1.574,
            -1.75,
            -1.983,
            -2.224,
            -2.491,
            -2.861,
            -3.213,
            -3.511,
            -4.305,
        ),
        -0.537,
        (0.541, 0.475, 0.239, 0.098, 0.111, -0.228),
    ),
}
#: The default model: ``self`` describes the tables between searches better, and ``spend`` ends
#: the rare marathon hands between searches, but neither was measured stronger, against
#: ``heuristic`` or head to head with ``ismcts`` (``docs/ismcts.md``).
FAST_MODEL = "heuristic"
#: The weights of a uniform deal (none), and no belief over the opponent's hand.
_NO_WEIGHTS = np.zeros(0, np.float64)
_NO_PARTICLES = np.zeros((0, 1), np.int64)
#: Iterations between two looks at the clock under a ``time_limit``.
_CHUNK = 256


@dataclass(frozen=True)
class _Kernel:
    """The kernel's tables for one game (variant, seats, options)."""

    rules: np.ndarray
    encoding: Encoding
    flags: np.ndarray


_KERNELS: dict[tuple[str, int, tuple[tuple[str, object], ...]], _Kernel | None] = {}


def _kernel(game: Game) -> _Kernel | None:
    """The kernel's tables for ``game``'s variant, seats and options, or None when the kernel
    does not play them."""
    options = game.options.as_dict(game.rules)
    key = (game.variant, game.n, tuple(sorted((k, repr(v)) for k, v in options.items())))
    if key not in _KERNELS:
        try:
            name, resolved = resolve_options(game.variant, options)
        except OptionError:
            _KERNELS[key] = None
        else:
            encoding = Encoding(name, game.n, 0)
            _KERNELS[key] = _Kernel(rules_for(encoding, resolved, catch=False), encoding, S.type_flags(game.deck.kind))
    return _KERNELS[key]


def engine_for(view: View) -> str:
    """``"kernel"`` when the search of ``view``'s game runs on the compiled kernel, ``"python"``
    when the kernel does not play it (the search then uses the Python engine)."""
    return "kernel" if _kernel(Determiniser(view).game(0, 0)) is not None else "python"


class FastIsmctsBot(IsmctsBot):
    """:class:`~unokit.bots.ismcts.IsmctsBot` searching on the compiled kernel.

    The arguments are ``ismcts``'s, with kernel defaults: ``iterations`` (by default
    :data:`FAST_ITERATIONS` on the kernel, the ``ismcts`` budget on the Python engine),
    ``rollout_depth`` (:data:`FAST_ROLLOUT_DEPTH`) and ``policy`` (the rollout policy on the
    kernel, :data:`FAST_POLICY`; the Python engine always rolls out greedily) and ``expansion``
    (:data:`EXPANSIONS`, by default :data:`FAST_EXPANSION`; kernel only) and ``read_colors``
    (with ``read_draws``: also read the colour the opponent names with a wild, on either engine;
    :data:`FAST_READ_COLORS`) and ``opponents`` (how the other seats choose in the tree,
    :data:`OPPONENT_MODELS`, by default :data:`FAST_OPPONENTS`; kernel only) and ``model`` (the
    hand-strength model that scores the rollouts, :data:`HAND_MODELS`, by default
    :data:`FAST_MODEL`; kernel only) and ``read_plays`` (with ``read_draws``, in 2-player
    single-sided games: deal the opponent's unseen cards weighted by what its turns this round
    say of each card type, :func:`~unokit.bots.ismcts.card_weights`; :data:`FAST_READ_PLAYS`;
    kernel only). With a seed and an iteration budget the bot is deterministic.
    """

    name = "ismcts_fast"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        time_limit: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        rollout_depth: int | None = FAST_ROLLOUT_DEPTH,
        read_draws: bool = True,
        policy: str = FAST_POLICY,
        house_rules: bool = True,
        expansion: str = FAST_EXPANSION,
        read_colors: bool = FAST_READ_COLORS,
        opponents: str = FAST_OPPONENTS,
        model: str = FAST_MODEL,
        read_plays: bool = FAST_READ_PLAYS,
    ) -> None:
        super().__init__(seed, iterations, time_limit, exploration, rollout_depth, read_draws, house_rules)
        if self.reads is not None:
            self.reads.named_colors = read_colors
        if policy not in S.POLICIES:
            raise ValueError(f"unknown rollout policy {policy!r}; policies are {', '.join(S.POLICIES)}")
        if expansion not in EXPANSIONS:
            raise ValueError(f"unknown expansion {expansion!r}; expansions are {', '.join(EXPANSIONS)}")
        if opponents not in OPPONENT_MODELS:
            raise ValueError(f"unknown opponent model {opponents!r}; opponent models are {', '.join(OPPONENT_MODELS)}")
        if model not in HAND_MODELS:
            raise ValueError(f"unknown hand-strength model {model!r}; models are {', '.join(HAND_MODELS)}")
        self.policy = policy
        self.expansion = expansion
        self.opponents = opponents
        self.model = model
        self.read_plays = read_plays
        #: The engine of the last search: ``"kernel"`` or ``"python"`` ("" before any).
        self.engine = ""
        #: The root's visits by action id of the last search on the kernel (``{}`` before any).
        self.last_visits: dict[int, int] = {}

    def search(self, view: View, out_of_turn: list[Action] | None = None) -> Action:
        """The search of :meth:`IsmctsBot.search`, on the kernel when it plays the game (it plays
        no house rule, so a jump out of turn, ``out_of_turn``, is searched on the Python engine)."""
        sampler = Determiniser(view, self.reads.voids if self.reads is not None else None)
        template = sampler.game(0, 0)
        kernel = _kernel(template)
        if kernel is None or out_of_turn is not None:
            self.engine = "python"
            return super().search(view, out_of_turn)
        self.engine = "kernel"
        return self._search_kernel(view, sampler, template, kernel)

    def belief(self, view: View, sampler: Determiniser) -> tuple[np.ndarray, np.ndarray] | None:
        """Hands of the opponent to deal instead of the uniform deal, as ``(particles,
        cumulative)`` for :func:`unokit.fast.search.run`; ``None`` (here: always) for the deal
        of ``sampler``. The ``ismcts_belief`` bot (:mod:`unokit.bots.belief`) weighs them."""
        return None

    def _search_kernel(self, view: View, sampler: Determiniser, template: Game, kernel: _Kernel) -> Action:
        nodes, wins, _ = self._grow_kernel(view, sampler, template, kernel, self.iterations, False, _NO_WEIGHTS)
        self.last_visits = S.root_visits(nodes, view.seat)
        code = S.best_root_action(nodes, wins, view.seat)
        for action in view.legal_actions():
            if kernel.encoding.encode(action, view.seat) == code:
                return action
        raise AssertionError(f"the search chose action id {code}, which is not legal")  # pragma: no cover

    def evaluate(self, view: View, iterations: int) -> Evaluation:
        """:meth:`IsmctsBot.evaluate`, on the kernel when it plays the game (:attr:`engine` says
        which engine it used)."""
        sampler = Determiniser(view, self.reads.voids if self.reads is not None else None)
        template = sampler.game(0, 0)
        kernel = _kernel(template)
        if kernel is None:
            self.engine = "python"
            return super().evaluate(view, iterations)
        self.engine = "kernel"
        totals = np.zeros(view.players, np.float64)
        nodes, wins, done = self._grow_kernel(view, sampler, template, kernel, iterations, True, totals)
        seat = view.seat
        legal = view.legal_actions() if view.to_act == seat else []
        by_code = {kernel.encoding.encode(a, seat): a for a in searched_actions(legal)} if legal else {}
        choices = []
        child = int(nodes[0, S.N_CHILD])
        while child >= 0:
            visits = int(nodes[child, S.N_VISITS])
            if int(nodes[child, S.N_ACTOR]) == seat and visits > 0:
                choices.append(ChoiceValue(by_code[int(nodes[child, S.N_CODE])], visits, float(wins[child]) / visits))
            child = int(nodes[child, S.N_NEXT])
        order = {a.key: i for i, a in enumerate(by_code.values())}
        choices.sort(key=lambda c: order[c.action.key])
        return Evaluation(seat, tuple(float(t) / max(done, 1) for t in totals), tuple(choices), done, "kernel")

    def _grow_kernel(
        self,
        view: View,
        sampler: Determiniser,
        template: Game,
        kernel: _Kernel,
        budget: int | None,
        uniform_root: bool,
        totals: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, int]:
        """Grow a tree from ``view``'s position on the kernel (:func:`unokit.fast.search.grow`)
        for ``budget`` iterations, or by the bot's own budget and time limit when ``budget`` is
        ``None``; return the tree's nodes and wins and the iterations run."""
        R = kernel.rules
        base = np.zeros(int(R[K.C_S_WIDTH]), np.int64)
        load_game(R, base, template)
        hidden = S.Hidden.of(sampler)
        weights = _NO_WEIGHTS
        reads = self.reads
        if self.read_plays and reads is not None and view.players == 2 and not view.deck.double_sided:
            by_type = card_weights(view, reads)
            weights = np.asarray([by_type[t] for t in sampler.pool], np.float64)
        particles, cumulative = self.belief(view, sampler) or (_NO_PARTICLES, _NO_WEIGHTS)
        if budget is None and self.time_limit is None:
            budget = FAST_ITERATIONS.get(view.variant, min(FAST_ITERATIONS.values()))
        capacity = (budget if budget is not None else 1 << 20) + 1
        nodes, wins, used = S.new_tree(capacity)
        rng = np.array([as_int64(self.rng.state)], np.int64)
        depth = -1 if self.rollout_depth is None else self.rollout_depth
        policy = S.POLICIES.index(self.policy)
        expand = policy if self.expansion == "policy" else -1
        opponent_decisions = OPPONENT_MODELS[self.opponents]
        size_terms, extra_card, feature_terms = HAND_MODELS[self.model]
        sizes = np.asarray(size_terms, np.float64)
        terms = np.asarray(feature_terms, np.float64)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        done = 0
        while budget is None or done < budget:
            chunk = budget - done if budget is not None else _CHUNK
            if deadline is not None:
                chunk = min(chunk, _CHUNK)
            ran = S.grow(
                base, R, hidden.pool, hidden.seats, hidden.mode, hidden.groups, hidden.back_of, hidden.slots,
                view.seat, rng, nodes, wins, used, chunk, self.exploration, policy, depth,
                kernel.flags, sizes, extra_card, terms, expand, policy, opponent_decisions, weights,
                particles, cumulative, uniform_root, totals,
            )  # fmt: skip
            done += ran
            if ran < chunk or (deadline is not None and time.perf_counter() >= deadline):
                break
        self.rng.state = int(rng[0]) & MASK64
        self.last_iterations = done
        return nodes, wins, done


__all__ = [
    "DEFAULT_ITERATIONS",
    "EXPANSIONS",
    "FAST_ITERATIONS",
    "HAND_MODELS",
    "OPPONENT_MODELS",
    "SPEND_WILD_TERM",
    "FastIsmctsBot",
    "engine_for",
]
