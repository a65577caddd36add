"""Typed errors raised by the engine.

Every error is a :class:`ValueError` subclass whose message names the problem in English, for
the Python API and logs. It also carries a ``code`` (an :class:`ErrorCode`) and its ``params``
(declared in :data:`unokit.core.codes.ERRORS`), from which each surface says the problem in its
reader's language. An operation that raises leaves every game state untouched.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .types import TextKind


class ErrorCode(TextKind):
    """What an error is about; its parameters are declared in :data:`unokit.core.codes.ERRORS`."""

    INVALID_ACTION = "invalid_action"
    ILLEGAL_ACTION = "illegal_action"
    AMBIGUOUS_CARD = "ambiguous_card"
    BAD_OPTION = "bad_option"
    BAD_POSITION = "bad_position"
    LAUNCHER_EMPTY = "launcher_empty"
    GAME_OVER = "game_over"
    NO_SEAT = "no_seat"
    NO_SUCH_CARD = "no_such_card"
    CARD_NOT_HELD = "card_not_held"
    NOT_YOUR_TURN = "not_your_turn"
    JUMP_IN_ONLY = "jump_in_only"
    CATCH_YOURSELF = "catch_yourself"
    CANNOT_CATCH = "cannot_catch"
    NO_UNO_CALL = "no_uno_call"
    NOT_AN_ACTION = "not_an_action"
    CANNOT_STACK = "cannot_stack"
    UNO_NEEDS_ONE_CARD = "uno_needs_one_card"
    BLUFFING_OFF = "bluffing_off"
    MAY_NOT_GO_OUT = "may_not_go_out"
    COLOR_NOT_ON_SIDE = "color_not_on_side"
    NO_MATCH = "no_match"
    TRADE_YOURSELF = "trade_yourself"
    TARGET_YOURSELF = "target_yourself"
    NAME_A_COLOR = "name_a_color"
    NO_COLOR_TAKEN = "no_color_taken"
    MUST_PLAY_DRAWN = "must_play_drawn"
    WRONG_DECISION = "wrong_decision"
    UNKNOWN_VARIANT = "unknown_variant"
    PLAYERS_RANGE = "players_range"
    UNKNOWN_OPTION = "unknown_option"
    OPTION_NOT_APPLICABLE = "option_not_applicable"
    BAD_OPTION_VALUE = "bad_option_value"
    OPTION_TOO_SMALL = "option_too_small"
    OPTION_CONFLICT = "option_conflict"
    TEAMS_TABLE = "teams_table"
    # What a player types, in the notation (``docs/formats.md``).
    EMPTY_ACTION = "empty_action"
    UNKNOWN_ACTION = "unknown_action"
    ACTION_TAKES_NOTHING = "action_takes_nothing"
    ACTION_NEEDS_SEAT = "action_needs_seat"
    ACTION_NEEDS_COLOR = "action_needs_color"
    ACTION_NEEDS_CARD = "action_needs_card"
    PLAY_DRAWN_WORDS = "play_drawn_words"
    DISCARD_NO_COLOR = "discard_no_color"
    UNKNOWN_CARD = "unknown_card"
    CARD_NEEDS_COLOR = "card_needs_color"
    WILD_HAS_NO_COLOR = "wild_has_no_color"
    UNKNOWN_COLOR = "unknown_color"
    # The scripted launcher.
    SCRIPT_USED_UP = "script_used_up"
    BAD_SCRIPT = "bad_script"
    # Rules as written: a variant string, ``name=value`` pairs, the players and the seed.
    OPTION_TWICE = "option_twice"
    OPTION_PAIR = "option_pair"
    VARIANT_SPEC = "variant_spec"
    PLAYERS_NOT_NUMBER = "players_not_number"
    PLAYERS_DISAGREE = "players_disagree"
    SEED_NOT_NUMBER = "seed_not_number"
    # A deck file (the ``deck`` option).
    DECK_LINE = "deck_line"
    DECK_TOO_BIG = "deck_too_big"
    DECK_MARKS = "deck_marks"
    DECK_TOO_SMALL = "deck_too_small"
    DECK_EMPTY = "deck_empty"
    DECK_NOT_TEXT = "deck_not_text"
    DECK_WRONG_CARD = "deck_wrong_card"
    DECK_WRONG_FACE = "deck_wrong_face"
    DECK_CUT_VALUES = "deck_cut_values"


class UnokitError(ValueError):
    """Base class of every error unokit raises for bad input: ``str(error)`` is the English
    message; ``code`` and ``params`` say the same for a translation (the class's own code when
    none is given)."""

    default_code: ClassVar[ErrorCode] = ErrorCode.INVALID_ACTION

    def __init__(self, message: str, code: ErrorCode | None = None, **params: Any) -> None:
        super().__init__(message)
        self.code: ErrorCode = code if code is not None else self.default_code
        self.params: dict[str, Any] = params


class InvalidActionError(UnokitError):
    """The text or value is not an action at all (bad syntax, unknown card or colour)."""

    default_code = ErrorCode.INVALID_ACTION


class IllegalActionError(UnokitError):
    """A well-formed action that the rules do not allow for this seat now."""

    default_code = ErrorCode.ILLEGAL_ACTION


class AmbiguousActionError(IllegalActionError):
    """A short card name matches several different cards; name the card in full."""

    default_code = ErrorCode.AMBIGUOUS_CARD


class OptionError(UnokitError):
    """An unknown variant or option, or an option value that is impossible."""

    default_code = ErrorCode.BAD_OPTION


class PositionError(UnokitError):
    """A position object that is malformed or inconsistent with the variant's deck."""

    default_code = ErrorCode.BAD_POSITION


class LauncherError(UnokitError):
    """The scripted launcher ran out of outcomes; append more and apply the action again."""

    default_code = ErrorCode.LAUNCHER_EMPTY


#: Inputs quoted in error messages are cut to this many characters.
QUOTE_LIMIT = 40


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of ``value`` (of any type), cut to about ``limit`` characters with ``...``:
    error messages quote what the user gave without echoing inputs of any length."""
    try:
        text = repr(value) if not isinstance(value, str) else repr(value.strip())
    except RecursionError:  # a value nested too deeply to print
        return f"a deeply nested {type(value).__name__}"
    except ValueError:  # an integer too long to print (sys.get_int_max_str_digits), perhaps inside a list
        return f"a {type(value).__name__} holding a number too long to print"
    return text if len(text) <= limit else text[: limit - 3] + "..."
