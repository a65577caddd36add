"""The help of ``unokit play`` (the ``?`` screen): the keys, and the game being played in short.

The summary is read from the engine, not written here: the variant's title, seats and sides,
whether it draws from a pile or a launcher, the cards of each side with their points (from the
deck and :meth:`VariantRules.card_points`), which cards may be challenged or stacked, and the
options in force. What each card does is on the variant's rules page, which the summary names.
"""

from __future__ import annotations

from ..core.cards import KIND_NAMES, KINDS, is_number
from ..core.colors import COLOR_NAMES, color_marks
from ..core.game import Game
from ..i18n import N_
from ..i18n.lines import Words, words
from ..keys import KEYMAP
from .faces import SYMBOL_GLYPHS

#: The keys of the table screen: (keys, the catalogue key of what they do), from the key map it
#: shares with the browser (:mod:`unokit.keys`).
KEYS: tuple[tuple[str, str], ...] = tuple((b.shown, f"keys.{b.command}") for b in KEYMAP if b.terminal)

#: The scoring modes in words, by mode.
_SCORING = {
    "winner": N_("help.scoring.winner"),
    "own_hand": N_("help.scoring.own_hand"),
    "loser": N_("help.scoring.loser"),
}


def _names(w: Words, kinds: list[int]) -> str:
    """``Wild Draw Two``; ``Draw One`` or ``Draw Five``."""
    return w.cat.text(N_("help.or")).join(w.kind(KIND_NAMES[k]) for k in kinds)


def card_lines(game: Game, lang: str | None = None) -> list[str]:
    """The cards of each side of the game's deck with their points, numbers first, in language
    ``lang`` (``None``: the terminal's)."""
    rules, deck = game.rules, game.deck
    w = words(lang)
    lines = []
    for side in range(2 if rules.double_sided else 1):
        kinds = sorted(set(deck.kind[side]))
        numbers = [k for k in kinds if is_number(k)]
        parts = [w.t("help.numbers", low=numbers[0], high=numbers[-1])] if numbers else []
        parts += [
            w.t("help.card_points", kind=KIND_NAMES[k], points=rules.card_points(k)) for k in kinds if not is_number(k)
        ]
        cards = w.cat.join(parts)
        lines.append(w.t("help.side_cards", side=rules.side_names[side], cards=cards) if rules.double_sided else cards)
    return lines


def whole_words(game: Game) -> list[str]:
    """What the help never breaks across two lines: each card of the game's deck with its points
    (``Wild Draw Two 50``, as :func:`card_lines` says it), each card's title, each short code
    with its card (``SE Skip Everyone``) and each mark with its colours (``◆ yellow/orange``)."""
    w = words()
    cards = [k for k in _kinds(game) if not is_number(k)]
    points = [w.t("help.card_points", kind=KIND_NAMES[k], points=game.rules.card_points(k)) for k in cards]
    return points + [w.kind(KIND_NAMES[k]) for k in cards] + _codes(game) + _marked(game.rules.double_sided)


def _kinds(game: Game) -> list[int]:
    """The kinds of the game's cards, on either side."""
    return sorted(set(game.deck.kind[0]) | (set(game.deck.kind[1]) if game.rules.double_sided else set()))


def _codes(game: Game) -> list[str]:
    """Each short code of the other hands' backs with its card (``SE Skip Everyone``), the action
    cards of both sides (a number's code is the number; a wild's mark tells it from a coloured
    card of the same code)."""
    w = words()
    said = [f"{w.t(f'card.{KIND_NAMES[k]}.short')} {w.kind(KIND_NAMES[k])}" for k in _kinds(game) if not is_number(k)]
    return list(dict.fromkeys(said))


def _marked(double_sided: bool, only: tuple[str, ...] | None = None) -> list[str]:
    """The colour-blind marks of a deck (:func:`~unokit.core.colors.color_marks`, declared
    there once) with the colours and the wild they mark: ``● red/pink``; ``only`` names the
    colours (and ``wild``) to say, all of the deck's when ``None``."""
    w = words()
    by_mark: dict[str, list[str]] = {}
    for name, mark in color_marks(double_sided).items():
        if only is None or name in only:
            by_mark.setdefault(mark, []).append(w.kind("wild") if name == "wild" else w.color(name))
    return [f"{SYMBOL_GLYPHS[mark]} {'/'.join(names)}" for mark, names in by_mark.items()]


def mark_lines(game: Game) -> list[str]:
    """The legend of the marks and codes the table shows: the colour-blind mark of each colour
    of the game's deck, that the other decks mark some colours otherwise (each deck as its cards
    are printed), and on a double-sided deck the short codes of the other hands' backs."""
    w = words()
    double = game.rules.double_sided
    mine, theirs = color_marks(double), color_marks(not double)
    shared = [name for name in (*COLOR_NAMES, "wild") if name in mine and name in theirs]
    differ = tuple(name for name in shared if theirs[name] != mine[name])
    lines = [w.t("help.marks", marks=w.cat.join(_marked(double)))]
    if differ:
        key = N_("help.marks_on_classic") if double else N_("help.marks_on_flip")
        lines.append(w.t(key, marks=w.cat.join(_marked(not double, differ))))
    if double:
        lines.append(w.t("help.backs_short", codes=w.cat.join(_codes(game))))
    return lines


def rules_summary(game: Game, lang: str | None = None, *, legend: bool = False) -> list[str]:
    """The game being played, in short, from the engine's facts (see the module docstring), in
    language ``lang`` (``None``: the terminal's): every line a catalogue's message, a card line
    indented by two spaces; with ``legend`` (the terminal's), the card lines are followed by the
    legend of the marks and codes the terminal's table shows (:func:`mark_lines`). Where the whole
    rules are is :func:`rules_page`'s line."""
    rules, options = game.rules, game.options
    w = words(lang)
    kinds = set(_kinds(game))
    lines = [
        w.t("help.players", variant=game.variant, count=game.n, low=rules.min_players, high=rules.max_players),
        w.t("help.goal_launcher") if rules.uses_launcher else w.t("help.goal"),
    ]
    if rules.double_sided:
        light, dark = rules.side_names
        lines.append(w.t("help.two_sides", light=light, dark=dark))
    lines += ["", w.t("help.cards_title"), *(f"  {line}" for line in card_lines(game, lang))]
    if legend:
        lines += mark_lines(game)
    challengeable = sorted(k for k in kinds if KINDS[k].challengeable)
    if challengeable:
        key = N_("help.challenge") if options.bluffing else N_("help.no_bluffing")
        lines.append(w.t(key, cards=_names(w, challengeable)))
    stackable = sorted(k for k in kinds if KINDS[k].stackable)
    if "stacking" in rules.options and stackable:
        lines.append(
            w.t("help.stacking_on", cards=_names(w, stackable)) if options.stacking else w.t("help.stacking_off")
        )
    scoring = w.t(_SCORING[options.scoring], goal=options.target)
    if options.rounds:
        scoring = w.t("n.help.rounds", scoring=scoring, count=options.rounds)
    lines.append(w.t("help.scoring", mode=w.t(f"option.scoring.{options.scoring}"), scoring=scoring))
    return lines


def rules_page(game: Game) -> str:
    """Where the whole rules of the game are (its variant's page of ``docs/rules``), in the
    terminal's language: the terminal's help closes its summary with it."""
    return words().t("help.rules_page", page=f"docs/rules/{game.rules.name}.md")
