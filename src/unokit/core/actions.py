"""Actions: small interned values with a text notation that round-trips.

Each game holds an :class:`ActionTable` built from its deck; every action the engine lists
comes from that table, so actions compare by identity on the fast path. ``str(action)`` is the
notation (``play red 5 uno``, ``play wild_draw_four blue``, ``catch 2``) and
:meth:`Game.parse_action` reads it back.

Notation (seats are 0-based; ``<card>`` is a face like ``red 5`` or a full double-sided card
like ``red 5/pink 2``):

====================================  ==========================================================
``play <card> [<color>] [uno]``       play a card; the colour names a wild's colour (for Wild
                                      Discard All: the colour discarded); ``uno`` declares UNO
``draw`` / ``press``                  draw a card / press the launcher instead of playing
``play_drawn [<color>] [uno]``        play the card just drawn
``keep``                              keep the card just drawn
``challenge`` / ``accept``            answer a Wild Draw Four / Two / Color
``color <color>``                     name the colour in play
``trade <seat>``                      pick whom to trade hands with
``press_again`` / ``stop``            Wild Press Your Luck: press once more, or stop
``discard <card> [uno]``              discard a card: after an empty press (Wild Press Your
                                      Luck), or when a themed card asks for discards
``target <seat>``                     pick the player a card challenges (Optimus Prime, Megatron)
``uno``                               declare UNO late (before anyone catches you)
``catch <seat>``                      catch a player who did not declare UNO
====================================  ==========================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .colors import COLOR_BY_NAME, COLOR_NAMES, NO_COLOR, SIDE_COLORS, color_list
from .decks import Deck
from .errors import ErrorCode, InvalidActionError, quote
from .types import ActionKind, CardId, Color, Seat

PLAY = ActionKind.PLAY
DRAW = ActionKind.DRAW
PRESS = ActionKind.PRESS
PLAY_DRAWN = ActionKind.PLAY_DRAWN
KEEP = ActionKind.KEEP
CHALLENGE = ActionKind.CHALLENGE
ACCEPT = ActionKind.ACCEPT
COLOR = ActionKind.COLOR
TRADE = ActionKind.TRADE
PRESS_AGAIN = ActionKind.PRESS_AGAIN
STOP = ActionKind.STOP
DISCARD = ActionKind.DISCARD
UNO = ActionKind.UNO
CATCH = ActionKind.CATCH
TARGET = ActionKind.TARGET

ACTION_KINDS: tuple[ActionKind, ...] = tuple(ActionKind)
_SIMPLE = frozenset({DRAW, PRESS, KEEP, CHALLENGE, ACCEPT, PRESS_AGAIN, STOP, UNO})
#: Actions that name a seat.
_SEATED = frozenset({TRADE, CATCH, TARGET})
MAX_SEATS = 10

# How a card in hand may be played on the current top card (see ActionTable.match).
NOT_PLAYABLE = 0
PLAIN = 1  # playable, one action (two with the UNO call)
WILD_ANY = 2  # a wild playable any time: one action per colour of the side
SPECIAL = 3  # depends on the rest of the hand (Discard All, Trade Hands, fair-only Wild Draws)


class Action:
    """One action. ``card`` is a type id (or -1), ``color`` a colour (or -1), ``seat`` a seat
    (or -1); ``uno`` declares UNO with the play.

    Actions are interned: a game's :class:`ActionTable` creates each once, so two actions of
    one game are equal exactly when they are the same object (fast, C-level comparison).
    ``key`` compares actions by value across tables.
    """

    __slots__ = ("card", "color", "key", "kind", "seat", "text", "uno")

    def __init__(
        self, kind: ActionKind, text: str, card: CardId = -1, color: Color = -1, uno: bool = False, seat: Seat = -1
    ) -> None:
        self.kind = kind
        self.card = card
        self.color = color
        self.uno = uno
        self.seat = seat
        self.text = text
        self.key = (kind, card, color, uno, seat)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"


class ActionTable:
    """Every action a game over ``deck`` can list, created once and shared."""

    def __init__(self, deck: Deck) -> None:
        n = len(deck.types)
        self.deck = deck
        # By bluffing, then [side][colour in play + 1][top card's kind]: the matches computed so far.
        kinds = 1 + max(max(side) for side in deck.kind)
        self._match_by_bluffing: dict[bool, MatchGrid] = {
            bluffing: [[[None] * kinds for _color in range(9)] for _side in range(2)] for bluffing in (False, True)
        }
        self.simple = {kind: Action(kind, kind) for kind in _SIMPLE}
        self.play: list[Action] = []
        self.play_uno: list[Action] = []
        self.drawn = Action(PLAY_DRAWN, PLAY_DRAWN)
        self.drawn_uno = Action(PLAY_DRAWN, f"{PLAY_DRAWN} uno", uno=True)
        self.discard: list[Action] = []
        self.discard_uno: list[Action] = []
        # play_color[t][c] / play_color_uno[t][c]: wild type t naming colour c (else empty).
        self.play_color: list[list[Action]] = []
        self.play_color_uno: list[list[Action]] = []
        for t in range(n):
            text = deck.text[t]
            self.play.append(Action(PLAY, f"play {text}", card=t))
            self.play_uno.append(Action(PLAY, f"play {text} uno", card=t, uno=True))
            self.discard.append(Action(DISCARD, f"discard {text}", card=t))
            self.discard_uno.append(Action(DISCARD, f"discard {text} uno", card=t, uno=True))
            wild = deck.kinds[0][t].color_with_play or deck.kinds[1][t].color_with_play
            names = COLOR_NAMES if wild else ()
            self.play_color.append(
                [Action(PLAY, f"play {text} {name}", card=t, color=c) for c, name in enumerate(names)]
            )
            self.play_color_uno.append(
                [Action(PLAY, f"play {text} {name} uno", card=t, color=c, uno=True) for c, name in enumerate(names)]
            )
        self.drawn_color = [Action(PLAY_DRAWN, f"{PLAY_DRAWN} {name}", color=c) for c, name in enumerate(COLOR_NAMES)]
        self.drawn_color_uno = [
            Action(PLAY_DRAWN, f"{PLAY_DRAWN} {name} uno", color=c, uno=True) for c, name in enumerate(COLOR_NAMES)
        ]
        self.color = [Action(COLOR, f"color {name}", color=c) for c, name in enumerate(COLOR_NAMES)]
        # wild_plays[side][t]: the plays of wild type t naming each colour of that side;
        # wild_plays_uno[side][t]: the same, each followed by its form with the UNO call.
        self.wild_plays = [[[row[c] for c in SIDE_COLORS[side] if row] for row in self.play_color] for side in (0, 1)]
        self.wild_plays_uno = [
            [
                [action for c in SIDE_COLORS[side] if plain for action in (plain[c], uno[c])]
                for plain, uno in zip(self.play_color, self.play_color_uno, strict=True)
            ]
            for side in (0, 1)
        ]
        # play_or_keep[side][2 * wild + uno]: the actions after drawing a playable card.
        keep = self.simple[KEEP]
        self.play_or_keep: list[list[list[Action]]] = []
        for side in (0, 1):
            colors = SIDE_COLORS[side]
            naming = [self.drawn_color[c] for c in colors]
            naming_uno = [a for c in colors for a in (self.drawn_color[c], self.drawn_color_uno[c])]
            self.play_or_keep.append(
                [[self.drawn, keep], [self.drawn, self.drawn_uno, keep], [*naming, keep], [*naming_uno, keep]]
            )
        self.trade = [Action(TRADE, f"trade {s}", seat=s) for s in range(MAX_SEATS)]
        self.catch = [Action(CATCH, f"catch {s}", seat=s) for s in range(MAX_SEATS)]
        self.target = [Action(TARGET, f"target {s}", seat=s) for s in range(MAX_SEATS)]

        self._ids = frozenset(id(a) for a in self._every_action())

    def _every_action(self) -> list[Action]:
        out = [*self.simple.values(), self.drawn, self.drawn_uno, *self.color, *self.trade, *self.catch, *self.target]
        out += [*self.play, *self.play_uno, *self.discard, *self.discard_uno]
        out += [*self.drawn_color, *self.drawn_color_uno]
        for row in (*self.play_color, *self.play_color_uno):
            out += row
        return out

    def owns(self, action: Action) -> bool:
        """True when ``action`` is one of this table's own (interned) actions."""
        return id(action) in self._ids

    def matches(self, bluffing: bool) -> MatchGrid:
        """The cache of :meth:`match` results for games with ``bluffing``, as
        ``grid[side][color + 1][top_kind]`` (``None`` until computed): a game looks its
        matches up there first, the fast way (three list indexes, nothing allocated)."""
        return self._match_by_bluffing[bluffing]

    def match(self, side: int, color: Color, top_kind: int, bluffing: bool) -> Match:
        """How each type may be played on a top card of ``top_kind`` with ``color`` in play on
        ``side`` (R-1.4): ``NOT_PLAYABLE``, ``PLAIN``, ``WILD_ANY`` or ``SPECIAL`` by type id;
        the set of types that are not ``NOT_PLAYABLE``; and by type id the plays of a card that
        does not leave one card in hand, then of one that does (with the UNO forms), or
        ``None`` for a ``SPECIAL`` card (its plays depend on the rest of the hand). Without
        ``bluffing`` the Wild Draw cards are ``SPECIAL`` (playable only when fair)."""
        cache = self._match_by_bluffing[bluffing][side][color + 1]
        cached = cache[top_kind]
        if cached is None:
            colors = self.deck.color[side]
            out = []
            for t, kind in enumerate(self.deck.kinds[side]):
                if kind.wild:
                    special = kind.discards or (not bluffing and kind.challengeable)
                    out.append(SPECIAL if special else WILD_ANY if kind.color_with_play else PLAIN)
                elif colors[t] == color or kind.id == top_kind:
                    out.append(SPECIAL if kind.discards or not kind.may_go_out else PLAIN)
                else:
                    out.append(NOT_PLAYABLE)
            plays: list[list[Action] | None] = []
            plays_uno: list[list[Action] | None] = []
            for t, how in enumerate(out):
                if how == PLAIN:
                    plays.append([self.play[t]])
                    plays_uno.append([self.play[t], self.play_uno[t]])
                elif how == WILD_ANY:
                    plays.append(self.wild_plays[side][t])
                    plays_uno.append(self.wild_plays_uno[side][t])
                else:
                    plays.append(None)
                    plays_uno.append(None)
            cached = cache[top_kind] = (
                tuple(out),
                frozenset(t for t, how in enumerate(out) if how),
                tuple(plays),
                tuple(plays_uno),
            )
        return cached

    def play_action(self, card: int, color: int, uno: bool) -> Action:
        """The interned ``play`` action (``color`` is ``NO_COLOR`` for coloured cards)."""
        if color == NO_COLOR:
            return (self.play_uno if uno else self.play)[card]
        return (self.play_color_uno if uno else self.play_color)[card][color]

    def drawn_action(self, color: int, uno: bool) -> Action:
        """The interned ``play_drawn`` action."""
        if color == NO_COLOR:
            return self.drawn_uno if uno else self.drawn
        return (self.drawn_color_uno if uno else self.drawn_color)[color]


