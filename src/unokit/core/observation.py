"""What one seat may know: ``observe(game, seat)`` and event redaction.

An observation holds exactly what a player at the table sees (R-3.2, R-5.1, D-1): their own
hand (both faces on double-sided decks), the backs of every other hand and of the draw pile's
top card in UNO Flip, hand sizes, the discard pile, colour in play, direction, side, scores,
the open decision and the seat's legal actions. Never the seed, the RNG state, the draw
pile's order or the launcher's script.
"""

from __future__ import annotations

from typing import Any

from .actions import Action
from .colors import COLOR_NAMES
from .decks import Deck
from .game import Event, Game
from .position import jump_in_seat
from .teams import partner
from .types import CardId, DecisionKind, Seat
from .variants import Options, VariantRules


def observe(game: Game, seat: Seat | None) -> dict[str, Any]:
    """The JSON-serialisable view of ``game`` for ``seat``.

    ``seat=None`` is a spectator, who sees what every player sees and no hand: ``hand`` is
    empty, ``backs`` lists every seat, ``legal_actions`` is empty and ``seat`` is ``None``.
    """
    if seat is not None:
        game._check_seat(seat)
    deck = game.deck
    side = game.side
    active = deck.face_texts[side]
    obs: dict[str, Any] = {
        "variant": game.variant,
        "options": game.options.as_dict(game.rules),
        "players": game.n,
        "seat": seat,
        "round": game.round_number,
        "dealer": game.dealer,
        "scores": list(game.scores),
        "side": game.side_name,
        "direction": "clockwise" if game.direction == 1 else "counterclockwise",
        "turn": game.turn,
        "to_act": game.to_act,
        "decision": game.decision,
        "pending": game.open_decision.public(game, seat),
        "color": COLOR_NAMES[game.color] if game.color >= 0 else None,
        "top": active[game.discard[-1]] if game.discard else None,
        "discard": [active[t] for t in game.discard],
        "hand": [deck.text[t] for t in sorted(game.hands[seat])] if seat is not None else [],
        "hand_sizes": [len(h) for h in game.hands],
        "draw_size": len(game.draw),
        "stack": game.stack_total,
        "uno_exposed": game.uno_exposed if game.uno_exposed >= 0 else None,
        "legal_actions": [str(a) for a in game.legal_actions(seat)] if seat is not None else [],
        "over": game.is_over,
        "winners": game.winners,
    }
    if deck.double_sided:
        back = deck.face_texts[1 - side]
        obs["backs"] = [None if s == seat else sorted(back[t] for t in hand) for s, hand in enumerate(game.hands)]
        obs["draw_top_back"] = back[game.draw[-1]] if game.draw and game.launcher is None else None
    if game.launcher is not None:
        obs["launcher"] = game.launcher.public_state()
    if seat is not None:  # a spectator remembers nothing of any hand
        known = {
            str(holder): sorted(deck.text[t] for t in viewers[seat])
            for holder, viewers in sorted(game.known.items())
            if viewers.get(seat)
        }
        if known:
            obs["known"] = known
    if game.options.jump_in:
        obs["jump_in"] = jump_in_seat(game)  # who played the top card while a jump may come (H-1)
    if game.options.teams:
        obs["teams"] = [list(members) for members in game.teams]
        obs["team_scores"] = game.team_scores
    return obs


def redact(events: list[Event], seat: int | None) -> list[Event]:
    """The copy of ``events`` that ``seat`` may see (``None``: a spectator who sees no hand).

    Events with a ``private`` list keep their ``cards`` (and ``revealed``) only for those
    seats; everyone else keeps the count and, on double-sided decks, the backs.
    """
    out: list[Event] = []
    for event in events:
        private = event.get("private")
        if private is None or (seat is not None and seat in private):
            out.append({k: v for k, v in event.items() if k != "private"})
        else:
            out.append({k: v for k, v in event.items() if k not in ("private", "cards", "revealed")})
    return out


