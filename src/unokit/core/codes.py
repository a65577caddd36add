"""The closed sets a player reads about, each member declared once with its parameters.

What :mod:`~unokit.core.kinds` does for cards, this module does for the engine's other closed
sets: every event type, decision kind, action verb, reason for drawing and error code is one
entry here, with the parameters it carries and their types. Outer layers turn them into words
(:mod:`unokit.i18n`: one catalogue per language) and a test checks that every table keyed by
one of these sets, in any layer, covers the whole set, so a new event or decision kind without
words fails the suite.

The parameter types (:class:`Param`) say how a value is shown to a person: a seat by its
player's name, a card by its printed title in the reader's language, a colour by its name, and
so on. Options are declared in :mod:`unokit.core.variants` (:data:`~unokit.core.variants.OPTION_SPECS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .errors import ErrorCode
from .types import ActionKind, DecisionKind, EventType, TextKind


class Param(TextKind):
    """How a parameter's value is read and shown."""

    SEAT = "seat"  # a seat number: shown as the player's name
    SEATS = "seats"  # a list of seats
    CARD = "card"  # a card's text (``red 5`` or ``red 5/pink 2``): shown as its printed title
    CARDS = "cards"  # a list of card texts
    KIND = "kind"  # a card kind's name (``wild_draw_four``): shown as its title
    COLOR = "color"  # a colour's name (``red``)
    SIDE = "side"  # a side's name (``light``, ``wild``)
    DIRECTION = "direction"  # ``clockwise`` or ``counterclockwise``
    REASON = "reason"  # why cards were taken: a :data:`REASONS` member or a kind's name
    DECISION = "decision"  # a decision kind
    OPTION = "option"  # an option's name
    VARIANT = "variant"  # a variant's name
    NUMBER = "number"  # a whole number (a count, points, a round)
    NUMBERS = "numbers"  # a list of whole numbers, one per seat
    FLAG = "flag"  # true or false
    TEXT = "text"  # text as the user gave it (quoted back, never translated)
    DATA = "data"  # machine data a reader does not read (``private``, ``hands``)


@dataclass(frozen=True, slots=True)
class Spec:
    """One member of a closed set: its ``code`` and its parameters by name (``optional``: those
    that may be missing)."""

    code: str
    params: Mapping[str, Param] = field(default_factory=dict)
    optional: frozenset[str] = frozenset()


def _spec(code: str, optional: tuple[str, ...] = (), **params: Param) -> Spec:
    return Spec(code, MappingProxyType(dict(params)), frozenset(optional))


P = Param
#: The fields every event that moves cards into a hand carries ("cards fields", docs/api.md).
_CARDS_FIELDS = {"seat": P.SEAT, "count": P.NUMBER, "reason": P.REASON, "cards": P.CARDS, "private": P.DATA}
_CARDS_OPTIONAL = ("cards", "private", "backs")

