"""The engine's advice to one seat: its chance to win the hand after each of its choices, and its
best choice, from what that seat knew at that moment only.

This is the engine side of hints (the terminal's hint key, a server room's hint button) and of
game reviews (:mod:`unokit.review`). An :class:`Advisor` follows one seat through a game as a
bot would: at each of the seat's decisions it reads what the other seats did
(:class:`~unokit.bots.ismcts.Reads`: in 2-player single-sided games, the opponent's draws and
plays, which the belief over the opponent's hand weighs), and it evaluates a position with the
search of the ``expert`` level (:class:`~unokit.bots.belief.BeliefIsmctsBot` on the compiled
kernel where numba is installed and the kernel plays the game, else
:class:`~unokit.bots.ismcts.IsmctsBot` on the Python engine), every choice given an equal share
of the iterations (:meth:`~unokit.bots.ismcts.IsmctsBot.evaluate`). The search deals the cards
the seat cannot see anew at every iteration (:class:`~unokit.core.determinise.Determiniser`), so
neither the hidden hands nor the order of the draw pile ever enter an estimate.

Every estimate is reproducible: the search's generator is seeded from the advisor's ``seed``
and a ``key`` the caller gives (the step of the game), so that the same position, effort and
seed give the same numbers in any order and in any process.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from ..core.actions import CATCH, UNO, Action
from ..core.game import Event, Game
from ..core.observation import View
from ..core.rng import MASK64, Rng
from .ismcts import ChoiceValue, Evaluation, IsmctsBot, searched_actions
from .temper import temperature, tempered


@dataclass(frozen=True)
class Effort:
    """How hard the engine looks: search iterations given to each choice of a decision and to a
    position where another seat acts, on the compiled kernel and on the Python engine (about
    twenty times slower per iteration). A position where another seat acts gets fewer than a
    choice: its chance only draws a review's graph and finds the other players' key moments,
    where a choice's sets a mark."""

    name: str
    per_choice: int
    per_position: int
    python_per_choice: int
    python_per_position: int


#: The efforts people choose from, by name (figures in ``docs/review.md``).
EFFORTS: dict[str, Effort] = {
    effort.name: effort
    for effort in (
        Effort("low", 500, 250, 60, 30),
        Effort("normal", 2500, 1000, 250, 100),
        Effort("high", 10000, 4000, 1000, 400),
    )
}
#: The effort when nobody says otherwise.
DEFAULT_EFFORT = "normal"


def effort_named(name: str) -> Effort:
    """The :class:`Effort` called ``name``; ``ValueError`` naming the efforts otherwise."""
    effort = EFFORTS.get(name)
    if effort is None:
        raise ValueError(f"unknown effort {name!r}; efforts are {', '.join(EFFORTS)}")
    return effort


def _searcher() -> IsmctsBot:
    """The ``expert`` level's search (its belief over the opponent's hand on the kernel) where
    numba is installed, else the Python engine's search."""
    try:
        from .belief import BeliefIsmctsBot
    except ImportError:
        return IsmctsBot()
    return BeliefIsmctsBot()


def _engine(bot: IsmctsBot, view: View) -> str:
    """``"kernel"`` or ``"python"``: the engine ``bot`` searches ``view``'s game on."""
    try:
        from .ismcts_fast import FastIsmctsBot, engine_for
    except ImportError:
        return "python"
    return engine_for(view) if isinstance(bot, FastIsmctsBot) else "python"


def stream(seed: int, key: int) -> int:
    """The generator state of the estimate ``key`` (a step of a game) under ``seed``."""
    return Rng((seed * 0x9E3779B97F4A7C15 + key * 0xBF58476D1CE4E5B9 + 0x94D049BB133111EB) & MASK64).next64()


@dataclass
class Stop:
    """One step of a game as :meth:`Advisor.walk` passes it: the state after ``index`` actions,
    seen by the advisor's seat (``view``, valid until the walk moves on), the ``events`` of the
    action that led here (the set-up's at step 0), and the action taken next (``actor``,
    ``action``; ``None`` at the end). ``decision``: the seat is to act and takes the next action
    in turn (at the end: the seat is to act)."""

    index: int
    view: View
    events: list[Event]
    actor: int | None
    action: Action | None
    decision: bool