class View:
    """A read-only window on a game for one seat: what a player at the table knows.

    Bots, environments and servers use a View instead of the game. It reads the live game,
    so it is cheap to make each decision; it exposes exactly the facts of :func:`observe`
    (as ids and tables for speed) and never the draw pile's order, the RNG or the launcher
    script. Card ids index ``deck`` (``deck.color[side][t]``, ``deck.kind[side][t]``).
    """

    __slots__ = ("_game", "seat")

    def __init__(self, game: Game, seat: Seat) -> None:
        game._check_seat(seat)
        self._game = game
        self.seat = seat

    @property
    def variant(self) -> str:
        """The variant's name."""
        return self._game.rules.name

    @property
    def rules(self) -> VariantRules:
        """The variant's fixed rules (:class:`~unokit.core.variants.VariantRules`)."""
        return self._game.rules

    @property
    def options(self) -> Options:
        """The game's options (:class:`~unokit.core.variants.Options`)."""
        return self._game.options

    @property
    def deck(self) -> Deck:
        """The deck's tables (:class:`~unokit.core.decks.Deck`); public knowledge."""
        return self._game.deck

    @property
    def players(self) -> int:
        """Number of seats."""
        return self._game.n

    @property
    def decision(self) -> DecisionKind:
        """The open decision's kind."""
        return self._game.decision

    @property
    def to_act(self) -> int | None:
        """The seat that must decide now."""
        return self._game.to_act

    @property
    def side(self) -> int:
        """0 light/mild, 1 dark/wild."""
        return self._game.side

    @property
    def direction(self) -> int:
        """1 clockwise, -1 counterclockwise."""
        return self._game.direction

    @property
    def color(self) -> int:
        """The colour in play (``-1`` while a colour is being chosen)."""
        return self._game.color

    @property
    def top(self) -> int:
        """The discard pile's top card."""
        return self._game.discard[-1]

    @property
    def discard(self) -> list[int]:
        """The discard pile, bottom first (every card was seen when played)."""
        return list(self._game.discard)

    @property
    def hand(self) -> list[int]:
        """This seat's own cards (both faces are known, D-1)."""
        return list(self._game.hands[self.seat])

    @property
    def hand_sizes(self) -> list[int]:
        """Cards in every hand."""
        return [len(h) for h in self._game.hands]

    def backs(self, seat: int) -> list[int]:
        """What this seat sees of ``seat``'s hand on a double-sided deck: for each card, the
        *back class* (``deck.back_class``: the smallest card id with the same inactive face),
        sorted. Empty for its own seat and on single-sided decks."""
        game = self._game
        if seat == self.seat or not game.deck.double_sided:
            return []
        return sorted(game.deck.back_class[1 - game.side][t] for t in game.hands[seat])

    def known(self, seat: Seat) -> list[CardId]:
        """The cards of ``seat``'s hand this seat has seen and that are still there (a hand
        revealed by a challenge or a duel, the hand given away in a trade, cards taken back in
        plain view), sorted; empty for its own seat."""
        if seat == self.seat:
            return []
        return sorted(self._game.known.get(seat, {}).get(self.seat, ()))

    def played(self, seat: Seat, count: int) -> list[CardId]:
        """The last ``count`` cards ``seat`` played or discarded this hand, most recent first
        (fewer when it has not played that many): public, every player saw them go down."""
        out: list[CardId] = []
        link = self._game.played[seat]
        while link is not None and len(out) < count:
            out.append(link[0])
            link = link[1]
        return out

    @property
    def draw_size(self) -> int:
        """Cards in the draw pile or launcher."""
        return len(self._game.draw)

    @property
    def draw_top_back(self) -> int | None:
        """On Flip, the back class of the draw pile's top card (see :meth:`backs`); else None."""
        game = self._game
        if not game.deck.double_sided or game.launcher is not None or not game.draw:
            return None
        return game.deck.back_class[1 - game.side][game.draw[-1]]

    @property
    def launcher(self) -> dict[str, Any] | None:
        """The launcher model's public state (Attack variants), else None."""
        launcher = self._game.launcher
        return launcher.public_state() if launcher is not None else None

    @property
    def scores(self) -> list[int]:
        """Cumulative scores."""
        return list(self._game.scores)

    @property
    def round_number(self) -> int:
        """The current round, from 1."""
        return self._game.round_number

    @property
    def stack_total(self) -> int:
        """Cards a stacked draw has piled up so far (R-1.9)."""
        return self._game.stack_total

    @property
    def uno_exposed(self) -> Seat:
        """The seat that may be caught without UNO, or -1."""
        return self._game.uno_exposed

    @property
    def jump_in(self) -> Seat | None:
        """The seat that played the top card while a Jump-In window is open on it (H-1), or None."""
        return jump_in_seat(self._game)

    @property
    def teams(self) -> tuple[tuple[Seat, Seat], ...]:
        """The teams' seats with ``teams=true`` (H-6), else empty."""
        return self._game.teams

    def partner(self, seat: Seat | None = None) -> Seat | None:
        """The partner of ``seat`` (default: this seat) with ``teams=true``, else None."""
        game = self._game
        if not game.options.teams:
            return None
        return partner(self.seat if seat is None else seat, game.n)

    @property
    def team_scores(self) -> list[int]:
        """The teams' totals with ``teams=true``, else empty."""
        return self._game.team_scores

    def pending(self) -> dict[str, Any]:
        """The open decision as this seat may know it."""
        return self._game.open_decision.public(self._game, self.seat)

    def legal_actions(self) -> list[Action]:
        """This seat's legal actions now (out-of-turn ones when it is not to act)."""
        return self._game.legal_actions(self.seat)

    def observe(self) -> dict[str, Any]:
        """The JSON form of this view (:func:`observe`)."""
        return observe(self._game, self.seat)
