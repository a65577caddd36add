"""The rules engine: one :class:`Game` holds the whole state and applies actions.

Reading guide (each section cites the rule ids of ``docs/rules``):

* setting up: dealer cut, deal, first card ........ ``_cut_for_dealer``, ``_start_round``,
  ``_turn_up_first_card`` (R-1.2, R-1.3, R-2.4, R-3.8, R-4.4, R-5.2)
* legal actions .................................... ``legal_actions`` and ``_turn_actions``
  (R-1.4, R-1.9, R-2.2, R-2.3)
* drawing, pressing, reshuffling ................... ``_draw``, ``_press`` (R-1.8, R-6)
* card effects ..................................... ``_play``, ``_effect``, ``_go_out``
  (R-2.3, R-3.4 to R-3.7, R-4.3, R-5.4 to R-5.7)
* UNO call and catching ............................ ``_catch`` and the window in ``_do``
  (R-1.5, decision D-2)
* round end and scoring ............................ ``_end_round`` (R-1.6, R-1.7)

The fast path (``legal_actions`` then ``apply`` with a listed action) trusts interned actions;
text and foreign actions are validated and explained. A rejected action changes nothing.
"""

from __future__ import annotations

import secrets
from typing import Any

from . import cards as C
from .actions import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    COLOR,
    DISCARD,
    DRAW,
    KEEP,
    PLAIN,
    PLAY,
    PLAY_DRAWN,
    PRESS,
    PRESS_AGAIN,
    STOP,
    TRADE,
    UNO,
    WILD_ANY,
    Action,
    ActionTable,
    parse_syntax,
)
from .decks import Deck, random_deck, standard_deck
from .errors import (
    AmbiguousActionError,
    IllegalActionError,
    InvalidActionError,
    LauncherError,
    OptionError,
)
from .launcher import Launcher, make_launcher
from .rng import MASK64, Rng
from .variants import Options, VariantRules, get_rules, make_options, parse_variant_spec

HAND_SIZE = 7
UNO_PENALTY = 2  # cards drawn, or launcher presses

# Decision kinds: who must act and what kind of choice it is.
D_TURN = 0
D_PLAY_OR_KEEP = 1
D_CHALLENGE = 2
D_CHOOSE_COLOR = 3
D_CHOOSE_PLAYER = 4
D_PRESS_YOUR_LUCK = 5
D_CHOOSE_DISCARD = 6
D_STACK = 7
D_OVER = 8
DECISION_NAMES = (
    "turn",
    "play_or_keep",
    "challenge",
    "choose_color",
    "choose_player",
    "press_your_luck",
    "choose_discard",
    "stack",
    "over",
)
DECISION_BY_NAME = {name: i for i, name in enumerate(DECISION_NAMES)}

_ACTION_TABLES: dict[Deck, ActionTable] = {}


def action_table(deck: Deck) -> ActionTable:
    """The shared :class:`ActionTable` of ``deck``: equal decks share one set of actions."""
    table = _ACTION_TABLES.get(deck)
    if table is None:
        table = _ACTION_TABLES[deck] = ActionTable(deck)
    return table


Event = dict[str, Any]


