"""The engine's named types: seats, card ids, colours and kinds, and the closed sets of
decision, action, event and window kinds.

Seats, card ids, colours and kind ids are plain ints at run time (the engine indexes tables
with them in its hot paths); the aliases name what an int means in a signature. The kinds are
:class:`~enum.StrEnum` members, so they compare equal to their text (``DecisionKind.TURN ==
"turn"``), serialise to JSON as that text, and one layer never compares bare strings that
another layer spelled.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeAlias

#: A seat at the table, 0 to ``players - 1`` (clockwise is increasing).
Seat: TypeAlias = int
#: A card type: an index into a deck's tables (``deck.text[card]``); hands and piles hold these.
CardId: TypeAlias = int
#: A colour: an index into :data:`unokit.core.colors.COLOR_NAMES`; ``NO_COLOR`` (-1) for none.
Color: TypeAlias = int
#: A card kind: an index into :data:`unokit.core.kinds.KINDS` (0-9 are the numbers).
KindId: TypeAlias = int


class TextKind(StrEnum):
    """A kind written as its text: ``repr`` too is the plain string's (``'turn'``), so events
    and decisions print the same whether they hold the member or the text."""

    def __repr__(self) -> str:
        return str.__repr__(self)


class DecisionKind(TextKind):
    """What kind of decision is open (see ``docs/api.md``, "Decisions")."""

    TURN = "turn"
    PLAY_OR_KEEP = "play_or_keep"
    CHALLENGE = "challenge"
    CHOOSE_COLOR = "choose_color"
    CHOOSE_PLAYER = "choose_player"
    PRESS_YOUR_LUCK = "press_your_luck"
    CHOOSE_DISCARD = "choose_discard"
    STACK = "stack"
    CHOOSE_TARGET = "choose_target"
    DISCARD_CARDS = "discard_cards"
    OVER = "over"


class ActionKind(TextKind):
    """The first word of an action's notation (see ``docs/formats.md``)."""

    PLAY = "play"
    DRAW = "draw"
    PRESS = "press"
    PLAY_DRAWN = "play_drawn"
    KEEP = "keep"
    CHALLENGE = "challenge"
    ACCEPT = "accept"
    COLOR = "color"
    TRADE = "trade"
    PRESS_AGAIN = "press_again"
    STOP = "stop"
    DISCARD = "discard"
    UNO = "uno"
    CATCH = "catch"
    TARGET = "target"


class EventType(TextKind):
    """The ``type`` of an event (see ``docs/api.md``, "Event types")."""

    CUT = "cut"
    DEALER = "dealer"
    ROUND_START = "round_start"
    DEAL = "deal"
    FIRST_CARD_RETURNED = "first_card_returned"
    FIRST_CARD_IGNORED = "first_card_ignored"
    FIRST_CARD = "first_card"
    PLAY = "play"
    DRAW = "draw"
    PRESS = "press"
    DRAW_FAILED = "draw_failed"
    RESHUFFLE = "reshuffle"
    RELOAD = "reload"
    KEEP = "keep"
    SKIP = "skip"
    SKIP_EVERYONE = "skip_everyone"
    REVERSE = "reverse"
    FLIP = "flip"
    COLOR = "color"
    ACCEPT = "accept"
    CHALLENGE = "challenge"
    UNO = "uno"
    CATCH = "catch"
    TRADE = "trade"
    PASS_HANDS = "pass_hands"
    JUMP_IN = "jump_in"
    STOP = "stop"
    DISCARD = "discard"
    TAKE_BACK = "take_back"
    DUEL = "duel"  # also says whom a card challenged: choosing the target emits nothing else
    BLOCKED = "blocked"
    ROUND_END = "round_end"
    GAME_END = "game_end"


class WindowKind(TextKind):
    """Out-of-turn windows (see ``docs/api.md``, "Out-of-turn windows")."""

    UNO_CATCH = "uno_catch"
    JUMP_IN = "jump_in"
