"""The keys of the game table, declared once for the terminal game (``unokit play``) and the
browser table (``unokit serve``): where the two overlap they use the same keys for the same
command, and each surface reads its bindings from here. ``docs/play.md`` ("Keys") is the one
table people read; a test keeps it equal to :data:`KEYMAP`.

Each :class:`KeyBinding` names a ``command`` (a code), the keys as people see them, the key
names each surface receives (Textual's for the terminal, ``KeyboardEvent.key`` lower-cased
for the browser; empty where a surface lacks the command) and what it does, in words.
"""

from __future__ import annotations

from dataclasses import dataclass

BOTH, TERMINAL, WEB = "both", "terminal", "web"


@dataclass(frozen=True)
class KeyBinding:
    """One command of the table and its keys on each surface (see the module docstring)."""

    command: str
    shown: str
    terminal: tuple[str, ...]
    web: tuple[str, ...]
    words: str

    @property
    def where(self) -> str:
        """``both``, ``terminal`` or ``web``: the surfaces that have this command."""
        if self.terminal and self.web:
            return BOTH
        return TERMINAL if self.terminal else WEB


_DIGITS = tuple("1234567890")

#: The decisions answered from the hand (a turn, a stacked draw to answer, a card or cards to
#: discard): there the digits pick card 1 … 9, 10 of the hand, on both surfaces, and the other
#: answers (draw, press) have keys of their own; at any other decision they take answer 1 … 9.
HAND_DECISIONS: tuple[str, ...] = ("turn", "stack", "choose_discard", "discard_cards")

#: Every key of the table, in the order the help lists them.
KEYMAP: tuple[KeyBinding, ...] = (
    KeyBinding("move", "← →", ("left", "right"), ("arrowleft", "arrowright"), "move along your hand"),
    KeyBinding(
        "first_last", "Home End", ("home", "end"), ("home", "end"), "go to the first or the last card of your hand"
    ),
    KeyBinding(
        "rows",
        "↑ ↓",
        ("up", "down"),
        ("arrowup", "arrowdown"),
        "in your hand, a row up or down; in a menu, the answers",
    ),
    KeyBinding(
        "pick", "1 … 9, 0", _DIGITS, _DIGITS, "pick card 1 … 9, 10 of your hand; with answers shown, take answer 1 … 9"
    ),
    KeyBinding(
        "play", "Enter", ("enter",), ("enter",), "play (or discard) the picked card; take the highlighted answer"
    ),
    KeyBinding("draw", "D", ("d",), ("d",), "draw a card, press the launcher, or take a stacked draw"),
    KeyBinding("uno", "U", ("u",), ("u",), "call UNO with your next play; if you forgot, call it late"),
    KeyBinding("catch", "C", ("c",), ("c",), "catch a player who has one card and did not call UNO"),
    KeyBinding("jump", "J", ("j",), ("j",), "jump in with your card identical to the one just played (Jump-In)"),
    KeyBinding("keep", "K", (), ("k",), "keep the card you drew"),
    KeyBinding("play_drawn", "P", (), ("p",), "play the card you drew"),
    KeyBinding("more_time", "E", (), ("e",), "more time: 30 seconds more for your turn (10 times a game)"),
    KeyBinding("pause", "B", (), ("b",), "the host pauses the game, or lets it go on"),
    KeyBinding("back", "Esc", ("escape",), ("escape",), "back out of a colour choice; close a window"),
    KeyBinding("help", "?", ("question_mark", "f1"), ("?",), "help: the rules being played, the cards and these keys"),
    KeyBinding("log", "L", ("l",), ("l",), "the log of the game so far (in the browser, with the scores)"),
    KeyBinding(
        "hint", "H", ("h",), (), "a hint: the engine's choice and your chance to win the hand (games against bots)"
    ),
    KeyBinding("mute", "M", (), ("m",), "sound on or off"),
    KeyBinding("read_hand", "H", (), ("h",), "hear your hand, with the cards you may play"),
    KeyBinding(
        "read_table",
        "T",
        (),
        ("t",),
        "hear the table: the top card, the colour, the direction, every player's cards, whose turn",
    ),
    KeyBinding("read_moves", "R", (), ("r",), "hear the last moves"),
    KeyBinding("type", "/", (), ("/",), "type a move (text mode)"),
    KeyBinding("quit", "Q", ("q", "ctrl+q"), (), "quit (asks first; the record is saved)"),
)

KEYS_BY_COMMAND: dict[str, KeyBinding] = {binding.command: binding for binding in KEYMAP}


def terminal_keys(command: str) -> tuple[str, ...]:
    """The Textual key names of ``command`` (raise ``KeyError`` for an unknown command): a
    letter in either case (Textual names Shift+D ``D``), as the help and the keys line show it
    in capitals and as the browser takes it (it lower-cases ``KeyboardEvent.key``)."""
    keys = KEYS_BY_COMMAND[command].terminal
    return keys + tuple(key.upper() for key in keys if len(key) == 1 and key.isalpha())


def registry_keys() -> list[str]:
    """The catalogue keys of the key map's words in each language (``keys.<command>``; the
    English text is :attr:`KeyBinding.words`, and a test keeps the English catalogue equal)."""
    return [f"keys.{binding.command}" for binding in KEYMAP]


def catalog_keys() -> list[dict[str, object]]:
    """The key map as the browser reads it (``GET /api/catalog``, ``keys``)."""
    return [
        {"command": b.command, "shown": b.shown, "keys": list(b.web), "words": b.words, "where": b.where}
        for b in KEYMAP
    ]
