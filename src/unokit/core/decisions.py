"""Typed decisions: the open decision of a game is one small frozen value.

A :class:`Decision` names the seat that must decide and carries the facts of that decision (the
card just drawn, who played the Wild Draw card and whether it was fair, who plays after a colour
is named, ...). It knows

* its legal actions (:meth:`Decision.actions`, the seat's in-turn actions; out-of-turn ones
  come from the open windows, :mod:`unokit.core.windows`);
* its JSON form in a position (:meth:`Decision.to_json`) and how to read it back
  (:meth:`Decision.from_json`);
* its public form for one seat (:meth:`Decision.public`): the JSON less what that seat may not
  know (a Wild Draw card's fairness, another seat's drawn card).

Decisions are values: the engine replaces the open decision, never changes it. Turn and stack
decisions are interned per seat (:data:`TURNS`, :data:`STACKS`), so the hot path allocates
nothing for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from .colors import COLOR_NAMES, SIDE_COLORS
from .errors import PositionError
from .kinds import KIND_BY_NAME, KIND_NAMES, KINDS
from .types import ActionKind, CardId, Color, DecisionKind, KindId, Seat

if TYPE_CHECKING:
    from .actions import Action
    from .game import Game

#: The most seats any variant seats (R-1.1).
MAX_SEATS = 10


def _kind(name: object) -> KindId | None:
    """The kind a position names, or ``None``."""
    return KIND_BY_NAME.get(name) if isinstance(name, str) else None


class Reader(Protocol):
    """How :meth:`Decision.from_json` reads the values of a position (``position.py``)."""

    def card(self, value: object, where: str) -> CardId:
        """A card in the notation."""
        ...

    def cards(self, value: object, where: str) -> list[CardId]:
        """A list of cards."""
        ...

    def seat(self, value: object, where: str) -> Seat:
        """A seat of the game."""
        ...

    def color(self, value: object, where: str) -> Color:
        """A colour name or null (``NO_COLOR``)."""
        ...

    def whole(self, value: object, where: str, low: int, high: int) -> int:
        """A whole number from ``low`` to ``high``."""
        ...


@dataclass(frozen=True, slots=True)
class Decision:
    """The open decision: ``seat`` must choose one of :meth:`actions`."""

    kind: ClassVar[DecisionKind]
    seat: Seat

    def actions(self, game: Game) -> list[Action]:
        """The seat's legal in-turn actions, in a deterministic order (a list that may be shared
        between games: copy it before changing it)."""
        raise NotImplementedError

    def facts(self, game: Game) -> dict[str, Any]:
        """The decision's own fields in a position (beyond ``kind`` and ``seat``)."""
        return {}

    def to_json(self, game: Game) -> dict[str, Any]:
        """The decision as a position's ``pending`` object (every fact, hidden ones too)."""
        return {"kind": self.kind.value, "seat": self.seat, **self.facts(game)}

    def public(self, game: Game, viewer: Seat | None) -> dict[str, Any]:
        """:meth:`to_json` less what ``viewer`` may not know (``None``: a spectator)."""
        return self.to_json(game)

    def arises_in(self, game: Game) -> bool:
        """Whether ``game`` can come to this decision: one that a card opens needs a card of
        the deck's active side that opens it (the very card it names, where it names one).
        A turn, a drawn card to play or keep, a colour to name (a wild turned up first, R-2.4)
        and the end arise in every game."""
        return True

    @classmethod
    def from_json(cls, game: Game, obj: dict[str, Any], seat: Seat, read: Reader) -> Decision:
        """Read the decision of a position (its seat already read); raise :class:`PositionError`."""
        return cls(seat)


def _opened_on_side(game: Game, kind: DecisionKind) -> bool:
    """Whether a card of ``game``'s deck, on its active side, opens a decision of ``kind``."""
    return any(kind in card_kind.opens for card_kind in set(game.deck.kinds[game.side]))


def _on_side(game: Game, card: KindId) -> bool:
    """Whether ``game``'s deck has cards of kind ``card`` on its active side."""
    return card in game.deck.kind[game.side]


@dataclass(frozen=True, slots=True)
class Turn(Decision):
    """An ordinary turn: play a card, or draw / press (R-1.4)."""

    kind = DecisionKind.TURN

    def actions(self, game: Game) -> list[Action]:
        return game._turn_actions(self.seat)


@dataclass(frozen=True, slots=True)
class Stack(Decision):
    """Under ``stacking``: answer a stacked draw with the same kind, or draw the total (R-1.9)."""

    kind = DecisionKind.STACK

    def actions(self, game: Game) -> list[Action]:
        return game._stack_actions(self.seat)

    def facts(self, game: Game) -> dict[str, Any]:
        return {"total": game.stack_total}


