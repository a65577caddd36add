"""Typed errors raised by the engine.

Every error is a :class:`ValueError` subclass whose message names the problem in words a
player understands. An operation that raises leaves every game state untouched.
"""

from __future__ import annotations


class UnokitError(ValueError):
    """Base class of every error unokit raises for bad input."""


class InvalidActionError(UnokitError):
    """The text or value is not an action at all (bad syntax, unknown card or colour)."""


class IllegalActionError(UnokitError):
    """A well-formed action that the rules do not allow for this seat now."""


class AmbiguousActionError(IllegalActionError):
    """A short card name matches several different cards; name the card in full."""


class OptionError(UnokitError):
    """An unknown variant or option, or an option value that is impossible."""


class PositionError(UnokitError):
    """A position object that is malformed or inconsistent with the variant's deck."""


class LauncherError(UnokitError):
    """The scripted launcher ran out of outcomes; append more and apply the action again."""


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