# fmt: off
#: Every event type with its fields (``docs/api.md``, "Event types").
EVENTS: Mapping[EventType, Spec] = MappingProxyType({
    EventType.CUT: _spec("cut", cards=P.DATA),
    EventType.DEALER: _spec("dealer", seat=P.SEAT),
    EventType.ROUND_START: _spec("round_start", round=P.NUMBER, dealer=P.SEAT),
    EventType.DEAL: _spec("deal", _CARDS_OPTIONAL, backs=P.CARDS, **_CARDS_FIELDS),
    EventType.FIRST_CARD_RETURNED: _spec("first_card_returned", card=P.CARD),
    EventType.FIRST_CARD_IGNORED: _spec("first_card_ignored", card=P.CARD),
    EventType.FIRST_CARD: _spec("first_card", card=P.CARD),
    EventType.PLAY: _spec("play", ("color", "discarded"), seat=P.SEAT, card=P.CARD, uno=P.FLAG, color=P.COLOR,
                          discarded=P.CARDS),
    EventType.DRAW: _spec("draw", _CARDS_OPTIONAL, backs=P.CARDS, **_CARDS_FIELDS),
    EventType.PRESS: _spec("press", (*_CARDS_OPTIONAL, "count", "presser", "empty"), backs=P.CARDS, fired=P.FLAG,
                           presser=P.SEAT, empty=P.FLAG, **_CARDS_FIELDS),
    EventType.DRAW_FAILED: _spec("draw_failed", seat=P.SEAT, reason=P.REASON),
    EventType.RESHUFFLE: _spec("reshuffle", count=P.NUMBER),
    EventType.RELOAD: _spec("reload", count=P.NUMBER),
    EventType.KEEP: _spec("keep", seat=P.SEAT),
    EventType.SKIP: _spec("skip", seat=P.SEAT),
    EventType.SKIP_EVERYONE: _spec("skip_everyone", seat=P.SEAT),
    EventType.REVERSE: _spec("reverse", direction=P.DIRECTION),
    EventType.FLIP: _spec("flip", side=P.SIDE, top=P.CARD),
    EventType.COLOR: _spec("color", seat=P.SEAT, color=P.COLOR),
    EventType.ACCEPT: _spec("accept", seat=P.SEAT),
    EventType.CHALLENGE: _spec("challenge", ("revealed", "private"), seat=P.SEAT, target=P.SEAT, success=P.FLAG,
                               revealed=P.CARDS, private=P.DATA),
    EventType.UNO: _spec("uno", seat=P.SEAT, late=P.FLAG),
    EventType.CATCH: _spec("catch", seat=P.SEAT, target=P.SEAT),
    EventType.TRADE: _spec("trade", seat=P.SEAT, target=P.SEAT),
    EventType.PASS_HANDS: _spec("pass_hands", direction=P.DIRECTION),
    EventType.JUMP_IN: _spec("jump_in", seat=P.SEAT, on=P.SEAT),
    EventType.STOP: _spec("stop", seat=P.SEAT),
    EventType.DISCARD: _spec("discard", seat=P.SEAT, cards=P.CARDS, uno=P.FLAG),
    EventType.TAKE_BACK: _spec("take_back", seat=P.SEAT, cards=P.CARDS),
    EventType.DUEL: _spec("duel", ("revealed", "private"), seat=P.SEAT, target=P.SEAT, card=P.KIND, shown=P.DATA,
                          winner=P.SEAT, revealed=P.DATA, private=P.DATA),
    EventType.BLOCKED: _spec("blocked", winner=P.SEAT),
    EventType.ROUND_END: _spec("round_end", ("team_scores",), round=P.NUMBER, winner=P.SEAT, side=P.SIDE,
                               hands=P.DATA, hand_points=P.NUMBERS, points=P.NUMBERS, scores=P.NUMBERS,
                               team_scores=P.NUMBERS),
    EventType.GAME_END: _spec("game_end", ("team_scores",), winners=P.SEATS, scores=P.NUMBERS,
                              team_scores=P.NUMBERS),
})

#: Every decision kind with the facts of its ``pending`` object (``docs/api.md``, "Decisions").
DECISIONS: Mapping[DecisionKind, Spec] = MappingProxyType({
    DecisionKind.TURN: _spec("turn", seat=P.SEAT),
    DecisionKind.PLAY_OR_KEEP: _spec("play_or_keep", ("card", "back"), seat=P.SEAT, card=P.CARD, back=P.CARD),
    DecisionKind.CHALLENGE: _spec("challenge", ("fair", "previous_color"), seat=P.SEAT, by=P.SEAT, card=P.KIND,
                                  color=P.COLOR, fair=P.FLAG, previous_color=P.COLOR),
    DecisionKind.CHOOSE_COLOR: _spec("choose_color", seat=P.SEAT, then=P.SEAT),
    DecisionKind.CHOOSE_PLAYER: _spec("choose_player", seat=P.SEAT),
    DecisionKind.PRESS_YOUR_LUCK: _spec("press_your_luck", seat=P.SEAT, discarded=P.CARDS),
    DecisionKind.CHOOSE_DISCARD: _spec("choose_discard", seat=P.SEAT, discarded=P.CARDS),
    DecisionKind.STACK: _spec("stack", seat=P.SEAT, total=P.NUMBER),
    DecisionKind.CHOOSE_TARGET: _spec("choose_target", seat=P.SEAT, card=P.KIND),
    DecisionKind.DISCARD_CARDS: _spec("discard_cards", seat=P.SEAT, card=P.KIND, count=P.NUMBER, then=P.SEAT,
                                      names_color=P.FLAG),
    DecisionKind.OVER: _spec("over"),
})