@dataclass(frozen=True, slots=True)
class PlayOrKeep(Decision):
    """The card just drawn is playable: play it at once or keep it (R-2.2, R-3.3)."""

    kind = DecisionKind.PLAY_OR_KEEP
    card: CardId

    def actions(self, game: Game) -> list[Action]:
        return game._play_or_keep_actions(self.seat, self.card)

    def facts(self, game: Game) -> dict[str, Any]:
        return {"card": game.deck.text[self.card]}

    def public(self, game: Game, viewer: Seat | None) -> dict[str, Any]:
        out = self.to_json(game)
        if viewer != self.seat:
            del out["card"]  # another seat's drawn card is hidden; its back shows
            if game.deck.double_sided:
                out["back"] = game.deck.face_texts[1 - game.side][self.card]
        return out

    @classmethod
    def from_json(cls, game: Game, obj: dict[str, Any], seat: Seat, read: Reader) -> Decision:
        card = read.card(obj.get("card"), "pending 'card'")
        if card not in game.hands[seat]:
            raise PositionError("the drawn card of 'play_or_keep' must be in that seat's hand")
        return cls(seat, card)


@dataclass(frozen=True, slots=True)
class Challenge(Decision):
    """Challenge or accept a Wild Draw card that ``by`` played (R-2.3, R-3.5, R-3.6).

    ``card`` is its kind, ``color`` the colour named with it, ``previous_color`` the colour in
    play before it and ``fair`` whether ``by`` then held no card of that colour (hidden).
    """

    kind = DecisionKind.CHALLENGE
    by: Seat
    card: KindId
    color: Color
    fair: bool
    previous_color: Color

    def actions(self, game: Game) -> list[Action]:
        simple = game.actions.simple
        out = [simple[ActionKind.CHALLENGE], simple[ActionKind.ACCEPT]]
        if game.stack_total:
            out += game._stack_plays(self.seat)  # or pass the stacked total on (H-3)
        return out

    def facts(self, game: Game) -> dict[str, Any]:
        return {
            "by": self.by,
            "card": KIND_NAMES[self.card],
            "color": COLOR_NAMES[self.color],
            "fair": self.fair,
            "previous_color": COLOR_NAMES[self.previous_color] if self.previous_color >= 0 else None,
        }

    def public(self, game: Game, viewer: Seat | None) -> dict[str, Any]:
        out = self.to_json(game)
        del out["fair"]  # whether the play was fair is what a challenge finds out
        return out

    def arises_in(self, game: Game) -> bool:
        return _on_side(game, self.card)

    @classmethod
    def from_json(cls, game: Game, obj: dict[str, Any], seat: Seat, read: Reader) -> Decision:
        kind = _kind(obj.get("card"))
        if kind is None or not KINDS[kind].challengeable:
            names = ", ".join(k.name for k in KINDS if k.challengeable)
            raise PositionError(f"a 'challenge' names the card played: {names}")
        fair = obj.get("fair")
        if not isinstance(fair, bool):
            raise PositionError("a 'challenge' says whether the play was 'fair' (true or false)")
        by = read.seat(obj.get("by"), "pending 'by'")
        color = read.color(obj.get("color"), "pending 'color'")
        if color < 0:
            raise PositionError("a 'challenge' names the colour the Wild Draw card chose ('color')")
        previous = read.color(obj.get("previous_color"), "pending 'previous_color'")
        return cls(seat, by, kind, color, fair, previous)


@dataclass(frozen=True, slots=True)
class ChooseColor(Decision):
    """Name the colour in play; then ``then`` takes a turn (R-2.4, R-3.7, R-5.7, R-7)."""

    kind = DecisionKind.CHOOSE_COLOR
    then: Seat

    def actions(self, game: Game) -> list[Action]:
        color = game.actions.color
        return [color[c] for c in SIDE_COLORS[game.side]]

    def facts(self, game: Game) -> dict[str, Any]:
        return {"then": self.then}

    @classmethod
    def from_json(cls, game: Game, obj: dict[str, Any], seat: Seat, read: Reader) -> Decision:
        return cls(seat, read.seat(obj.get("then", seat), "pending 'then'"))


@dataclass(frozen=True, slots=True)
class ChoosePlayer(Decision):
    """Trade Hands: choose whom to swap hands with (R-4.3)."""

    kind = DecisionKind.CHOOSE_PLAYER

    def actions(self, game: Game) -> list[Action]:
        trade = game.actions.trade
        return [trade[s] for s in range(game.n) if s != self.seat]

    def arises_in(self, game: Game) -> bool:
        return game.options.seven_o or _opened_on_side(game, self.kind)  # a 7 under Seven-O (H-2)


@dataclass(frozen=True, slots=True)
class PressYourLuck(Decision):
    """Wild Press Your Luck: press again or stop; ``discarded`` this turn so far (R-5.5)."""

    kind = DecisionKind.PRESS_YOUR_LUCK
    discarded: tuple[CardId, ...]

    def actions(self, game: Game) -> list[Action]:
        simple = game.actions.simple
        return [simple[ActionKind.PRESS_AGAIN], simple[ActionKind.STOP]]

    def facts(self, game: Game) -> dict[str, Any]:
        return {"discarded": [game.deck.text[t] for t in self.discarded]}

    def arises_in(self, game: Game) -> bool:
        return _opened_on_side(game, self.kind)

    @classmethod
    def from_json(cls, game: Game, obj: dict[str, Any], seat: Seat, read: Reader) -> Decision:
        return cls(seat, tuple(read.cards(obj.get("discarded", []), "pending 'discarded'")))


