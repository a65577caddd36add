"""Every variant of unokit as an OpenSpiel game (``pyspiel``), registered by
:func:`register` when :mod:`unokit.openspiel` is imported.

A game is one hand (as the environments' episodes) between ``players`` seats, built on the
environments' :class:`~unokit.envs.session.Session`, so that the actions, the observation
tensor, the catch rule and the Jump-In offers are those of ``docs/envs.md``:

* **actions** are the ids of :class:`~unokit.encoding.Encoding` (``num_distinct_actions`` is
  the variant's table), listed in ascending order; with ``jump_in=true`` an offered seat is the
  player to act, with its jumps and ``pass``;
* **chance** is explicit by default (``chance=exact``, :mod:`unokit.openspiel.chance`): each draw
  of the engine's generator is a chance node, from the cut for the dealer to the last reshuffle
  and launcher press. With ``chance=sampled`` the game is OpenSpiel's sampled stochastic kind:
  a state holds the engine's own seeded generator and has no chance node; the ``k``-th
  :meth:`UnoGame.new_initial_state` of a game deals the hand ``derive(seed, k)`` (the game
  parameter ``seed``, 0 by default), and a step is the engine's own apply, with no copy of the
  game (``scripts/bench_openspiel.py`` measures both modes). Algorithms that enumerate
  chance (expectimax, exact best responses) need ``exact``; sampling ones (MCTS, ISMCTS, random
  simulation, the RL wrappers) run on both;
* the **observation tensor** is the environments' vector of the seat; the **observation
  string** and the **information-state string** are the seat's view,
  :func:`unokit.core.observation.observe` as canonical JSON (see ``docs/research.md`` on
  perfect recall);
* **returns** are the environments' ``reward="hand"``: +1 to the winner and ``-1/(n-1)`` to
  every other seat (the team's with ``teams=true``), zero-sum; a hand still running after
  ``max_decisions`` decisions ends with 0 to everyone;
* **serialisation** goes through a unokit record (:meth:`UnoState.to_record`): the engine's
  actions with their seats, and under ``meta.openspiel`` the OpenSpiel history that holds the
  chance outcomes.

The game parameters are ``players``, ``max_decisions``, ``uno_catch`` (``auto``: the next seat
catches a missed UNO, ``never``), ``chance`` and ``seed`` (above) and every rule option the
variant accepts (``stacking``, ``bluffing``, ``scoring``, the house rules ...), with the
variant's defaults. Options that
change the deck (``deck``, ``pairing``), ``launcher_script`` and ``rounds`` are not parameters:
the action table and the observation need the standard deck, and a game is one hand.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

import numpy as np
import pyspiel

from ..core.actions import Action
from ..core.errors import UnokitError
from ..core.game import Game
from ..core.observation import View
from ..core.rng import Rng
from ..core.variants import VARIANT_NAMES, Options, get_rules
from ..envs.session import UNO_CATCH_RULES, Session
from ..record.format import GameRecord, RecordError, Result
from ..record.format import Seat as RecordSeat
from .chance import NeedChance, RecordingRng, Request, ScriptedRng, deal, largest_draw

#: The OpenSpiel short name of each variant.
GAME_NAMES: dict[str, str] = {variant: f"uno_{variant}" for variant in VARIANT_NAMES}
#: Rule options that are not game parameters (see the module docstring).
NOT_PARAMETERS = frozenset({"deck", "pairing", "launcher_script", "rounds"})
#: Decisions after which a hand ends with no winner, unless the game says otherwise.
DEFAULT_MAX_DECISIONS = 2000
#: The most ``max_decisions`` takes: OpenSpiel keeps a game's length in a 32-bit number.
MAX_DECISIONS = 2**31 - 1
#: The ``stacking`` parameter that stands for no stacking (OpenSpiel reads ``false`` as a boolean).
NO_STACKING = "off"
#: The chance outcome that stands for no pending step (the deal is pending at the start).
_DEAL = -1
#: The chance modes (the ``chance`` parameter): OpenSpiel's explicit chance nodes, or the
#: engine's generator inside the state (OpenSpiel's sampled stochastic games).
CHANCE_MODES = ("exact", "sampled")
#: The game parameters that are not rule options.
GAME_PARAMETERS = ("players", "max_decisions", "uno_catch", "chance", "seed")
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def parameters(variant: str) -> dict[str, Any]:
    """The game parameters of ``variant`` with their defaults (OpenSpiel takes bool, int,
    float and str; ``stacking`` is one of its readings as text, :data:`NO_STACKING` for none)."""
    rules = get_rules(variant)
    resolved = _resolved_options(rules.name)
    out: dict[str, Any] = {
        "players": 2,
        "max_decisions": DEFAULT_MAX_DECISIONS,
        "uno_catch": UNO_CATCH_RULES[0],
        "chance": CHANCE_MODES[0],
        "seed": 0,
    }
    for name in sorted(rules.accepted_options - NOT_PARAMETERS):
        value = getattr(resolved, name)
        out[name] = (NO_STACKING if value is False else str(value)) if name == "stacking" else value
    return out


@cache
def _resolved_options(variant: str) -> Options:
    """The options of a new ``variant`` game with nothing set: its own defaults."""
    game, _ = Game.new(variant, get_rules(variant).min_players, 0)
    return game.options


def _option_values(variant: str, params: dict[str, Any]) -> dict[str, object]:
    """The engine options among ``params``."""
    return {k: v for k, v in params.items() if k not in GAME_PARAMETERS}


def game_type(variant: str, chance: str = CHANCE_MODES[0]) -> pyspiel.GameType:
    """The :class:`pyspiel.GameType` of ``variant`` in the chance mode ``chance``."""
    rules = get_rules(variant)
    mode = pyspiel.GameType.ChanceMode
    chance_mode = mode.EXPLICIT_STOCHASTIC if chance == CHANCE_MODES[0] else mode.SAMPLED_STOCHASTIC
    return pyspiel.GameType(
        short_name=GAME_NAMES[rules.name],
        long_name=f"unokit {rules.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance_mode,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(rules.name),
    )


class UnoGame(pyspiel.Game):  # type: ignore[misc]
    """One unokit variant as an OpenSpiel game; ``params`` are the game parameters."""

    def __init__(self, variant: str, params: dict[str, Any] | None = None) -> None:
        defaults = parameters(variant)
        given = dict(params or {})
        unknown = sorted(set(given) - set(defaults))
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(unknown)} of {GAME_NAMES[variant]}")
        merged = {**defaults, **given}
        players = int(merged["players"])
        max_decisions = int(merged["max_decisions"])
        if not 1 <= max_decisions <= MAX_DECISIONS:
            raise ValueError(
                f"max_decisions must be from 1 to {MAX_DECISIONS:,} (OpenSpiel keeps a game's length "
                f"in a 32-bit number), not {max_decisions}"
            )
        chance = str(merged["chance"])
        if chance not in CHANCE_MODES:
            raise ValueError(f"chance must be one of {', '.join(CHANCE_MODES)}, not {chance!r}")
        options = _option_values(variant, merged)
        if options.get("stacking") == NO_STACKING:
            options["stacking"] = False
        try:
            session = Session(variant, players, uno_catch=str(merged["uno_catch"]), options=options)
        except UnokitError as exc:
            raise ValueError(str(exc)) from None
        self.variant = session.variant
        self.session = session
        self.encoding = session.encoding
        self.max_decisions = max_decisions
        self.chance = chance
        self.sampled = chance == "sampled"
        #: The deal seeds of the sampled mode's new states, one after the other.
        self._deals = Rng(int(merged["seed"]))
        self.options: dict[str, object] = {"rounds": 1, **options}
        deck = self.encoding.deck
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=0 if self.sampled else largest_draw(deck),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_decisions,
        )
        super().__init__(game_type(variant, chance), info, merged)
        #: The state before the deal, copied by :meth:`new_initial_state`.
        self._initial = _Table(self)
        if not self.sampled:
            self._initial.resolve()

    def new_initial_state(self) -> UnoState:
        """The state before the deal: a chance node (the cut for the dealer's first draw); in
        the sampled mode the next hand dealt (see the module docstring)."""
        if self.sampled:
            return self.dealt(self._deals.next64())
        return UnoState(self, self._initial.__deepcopy__({}))

    def dealt(self, seed: int) -> UnoState:
        """In the sampled mode, the state of the hand the engine deals with ``seed``."""
        if not self.sampled:
            raise ValueError("a dealt state is of the sampled chance mode; use state_from_seed with exact chance")
        t = _Table(self)
        session = copy.copy(self.session)
        session.reset(seed)
        t.session, t.deal = session, seed
        t.to_act()
        return UnoState(self, t)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> UnoObserver:
        """The observer of the seat's view (the same for the observation and the information
        state: see the module docstring)."""
        if params:
            raise ValueError(f"observation parameters are not supported; given {params}")
        return UnoObserver(self)

    def deserialize_state(self, text: str) -> UnoState:
        """The state that :meth:`UnoState.serialize` wrote (a unokit record)."""
        return state_from_record(self, GameRecord.loads(text))


class _Table:
    """The mutable part of a state, in one object: OpenSpiel clones a Python state by deep
    copying its ``__dict__`` (this copies the game with :meth:`Game.clone`) and serialises it by
    pickling (this pickles the state's unokit record)."""

    __slots__ = (
        "actions",
        "ahead",
        "deal",
        "draws",
        "game",
        "history",
        "legal",
        "need",
        "pending",
        "player",
        "resampled",
        "returns",
        "session",
        "truncated",
    )

    def __init__(self, game: UnoGame) -> None:
        self.game = game
        self.session: Session | None = None
        self.pending = _DEAL
        self.draws: list[int] = []
        self.need: Request | None = None
        #: How many requests are known to follow ``need`` (the rest of a shuffle, each
        #: ``below`` one less than the last).
        self.ahead = 0
        self.returns = [0.0] * game.num_players()
        self.truncated = False
        self.actions: list[tuple[int, str]] = []
        self.history: list[int] = []
        #: A world resampled for a search (its history is not how it came about): no record.
        self.resampled = False
        #: The deal seed of a sampled-mode state (``None`` with exact chance).
        self.deal: int | None = None
        #: The sampled mode's player to act (kept by :meth:`step`) and, for that seat at the
        #: game's version, the engine action of each of its legal ids (``(game, version, seat,
        #: {id: action})``; offers are not kept).
        self.player = _TERMINAL
        self.legal: tuple[Game | None, int, int, dict[int, Action]] = (None, -1, 0, {})

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        other = object.__new__(_Table)
        for name in _Table.__slots__:
            setattr(other, name, getattr(self, name))
        if self.session is not None:
            other.session = _clone_session(self.session)
        other.draws = list(self.draws)
        other.returns = list(self.returns)
        other.actions = list(self.actions)
        other.history = list(self.history)
        return other

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return _table_from_record, (str(self.game), record_of(self).dumps())

    def resolve(self) -> None:
        """Apply the pending step with the chance outcomes drawn for it so far; leave it pending
        (a chance node) when the engine wants another."""
        t = self
        game = t.game
        rng = ScriptedRng(t.draws)
        try:
            if t.pending == _DEAL:
                proto = game.session
                engine, _ = deal(proto.game.rules, proto.game.options, game.num_players(), rng)
                session = copy.copy(proto)
                session.load(engine)
                rewards = [0.0] * game.num_players()
                done: list[tuple[int, str]] = []
            else:
                assert t.session is not None
                session = _clone_session(t.session)
                session.game.rng = rng
                done, rewards = _act(session, t.pending)
        except NeedChance as need:
            t.need, t.ahead = need.request, need.more
            return
        if rng.used != len(t.draws):  # pragma: no cover - the engine asks until it has enough
            raise AssertionError("a step used fewer chance outcomes than it was given")
        t.session = session
        t.need = None
        t.draws = []
        t.done(done, rewards)

    def step(self, action_id: int) -> None:
        """The sampled mode's step: the engine applies ``action_id`` with its own generator
        (an id just listed as legal goes through the engine's fast path)."""
        session = self.session
        assert session is not None
        game = session.game
        kept, version, seat, by_id = self.legal
        action = by_id.get(action_id) if kept is game and version == game.version and not session.offers else None
        if action is None:
            self.done(*_act(session, action_id))
            self.to_act()
            return
        # Listed by legal_ids for the seat to act just now: decoded there, valid as it is. What
        # done and to_act note, written out for this path (a hand's rewards come at its end).
        actions = self.actions
        actions.append((seat, action.text))
        rewards = session.apply(action, seat, checked=True)
        if game.version - version == 2:  # the catch rule caught
            actions.append((game.next_seat(seat), f"catch {seat}"))
        if game.is_over:
            self.returns = [a + b for a, b in zip(self.returns, rewards, strict=True)]
            self.player = _TERMINAL
        elif session.decisions >= self.game.max_decisions:
            self.truncated = True
            self.player = _TERMINAL
        else:
            actor = session.actor
            self.player = _TERMINAL if actor is None else actor

    def to_act(self) -> None:
        """Note the sampled mode's player to act."""
        session = self.session
        assert session is not None
        actor = session.actor
        self.player = _TERMINAL if actor is None or self.truncated or session.game.is_over else actor

    def legal_ids(self) -> list[int]:
        """The sampled mode's legal ids of the seat to act, :attr:`player`, with no offer open
        (their engine actions kept for the game's version, for :meth:`step`)."""
        session = self.session
        assert session is not None
        game = session.game
        kept, version, _, by_id = self.legal
        if kept is not game or version != game.version:
            by_id = session.encoding.by_id(game.legal_actions(), self.player)
            self.legal = (game, game.version, self.player, by_id)
        return sorted(by_id)

    def done(self, actions: list[tuple[int, str]], rewards: list[float]) -> None:
        """Note a step's engine actions and rewards, and the truncation."""
        self.actions += actions
        if any(rewards):
            self.returns = [a + b for a, b in zip(self.returns, rewards, strict=True)]
        session = self.session
        assert session is not None
        if not session.game.is_over and session.decisions >= self.game.max_decisions:
            self.truncated = True


def _act(session: Session, action_id: int) -> tuple[list[tuple[int, str]], list[float]]:
    """Apply ``action_id`` to ``session``: the engine actions it took (with a catch the catch
    rule made) and the rewards."""
    before = session.game.version
    done = _engine_actions(session, action_id)
    rewards = session.act(action_id)
    if session.game.version - before == 2 and done:  # the catch rule caught
        catcher = session.game.next_seat(done[0][0])
        done.append((catcher, f"catch {done[0][0]}"))
    return done, rewards


def _clone_session(session: Session) -> Session:
    """An independent copy of ``session`` (its game cloned, its offers kept)."""
    other = copy.copy(session)
    game = session.game.clone()
    other.game = game
    other.views = [View(game, s) for s in range(session.players)]
    other.offers = list(session.offers)
    other.rng = copy.copy(session.rng)
    return other


@lru_cache(maxsize=16)
def _game(game_string: str) -> UnoGame:
    game: UnoGame = pyspiel.load_game(game_string)
    return game


def _table_from_record(game_string: str, text: str) -> _Table:
    game = _game(game_string)
    state = state_from_record(game, GameRecord.loads(text))
    table: _Table = state._t
    return table


class UnoState(pyspiel.State):  # type: ignore[misc]
    """A state of a hand of unokit: a chance node while a draw is wanted, else the seat to act."""

    def __init__(self, game: UnoGame, table: _Table) -> None:
        super().__init__(game)
        self._t = table

    # ------------------------------------------------------------------ the OpenSpiel API
    def current_player(self) -> int:
        t = self._t
        if t.deal is not None:
            return t.player
        if t.need is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        assert t.session is not None
        actor = t.session.actor
        assert actor is not None
        return actor

    def legal_actions(self, player: int | None = None) -> list[int]:
        """OpenSpiel's ``legal_actions`` (of the player to act, or of ``player``), answered here
        rather than through OpenSpiel's C++ wrapper, which costs about 20 us a call from Python;
        at a chance node the outcomes, as OpenSpiel gives them."""
        t = self._t
        if t.deal is not None and (player is None or player == t.player) and t.player >= 0:
            session = t.session
            assert session is not None
            if not session.offers:
                return t.legal_ids()
        if player is None:
            player = self.current_player()
        if player == pyspiel.PlayerId.CHANCE and self.is_chance_node():
            return [action for action, _ in self.chance_outcomes()]
        if player < 0:
            return []
        return self._legal_actions(player)

    def _legal_actions(self, player: int) -> list[int]:
        t = self._t
        if t.need is not None or self.is_terminal() or t.session is None or player != t.session.actor:
            return []
        session = t.session
        if session.offers:
            return sorted(session.offer_ids(player))
        if t.deal is not None:
            return t.legal_ids()
        return sorted(session.encoding.legal_ids(session.views[player]))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        need = self._t.need
        assert need is not None, "not a chance node"
        return need.outcomes()

    def _apply_action(self, action: int) -> None:
        t = self._t
        action = int(action)
        if t.deal is not None:  # the sampled mode: no chance node
            t.history.append(action)
            t.step(action)
            return
        if t.need is not None:
            if not 0 <= action < t.need.n:
                raise ValueError(f"chance outcome {action} is not one of 0 to {t.need.n - 1} ({t.need.label()})")
            t.history.append(action)
            t.draws.append(action)
            if t.ahead:  # the rest of a shuffle: the engine need not run again yet
                t.need = Request("below", t.need.n - 1)
                t.ahead -= 1
                return
        else:
            t.history.append(action)
            t.pending = action
            t.draws = []
        t.resolve()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        return str(self._t.game.encoding.action_labels[action])

    def is_chance_node(self) -> bool:
        """OpenSpiel's ``is_chance_node`` (``current_player()`` is the chance player), answered
        here rather than through the C++ wrapper, as :meth:`legal_actions` is."""
        t = self._t
        return t.deal is None and t.need is not None

    def is_terminal(self) -> bool:
        t = self._t
        if t.deal is not None:
            return t.player == _TERMINAL
        if t.need is not None or t.session is None:
            return False
        return t.truncated or t.session.game.is_over

    def returns(self) -> list[float]:
        return list(self._t.returns)

    def __str__(self) -> str:
        t = self._t
        out: dict[str, Any] = {"draws": len(t.history)}
        if t.session is not None:
            position = t.session.game.to_position()
            position.pop("seed", None)
            out["position"] = position
            out["offers"] = t.session.offers
        if t.need is not None:
            out["pending"] = t.pending
            out["chance"] = t.draws
        return json.dumps(out, sort_keys=True, separators=(",", ":"))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> UnoState:
        """A state the seat ``player_id`` cannot tell from this one: the other hands and the
        draw pile dealt anew from what the seat knows (:class:`unokit.core.determinise.Determiniser`),
        seeded by two draws of ``probability_sampler``. Only at the seat's own decision."""
        from ..core.determinise import Determiniser

        t = self._t
        if t.need is not None or t.session is None or self.is_terminal():
            raise ValueError("a state is resampled at a decision of a seat, not at a chance node or the end")
        seeds = [int(float(probability_sampler()) * (1 << 53)) for _ in range(2)]
        world = Determiniser(t.session.views[player_id]).game(seeds[0], seeds[1])
        # The seat's own memory of other hands (the determiniser dealt those cards to them).
        world.known = {
            holder: {player_id: list(viewers[player_id])}
            for holder, viewers in t.session.game.known.items()
            if viewers.get(player_id)
        }
        other: UnoState = self.clone()
        other._t.resampled = True
        session = other._t.session
        assert session is not None
        offers = list(session.offers)
        decisions = session.decisions
        session.load(world)
        session.offers = offers
        session.decisions = decisions
        if other._t.deal is not None:
            other._t.to_act()
        return other

    def serialize(self) -> str:
        """This state as a unokit record (JSON text); :meth:`UnoGame.deserialize_state` reads it."""
        return record_of(self._t).dumps()

    def to_record(self) -> GameRecord:
        """This state as a unokit record: the engine's actions with their seats; the OpenSpiel
        history (chance outcomes included) under ``meta.openspiel``."""
        return record_of(self._t)

    @property
    def game_state(self) -> Game | None:
        """The engine's game (``None`` before the deal is complete): do not change it."""
        session = self._t.session
        return None if session is None else session.game


def _engine_actions(session: Session, action_id: int) -> list[tuple[int, str]]:
    """The engine action (seat, text) that ``action_id`` takes now, or none for a ``pass``."""
    seat = session.actor
    assert seat is not None
    if session.offers:
        if action_id == session.encoding.pass_id:
            return []
        action = session.encoding.decode(action_id, session.game.side, seat)
        assert action is not None
        return [(seat, action.text)]
    return [(seat, session.decode(action_id, seat).text)]


class UnoObserver:
    """The seat's view: the environments' observation vector, and :func:`observe` as
    canonical JSON (at a chance node within a step, with the step being resolved)."""

    def __init__(self, game: UnoGame) -> None:
        self.encoding = game.encoding
        self.tensor = np.zeros(self.encoding.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: UnoState, player: int) -> None:
        session = state._t.session
        if session is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = session.observe(player)

    def string_from(self, state: UnoState, player: int) -> str:
        t = state._t
        if t.session is None:
            return f"dealing: {len(t.draws)} chance outcomes drawn"
        view = json.dumps(t.session.game.observe(player), sort_keys=True, separators=(",", ":"))
        if t.need is None:
            return view
        step = t.game.encoding.action_labels[t.pending]
        return f"{view}\nresolving: seat {t.session.actor} {step}; {len(t.draws)} chance outcomes drawn"


def record_of(t: _Table) -> GameRecord:
    """The unokit record of a state (see :meth:`UnoState.to_record`)."""
    if t.resampled:
        raise ValueError("a state resampled from an information state has no record of how it came about")
    game = t.game
    n = game.num_players()
    engine = t.session.game if t.session is not None else None
    options = engine.options.as_dict(engine.rules) if engine is not None else dict(game.options)
    meta: dict[str, Any] = {"game": str(game), "history": list(t.history)}
    if t.deal is not None:
        meta["deal"] = t.deal
    return GameRecord(
        variant=game.variant,
        players=n,
        options=options,
        seed=t.deal or 0,
        seats=[RecordSeat(f"player {s}", "bot", "openspiel") for s in range(n)],
        actions=list(t.actions),
        result=Result.of(engine) if engine is not None and t.need is None and engine.is_over else None,
        meta={"openspiel": meta},
    )


def state_from_record(game: UnoGame, record: GameRecord) -> UnoState:
    """Replay a record written by :meth:`UnoState.to_record` on ``game``; raise
    :class:`~unokit.record.format.RecordError` when it is not one of this game's or when its
    actions disagree with its OpenSpiel history."""
    meta = record.meta.get("openspiel")
    if not isinstance(meta, dict) or not isinstance(meta.get("history"), list):
        raise RecordError("this record has no OpenSpiel history ('meta.openspiel.history')")
    if meta.get("game") != str(game) or record.variant != game.variant or record.players != game.num_players():
        raise RecordError(f"this record is of {meta.get('game')!r}, not of {str(game)!r}")
    if game.sampled:
        deal = meta.get("deal")
        if isinstance(deal, bool) or not isinstance(deal, int):
            raise RecordError("this sampled-chance record has no deal seed ('meta.openspiel.deal')")
        state = game.dealt(deal)
    else:
        state = game.new_initial_state()
    for step, action in enumerate(meta["history"]):
        if isinstance(action, bool) or not isinstance(action, int):
            raise RecordError(f"OpenSpiel history entry {step} is not an action id: {action!r}")
        legal = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        if action not in legal:
            raise RecordError(f"OpenSpiel history entry {step} ({action}) is not legal there")
        state.apply_action(action)
    if state._t.actions != [tuple(a) for a in record.actions]:
        raise RecordError("the record's actions are not those of its OpenSpiel history")
    return state


def state_from_seed(game: UnoGame, seed: int, actions: Sequence[int] = ()) -> UnoState:
    """The OpenSpiel state of the unokit hand dealt with ``seed`` after the player actions
    ``actions`` (ids of the environments): the chance outcomes are the draws of the seeded
    generator (:class:`~unokit.openspiel.chance.RecordingRng`), so that the state's game is the
    game ``Game.new(variant, players, seed, rounds=1, ...)`` makes with the same actions."""
    if game.sampled:
        state = game.dealt(seed)
        for action in actions:
            state.apply_action(action)
        return state
    proto = game.session
    rng = RecordingRng(seed)
    engine, _ = deal(proto.game.rules, proto.game.options, game.num_players(), rng)
    mirror = copy.copy(proto)  # the unokit hand, drawing from the seeded generator
    mirror.load(engine)
    state = game.new_initial_state()
    for step in range(len(actions) + 1):
        if step:
            rng.outcomes.clear()
            state.apply_action(actions[step - 1])
            mirror.act(actions[step - 1])
        for outcome in rng.outcomes:
            state.apply_action(outcome)
        if state.is_chance_node():  # pragma: no cover - the recorded draws are those asked for
            raise AssertionError("the seeded draws did not complete the step")
    return state


def _game_class(variant: str) -> type[UnoGame]:
    """The class OpenSpiel builds ``variant``'s games with. A class, not a function: pyspiel keeps
    the factory until the interpreter has shut down, and drops it then without the interpreter's
    lock; a class lives in a reference cycle, so that last drop frees nothing."""

    def __init__(self: UnoGame, params: dict[str, Any] | None = None) -> None:
        UnoGame.__init__(self, variant, params)

    name = "".join(part.title() for part in variant.split("_")) + "Game"
    return type(name, (UnoGame,), {"__init__": __init__, "__module__": __name__})


def register() -> None:
    """Register every variant with OpenSpiel (again a no-op)."""
    registered = set(pyspiel.registered_names())
    for variant, name in GAME_NAMES.items():
        if name not in registered:
            pyspiel.register_game(game_type(variant), _game_class(variant))


__all__ = [
    "GAME_NAMES",
    "UnoGame",
    "UnoObserver",
    "UnoState",
    "parameters",
    "record_of",
    "register",
    "state_from_record",
    "state_from_seed",
]
