"""The rules engine's public face: :class:`Game` holds the whole state and applies actions.

A newcomer finds each part of the rules in its own module (each cites the rule ids of
``docs/rules``); :class:`Game` is assembled from them, one class per concern:

* the state, turn order and events ......... :mod:`unokit.core.state`
* the open decision, a typed value ......... :mod:`unokit.core.decisions`
* out-of-turn windows (the UNO catch) ...... :mod:`unokit.core.windows` (R-1.5, D-2, D-17)
* legal actions ............................ :mod:`unokit.core.legal` (R-1.4, R-1.9, R-2.2, R-2.3)
* drawing, pressing, reshuffling ........... :mod:`unokit.core.draws` (R-1.8, R-6)
* what each card does ...................... :mod:`unokit.core.kinds` (the card-kind table),
  built from :mod:`unokit.core.effects`
* setting up: cut, deal, first card ........ :mod:`unokit.core.setup` (R-1.2, R-1.3, R-2.4, ...)
* round end and scoring .................... :mod:`unokit.core.round_end` (R-1.6, R-1.7)
* reading actions as text .................. :mod:`unokit.core.notation`
* the variants, as data .................... :mod:`unokit.core.variants`

The fast path (``legal_actions`` then ``step`` or ``apply`` with a listed action) trusts
interned actions; text and foreign actions are validated and explained. A rejected action
changes nothing.
"""

from __future__ import annotations

import secrets
import weakref
from collections import deque
from typing import Any

from .actions import Action, ActionTable
from .colors import COLOR_NAMES
from .decisions import OVER, ChooseColor, ChooseDiscard, Decision, PlayOrKeep, Stack, Turn
from .decks import Deck
from .errors import ErrorCode, IllegalActionError, LauncherError, OptionError, quote
from .notation import Notation
from .rng import MASK64, Rng
from .round_end import RoundResult, game_winners
from .state import HAND_SIZE, Event, GameState
from .teams import team_members, team_totals
from .types import ActionKind, DecisionKind, Seat
from .variants import Options, VariantRules, check_table, get_rules, make_options, parse_variant_spec
from .windows import UnoCatch

#: The decision kinds, in the order of the documentation (``over`` last).
DECISION_NAMES: tuple[str, ...] = tuple(kind.value for kind in DecisionKind)

#: The action table of every deck some game still uses: equal decks share one table while it
#: lives, and a table goes with the last game (and clone) that holds it, so that decks made for
#: one game (``pairing="random"``, deck files) do not pile up in a long-running process.
_ACTION_TABLES: weakref.WeakValueDictionary[Deck, ActionTable] = weakref.WeakValueDictionary()
#: The tables used last, kept alive between games (a table costs about a millisecond to build).
_RECENT_TABLES: deque[ActionTable] = deque(maxlen=8)

_PLAY = ActionKind.PLAY
_DRAW = ActionKind.DRAW
_PRESS = ActionKind.PRESS
_PLAY_DRAWN = ActionKind.PLAY_DRAWN
_KEEP = ActionKind.KEEP
_CHALLENGE = ActionKind.CHALLENGE
_ACCEPT = ActionKind.ACCEPT
_COLOR = ActionKind.COLOR
_TRADE = ActionKind.TRADE
_PRESS_AGAIN = ActionKind.PRESS_AGAIN
_STOP = ActionKind.STOP
_DISCARD = ActionKind.DISCARD
_TARGET = ActionKind.TARGET


def _players_error(rules: VariantRules, message: str, given: str) -> OptionError:
    """A number of players the variant does not take (R-1.1), with its range for the reader."""
    return OptionError(
        message, ErrorCode.PLAYERS_RANGE, variant=rules.name, low=rules.min_players, high=rules.max_players, given=given
    )


def action_table(deck: Deck) -> ActionTable:
    """The shared :class:`ActionTable` of ``deck``: equal decks share one set of actions."""
    table = _ACTION_TABLES.get(deck)
    if table is None:
        table = _ACTION_TABLES[deck] = ActionTable(deck)
    if not any(kept is table for kept in _RECENT_TABLES):
        _RECENT_TABLES.append(table)
    return table


