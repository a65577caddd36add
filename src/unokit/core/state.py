"""The state every part of the engine shares: :class:`GameState`.

:class:`~unokit.core.game.Game` is assembled from one class per concern, each in its own
module and each building on the one before:

* :mod:`~unokit.core.state` (this module): the state, events, seats and turn order;
* :mod:`~unokit.core.legal`: the legal actions of each decision (R-1.4, R-1.9, R-2.2, R-2.3);
* :mod:`~unokit.core.draws`: drawing, pressing, reshuffling and reloading (R-1.8, R-6);
* :mod:`~unokit.core.effects`: playing a card and the building blocks of its effect, which the
  card-kind table (:mod:`~unokit.core.kinds`) dispatches to;
* :mod:`~unokit.core.setup`: the dealer cut, the deal and the first card (R-1.2, R-1.3);
* :mod:`~unokit.core.round_end`: the end of a round, scoring and the end of the game (R-1.6,
  R-1.7);
* :mod:`~unokit.core.notation`: reading actions in the text notation and explaining refusals;
* :mod:`~unokit.core.game`: the public API (``legal_actions``, ``apply``, ``step``, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias

from .colors import NO_COLOR
from .decisions import STACKS, TURNS, Decision
from .launcher import Launcher, make_launcher
from .rng import Rng
from .types import ActionKind, CardId, Color, Seat
from .windows import Window

if TYPE_CHECKING:
    from .actions import Action, ActionTable
    from .decks import Deck
    from .round_end import RoundResult
    from .variants import Options, VariantRules

Event = dict[str, Any]

#: Cards dealt to each player (R-1.2).
#: One seat's plays this hand, most recent first: ``(card, older plays)``, or ``None``.
Played: TypeAlias = "tuple[CardId, Played] | None"
HAND_SIZE = 7


class GameState:
    """Everything needed to continue a game (see ``docs/formats.md`` for its JSON form)."""

    __slots__ = (
        "_atomic",
        "_decision",
        "_ended",
        "_ev",
        "_legal",
        "_legal_key",
        "_matches",
        "_pass_action",
        "_winners",
        "actions",
        "color",
        "dealer",
        "deck",
        "direction",
        "discard",
        "draw",
        "hands",
        "is_over",
        "known",
        "last_round",
        "launcher",
        "n",
        "options",
        "passes",
        "played",
        "rng",
        "round_number",
        "rules",
        "scores",
        "seed",
        "side",
        "stack_total",
        "turn",
        "version",
        "windows",
    )

    def __init__(
        self, rules: VariantRules, options: Options, players: int, seed: int, deck: Deck, actions: ActionTable
    ) -> None:
        """Low-level constructor: an empty table. Use :func:`unokit.new_game`."""
        self.rules = rules
        self.options = options
        self.n = players
        self.seed = seed
        self.rng = Rng(seed)
        self.deck = deck
        self.actions = actions
        self.launcher: Launcher | None = (
            make_launcher(options.launcher, options.launcher_script) if rules.uses_launcher else None
        )
        #: A press may fail (a scripted launcher): ``apply`` then works on a snapshot it can restore.
        self._atomic = self.launcher is not None and self.launcher.can_fail
        self.dealer: Seat = 0
        self.round_number = 0
        self.scores = [0] * players
        self.side = 0
        self.direction = 1
        self.turn: Seat = 0
        self.color: Color = NO_COLOR
        self.hands: list[list[CardId]] = [[] for _ in range(players)]
        self.discard: list[CardId] = []  # bottom first; the top card is discard[-1]
        self.draw: list[CardId] = []  # draw pile or launcher stack; the top card is draw[-1]
        self.stack_total = 0
        self.passes = 0
        self.version = 0
        self._decision: Decision = TURNS[0]
        #: The open out-of-turn windows (usually none).
        self.windows: tuple[Window, ...] = ()
        #: What players remember seeing: ``known[holder][viewer]`` lists cards ``viewer`` saw go
        #: into ``holder``'s hand (a challenge, a duel, a trade, a take-back) that are still
        #: there. Memory, not rules: positions do not carry it.
        self.known: dict[Seat, dict[Seat, list[CardId]]] = {}
        #: The public record of this hand: ``played[seat]`` links the cards ``seat`` put on the
        #: discard pile by a play or a discard, most recent first, as ``(card, older)`` pairs
        #: (immutable, so copies share them). Every player saw them; positions do not carry it.
        self.played: list[Played] = [None] * players
        self._winners: list[Seat] = []
        #: True once a player has won the game (the open decision is then ``over``).
        self.is_over = False
        #: The result of the last round that ended (``None`` before any has ended here).
        self.last_round: RoundResult | None = None
        self._ended: RoundResult | None = None  # the round that ended during this step
        self._ev: list[Event] | None = None
        self._legal: list[Action] = []  # legal actions of the seat to act ...
        self._legal_key = -1  # ... valid while this equals ``version``
        self._matches = actions.matches(options.bluffing)  # what is playable on each top card
        #: What a turn offers besides playing: ``draw``, or ``press`` with a launcher (R-4.1).
        self._pass_action = actions.simple[ActionKind.PRESS if rules.uses_launcher else ActionKind.DRAW]

    # ------------------------------------------------------------------ cards and sides
    @property
    def side_name(self) -> str:
        """``light``/``dark`` (``mild``/``wild`` in Flip Attack)."""
        return self.rules.side_names[self.side]

    @property
    def colours_in_play_name(self) -> str:
        """Where the playable colours come from, for messages: ``the light side`` on a
        double-sided deck, the game's title (``Classic UNO``) on a one-sided one."""
        if self.rules.double_sided:
            return f"the {self.side_name} side"
        return self.rules.title

    def card_text(self, card: CardId) -> str:
        """Full text of a card type (``red 5/pink 2`` on double-sided decks)."""
        return self.deck.text[card]

    def face_text(self, card: CardId, side: int | None = None) -> str:
        """Text of one face of a card, the active face by default."""
        return self.deck.face_texts[self.side if side is None else side][card]

    # ------------------------------------------------------------------ seats and turns
    def next_seat(self, seat: Seat, steps: int = 1) -> Seat:
        """The seat ``steps`` places after ``seat`` in the current direction."""
        return (seat + self.direction * steps) % self.n

    def _start_turn(self, seat: Seat) -> None:
        """``seat`` takes a turn (a stack answer while a stacked draw is pending, R-1.9)."""
        self.turn = seat
        self._decision = (STACKS if self.stack_total else TURNS)[seat]

    def _advance(self, seat: Seat, steps: int = 1) -> None:
        """The seat ``steps`` places after ``seat`` takes a turn (:meth:`_start_turn`, written out)."""
        self.turn = seat = (seat + self.direction * steps) % self.n
        self._decision = (STACKS if self.stack_total else TURNS)[seat]

    def _set_decision(self, decision: Decision) -> None:
        """Open ``decision``: its seat is the one to act (and ``turn``)."""
        self._decision = decision
        self.turn = decision.seat

    def _open_window(self, window: Window) -> None:
        """Open ``window``; it replaces an open window of the same kind."""
        self.windows = (*(w for w in self.windows if w.kind != window.kind), window)

    def _close_window(self, window: Window) -> None:
        self.windows = tuple(w for w in self.windows if w is not window)

    # ------------------------------------------------------------------ what players remember
    def _learn(self, viewer: Seat, holder: Seat, cards: list[CardId] | None = None) -> None:
        """``viewer`` sees ``cards`` in ``holder``'s hand (all of it when ``cards`` is None)."""
        viewers = self.known.setdefault(holder, {})
        if cards is None:
            viewers[viewer] = list(self.hands[holder])
            return
        mine = viewers.setdefault(viewer, [])
        have = list(mine)
        for t in cards:
            if t in have:
                have.remove(t)
            else:
                mine.append(t)

    def _hands_moved(self, moved: Callable[[Seat], Seat]) -> None:
        """Each seat ``h``'s hand is now seat ``moved(h)``'s (a trade, hands passed on): what
        players remember of a hand goes with it, except a seat's memory of the hand it now holds
        itself (its own hand is not among what it knows of the others)."""
        known: dict[Seat, dict[Seat, list[CardId]]] = {}
        for holder, viewers in self.known.items():
            now = moved(holder)
            kept = {viewer: cards for viewer, cards in viewers.items() if viewer != now}
            if kept:
                known[now] = kept
        self.known = known

    def _forget(self, holder: Seat, card: CardId) -> None:
        """``holder`` played or discarded ``card``: nobody knows it is in that hand any more."""
        viewers = self.known.get(holder)
        if viewers is None:
            return
        emptied = False
        for cards in viewers.values():
            if card in cards:
                cards.remove(card)
                emptied = emptied or not cards
        if emptied:  # a viewer knows nothing more of that hand
            for viewer in [viewer for viewer, cards in viewers.items() if not cards]:
                del viewers[viewer]
            if not viewers:
                del self.known[holder]

    def _hand_value(self, hand: list[CardId], side: int) -> int:
        """Points of ``hand`` valued on ``side`` (R-1.7)."""
        kinds = self.deck.kind[side]
        points = self.rules.card_points
        return sum(points(kinds[t]) for t in hand)

    def _end_round(self, winner: Seat, blocked: bool = False) -> None:
        """Score the round ``winner`` won (a blocked round, D-4, when ``blocked``), then deal
        the next round or end the game (:mod:`unokit.core.round_end`)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ events
    def _emit(self, event: Event) -> None:
        ev = self._ev
        if ev is not None:
            ev.append(event)

    def _cards_event(self, kind: str, seat: Seat, cards: list[CardId], reason: str = "deal") -> Event | None:
        """Emit an event whose ``cards`` are private to ``seat`` (others see the count and, on
        double-sided decks, the backs); return it for extra fields, or None when not recording."""
        ev = self._ev
        if ev is None:
            return None
        deck = self.deck
        text = deck.text
        single = len(cards) == 1  # the commonest case, without a comprehension
        event: Event = {
            "type": kind,
            "seat": seat,
            "count": len(cards),
            "reason": reason,
            "cards": [text[cards[0]]] if single else [text[t] for t in cards],
            "private": [seat],
        }
        if deck.double_sided:
            back = deck.face_texts[1 - self.side]
            event["backs"] = [back[cards[0]]] if single else [back[t] for t in cards]
        ev.append(event)
        return event