#: What :meth:`ActionTable.match` tells about every card type on one top card: how it may be
#: played, the playable types, and its plays without and with the UNO call (None: special).
Match = tuple[tuple[int, ...], frozenset[CardId], tuple[list[Action] | None, ...], tuple[list[Action] | None, ...]]
MatchGrid = list[list[list[Match | None]]]


@dataclass(frozen=True)
class ParsedAction:
    """The syntax of an action text, before its card is resolved against a hand."""

    kind: ActionKind
    card: str | None = None  # card text as written: a face, or light/dark faces
    color: Color = NO_COLOR
    uno: bool = False
    seat: Seat = -1


def parse_syntax(text: str, colors: Sequence[Color] | None = None) -> ParsedAction:
    """Read the notation's syntax; raise :class:`InvalidActionError` naming what is wrong (a
    missing colour's lists ``colors``: a variant's, every colour when ``None``)."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is text or an Action, not {type(text).__name__}", ErrorCode.NOT_AN_ACTION)
    words = text.strip().lower().split()
    if not words:
        raise InvalidActionError("empty action", ErrorCode.EMPTY_ACTION)
    verb, rest = words[0], words[1:]
    if verb not in _KIND_BY_TEXT:
        raise InvalidActionError(
            f"unknown action {quote(verb)}; actions are {', '.join(ACTION_KINDS)}",
            ErrorCode.UNKNOWN_ACTION,
            given=quote(verb),
        )
    kind = _KIND_BY_TEXT[verb]
    if kind in _SIMPLE:
        if rest:
            extra = quote(" ".join(rest))
            raise InvalidActionError(
                f"{verb!r} takes nothing after it, got {extra}", ErrorCode.ACTION_TAKES_NOTHING, given=verb, text=extra
            )
        return ParsedAction(kind)
    if kind in _SEATED:
        if len(rest) != 1 or not _is_seat_number(rest[0]):
            raise InvalidActionError(
                f"write {verb!r} followed by a seat number, e.g. '{verb} 1'", ErrorCode.ACTION_NEEDS_SEAT, given=verb
            )
        return ParsedAction(kind, seat=int(rest[0]))
    if kind == COLOR:
        if len(rest) != 1 or rest[0] not in COLOR_BY_NAME:
            names = color_list(colors)
            raise InvalidActionError(f"write 'color' and a colour ({names})", ErrorCode.ACTION_NEEDS_COLOR, text=names)
        return ParsedAction(kind, color=COLOR_BY_NAME[rest[0]])
    uno = bool(rest) and rest[-1] == UNO
    if uno:
        rest = rest[:-1]
    color = NO_COLOR
    if kind in (PLAY, PLAY_DRAWN) and rest and rest[-1] in COLOR_BY_NAME and (kind == PLAY_DRAWN or len(rest) >= 2):
        color = COLOR_BY_NAME[rest[-1]]
        rest = rest[:-1]
    if kind == PLAY_DRAWN:
        if rest:
            extra = quote(" ".join(rest))
            raise InvalidActionError(
                f"'play_drawn' takes only a colour and 'uno', got {extra}", ErrorCode.PLAY_DRAWN_WORDS, text=extra
            )
        return ParsedAction(kind, color=color, uno=uno)
    if not rest:
        raise InvalidActionError(f"{verb!r} needs a card, e.g. '{verb} red 5'", ErrorCode.ACTION_NEEDS_CARD, given=verb)
    return ParsedAction(kind, card=" ".join(rest), color=color, uno=uno)


_KIND_BY_TEXT: dict[str, ActionKind] = {kind.value: kind for kind in ActionKind}


def _is_seat_number(text: str) -> bool:
    """A seat number as written: ASCII digits only, at most two (``'²'`` and ``'007'`` are not)."""
    return 0 < len(text) <= 2 and text.isascii() and text.isdigit()