@dataclass(frozen=True, slots=True)
class ChooseDiscard(PressYourLuck):
    """Wild Press Your Luck: a press ejected nothing, so discard one card (R-5.5)."""

    kind = DecisionKind.CHOOSE_DISCARD

    def actions(self, game: Game) -> list[Action]:
        return game._discard_actions(self.seat)


@dataclass(frozen=True, slots=True)
class ChooseTarget(Decision):
    """Choose the player a card of kind ``card`` challenges (Optimus Prime, Megatron; R-7)."""

    kind = DecisionKind.CHOOSE_TARGET
    card: KindId

    def actions(self, game: Game) -> list[Action]:
        target = game.actions.target
        return [target[s] for s in range(game.n) if s != self.seat]

    def facts(self, game: Game) -> dict[str, Any]:
        return {"card": KIND_NAMES[self.card]}

    def arises_in(self, game: Game) -> bool:
        return _on_side(game, self.card)

    @classmethod
    def from_json(cls, game: Game, obj: dict[str, Any], seat: Seat, read: Reader) -> Decision:
        kind = _kind(obj.get("card"))
        if kind is None or KINDS[kind].target is None:
            names = ", ".join(k.name for k in KINDS if k.target is not None)
            raise PositionError(f"a 'choose_target' names the card played: {names}")
        return cls(seat, kind)


@dataclass(frozen=True, slots=True)
class DiscardCards(Decision):
    """Discard ``count`` more cards of one's choice, one at a time, for a card of kind ``card``
    (Super Hero, Jim Hopper, Optimus Prime; R-7); afterwards this seat names the colour when
    ``names_color``, and ``then`` takes a turn."""

    kind = DecisionKind.DISCARD_CARDS
    card: KindId
    count: int
    then: Seat
    names_color: bool

    def actions(self, game: Game) -> list[Action]:
        return game._discard_actions(self.seat)

    def facts(self, game: Game) -> dict[str, Any]:
        return {"card": KIND_NAMES[self.card], "count": self.count, "then": self.then, "names_color": self.names_color}

    def arises_in(self, game: Game) -> bool:
        return _on_side(game, self.card)

    @classmethod
    def from_json(cls, game: Game, obj: dict[str, Any], seat: Seat, read: Reader) -> Decision:
        kind = _kind(obj.get("card"))
        if kind is None or DecisionKind.DISCARD_CARDS not in KINDS[kind].opens:
            names = ", ".join(k.name for k in KINDS if DecisionKind.DISCARD_CARDS in k.opens)
            raise PositionError(f"a 'discard_cards' names the card that asks for them: {names}")
        count = read.whole(obj.get("count"), "pending 'count'", 1, len(game.hands[seat]))
        then = read.seat(obj.get("then", seat), "pending 'then'")
        names_color = obj.get("names_color", False)
        if not isinstance(names_color, bool):
            raise PositionError("pending 'names_color' must be true or false")
        return cls(seat, kind, count, then, names_color)


@dataclass(frozen=True, slots=True)
class Over(Decision):
    """The game is over: nobody decides anything."""

    kind = DecisionKind.OVER

    def actions(self, game: Game) -> list[Action]:
        return []

    def to_json(self, game: Game) -> dict[str, Any]:
        return {"kind": self.kind.value}


#: The decision types by kind, for reading positions.
DECISION_TYPES: dict[DecisionKind, type[Decision]] = {
    cls.kind: cls
    for cls in (
        Turn,
        PlayOrKeep,
        Challenge,
        ChooseColor,
        ChoosePlayer,
        PressYourLuck,
        ChooseDiscard,
        Stack,
        ChooseTarget,
        DiscardCards,
        Over,
    )
}
#: Interned decisions: a turn and a stack answer of each seat, and the end of the game.
TURNS: tuple[Turn, ...] = tuple(Turn(s) for s in range(MAX_SEATS))
STACKS: tuple[Stack, ...] = tuple(Stack(s) for s in range(MAX_SEATS))
OVER = Over(-1)
_PLAY_OR_KEEP: dict[tuple[Seat, CardId], PlayOrKeep] = {}


def play_or_keep(seat: Seat, card: CardId) -> PlayOrKeep:
    """The interned :class:`PlayOrKeep` of ``seat`` and ``card`` (it is open after most draws)."""
    decision = _PLAY_OR_KEEP.get((seat, card))
    if decision is None:
        decision = _PLAY_OR_KEEP[(seat, card)] = PlayOrKeep(seat, card)
    return decision


__all__ = [
    "DECISION_TYPES",
    "MAX_SEATS",
    "OVER",
    "STACKS",
    "TURNS",
    "Challenge",
    "ChooseColor",
    "ChooseDiscard",
    "ChoosePlayer",
    "ChooseTarget",
    "Decision",
    "DiscardCards",
    "Over",
    "PlayOrKeep",
    "PressYourLuck",
    "Stack",
    "Turn",
]