#: Every action verb with what follows it in the notation (``docs/formats.md``).
ACTIONS: Mapping[ActionKind, Spec] = MappingProxyType({
    ActionKind.PLAY: _spec("play", ("color",), card=P.CARD, color=P.COLOR, uno=P.FLAG),
    ActionKind.DRAW: _spec("draw"),
    ActionKind.PRESS: _spec("press"),
    ActionKind.PLAY_DRAWN: _spec("play_drawn", ("color",), color=P.COLOR, uno=P.FLAG),
    ActionKind.KEEP: _spec("keep"),
    ActionKind.CHALLENGE: _spec("challenge"),
    ActionKind.ACCEPT: _spec("accept"),
    ActionKind.COLOR: _spec("color", color=P.COLOR),
    ActionKind.TRADE: _spec("trade", seat=P.SEAT),
    ActionKind.PRESS_AGAIN: _spec("press_again"),
    ActionKind.STOP: _spec("stop"),
    ActionKind.DISCARD: _spec("discard", card=P.CARD, uno=P.FLAG),
    ActionKind.UNO: _spec("uno"),
    ActionKind.CATCH: _spec("catch", seat=P.SEAT),
    ActionKind.TARGET: _spec("target", seat=P.SEAT),
})

#: Why cards were taken (the ``reason`` of ``deal``, ``draw``, ``press`` and ``draw_failed``)
#: besides the name of the card that made someone take them.
REASONS: tuple[str, ...] = ("deal", "turn", "first_card", "stack", "challenge", "uno_penalty")