class Game:
    """A game of one UNO variant from the first deal to the final score.

    Create one with :func:`unokit.new_game` or :meth:`Game.from_position`. ``to_act`` is the
    seat that must decide now, ``decision`` what kind of decision it is, ``legal_actions()``
    what that seat may do, and ``apply()`` does it and returns the events.
    """

    __slots__ = (
        "_data",
        "_decision",
        "_ev",
        "_legal",
        "_legal_key",
        "_seat",
        "_winners",
        "actions",
        "color",
        "dealer",
        "deck",
        "direction",
        "discard",
        "draw",
        "hands",
        "launcher",
        "n",
        "options",
        "passes",
        "rng",
        "round_number",
        "rules",
        "scores",
        "seed",
        "side",
        "stack_total",
        "turn",
        "uno_exposed",
        "version",
    )

    # ------------------------------------------------------------------ construction
    def __init__(self, rules: VariantRules, options: Options, players: int, seed: int, deck: Deck) -> None:
        """Low-level constructor: an empty table. Use :func:`unokit.new_game`."""
        self.rules = rules
        self.options = options
        self.n = players
        self.seed = seed
        self.rng = Rng(seed)
        self.deck = deck
        self.actions = action_table(deck)
        self.launcher: Launcher | None = (
            make_launcher(options.launcher, options.launcher_script) if rules.uses_launcher else None
        )
        self.dealer = 0
        self.round_number = 0
        self.scores = [0] * players
        self.side = 0
        self.direction = 1
        self.turn = 0
        self.color = C.NO_COLOR
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.discard: list[int] = []  # bottom first; the top card is discard[-1]
        self.draw: list[int] = []  # draw pile or launcher stack; the top card is draw[-1]
        self.uno_exposed = -1
        self.stack_total = 0
        self.passes = 0
        self.version = 0
        self._decision = D_TURN
        self._seat = 0
        self._data: Any = None
        self._winners: list[int] = []
        self._ev: list[Event] | None = None
        self._legal: list[Action] = []  # legal actions of the seat to act ...
        self._legal_key = -1  # ... valid while this equals ``version``

    @classmethod
    def new(
        cls, variant: str, players: int | None = None, seed: int | None = None, **options: object
    ) -> tuple[Game, list[Event]]:
        """Build a game, cut for the dealer and deal the first round; return it and its events."""
        name, params = parse_variant_spec(variant)
        rules = get_rules(name)
        spec_players = params.pop("players", None)
        for key in params:
            if key in options:
                raise OptionError(f"option {key!r} is given both in the variant string and as an argument")
        merged: dict[str, object] = {**params, **options}
        if spec_players is not None:
            try:
                parsed = int(spec_players)
            except ValueError:
                raise OptionError(f"players must be a whole number, not {spec_players!r}") from None
            if players is not None and players != parsed:
                raise OptionError(f"players is {parsed} in the variant string but {players} as an argument")
            players = parsed
        if players is None:
            players = 4
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(f"players must be a whole number, not {players!r}")
        if not rules.min_players <= players <= rules.max_players:
            raise OptionError(
                f"{rules.title} is for {rules.min_players} to {rules.max_players} players, not {players} (R-1.1)"
            )
        opts = make_options(rules, merged)
        if seed is None:
            seed = secrets.randbits(64)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(f"seed must be a whole number, not {seed!r}")
        seed &= MASK64
        rng = Rng(seed)
        deck = (
            random_deck(rules.name, rng)
            if opts.pairing == "random" and rules.double_sided
            else standard_deck(rules.name)
        )
        game = cls(rules, opts, players, seed, deck)
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
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        other.rng = Rng(self.rng.state)
        other.scores = list(self.scores)
        other.hands = [list(h) for h in self.hands]
        other.discard = list(self.discard)
        other.draw = list(self.draw)
        other.launcher = self.launcher.copy() if self.launcher else None
        other._data = _copy_data(self._data)
        other._winners = list(self._winners)
        other._legal = []
        other._legal_key = -1
        other._ev = None
        return other

    def _restore(self, snapshot: Game) -> None:
        for name in Game.__slots__:
            setattr(self, name, getattr(snapshot, name))

    # ------------------------------------------------------------------ public properties
    @property
    def variant(self) -> str:
        """The variant's name: ``classic``, ``flip``, ``attack`` or ``flip_attack``."""
        return self.rules.name

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.n

    @property
    def to_act(self) -> int | None:
        """The seat that must decide now; ``None`` once the game is over."""
        return None if self._decision == D_OVER else self._seat

    @property
    def decision(self) -> str:
        """The kind of the open decision (``turn``, ``challenge``, ...; ``over`` at the end)."""
        return DECISION_NAMES[self._decision]

    @property
    def is_over(self) -> bool:
        """True once a player has won the game."""
        return self._decision == D_OVER

    @property
    def winners(self) -> list[int]:
        """The seats that won the game (several only on a shared win); empty while it runs."""
        return list(self._winners)

    @property
    def winner(self) -> int | None:
        """The seat that won the game alone; ``None`` while it runs or when the win is shared."""
        return self._winners[0] if len(self._winners) == 1 else None

    @property
    def side_name(self) -> str:
        """``light``/``dark`` (``mild``/``wild`` in Flip Attack)."""
        return self.rules.side_names[self.side]

    @property
    def top_card(self) -> int:
        """Type id of the discard pile's top card."""
        return self.discard[-1]

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` in the current direction."""
        return (seat + self.direction * steps) % self.n

    def card_text(self, card: int) -> str:
        """Full text of a card type (``red 5/pink 2`` on double-sided decks)."""
        return self.deck.text[card]

    def face_text(self, card: int, side: int | None = None) -> str:
        """Text of one face of a card, the active face by default."""
        return self.deck.face_texts[self.side if side is None else side][card]

    def pending(self) -> dict[str, Any]:
        """The open decision as a position stores it (includes hidden facts such as fairness)."""
        from .position import pending_to_json

        return pending_to_json(self)

    def observe(self, seat: int | None) -> dict[str, Any]:
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

    # ------------------------------------------------------------------ events
    def _emit(self, event: Event) -> None:
        ev = self._ev
        if ev is not None:
            ev.append(event)

    def _cards_event(self, kind: str, seat: int, cards: list[int], reason: str = "deal") -> Event | None:
        """Emit an event whose ``cards`` are private to ``seat`` (others see the count and, on
        double-sided decks, the backs); return it for extra fields, or None when not recording."""
        ev = self._ev
        if ev is None:
            return None
        text = self.deck.text
        event: Event = {
            "type": kind,
            "seat": seat,
            "count": len(cards),
            "reason": reason,
            "cards": [text[t] for t in cards],
            "private": [seat],
        }
        if self.rules.double_sided:
            back = self.deck.face_texts[1 - self.side]
            event["backs"] = [back[t] for t in cards]
        ev.append(event)
        return event

    # ------------------------------------------------------------------ set-up
    def _cut_for_dealer(self) -> None:
        """Each player cuts one card; highest number on the first side deals; ties cut again."""
        kinds = self.deck.kind[0]
        candidates = list(range(self.n))
        while True:
            pile = self.deck.cards()
            self.rng.shuffle(pile)
            cut = {seat: pile.pop() for seat in candidates}
            values = {seat: (kinds[t] if kinds[t] < 10 else 0) for seat, t in cut.items()}
            self._emit(
                {
                    "type": "cut",
                    "cards": {str(s): self.deck.face_texts[0][t] for s, t in cut.items()},
                }
            )
            best = max(values.values())
            candidates = [seat for seat in candidates if values[seat] == best]
            if len(candidates) == 1:
                self.dealer = candidates[0]
                self._emit({"type": "dealer", "seat": self.dealer})
                return

    def _start_round(self) -> None:
        """Shuffle every card, deal seven each from the dealer's left, turn up the first card."""
        self.round_number += 1
        self.side = 0
        self.direction = 1
        self.stack_total = 0
        self.uno_exposed = -1
        self.passes = 0
        self.color = C.NO_COLOR
        pile = self.deck.cards()
        self.rng.shuffle(pile)
        hands: list[list[int]] = [[] for _ in range(self.n)]
        for _ in range(HAND_SIZE):
            for k in range(1, self.n + 1):
                hands[(self.dealer + k) % self.n].append(pile.pop())
        self.hands = hands
        self.draw = pile
        self.discard = []
        if self.launcher is not None:
            self.launcher.restart()
        self._emit({"type": "round_start", "round": self.round_number, "dealer": self.dealer})
        for seat in range(self.n):
            self._cards_event("deal", seat, hands[seat])
        self._turn_up_first_card()

    def _turn_up_first_card(self) -> None:
        """Start the discard pile and apply the first card's effect (R-2.4, R-3.8, R-4.4, R-5.2)."""
        name = self.rules.name
        kinds = self.deck.kind[0]
        first = (self.dealer + 1) % self.n
        sent_back = {
            "classic": C.WILD_DRAW_FOUR,
            "flip": C.WILD_DRAW_TWO,
            "attack": C.TRADE_HANDS,
        }.get(name)
        while True:
            t = self.draw.pop()
            k = kinds[t]
            if k == sent_back:
                self.draw.append(t)
                self.rng.shuffle(self.draw)
                self._emit({"type": "first_card_returned", "card": self.deck.face_texts[0][t]})
                continue
            self.discard.append(t)
            if name == "flip_attack" and k >= 10:
                self._emit({"type": "first_card_ignored", "card": self.deck.face_texts[0][t]})
                continue
            break
        self._emit({"type": "first_card", "card": self.deck.face_texts[0][t]})
        self.color = self.deck.color[0][t]
        if k < 10 or k == C.DISCARD_ALL:
            self._start_turn(first)
        elif k == C.SKIP:
            self._emit({"type": "skip", "seat": first})
            self._start_turn(self.next_seat(first))
        elif k == C.REVERSE:
            self.direction = -1
            self._emit({"type": "reverse", "direction": "counterclockwise"})
            self._start_turn(self.dealer)
        elif k in (C.DRAW_TWO, C.DRAW_ONE):
            self._draw(first, C.DRAW_AMOUNTS[k], "first_card")
            self._start_turn(self.next_seat(first))
        elif k == C.WILD:
            self._choose_color(first, first)
        elif k == C.FLIP:
            self._flip()
            top = self.discard[-1]
            if C.is_wild(self.deck.kind[1][top]):
                self._choose_color(first, first)
            else:
                self.color = self.deck.color[1][top]
                self._start_turn(first)
        elif k == C.HIT_2:
            self._penalty(first, 2, "first_card")
            self._start_turn(self.next_seat(first))
        elif k == C.WILD_ALL_HIT:
            seat = first
            while seat != self.dealer:
                self._press(seat, "first_card")
                seat = self.next_seat(seat)
            self._choose_color(first, first)
        elif k == C.WILD_HIT_FIRE:
            self._press_until_fire(first, "first_card")
            second = self.next_seat(first)
            self._choose_color(second, second)
        else:  # pragma: no cover - every first-card kind of every deck is handled above
            raise AssertionError(f"unhandled first card {k}")

    # ------------------------------------------------------------------ decisions
    def _start_turn(self, seat: int) -> None:
        self.turn = seat
        self._decision = D_STACK if self.stack_total else D_TURN
        self._seat = seat
        self._data = None

    def _advance(self, seat: int, steps: int = 1) -> None:
        self._start_turn((seat + self.direction * steps) % self.n)

    def _choose_color(self, chooser: int, then: int) -> None:
        """Open a colour choice for ``chooser``; afterwards ``then`` takes a turn."""
        self.color = C.NO_COLOR
        self._decision = D_CHOOSE_COLOR
        self._seat = chooser
        self.turn = chooser
        self._data = then

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """What ``seat`` (default: the seat to act) may do now, in a deterministic order.

        For a seat that is not to act this lists only what it may do out of turn: ``catch``
        a player who did not declare UNO, or its own late ``uno``. Empty once the game is over.
        """
        if seat is not None and seat != self._seat:
            self._check_seat(seat)
            return [] if self._decision == D_OVER else self._out_of_turn(seat)
        if self._legal_key == self.version:
            return self._legal.copy()
        seat = self._seat
        decision = self._decision
        if decision == D_TURN:
            actions = self._turn_actions(seat)
        elif decision == D_OVER:
            actions = []
        elif decision == D_PLAY_OR_KEEP:
            actions = self._play_or_keep_actions(seat)
        elif decision == D_CHALLENGE:
            simple = self.actions.simple
            actions = [simple[CHALLENGE], simple[ACCEPT]]
        elif decision == D_CHOOSE_COLOR:
            actions = [self.actions.color[c] for c in C.SIDE_COLORS[self.side]]
        elif decision == D_CHOOSE_PLAYER:
            actions = [self.actions.trade[s] for s in range(self.n) if s != seat]
        elif decision == D_PRESS_YOUR_LUCK:
            simple = self.actions.simple
            actions = [simple[PRESS_AGAIN], simple[STOP]]
        elif decision == D_CHOOSE_DISCARD:
            hand = self.hands[seat]
            table = self.actions
            uno = len(hand) == 2
            actions = []
            for t in sorted(set(hand)):
                actions.append(table.discard[t])
                if uno:
                    actions.append(table.discard_uno[t])
        else:  # D_STACK
            actions = self._stack_actions(seat)
        if self.uno_exposed >= 0:
            actions += self._out_of_turn(seat)
        self._legal = actions
        self._legal_key = self.version
        return actions.copy()

    def _out_of_turn(self, seat: int) -> list[Action]:
        exposed = self.uno_exposed
        if exposed < 0 or len(self.hands[exposed]) != 1:
            return []
        if seat == exposed:
            return [self.actions.simple[UNO]]
        return [self.actions.catch[exposed]]

    def _fair_wild_draw(self, seat: int, color: int, excluded: int = 1) -> bool:
        """A Wild Draw card is fair when the player holds no card of ``color`` (R-2.3, R-3.5);
        with ``wild_counts_as_color_match`` other wilds count as that colour too.
        ``excluded`` is how many wild cards of the hand are the played card itself."""
        colors = self.deck.color[self.side]
        hand = self.hands[seat]
        if self.options.wild_counts_as_color_match:
            wilds = sum(1 for t in hand if colors[t] == C.NO_COLOR)
            if wilds > excluded:
                return False
        return all(colors[t] != color for t in hand)

    def _playable(self, seat: int, t: int, cards_after: int) -> bool:
        """Whether type ``t`` may be played now by ``seat`` (R-1.4 and the card's own limits)."""
        side = self.side
        k = self.deck.kind[side][t]
        if k >= C.WILD:
            if not self.options.bluffing and k in C.CHALLENGEABLE_KINDS:
                return self._fair_wild_draw(seat, self.color)
            return True
        if k == C.TRADE_HANDS and cards_after == 0:
            return False  # a player may not go out on Trade Hands
        return self.deck.color[side][t] == self.color or k == self.deck.kind[side][self.discard[-1]]

    def _turn_actions(self, seat: int) -> list[Action]:
        side = self.side
        table = self.actions
        match, playable = table.match(side, self.color, self.deck.kind[side][self.discard[-1]], self.options.bluffing)
        hand = self.hands[seat]
        after = len(hand) - 1
        out: list[Action] = []
        for t in sorted(playable.intersection(hand)):
            how = match[t]
            if how == PLAIN:
                out.append(table.play[t])
                if after == 1:
                    out.append(table.play_uno[t])
            elif how == WILD_ANY:
                out += table.wild_plays_uno[side][t] if after == 1 else table.wild_plays[side][t]
            elif how:
                self._special_plays(seat, t, out)
        out.append(table.simple[PRESS if self.launcher is not None else DRAW])
        return out

    def _special_plays(self, seat: int, t: int, out: list[Action]) -> None:
        """Plays whose legality or UNO call depends on the rest of the hand."""
        side = self.side
        colors = self.deck.color[side]
        k = self.deck.kind[side][t]
        hand = self.hands[seat]
        table = self.actions
        after = len(hand) - 1
        if k == C.WILD_DISCARD_ALL:
            for c in C.SIDE_COLORS[side]:
                out.append(table.play_color[t][c])
                if after - sum(1 for x in hand if colors[x] == c) == 1:
                    out.append(table.play_color_uno[t][c])
        elif k in C.CHALLENGEABLE_KINDS:  # only reached with bluffing off
            if self._fair_wild_draw(seat, self.color):
                out += table.wild_plays_uno[side][t] if after == 1 else table.wild_plays[side][t]
        elif k == C.DISCARD_ALL:
            left = after - (sum(1 for x in hand if colors[x] == colors[t]) - 1)
            out.append(table.play[t])
            if left == 1:
                out.append(table.play_uno[t])
        elif k == C.TRADE_HANDS and after > 0:
            out.append(table.play[t])
            if after == 1:
                out.append(table.play_uno[t])

    def _play_or_keep_actions(self, seat: int) -> list[Action]:
        table = self.actions
        t: int = self._data
        uno = len(self.hands[seat]) == 2
        if C.is_wild(self.deck.kind[self.side][t]):
            out: list[Action] = []
            for c in C.SIDE_COLORS[self.side]:
                out.append(table.drawn_color[c])
                if uno:
                    out.append(table.drawn_color_uno[c])
        else:
            out = [table.drawn, table.drawn_uno] if uno else [table.drawn]
        out.append(table.simple[KEEP])
        return out

    def _stack_actions(self, seat: int) -> list[Action]:
        kinds = self.deck.kind[self.side]
        top_kind = kinds[self.discard[-1]]
        hand = self.hands[seat]
        table = self.actions
        out: list[Action] = []
        for t in sorted(set(hand)):
            if kinds[t] == top_kind:
                out.append(table.play[t])
                if len(hand) == 2:
                    out.append(table.play_uno[t])
        out.append(table.simple[DRAW])
        return out

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: Action | str, seat: int | None = None) -> list[Event]:
        """Apply ``action`` for ``seat`` (default: the seat to act) and return the events.

        Raises :class:`InvalidActionError` for text that is not an action,
        :class:`IllegalActionError` (or :class:`AmbiguousActionError`) for an action the rules
        do not allow this seat now; the game is then unchanged.
        """
        if self._decision == D_OVER:
            raise IllegalActionError("the game is over")
        if seat is None:
            seat = self._seat
        else:
            self._check_seat(seat)
        if not isinstance(action, Action):
            action = self.parse_action(action, seat)
        cached = seat == self._seat and self._legal_key == self.version
        legal = self._legal if cached else self.legal_actions(seat)
        if action not in legal:
            if not self.actions.owns(action):
                action = self.parse_action(action.text, seat)  # an action of another deck: by its text
            if action not in legal:
                raise IllegalActionError(self._explain(action, seat))
        events: list[Event] = []
        self._ev = events
        if self.launcher is not None and self.launcher.can_fail:
            snapshot = self.clone()
            try:
                self._do(action, seat)
            except LauncherError:
                self._restore(snapshot)
                raise
        else:
            self._do(action, seat)
        self._ev = None
        self.version += 1
        return events

    def _check_seat(self, seat: object) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalActionError(f"there is no seat {seat!r}; seats are 0 to {self.n - 1}")

    def step(self, action: Action) -> None:
        """Fast path for simulators: apply an action taken from ``legal_actions()`` of the seat
        to act, without validation or events. Anything else is undefined behaviour."""
        self._do(action, self._seat)
        self.version += 1

    def _do(self, action: Action, seat: int) -> None:
        kind = action.kind
        if kind == CATCH:
            self._catch(seat, action.seat)
            return
        if kind == UNO:
            self.uno_exposed = -1
            self._emit({"type": "uno", "seat": seat, "late": True})
            return
        exposed = self.uno_exposed
        if exposed >= 0 and (seat != exposed or self._decision == D_TURN):
            self.uno_exposed = -1  # the catch window closes (D-2)
        if kind == PLAY:
            self._play(seat, action.card, action.color, action.uno)
        elif kind == DRAW:
            if self._decision == D_STACK:
                self._take_stack(seat)
            else:
                self._turn_draw(seat)
        elif kind == PRESS:
            self._turn_press(seat)
        elif kind == PLAY_DRAWN:
            card: int = self._data
            self._play(seat, card, action.color, action.uno)
        elif kind == KEEP:
            self._emit({"type": "keep", "seat": seat})
            self._advance(seat)
        elif kind in (CHALLENGE, ACCEPT):
            self._answer_wild_draw(seat, kind == CHALLENGE)
        elif kind == COLOR:
            self.color = action.color
            self._emit({"type": "color", "seat": seat, "color": C.COLOR_NAMES[action.color]})
            self._start_turn(self._data)
        elif kind == TRADE:
            self._trade(seat, action.seat)
        elif kind == PRESS_AGAIN:
            self._press_your_luck(seat)
        elif kind == STOP:
            self._emit({"type": "stop", "seat": seat})
            self._advance(seat)
        elif kind == DISCARD:
            self._luck_discard(seat, action.card, action.uno)
        else:  # pragma: no cover - the legal lists hold no other kind
            raise AssertionError(kind)

    # ------------------------------------------------------------------ drawing
    def _refill(self) -> bool:
        """Shuffle the discard pile but its top into the draw pile (or reload the launcher)."""
        if len(self.discard) <= 1:
            return False
        top = self.discard.pop()
        pile = self.discard
        self.rng.shuffle(pile)
        self.draw = pile + self.draw
        self.discard = [top]
        if self.launcher is not None:
            self.launcher.restart()
            self._emit({"type": "reload", "count": len(pile)})
        else:
            self._emit({"type": "reshuffle", "count": len(pile)})
        return True

    def _draw(self, seat: int, count: int, reason: str) -> list[int]:
        """``seat`` draws ``count`` cards from the draw pile (fewer if none are left at all)."""
        drawn: list[int] = []
        draw = self.draw
        for _ in range(count):
            if not draw:
                if not self._refill():
                    self._emit({"type": "draw_failed", "seat": seat, "reason": reason})
                    break
                draw = self.draw
            drawn.append(draw.pop())
        self.hands[seat].extend(drawn)
        self._cards_event("draw", seat, drawn, reason)
        return drawn

    def _draw_until_color(self, seat: int, color: int, reason: str, extra: int = 0) -> None:
        """Draw until a card whose active face has ``color`` (wilds do not count; R-3.6)."""
        colors = self.deck.color[self.side]
        drawn: list[int] = []
        while True:
            if not self.draw and not self._refill():
                self._emit({"type": "draw_failed", "seat": seat, "reason": reason})
                break
            t = self.draw.pop()
            drawn.append(t)
            if colors[t] == color:
                break
        self.hands[seat].extend(drawn)
        self._cards_event("draw", seat, drawn, reason)
        if extra:
            self._draw(seat, extra, reason)

    def _press(self, seat: int, reason: str, receiver: int | None = None) -> list[int]:
        """``seat`` presses the launcher once; ejected cards go to ``receiver`` (default ``seat``)."""
        launcher = self.launcher
        assert launcher is not None
        if not self.draw and not self._refill():
            self._emit({"type": "press", "seat": seat, "fired": False, "empty": True, "reason": reason})
            return []
        fired = launcher.press(self.rng)
        ejected: list[int] = []
        draw = self.draw
        for _ in range(min(fired, len(draw))):
            ejected.append(draw.pop())
        target = seat if receiver is None else receiver
        self.hands[target].extend(ejected)
        event = self._cards_event("press", target, ejected, reason)
        if event is not None:
            event["fired"] = fired > 0
            event["presser"] = seat
        return ejected

    def _press_until_fire(self, seat: int, reason: str) -> None:
        """Press until the launcher ejects cards (or no card is left anywhere)."""
        while not self._press(seat, reason):
            if not self.draw and len(self.discard) <= 1:
                break

    def _penalty(self, seat: int, count: int, reason: str) -> None:
        """Draw ``count`` cards, or press the launcher ``count`` times (R-4.1)."""
        if self.launcher is None:
            self._draw(seat, count, reason)
        else:
            for _ in range(count):
                self._press(seat, reason)

    def _nothing_to_draw(self) -> bool:
        return not self.draw and len(self.discard) <= 1

    def _turn_draw(self, seat: int) -> None:
        """Draw one card; it may be played at once if playable (R-2.2, R-3.3)."""
        if self._nothing_to_draw():
            self._pass_with_nothing(seat)
            return
        self.passes = 0
        drawn = self._draw(seat, 1, "turn")
        t = drawn[0]
        if self._playable(seat, t, len(self.hands[seat]) - 1):
            self._decision = D_PLAY_OR_KEEP
            self._data = t
        else:
            self._advance(seat)

    def _take_stack(self, seat: int) -> None:
        """Decline to answer a stack: draw the whole total and lose the turn (R-1.9)."""
        total = self.stack_total
        self.stack_total = 0
        self._draw(seat, total, "stack")
        self._advance(seat)

    def _turn_press(self, seat: int) -> None:
        """Press the launcher; the turn ends whatever comes out (R-4.1)."""
        if self._nothing_to_draw():
            self._pass_with_nothing(seat)
            return
        self.passes = 0
        self._press(seat, "turn")
        self._advance(seat)

    def _pass_with_nothing(self, seat: int) -> None:
        """No card is left to draw at all: the draw does not happen (R-1.8); a full circuit of
        such passes ends the round as blocked (D-4)."""
        self._emit({"type": "draw_failed", "seat": seat, "reason": "turn"})
        self.passes += 1
        if self.passes >= self.n:
            side = self.side
            values = [self._hand_value(h, side) for h in self.hands]
            order = [self.next_seat(seat, k) for k in range(1, self.n + 1)]
            winner = min(order, key=lambda s: values[s])
            self._emit({"type": "blocked", "winner": winner})
            self._end_round(winner)
        else:
            self._advance(seat)

    # ------------------------------------------------------------------ playing a card
    def _play(self, seat: int, t: int, chosen: int, uno: bool) -> None:
        """Move card ``t`` from ``seat``'s hand to the pile and apply its effect."""
        deck = self.deck
        side = self.side
        k = deck.kind[side][t]
        hand = self.hands[seat]
        prev_color = self.color
        hand.remove(t)
        discarded: list[int] = []
        if k == C.DISCARD_ALL or k == C.WILD_DISCARD_ALL:
            # Discard every card of the colour first; the Discard All goes on top.
            target_color = deck.color[side][t] if k == C.DISCARD_ALL else chosen
            colors = deck.color[side]
            discarded = [x for x in sorted(hand) if colors[x] == target_color]
            for x in discarded:
                hand.remove(x)
            self.discard.extend(discarded)
        self.discard.append(t)
        self.passes = 0
        if self._ev is not None:
            event: Event = {"type": "play", "seat": seat, "card": deck.text[t], "uno": uno}
            if chosen != C.NO_COLOR:
                event["color"] = C.COLOR_NAMES[chosen]
            if discarded:
                event["discarded"] = [deck.text[x] for x in discarded]
            self._ev.append(event)
        if k >= C.WILD:
            self.color = C.NO_COLOR if k == C.WILD_DISCARD_ALL else chosen
        else:
            self.color = deck.color[side][t]
        if len(hand) == 1 and not uno:
            self.uno_exposed = seat  # catchable until the window closes (R-1.5, D-2)
        if not hand:
            self._go_out(seat, k, chosen)
            return
        self._effect(seat, k, chosen, prev_color)

    def _effect(self, seat: int, k: int, chosen: int, prev_color: int) -> None:
        """Apply the effect of a card of kind ``k`` just played by ``seat`` (hand not empty)."""
        if k < 10 or k == C.WILD or k == C.DISCARD_ALL:
            self._advance(seat)
        elif k == C.SKIP:
            skipped = self.next_seat(seat)
            self._emit({"type": "skip", "seat": skipped})
            self._advance(seat, 2)
        elif k == C.REVERSE:
            self.direction = -self.direction
            self._emit(
                {
                    "type": "reverse",
                    "direction": "clockwise" if self.direction == 1 else "counterclockwise",
                }
            )
            if self.n == 2:
                self._start_turn(seat)  # with two players a Reverse acts as a Skip
            else:
                self._advance(seat)
        elif k in C.DRAW_AMOUNTS:
            amount = C.DRAW_AMOUNTS[k]
            if self.options.stacking:
                self.stack_total += amount
                self._advance(seat)
            else:
                victim = self.next_seat(seat)
                self._draw(victim, amount, C.KIND_NAMES[k])
                self._advance(seat, 2)
        elif k == C.SKIP_EVERYONE:
            self._emit({"type": "skip_everyone", "seat": seat})
            self._start_turn(seat)
        elif k == C.FLIP:
            self._flip()
            self._after_flip(seat)
        elif k in C.CHALLENGEABLE_KINDS:
            victim = self.next_seat(seat)
            if self.options.bluffing:
                fair = self._fair_wild_draw(seat, prev_color, excluded=0)
                self.turn = victim
                self._decision = D_CHALLENGE
                self._seat = victim
                self._data = (seat, k, chosen, fair, prev_color)
            else:
                self._wild_draw_penalty(victim, k, chosen, fair_challenged=False)
                self._advance(seat, 2)
        elif k in (C.HIT_2, C.HIT_2X, C.HIT_5X):
            self._penalty(self.next_seat(seat), 5 if k == C.HIT_5X else 2, C.KIND_NAMES[k])
            self._advance(seat, 2)
        elif k == C.TRADE_HANDS:
            self._decision = D_CHOOSE_PLAYER
            self._data = None
        elif k == C.WILD_ALL_HIT:
            self._all_hit(seat)
            self._advance(seat)
        elif k == C.WILD_HIT_FIRE:
            self._press_until_fire(self.next_seat(seat), "wild_hit_fire")
            self._advance(seat, 2)
        elif k == C.WILD_PRESS_YOUR_LUCK:
            self._decision = D_PRESS_YOUR_LUCK
            self._data = []
        elif k == C.WILD_ALL_OUT_ATTACK:
            target = self.next_seat(seat)
            self._all_out_attack(target)
            self._start_turn(target)
        elif k == C.WILD_DISCARD_ALL:
            self._choose_color(seat, self.next_seat(seat))
        else:  # pragma: no cover
            raise AssertionError(f"no effect for kind {k}")

    def _go_out(self, seat: int, k: int, chosen: int) -> None:
        """The hand is empty: apply what the last card makes others do, then end the round
        (R-1.6). A Wild Draw card played last is not challenged (D-3)."""
        victim = self.next_seat(seat)
        if k in C.DRAW_AMOUNTS:
            total = C.DRAW_AMOUNTS[k] + self.stack_total
            self.stack_total = 0
            self._draw(victim, total, C.KIND_NAMES[k])
        elif k in C.CHALLENGEABLE_KINDS:
            self._wild_draw_penalty(victim, k, chosen, fair_challenged=False)
        elif k in (C.HIT_2, C.HIT_2X, C.HIT_5X):
            self._penalty(victim, 5 if k == C.HIT_5X else 2, C.KIND_NAMES[k])
        elif k == C.WILD_ALL_HIT:
            self._all_hit(seat)
        elif k == C.WILD_HIT_FIRE:
            self._press_until_fire(victim, "wild_hit_fire")
        elif k == C.WILD_ALL_OUT_ATTACK:
            self._all_out_attack(victim)
        elif k == C.FLIP:
            self._flip()
            top = self.discard[-1]
            self.color = self.deck.color[self.side][top]  # a wild on top names no colour: the round is over
        self._end_round(seat)

    def _wild_draw_penalty(self, victim: int, k: int, named: int, fair_challenged: bool) -> None:
        """Make ``victim`` draw for a Wild Draw card; more after losing a challenge (R-2.3, R-3.5, R-3.6)."""
        name = C.KIND_NAMES[k]
        if k == C.WILD_DRAW_FOUR:
            self._draw(victim, 6 if fair_challenged else 4, name)
        elif k == C.WILD_DRAW_TWO:
            self._draw(victim, 4 if fair_challenged else 2, name)
        else:
            self._draw_until_color(victim, named, name, extra=2 if fair_challenged else 0)

    def _answer_wild_draw(self, seat: int, challenged: bool) -> None:
        by, k, named, fair, _previous = self._data
        if not challenged:
            self._emit({"type": "accept", "seat": seat})
            self._wild_draw_penalty(seat, k, named, fair_challenged=False)
            self._advance(seat)
            return
        hand = self.hands[by]
        self._emit(
            {
                "type": "challenge",
                "seat": seat,
                "target": by,
                "success": not fair,
                "revealed": [self.deck.text[t] for t in sorted(hand)],
                "private": [seat, by],
            }
        )
        if fair:
            self._wild_draw_penalty(seat, k, named, fair_challenged=True)
            self._advance(seat)
        else:
            if k == C.WILD_DRAW_COLOR:
                self._draw_until_color(by, named, "challenge")
            else:
                self._draw(by, 4 if k == C.WILD_DRAW_FOUR else 2, "challenge")
            self._start_turn(seat)  # the challenger keeps the turn

    def _flip(self) -> None:
        """Flip hands, discard pile and draw pile or launcher; piles reverse order (R-3.7, R-5.3)."""
        self.side ^= 1
        self.discard.reverse()
        self.draw.reverse()
        if self.launcher is not None:
            self.launcher.restart()
        self._emit(
            {
                "type": "flip",
                "side": self.rules.side_names[self.side],
                "top": self.face_text(self.discard[-1]),
            }
        )

    def _after_flip(self, seat: int) -> None:
        """The new top card's action is ignored; a wild's colour is chosen (R-3.7)."""
        top = self.discard[-1]
        nxt = self.next_seat(seat)
        if C.is_wild(self.deck.kind[self.side][top]):
            chooser = seat if self.options.flip_wild_chooser == "player" else nxt
            self._choose_color(chooser, nxt)
        else:
            self.color = self.deck.color[self.side][top]
            self._start_turn(nxt)

    def _all_hit(self, seat: int) -> None:
        """Every other player presses once, from the next player on (R-4.3)."""
        other = self.next_seat(seat)
        while other != seat:
            self._press(other, "wild_all_hit")
            other = self.next_seat(other)

    def _all_out_attack(self, target: int) -> None:
        """From the target on, players press in turn until it fires; the target takes all (R-5.6)."""
        presser = target
        while not self._press(presser, "wild_all_out_attack", receiver=target):
            if self._nothing_to_draw():
                break
            presser = self.next_seat(presser)

    def _trade(self, seat: int, other: int) -> None:
        hands = self.hands
        hands[seat], hands[other] = hands[other], hands[seat]
        self._emit({"type": "trade", "seat": seat, "target": other})
        self._advance(seat)

    def _press_your_luck(self, seat: int) -> None:
        """One more press; cards out means take them and take back this turn's discards (R-5.5)."""
        discarded: list[int] = self._data
        ejected = self._press(seat, "wild_press_your_luck")
        if not ejected:
            self._decision = D_CHOOSE_DISCARD
            return
        taken: list[int] = []
        pile = self.discard
        for t in discarded:
            for i in range(len(pile) - 2, -1, -1):
                if pile[i] == t:
                    del pile[i]
                    taken.append(t)
                    break
        self.hands[seat].extend(taken)
        self._emit({"type": "take_back", "seat": seat, "cards": [self.deck.text[t] for t in taken]})
        self._advance(seat)

    def _luck_discard(self, seat: int, t: int, uno: bool) -> None:
        hand = self.hands[seat]
        hand.remove(t)
        self.discard.insert(len(self.discard) - 1, t)  # under the Wild Press Your Luck
        discarded: list[int] = self._data
        discarded.append(t)
        self._emit({"type": "discard", "seat": seat, "cards": [self.deck.text[t]], "uno": uno})
        if not hand:
            self._end_round(seat)
            return
        if len(hand) == 1 and not uno:
            self.uno_exposed = seat
        self._decision = D_PRESS_YOUR_LUCK

    def _catch(self, catcher: int, target: int) -> None:
        """``catcher`` caught ``target`` without UNO: penalty 2 cards or 2 presses (R-1.5)."""
        self.uno_exposed = -1
        self._emit({"type": "catch", "seat": catcher, "target": target})
        self._penalty(target, UNO_PENALTY, "uno_penalty")

    # ------------------------------------------------------------------ round end
    def _hand_value(self, hand: list[int], side: int) -> int:
        kinds = self.deck.kind[side]
        points = self.rules.card_points
        return sum(points(kinds[t]) for t in hand)

    def _end_round(self, winner: int) -> None:
        side = self.side
        values = [self._hand_value(h, side) for h in self.hands]
        mode = self.options.scoring
        if mode == "winner":
            gained = [0] * self.n
            gained[winner] = sum(values) - values[winner]  # the others' hands (R-1.7, D-4)
        else:
            gained = values
        for seat in range(self.n):
            self.scores[seat] += gained[seat]
        self.stack_total = 0
        self.uno_exposed = -1
        self._emit(
            {
                "type": "round_end",
                "round": self.round_number,
                "winner": winner,
                "side": self.rules.side_names[side],
                "hands": [[self.deck.text[t] for t in hand] for hand in self.hands],  # shown for scoring
                "hand_points": values,
                "points": gained,
                "scores": list(self.scores),
            }
        )
        winners = self._game_winners(winner)
        if winners is None:
            self.dealer = (self.dealer + 1) % self.n  # the deal passes to the left
            self._start_round()
            return
        self._winners = winners
        self._decision = D_OVER
        self._data = None
        self._emit({"type": "game_end", "winners": winners, "scores": list(self.scores)})

    def _game_winners(self, round_winner: int) -> list[int] | None:
        """The game's winners if it is over now, else ``None`` (R-1.7, D-11)."""
        opts = self.options
        return game_winners(self.scores, round_winner, opts.scoring, opts.target, opts.rounds, self.round_number)

    # ------------------------------------------------------------------ text notation
    def parse_action(self, text: str, seat: int | None = None) -> Action:
        """Read an action in the text notation for ``seat`` (default: the seat to act).

        A card may be named by its active face alone (``play red 5``) when that names one card
        in the hand; otherwise :class:`AmbiguousActionError` lists the full names. The result
        is not checked for legality here; :meth:`apply` does that.
        """
        parsed = parse_syntax(text)
        if seat is None:
            seat = self._seat if self._decision != D_OVER else 0
        table = self.actions
        kind = parsed.kind
        if kind in table.simple:
            return table.simple[kind]
        if kind in (TRADE, CATCH):
            if not 0 <= parsed.seat < self.n:
                raise InvalidActionError(f"there is no seat {parsed.seat}; seats are 0 to {self.n - 1}")
            return (table.trade if kind == TRADE else table.catch)[parsed.seat]
        if kind == COLOR:
            return table.color[parsed.color]
        if kind == PLAY_DRAWN:
            return table.drawn_action(parsed.color, parsed.uno)
        assert parsed.card is not None
        t = self._resolve_card(parsed.card, seat)
        if kind == DISCARD:
            if parsed.color != C.NO_COLOR:
                raise InvalidActionError("'discard' takes a card and 'uno', not a colour")
            return (table.discard_uno if parsed.uno else table.discard)[t]
        wild = C.is_wild(self.deck.kind[self.side][t])
        if parsed.color != C.NO_COLOR and not wild:
            raise InvalidActionError(f"{self.face_text(t)} is not a wild card; it takes no colour")
        if wild and parsed.color == C.NO_COLOR:
            raise IllegalActionError(f"name a colour for {self.face_text(t)}, e.g. 'play {self.face_text(t)} red'")
        return table.play_action(t, parsed.color, parsed.uno)

    def _resolve_card(self, text: str, seat: int) -> int:
        deck = self.deck
        if "/" in text:
            light_text, _, dark_text = text.partition("/")
            light, dark = C.parse_face(light_text), C.parse_face(dark_text)
            t = deck.type_id(f"{C.face_text(light)}/{C.face_text(dark)}")
            if t is None:
                raise InvalidActionError(f"there is no card {text!r} in {self.rules.title}")
            if t not in self.hands[seat]:
                raise IllegalActionError(f"seat {seat} does not hold {deck.text[t]}")
            return t
        face = C.face_text(C.parse_face(text))
        in_deck = [t for t in range(len(deck.types)) if face in (deck.face_texts[0][t], deck.face_texts[1][t])]
        if not in_deck:
            raise InvalidActionError(f"there is no card {face!r} in {self.rules.title}")
        active = deck.face_texts[self.side]
        matches = sorted({t for t in self.hands[seat] if active[t] == face})
        if not matches:
            raise IllegalActionError(f"seat {seat} holds no {face}")
        if len(matches) > 1:
            names = ", ".join(deck.text[t] for t in matches)
            raise AmbiguousActionError(f"{face!r} could be any of {names}; name the card in full")
        return matches[0]

    def _explain(self, action: Action, seat: int) -> str:
        """Why ``action`` is not legal for ``seat`` now, in a player's words."""
        name = str(action)
        if seat != self._seat and action.kind not in (CATCH, UNO):
            return f"{name!r}: it is seat {self._seat}'s decision ({self.decision}), not seat {seat}'s"
        if action.kind == CATCH:
            target = action.seat
            if target == seat:
                return "you cannot catch yourself; declare with 'uno'"
            if self.uno_exposed != target or len(self.hands[target]) != 1:
                return f"seat {target} cannot be caught now (R-1.5)"
        if action.kind == UNO:
            return "there is no UNO call for you to make now"
        if action.card >= 0 and action.card >= len(self.deck.types):
            return f"{name!r} is not an action of this game"
        decision = self.decision
        expected = {
            "turn": "play a card or " + (PRESS if self.launcher else DRAW),
            "play_or_keep": "play_drawn or keep",
            "challenge": "challenge or accept",
            "choose_color": "color <colour>",
            "choose_player": "trade <seat>",
            "press_your_luck": "press_again or stop",
            "choose_discard": "discard <card>",
            "stack": "play a matching draw card or draw",
        }[decision]
        if action.kind == PLAY and self._decision in (D_TURN, D_STACK):
            t = action.card
            if t not in self.hands[seat]:
                return f"seat {seat} does not hold {self.card_text(t)}"
            top = self.face_text(self.discard[-1])
            color = C.COLOR_NAMES[self.color] if self.color >= 0 else "none"
            if self._decision == D_STACK:
                return f"{self.face_text(t)} cannot answer the stacked {top}; play the same kind or draw (R-1.9)"
            if action.uno:
                return "'uno' goes with a play that leaves you exactly one card (R-1.5)"
            k = self.deck.kind[self.side][t]
            if k in C.CHALLENGEABLE_KINDS and not self.options.bluffing:
                return f"{self.face_text(t)} may only be played when you hold no {color} card (bluffing is off)"
            if k == C.TRADE_HANDS:
                return "you may not go out on Trade Hands (R-4.3)"
            if action.color >= 0 and action.color not in C.SIDE_COLORS[self.side]:
                return f"{C.COLOR_NAMES[action.color]} is not a colour of the {self.side_name} side"
            return f"{self.face_text(t)} does not match {top} (colour in play: {color}) (R-1.4)"
        if action.kind in (COLOR, PLAY_DRAWN) and action.color >= 0 and action.color not in C.SIDE_COLORS[self.side]:
            return f"{C.COLOR_NAMES[action.color]} is not a colour of the {self.side_name} side"
        if action.kind == TRADE and action.seat == seat:
            return "trade hands with another player, not yourself"
        if action.uno:
            return "'uno' goes with a play that leaves you exactly one card (R-1.5)"
        return f"{name!r} is not possible now: seat {seat} must {expected}"


def _copy_data(data: Any) -> Any:
    return list(data) if isinstance(data, list) else data


def game_winners(
    scores: list[int], round_winner: int, scoring: str, target: int, rounds: int | None, played: int
) -> list[int] | None:
    """The winners of a game whose round ``played`` (1 for the first) was just won by
    ``round_winner``, leaving ``scores``; ``None`` while the game goes on (R-1.7, D-11, D-15,
    D-16). ``scoring`` is the option of that name: with ``winner`` the first to ``target``
    wins; with ``own_hand`` and ``loser``, once anyone reaches ``target``, the lowest score
    wins (with ``loser``, everyone still under ``target``). After ``rounds`` rounds the best
    score wins, the round's winner first among equals."""
    n = len(scores)
    if scoring == "winner" and scores[round_winner] >= target:
        return [round_winner]
    if scoring == "own_hand" and max(scores) >= target:
        low = min(scores)
        return [s for s in range(n) if scores[s] == low]
    if scoring == "loser" and max(scores) >= target:
        under = [s for s in range(n) if scores[s] < target]
        if under:
            return under
        low = min(scores)
        return [s for s in range(n) if scores[s] == low]
    if rounds is not None and played >= rounds:
        best = max(scores) if scoring == "winner" else min(scores)
        tied = [s for s in range(n) if scores[s] == best]
        return [round_winner] if round_winner in tied else tied
    return None