@dataclass
class Advisor:
    """Follows ``seat`` through a game and estimates its chances (see the module docstring).

    Call :meth:`walk` to go through a game's actions (it keeps the seat's reads of the other
    seats), and :meth:`evaluate` at any stop to estimate the position."""

    seat: int
    effort: Effort = field(default_factory=lambda: EFFORTS[DEFAULT_EFFORT])
    seed: int = 0
    bot: IsmctsBot = field(default_factory=_searcher)

    def __post_init__(self) -> None:
        self.bot.reset(self.seat)

    def walk(self, start: Game, moves: Sequence[tuple[int, str]], setup: list[Event] | None = None) -> Iterator[Stop]:
        """Play ``moves`` (``(seat, text)``, as a record holds them) on a copy of ``start``,
        yielding a :class:`Stop` before each action and one at the end. At each of the seat's
        decisions the seat's reads are brought up to date before the stop is yielded (so an
        evaluation there sees what the seat saw) and the action is remembered after it.
        ``UnokitError`` when a move is refused."""
        game = start.clone()
        events = list(setup or [])
        reads = self.bot.reads
        for index, (actor, text) in enumerate(moves):
            action = game.parse_action(text, actor)
            view = View(game, self.seat)
            decision = actor == self.seat and game.to_act == self.seat and action.kind not in (CATCH, UNO)
            if decision and reads is not None:
                reads.update(view)
            yield Stop(index, view, events, actor, action, decision)
            if decision and reads is not None:
                reads.acted(view, action)
            events = game.apply(action, actor)
        view = View(game, self.seat)
        last = game.to_act == self.seat
        if last and reads is not None:
            reads.update(view)
        yield Stop(len(moves), view, events, None, None, last)

    def evaluate(self, view: View, key: int) -> Evaluation:
        """The seat's chances at ``view`` (its view, now): each seat's chance to win the hand and,
        where the seat is to act, each of its choices' (:func:`searched_actions`), searched with
        the advisor's effort; reproducible for the same ``key``."""
        bot = self.bot
        bot.rng = Rng(stream(self.seed, key))
        kernel = _engine(bot, view) == "kernel"
        effort = self.effort
        if view.to_act == view.seat:
            choices = len(searched_actions(view.legal_actions()))
            budget = choices * (effort.per_choice if kernel else effort.python_per_choice)
        else:
            budget = effort.per_position if kernel else effort.python_per_position
        return bot.evaluate(view, budget)


@dataclass(frozen=True)
class Advice:
    """A hint: the engine's ``best`` choice for ``seat``'s open decision and the seat's chance to
    win the hand with it (``chance``, under the table's temperature as a review gives it:
    :mod:`.temper`), beside every choice's as searched (``choices``); ``step`` is the
    number of actions the game had then. ``engine`` and ``effort`` say how it was computed."""

    seat: int
    step: int
    best: Action
    chance: float
    choices: tuple[ChoiceValue, ...]
    effort: str
    engine: str


def best_choice(choices: Sequence[ChoiceValue]) -> ChoiceValue:
    """The choice of the highest chance (more iterations, then the first listed, on a tie)."""
    return max(reversed(choices), key=lambda c: (c.chance, c.visits))


def advise(
    start: Game,
    moves: Sequence[tuple[int, str]],
    seat: int,
    effort: str = DEFAULT_EFFORT,
    seed: int = 0,
) -> Advice:
    """The engine's hint for ``seat`` in the game reached by playing ``moves`` from ``start``
    (a record's start and actions), computed from what ``seat`` saw of them only.

    Raises ``ValueError`` when ``seat`` is not to act at the end of ``moves`` (or for an unknown
    ``effort``), and the engine's ``UnokitError`` when a move is refused."""
    advisor = Advisor(seat, effort_named(effort), seed)
    final = None
    for stop in advisor.walk(start, moves):
        final = stop
    assert final is not None
    if not final.decision:
        raise ValueError(f"seat {seat} has no decision to take after these {len(moves)} actions")
    evaluation = advisor.evaluate(final.view, final.index)
    best = best_choice(evaluation.choices)
    chance = tempered(best.chance, start.n, temperature(start.variant, start.n))  # as a review says it
    return Advice(seat, final.index, best.action, chance, evaluation.choices, effort, evaluation.engine)


__all__ = [
    "DEFAULT_EFFORT",
    "EFFORTS",
    "Advice",
    "Advisor",
    "Effort",
    "Stop",
    "advise",
    "best_choice",
    "effort_named",
    "stream",
]