#: Every error code with its parameters. :class:`~unokit.core.errors.UnokitError` carries one
#: (``code``, ``params``) besides its English message.
ERRORS: Mapping[ErrorCode, Spec] = MappingProxyType({
    ErrorCode.INVALID_ACTION: _spec("invalid_action"),
    ErrorCode.ILLEGAL_ACTION: _spec("illegal_action"),
    ErrorCode.AMBIGUOUS_CARD: _spec("ambiguous_card", card=P.CARD, cards=P.CARDS),
    ErrorCode.BAD_OPTION: _spec("bad_option"),
    ErrorCode.BAD_POSITION: _spec("bad_position"),
    ErrorCode.LAUNCHER_EMPTY: _spec("launcher_empty"),
    ErrorCode.GAME_OVER: _spec("game_over"),
    ErrorCode.NO_SEAT: _spec("no_seat", given=P.TEXT, count=P.NUMBER),
    ErrorCode.NO_SUCH_CARD: _spec("no_such_card", given=P.TEXT, variant=P.VARIANT),
    ErrorCode.CARD_NOT_HELD: _spec("card_not_held", card=P.CARD),
    ErrorCode.NOT_YOUR_TURN: _spec("not_your_turn", seat=P.SEAT, decision=P.DECISION),
    ErrorCode.JUMP_IN_ONLY: _spec("jump_in_only", seat=P.SEAT, decision=P.DECISION),
    ErrorCode.CATCH_YOURSELF: _spec("catch_yourself"),
    ErrorCode.CANNOT_CATCH: _spec("cannot_catch", target=P.SEAT),
    ErrorCode.NO_UNO_CALL: _spec("no_uno_call"),
    ErrorCode.NOT_AN_ACTION: _spec("not_an_action"),
    ErrorCode.CANNOT_STACK: _spec("cannot_stack", card=P.CARD, top=P.CARD),
    ErrorCode.UNO_NEEDS_ONE_CARD: _spec("uno_needs_one_card"),
    ErrorCode.BLUFFING_OFF: _spec("bluffing_off", card=P.CARD, color=P.COLOR),
    ErrorCode.MAY_NOT_GO_OUT: _spec("may_not_go_out", kind=P.KIND),
    ErrorCode.COLOR_NOT_ON_SIDE: _spec("color_not_on_side", color=P.COLOR),
    ErrorCode.NO_MATCH: _spec("no_match", ("color",), card=P.CARD, top=P.CARD, color=P.COLOR),
    ErrorCode.TRADE_YOURSELF: _spec("trade_yourself"),
    ErrorCode.TARGET_YOURSELF: _spec("target_yourself"),
    ErrorCode.NAME_A_COLOR: _spec("name_a_color", card=P.CARD),
    ErrorCode.NO_COLOR_TAKEN: _spec("no_color_taken", card=P.CARD),
    ErrorCode.MUST_PLAY_DRAWN: _spec("must_play_drawn"),
    ErrorCode.WRONG_DECISION: _spec("wrong_decision", decision=P.DECISION),
    ErrorCode.UNKNOWN_VARIANT: _spec("unknown_variant", given=P.TEXT),
    ErrorCode.PLAYERS_RANGE: _spec("players_range", variant=P.VARIANT, low=P.NUMBER, high=P.NUMBER, given=P.TEXT),
    ErrorCode.UNKNOWN_OPTION: _spec("unknown_option", given=P.TEXT, variant=P.VARIANT),
    ErrorCode.OPTION_NOT_APPLICABLE: _spec("option_not_applicable", option=P.OPTION, variant=P.VARIANT),
    ErrorCode.BAD_OPTION_VALUE: _spec("bad_option_value", option=P.OPTION, given=P.TEXT),
    ErrorCode.OPTION_TOO_SMALL: _spec("option_too_small", option=P.OPTION, minimum=P.NUMBER),
    ErrorCode.OPTION_CONFLICT: _spec("option_conflict", option=P.OPTION, needs=P.OPTION),
    ErrorCode.TEAMS_TABLE: _spec("teams_table", count=P.NUMBER),
    ErrorCode.EMPTY_ACTION: _spec("empty_action"),
    ErrorCode.UNKNOWN_ACTION: _spec("unknown_action", given=P.TEXT),
    ErrorCode.ACTION_TAKES_NOTHING: _spec("action_takes_nothing", given=P.TEXT, text=P.TEXT),
    ErrorCode.ACTION_NEEDS_SEAT: _spec("action_needs_seat", given=P.TEXT),
    ErrorCode.ACTION_NEEDS_COLOR: _spec("action_needs_color", text=P.TEXT),
    ErrorCode.ACTION_NEEDS_CARD: _spec("action_needs_card", given=P.TEXT),
    ErrorCode.PLAY_DRAWN_WORDS: _spec("play_drawn_words", text=P.TEXT),
    ErrorCode.DISCARD_NO_COLOR: _spec("discard_no_color"),
    ErrorCode.UNKNOWN_CARD: _spec("unknown_card", given=P.TEXT),
    ErrorCode.CARD_NEEDS_COLOR: _spec("card_needs_color", given=P.TEXT),
    ErrorCode.WILD_HAS_NO_COLOR: _spec("wild_has_no_color", kind=P.KIND),
    ErrorCode.UNKNOWN_COLOR: _spec("unknown_color", given=P.TEXT, text=P.TEXT),
    ErrorCode.SCRIPT_USED_UP: _spec("script_used_up", count=P.NUMBER),
    ErrorCode.BAD_SCRIPT: _spec("bad_script", given=P.TEXT),
    ErrorCode.OPTION_TWICE: _spec("option_twice", given=P.TEXT),
    ErrorCode.OPTION_PAIR: _spec("option_pair", given=P.TEXT),
    ErrorCode.VARIANT_SPEC: _spec("variant_spec", given=P.TEXT),
    ErrorCode.PLAYERS_NOT_NUMBER: _spec("players_not_number", given=P.TEXT),
    ErrorCode.PLAYERS_DISAGREE: _spec("players_disagree", number=P.NUMBER, given=P.TEXT),
    ErrorCode.SEED_NOT_NUMBER: _spec("seed_not_number", given=P.TEXT),
    ErrorCode.DECK_LINE: _spec("deck_line", number=P.NUMBER, given=P.TEXT),
    ErrorCode.DECK_TOO_BIG: _spec("deck_too_big", number=P.NUMBER),
    ErrorCode.DECK_MARKS: _spec("deck_marks", given=P.TEXT, text=P.TEXT),
    ErrorCode.DECK_TOO_SMALL: _spec("deck_too_small", number=P.NUMBER, players_count=P.NUMBER),
    ErrorCode.DECK_EMPTY: _spec("deck_empty"),
    ErrorCode.DECK_NOT_TEXT: _spec("deck_not_text", given=P.TEXT),
    ErrorCode.DECK_WRONG_CARD: _spec("deck_wrong_card", given=P.TEXT, variant=P.VARIANT),
    ErrorCode.DECK_WRONG_FACE: _spec("deck_wrong_face", given=P.TEXT, side=P.SIDE, variant=P.VARIANT),
    ErrorCode.DECK_CUT_VALUES: _spec("deck_cut_values"),
})
# fmt: on

assert set(EVENTS) == set(EventType), "every event type is declared once"
assert set(DECISIONS) == set(DecisionKind), "every decision kind is declared once"
assert set(ACTIONS) == set(ActionKind), "every action verb is declared once"
assert set(ERRORS) == set(ErrorCode), "every error code is declared once"

__all__ = ["ACTIONS", "DECISIONS", "ERRORS", "EVENTS", "REASONS", "Param", "Spec"]