class Game(Notation):
    """A game of one UNO variant from the first deal to the final score.

    Create one with :func:`unokit.new_game` or :meth:`Game.from_position`. ``to_act`` is the
    seat that must decide now, ``decision`` what kind of decision it is (``open_decision`` the
    typed value with its facts), ``legal_actions()`` what that seat may do, and ``apply()`` does
    it and returns the events.
    """

    __slots__ = ()

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(
        cls, variant: str, players: int | None = None, seed: int | None = None, **options: object
    ) -> tuple[Game, list[Event]]:
        """Build a game, cut for the dealer and deal the first round; return it and its events."""
        if not isinstance(variant, str):
            raise OptionError(
                f"a variant is named by text such as 'classic', not {quote(variant)}",
                ErrorCode.UNKNOWN_VARIANT,
                given=quote(variant),
            )
        name, params = parse_variant_spec(variant)
        rules = get_rules(name)
        spec_players = params.pop("players", None)
        for key in params:
            if key in options:
                raise OptionError(
                    f"option {key!r} is given both in the variant string and as an argument",
                    ErrorCode.OPTION_TWICE,
                    given=quote(key),
                )
        merged: dict[str, object] = {**params, **options}
        if spec_players is not None:
            try:
                parsed = int(spec_players)
            except ValueError:
                raise OptionError(
                    f"players must be a whole number, not {quote(spec_players)}",
                    ErrorCode.PLAYERS_NOT_NUMBER,
                    given=quote(spec_players),
                ) from None
            if players is not None and players != parsed:
                raise OptionError(
                    f"players is {parsed} in the variant string but {quote(players)} as an argument",
                    ErrorCode.PLAYERS_DISAGREE,
                    number=parsed,
                    given=quote(players),
                )
            players = parsed
        if players is None:
            players = 4
        if isinstance(players, bool) or not isinstance(players, int):
            raise _players_error(rules, f"players must be a whole number, not {quote(players)}", quote(players))
        if not rules.min_players <= players <= rules.max_players:
            low, high = rules.min_players, rules.max_players
            raise _players_error(
                rules, f"{rules.title} is for {low} to {high} players, not {players} (R-1.1)", str(players)
            )
        opts = make_options(rules, merged)
        check_table(opts, players)
        if seed is None:
            seed = secrets.randbits(64)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(
                f"seed must be a whole number, not {quote(seed)}", ErrorCode.SEED_NOT_NUMBER, given=quote(seed)
            )
        seed &= MASK64
        return cls.set_up(rules, opts, players, seed, Rng(seed))

    @classmethod
    def set_up(
        cls, rules: VariantRules, options: Options, players: int, seed: int, rng: Rng
    ) -> tuple[Game, list[Event]]:
        """Build the deck, cut for the dealer and deal the first round, every random draw taken
        from ``rng`` (whose state was ``seed``, the seed the game records); ``options`` and
        ``players`` come checked (:meth:`new` checks them). Return the game and its events.
        :meth:`new` sets up with ``Rng(seed)``; a caller that must see each draw (the chance
        nodes of OpenSpiel) passes its own generator."""
        deck = rules.deck(options, rng)
        if deck.size <= players * HAND_SIZE:
            raise OptionError(
                f"a deck of {deck.size} cards cannot deal {HAND_SIZE} to each of {players} players",
                ErrorCode.DECK_TOO_SMALL,
                number=deck.size,
                players_count=players,
            )
        game = cls(rules, options, players, seed, deck, action_table(deck))
        game.rng = rng
        events: list[Event] = []
        game._ev = events
        game._cut_for_dealer()
        game._start_round()
        game._ev = None
        return game, events

    def clone(self) -> Game:
        """An independent deep copy (RNG and launcher included)."""
        other = object.__new__(Game)
        for name in GameState.__slots__:
            setattr(other, name, getattr(self, name))
        other.rng = Rng(self.rng.state)
        other.scores = list(self.scores)
        other.hands = [list(h) for h in self.hands]
        other.discard = list(self.discard)
        other.played = list(self.played)
        other.draw = list(self.draw)
        other.launcher = self.launcher.copy() if self.launcher else None
        other.known = {h: {v: list(c) for v, c in viewers.items()} for h, viewers in self.known.items()}
        other._winners = list(self._winners)
        other._legal = []
        other._legal_key = -1
        other._ev = None
        return other

    def _restore(self, snapshot: Game) -> None:
        for name in GameState.__slots__:
            setattr(self, name, getattr(snapshot, name))

    # ------------------------------------------------------------------ public properties
    @property
    def variant(self) -> str:
        """The variant's name (one of :data:`unokit.VARIANT_NAMES`)."""
        return self.rules.name

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.n

    @property
    def to_act(self) -> Seat | None:
        """The seat that must decide now; ``None`` once the game is over."""
        decision = self._decision
        return None if decision is OVER else decision.seat

    @property
    def decision(self) -> DecisionKind:
        """The kind of the open decision (``turn``, ``challenge``, ...; ``over`` at the end)."""
        return self._decision.kind

    @property
    def open_decision(self) -> Decision:
        """The open decision as a typed value with its facts (hidden ones too: do not show it
        to players; :meth:`Decision.public` gives what one seat may know)."""
        return self._decision

    @property
    def winners(self) -> list[Seat]:
        """The seats that won the game (several only on a shared win); empty while it runs."""
        return list(self._winners)

    @property
    def winner(self) -> Seat | None:
        """The seat that won the game alone; ``None`` while it runs or when the win is shared."""
        return self._winners[0] if len(self._winners) == 1 else None

    @property
    def teams(self) -> tuple[tuple[Seat, Seat], ...]:
        """The teams' seats by team number with ``teams=true`` (H-6), else empty."""
        return team_members(self.n) if self.options.teams else ()

    @property
    def team_scores(self) -> list[int]:
        """The teams' totals (the sums of their members' scores) with ``teams=true``, else empty."""
        return team_totals(self.scores) if self.options.teams else []

    @property
    def top_card(self) -> int:
        """Type id of the discard pile's top card."""
        return self.discard[-1]

    @property
    def uno_exposed(self) -> Seat:
        """The seat that may be caught for not declaring UNO now (it holds one card), or -1."""
        for window in self.windows:
            if isinstance(window, UnoCatch) and window.catchable(self):
                return window.seat
        return -1

    @property
    def round_ended(self) -> RoundResult | None:
        """The round that the last ``apply`` or ``step`` ended (also when it ended the game),
        else ``None``."""
        return self._ended

    def responders(self) -> list[Seat]:
        """The seats that may act out of turn now (open windows), in the order to ask them."""
        out: list[Seat] = []
        for window in self.windows:
            out += [s for s in window.responders(self) if s not in out]
        return out

    def pending(self) -> dict[str, Any]:
        """The open decision as a position stores it (includes hidden facts such as fairness)."""
        return self._decision.to_json(self)

    def observe(self, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` may know, as a JSON-serialisable dict (see :mod:`unokit.core.observation`);
        ``None`` gives a spectator's view: what every player sees, no hand."""
        from .observation import observe

        return observe(self, seat)

    def to_position(self) -> dict[str, Any]:
        """The full state as a position object (see :mod:`unokit.core.position`)."""
        from .position import to_position

        return to_position(self)

    @classmethod
    def from_position(cls, obj: dict[str, Any]) -> Game:
        """Rebuild a game from a position object; raise :class:`PositionError` when it is bad."""
        from .position import from_position

        return from_position(obj)

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: Seat | None = None) -> list[Action]:
        """What ``seat`` (default: the seat to act) may do now, in a deterministic order.

        For the seat to act: its decision's actions, then what it may do in an open window. For
        another seat only what the open windows allow it out of turn (``catch`` a player who
        did not declare UNO, or its own late ``uno``). Empty once the game is over.
        """
        decision = self._decision
        if seat is not None:
            self._check_seat(seat)  # True or 1.0 is no seat, though each equals 1
            if seat != decision.seat:
                return self._window_actions(seat) if self.windows else []
        if self._legal_key == self.version:
            return self._legal.copy()
        # The two commonest decisions' listings are called directly (what their actions() do).
        kind = type(decision)
        if kind is Turn:
            actions = self._turn_actions(decision.seat)
        elif kind is PlayOrKeep:
            actions = self._play_or_keep_actions(decision.seat, decision.card)  # type: ignore[attr-defined]
        else:
            actions = decision.actions(self)
        if self.windows:
            actions = actions + self._window_actions(decision.seat)  # a decision's list may be shared
        self._legal = actions
        self._legal_key = self.version
        return actions.copy()

    def _window_actions(self, seat: Seat) -> list[Action]:
        out: list[Action] = []
        for window in self.windows:
            out += window.actions(self, seat)
        return out

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: Action | str, seat: Seat | None = None) -> list[Event]:
        """Apply ``action`` for ``seat`` (default: the seat to act) and return the events.

        Raises :class:`InvalidActionError` for text that is not an action,
        :class:`IllegalActionError` (or :class:`AmbiguousActionError`) for an action the rules
        do not allow this seat now; the game is then unchanged.
        """
        decision = self._decision
        if seat is None and self._legal_key == self.version and action in self._legal:
            seat = decision.seat  # listed for the seat to act just now: valid as it is
        else:
            action, seat = self._validated(action, seat)
        events: list[Event] = []
        self._ev = events
        self._ended = None
        if self._atomic:
            snapshot = self.clone()
            try:
                self._do(action, seat)
            except LauncherError:
                self._restore(snapshot)
                raise
        elif self.windows:
            self._do(action, seat)
        else:
            # step's dispatch, written out again: calling step from here costs apply 3% more
            # instructions a decision (callgrind), and apply's speed is one of the engine's targets.
            kind = action.kind
            if kind is _PLAY:
                self._play(seat, action.card, action.color, action.uno)
            elif kind is _DRAW and type(decision) is Turn:
                self._turn_draw(seat)
            elif kind is _PLAY_DRAWN:
                self._play(seat, decision.card, action.color, action.uno)  # type: ignore[attr-defined]  # PlayOrKeep
            elif kind is _KEEP:
                self._keep(seat)
            else:
                self._do(action, seat)
        self._ev = None
        self.version += 1
        return events

    def _validated(self, action: Action | str, seat: Seat | None) -> tuple[Action, Seat]:
        """``action`` as an action of this game that ``seat`` (default: the seat to act) may take
        now, with that seat; raise as :meth:`apply` documents otherwise."""
        decision = self._decision
        if decision is OVER:
            raise IllegalActionError("the game is over", ErrorCode.GAME_OVER)
        if seat is None:
            seat = decision.seat
        else:
            self._check_seat(seat)
        if not isinstance(action, Action):
            action = self.parse_action(action, seat)
        legal = self.legal_actions(seat)
        if action not in legal:
            if not self.actions.owns(action):
                action = self.parse_action(action.text, seat)  # an action of another deck: by its text
            if action not in legal:
                raise self._explain(action, seat)
        return action, seat

    def step(self, action: Action) -> RoundResult | None:
        """Fast path for simulators: apply an action taken from ``legal_actions()`` of the seat
        to act, without validation or events. Anything else is undefined behaviour.

        Returns the :class:`RoundResult` of the round this action ended (``result.game_over``
        when it ended the game too), else ``None``."""
        self._ended = None
        decision = self._decision
        kind = action.kind
        # The commonest actions go straight to their handler (what _do would do for them).
        if self.windows:
            self._do(action, decision.seat)
        elif kind is _PLAY:
            self._play(decision.seat, action.card, action.color, action.uno)
        elif kind is _DRAW and type(decision) is Turn:
            self._turn_draw(decision.seat)
        elif kind is _PLAY_DRAWN:
            self._play(decision.seat, decision.card, action.color, action.uno)  # type: ignore[attr-defined]  # PlayOrKeep
        elif kind is _KEEP:
            self._keep(decision.seat)
        else:
            self._do(action, decision.seat)
        self.version += 1
        return self._ended

    def _keep(self, seat: Seat) -> None:
        """``seat`` keeps the card it drew and the turn passes (R-2.2)."""
        if self._ev is not None:
            self._ev.append({"type": "keep", "seat": seat})
        self._advance(seat)

    def _do(self, action: Action, seat: Seat) -> None:
        windows = self.windows
        if windows:
            for window in windows:
                if window.answers(action, seat, self):
                    window.respond(self, seat, action)
                    return
            self.windows = tuple(w for w in windows if not w.closed_by(self, seat))  # D-2, D-17
        kind = action.kind
        if kind is _PLAY:
            self._play(seat, action.card, action.color, action.uno)
        elif kind is _DRAW:
            if type(self._decision) is Stack:
                self._take_stack(seat)
            else:
                self._turn_draw(seat)
        elif kind is _PRESS:
            self._turn_press(seat)
        elif kind is _PLAY_DRAWN:
            self._play(seat, self._decision.card, action.color, action.uno)  # type: ignore[attr-defined]  # PlayOrKeep
        elif kind is _KEEP:
            self._keep(seat)
        elif kind is _CHALLENGE or kind is _ACCEPT:
            self._answer_wild_draw(seat, kind is _CHALLENGE)
        elif kind is _COLOR:
            decision = self._decision
            assert isinstance(decision, ChooseColor)
            self.color = action.color
            self._emit({"type": "color", "seat": seat, "color": COLOR_NAMES[action.color]})
            self._start_turn(decision.then)
        elif kind is _TRADE:
            self._trade(seat, action.seat)
        elif kind is _TARGET:
            self._target(seat, action.seat)
        elif kind is _PRESS_AGAIN:
            self._press_again(seat)
        elif kind is _STOP:
            self._emit({"type": "stop", "seat": seat})
            self._advance(seat)
        elif kind is _DISCARD:
            if type(self._decision) is ChooseDiscard:
                self._luck_discard(seat, action.card, action.uno)
            else:
                self._chosen_discard(seat, action.card, action.uno)
        else:  # pragma: no cover - the legal lists hold no other kind
            raise AssertionError(kind)


__all__ = ["DECISION_NAMES", "Event", "Game", "RoundResult", "action_table", "game_winners"]
