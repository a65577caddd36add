"""Out-of-turn windows: moments when seats other than the one deciding may act.

A :class:`Window` has a kind, the seats that may respond (:meth:`Window.responders`), what each
may do (:meth:`Window.actions`, listed by ``legal_actions(seat)`` next to the seat's in-turn
actions), what a response does (:meth:`Window.respond`) and what closes it
(:meth:`Window.closed_by`, asked before every other action). Several seats may be able to
respond; the engine applies the first response it receives, and a response that is no longer
listed is refused like any illegal action.

The UNO catch is the first kind (R-1.5, D-2, D-17); Jump-In (``jump_in=true``, H-1) is the
second: any seat holding a card identical to the top card may play it before the next player
acts. Each is one subclass (its responders, its actions, its response and its closing rule),
with no change to the engine's loop or to the outer layers, which only ever ask
``legal_actions(seat)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from .types import ActionKind, DecisionKind, Seat, WindowKind

if TYPE_CHECKING:
    from .actions import Action
    from .game import Game


@dataclass(frozen=True, slots=True)
class Window:
    """An open out-of-turn window."""

    kind: ClassVar[WindowKind]

    def responders(self, game: Game) -> list[Seat]:
        """The seats that may respond now, in the order they are asked."""
        raise NotImplementedError

    def actions(self, game: Game, seat: Seat) -> list[Action]:
        """What ``seat`` may do in this window now (empty for a seat that may not respond)."""
        raise NotImplementedError

    def answers(self, action: Action, seat: Seat, game: Game) -> bool:
        """Whether ``action`` by ``seat`` (already known legal) is a response to this window."""
        raise NotImplementedError

    def respond(self, game: Game, seat: Seat, action: Action) -> None:
        """Apply ``seat``'s response; the game's ``windows`` are updated by it."""
        raise NotImplementedError

    def closed_by(self, game: Game, seat: Seat) -> bool:
        """Whether an action by ``seat`` that is not a response closes the window (asked before
        that action is applied)."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class UnoCatch(Window):
    """``seat`` played down to one card without declaring UNO (R-1.5).

    While it holds exactly one card, every other seat may ``catch`` it and it may declare a late
    ``uno``; the first of these closes the window. Any action of another seat that is not a
    response, or the exposed seat's own next turn, closes it too (D-2, D-17).
    """

    kind = WindowKind.UNO_CATCH
    seat: Seat

    def catchable(self, game: Game) -> bool:
        """Whether the exposed seat can be caught now: it holds exactly one card (D-2, D-8)."""
        return len(game.hands[self.seat]) == 1

    def responders(self, game: Game) -> list[Seat]:
        if not self.catchable(game):
            return []
        return [(self.seat + k) % game.n for k in range(game.n)]

    def actions(self, game: Game, seat: Seat) -> list[Action]:
        if not self.catchable(game):
            return []
        if seat == self.seat:
            return [game.actions.simple[ActionKind.UNO]]
        return [game.actions.catch[self.seat]]

    def answers(self, action: Action, seat: Seat, game: Game) -> bool:
        kind = action.kind
        return kind == ActionKind.CATCH or kind == ActionKind.UNO

    def respond(self, game: Game, seat: Seat, action: Action) -> None:
        game._close_window(self)
        if action.kind == ActionKind.CATCH:
            game._catch(seat, self.seat)
        else:
            game._emit({"type": "uno", "seat": seat, "late": True})

    def closed_by(self, game: Game, seat: Seat) -> bool:
        return seat != self.seat or game._decision.kind == DecisionKind.TURN


#: The decisions before which a jump may come: the next player has not begun its turn.
_JUMP_BEFORE = frozenset({DecisionKind.TURN, DecisionKind.STACK})


@dataclass(frozen=True, slots=True)
class JumpIn(Window):
    """``by`` played the top card, a coloured card (H-1).

    Once the card's effect is done and the next player is to begin a turn (a ``turn`` or a
    ``stack`` decision), every seat but ``by`` and the seat to act that holds a card identical
    to the top card (same colour and same kind on the active side) may play it out of turn, as
    it could on its own turn; play then goes on from the jumper. The first jump closes the
    window (the jumped card opens a new one); so does any action of the seat to act, or of
    ``by`` once its card's effect is done. The seat to act needs no window: the card is among
    its own plays.
    """

    kind = WindowKind.JUMP_IN
    by: Seat

    def responders(self, game: Game) -> list[Seat]:
        """The seats that may jump in, in turn order from the seat after ``by``."""
        n = game.n
        return [s for s in ((self.by + k) % n for k in range(1, n)) if self.actions(game, s)]

    @staticmethod
    def open_to_jumps(game: Game) -> bool:
        """Whether a jump may come now: the next player has not begun its turn. Public: it
        depends on no hidden card."""
        return game._decision.kind in _JUMP_BEFORE

    def actions(self, game: Game, seat: Seat) -> list[Action]:
        decision = game._decision
        if seat == self.by or seat == decision.seat or not self.open_to_jumps(game):
            return []
        deck = game.deck
        side = game.side
        top = game.discard[-1]
        kinds = deck.kind[side]
        colors = deck.color[side]
        kind, color = kinds[top], colors[top]
        hand = game.hands[seat]
        if color < 0 or not any(kinds[t] == kind and colors[t] == color for t in hand):
            return []
        return [
            a
            for a in game._turn_actions(seat)
            if a.kind == ActionKind.PLAY and kinds[a.card] == kind and colors[a.card] == color
        ]

    def answers(self, action: Action, seat: Seat, game: Game) -> bool:
        return action.kind == ActionKind.PLAY and seat != game._decision.seat

    def respond(self, game: Game, seat: Seat, action: Action) -> None:
        # A jump is another seat's action: it closes this window and an open UNO catch (D-2).
        game.windows = tuple(w for w in game.windows if w is not self and not w.closed_by(game, seat))
        game._emit({"type": "jump_in", "seat": seat, "on": self.by})
        game._play(seat, action.card, action.color, action.uno)

    def closed_by(self, game: Game, seat: Seat) -> bool:
        return seat != self.by or self.open_to_jumps(game)
