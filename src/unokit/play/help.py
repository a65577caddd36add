"""The help of ``unokit play`` (the ``?`` screen): the keys, and the game being played in short.

The summary is read from the engine, not written here: the variant's title, seats and sides,
whether it draws from a pile or a launcher, the cards of each side with their points (from the
deck and :meth:`VariantRules.card_points`), which cards may be challenged or stacked, and the
options in force. What each card does is on the variant's rules page, which the summary names.
"""

from __future__ import annotations

from ..core.cards import KIND_TITLES, KINDS, is_number
from ..core.game import Game
from ..keys import KEYMAP

#: The keys of the table screen: (keys, what they do), from the key map it shares with the
#: browser (:mod:`unokit.keys`).
KEYS: tuple[tuple[str, str], ...] = tuple((b.shown, b.words) for b in KEYMAP if b.terminal)

_SCORING = {
    "winner": "the round's winner scores the points of the cards left in the other hands; "
    "the first to reach {target} points wins the game",
    "own_hand": "everyone scores the points left in their own hand; once someone reaches "
    "{target} points, the lowest total wins",
    "loser": "everyone scores the points left in their own hand; once someone reaches "
    "{target} points, everyone still under {target} wins",
}


def _names(kinds: list[int]) -> str:
    """``Wild Draw Two``; ``Draw One or a Draw Five``."""
    return " or a ".join(KIND_TITLES[k] for k in kinds)


def card_lines(game: Game) -> list[str]:
    """The cards of each side of the game's deck with their points, numbers first."""
    rules, deck = game.rules, game.deck
    lines = []
    for side in range(2 if rules.double_sided else 1):
        kinds = sorted(set(deck.kind[side]))
        numbers = [k for k in kinds if is_number(k)]
        parts = [f"{numbers[0]} to {numbers[-1]} (face value)"] if numbers else []
        parts += [f"{KIND_TITLES[k]} {rules.card_points(k)}" for k in kinds if not is_number(k)]
        where = f"{rules.side_names[side].capitalize()} side: " if rules.double_sided else ""
        lines.append(where + ", ".join(parts))
    return lines


def rules_summary(game: Game) -> list[str]:
    """The game being played, in short, from the engine's facts (see the module docstring)."""
    rules, options = game.rules, game.options
    kinds = set(game.deck.kind[0]) | (set(game.deck.kind[1]) if rules.double_sided else set())
    lines = [
        f"{rules.title}: {game.n} players (the variant takes {rules.min_players} to {rules.max_players}).",
        "Be the first to play all your cards. On your turn, play a card of the colour in play or "
        "with the top card's number or symbol, or a wild card; or "
        + ("press the launcher (it throws out cards, or nothing)." if rules.uses_launcher else "draw a card."),
    ]
    if rules.double_sided:
        light, dark = rules.side_names
        lines.append(
            f"Every card has a {light} and a {dark} face; the side in play is shown at the top, and the "
            "other hands show you their backs."
        )
    lines += ["", "Cards and the points they count when left in a hand:", *(f"  {line}" for line in card_lines(game))]
    challengeable = sorted(k for k in kinds if KINDS[k].challengeable)
    if challengeable:
        if options.bluffing:
            lines.append(f"The next player may challenge a {_names(challengeable)}.")
        else:
            lines.append(
                f"A {_names(challengeable)} may be played only without a card of the colour in play (bluffing=false)."
            )
    stackable = sorted(k for k in kinds if KINDS[k].stackable)
    if "stacking" in rules.options and stackable:
        lines.append(
            f"Stacking is on: a {_names(stackable)} may be answered with the same card."
            if options.stacking
            else "Stacking is off."
        )
    scoring = _SCORING[options.scoring].format(target=options.target)
    if options.rounds:
        scoring += f"; the game ends after {options.rounds} rounds at the latest (the best total wins)"
    lines.append(f"Scoring ({options.scoring}): {scoring}.")
    lines.append(f"The whole rules, with what each card does: docs/rules/{rules.name}.md in unokit's source.")
    return lines
