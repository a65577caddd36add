"""A score keeper for games played with real cards: ``unokit score`` and ``unokit table``.

``unokit score`` values one hand: each card's points and the total, on a chosen side
(R-1.7, R-2.5, R-3.9, R-4.5, R-5.8). ``unokit table`` keeps the running scores of a game
night round by round, in any scoring mode, in a JSON file (``docs/play.md``).

Cards are written as in the rest of unokit, with or without their colour: ``red 5``, ``5``,
``skip``, ``wild_draw_four``; commas are optional.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from ..clickopts import VARIANT_HELP, lang_option, output_file
from ..core.cards import COLOR_BY_NAME, COLOR_NAMES, KIND_BY_NAME, KIND_NAMES, KIND_TITLES, SIDE_COLORS, is_wild
from ..core.decks import standard_deck
from ..core.errors import OptionError
from ..core.game import game_winners
from ..core.variants import VariantRules, get_rules, make_options
from ..files import JsonError, locked, parse_json, write_atomically
from ..i18n import N_
from ..i18n.cells import cells, pad
from ..i18n.lines import Words, error_line, words
from .names import name_problem

TABLE_FORMAT = "unokit-table/1"


class ScoreError(ValueError):
    """A hand, a round or a score table that cannot be used: a catalogue ``key`` and its
    ``params`` (a parameter may be a nested line), said in the reader's language by
    :meth:`said`; ``str(error)`` is the same in English, for the Python API and logs."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(self.said(words("en")))

    def said(self, w: Words | None = None) -> str:
        """The problem in the language of ``w`` (default: the terminal's)."""
        return (w or words()).t(self.key, **self.params)


class CardError(ScoreError):
    """A hand of real cards that cannot be read: ``params["given"]`` is the word that is not a
    card (or not one of this game), also for the browser's message (``server.error.bad_cards``)."""

    @property
    def given(self) -> str:
        return str(self.params["given"])


class TableError(ScoreError):
    """A score table, or a round of it, that cannot be used."""

    @staticmethod
    def damaged(detail: str) -> TableError:
        """A file that is not a score table as :data:`TABLE_FORMAT` writes one: ``detail``
        names the field and the problem in English, in the words of the file format."""
        return TableError(N_("sheet.error.damaged"), detail=detail)

    @staticmethod
    def of_option(exc: OptionError) -> TableError:
        """An engine's refusal of a table's rule option, said as the engine's error."""
        return TableError(N_("sheet.error.option"), error=error_line(exc).to_json())


@dataclass(frozen=True)
class CardPoints:
    """One card of a hand: how it was written, its printed name and its points."""

    text: str
    title: str
    points: int


def side_index(rules: VariantRules, side: str | None) -> int:
    """0 or 1 for a side name of ``rules`` (``None``: the first side); raise :class:`ScoreError`."""
    if side is None:
        return 0
    name = side.strip().lower()
    if not rules.double_sided:
        if name != rules.side_names[0]:
            raise ScoreError(N_("sheet.error.one_side"), variant=rules.name, given=side)
        return 0
    if name not in rules.side_names:
        light, dark = rules.side_names
        raise ScoreError(N_("sheet.error.sides"), variant=rules.name, first=light, second=dark, given=side)
    return rules.side_names.index(name)


def card_title(text: str, w: Words | None = None) -> str:
    """A card as written in a hand (``red 5``, ``5``, ``wild_draw_four``) by its printed title,
    in the language of ``w`` (default: the terminal's)."""
    w = w or words()
    return w.card(text) if " " in text else w.kind(text)


#: The most words a card's name has (``wild all out attack``).
NAME_WORDS = max(len(name.split("_")) for name in KIND_BY_NAME)


def card_words(cards: str, most: int | None = None) -> list[str]:
    """The colours and card names written in ``cards``: cards are apart by commas, semicolons
    or spaces, and a name may be written with spaces, hyphens or underscores (``wild draw
    four``, ``wild-draw-four``, ``wild_draw_four``). Words are joined into the longest name
    of an UNO card (of any variant) that they spell, so ``wild draw two`` is one card; write
    ``wild, draw two`` for two. A comma always ends a card. With ``most``, reading stops after
    ``most + 1`` names (enough to know that there are more than ``most``)."""
    out: list[str] = []
    for part in re.split(r"[,;]", cards.lower()):
        if most is not None and len(out) > most:
            break
        words = part.replace("-", "_").split()
        i = 0
        while i < len(words):
            # No name is longer than NAME_WORDS words: a card is looked for in the next few
            # words only, so reading a hand takes time in proportion to its length.
            longest = min(len(words), i + NAME_WORDS)
            end = next(
                (j for j in range(longest, i + 1, -1) if "_".join(words[i:j]) in KIND_BY_NAME),
                i + 1,
            )
            out.append("_".join(words[i:end]))
            i = end
            if most is not None and len(out) > most:
                break
    return out


def hand_points(variant: str, cards: str, side: str | None = None) -> list[CardPoints]:
    """Value each card written in ``cards`` (read by :func:`card_words`) on ``side`` of
    ``variant``; :class:`CardError` names a card that does not exist there, :class:`ScoreError`
    a hand of more cards than the variant's deck holds (no hand can)."""
    rules = get_rules(variant)
    s = side_index(rules, side)
    deck = standard_deck(rules.name)
    kinds_here = set(deck.kind[s])
    colors_here = set(SIDE_COLORS[s])
    # Where a card was looked for: the variant, and the side on a double-sided deck.
    where: dict[str, Any] = {"variant": rules.name}
    if rules.double_sided:
        where["side"] = rules.side_names[s]
    not_a_color = N_("sheet.error.not_a_color.side") if rules.double_sided else N_("sheet.error.not_a_color")
    not_a_card = N_("sheet.error.not_a_card.side") if rules.double_sided else N_("sheet.error.not_a_card")
    out: list[CardPoints] = []
    color: int | None = None
    for token in card_words(cards, most=2 * deck.size):  # a colour and a name a card at most
        if len(out) == deck.size:
            raise ScoreError(N_("sheet.error.too_many_cards"), variant=rules.name, most=deck.size)
        if token in COLOR_BY_NAME:
            if color is not None:
                raise CardError(N_("sheet.error.two_colors"), given=f"{COLOR_NAMES[color]} {token}")
            color = COLOR_BY_NAME[token]
            if color not in colors_here:
                raise CardError(not_a_color, given=token, **where)
            continue
        kind = KIND_BY_NAME.get(token)
        if kind is None or kind not in kinds_here:
            parts = token.split("_")
            two = any(
                KIND_BY_NAME.get("_".join(parts[:k])) in kinds_here
                and KIND_BY_NAME.get("_".join(parts[k:])) in kinds_here
                for k in range(1, len(parts))
            )
            # The cards there as they are written (the command line's words for them).
            written = ", ".join(KIND_NAMES[k].replace("_", " ") for k in sorted(kinds_here))
            refusal = CardError(not_a_card, given=token.replace("_", " "), names=written, **where)
            if two:
                raise CardError(N_("sheet.error.write_apart"), given=refusal.params["given"], error=_line(refusal))
            raise refusal
        if color is not None and is_wild(kind):
            raise CardError(N_("sheet.error.wild_color"), kind=token, given=COLOR_NAMES[color])
        text = token if color is None else f"{COLOR_NAMES[color]} {token}"
        title = KIND_TITLES[kind] if color is None else f"{COLOR_NAMES[color].capitalize()} {KIND_TITLES[kind]}"
        out.append(CardPoints(text, title, rules.card_points(kind)))
        color = None
    if color is not None:
        raise CardError(N_("sheet.error.lone_color"), given=COLOR_NAMES[color])
    return out


def _line(error: ScoreError) -> dict[str, Any]:
    """``error`` as a nested line, to be said inside another message."""
    return {"key": error.key, "params": error.params}


# ----------------------------------------------------------------------- unokit score


@click.command()
@lang_option
@click.argument("cards", nargs=-1, required=True)
@click.option("--variant", default="classic", show_default=True, help=VARIANT_HELP)
@click.option("--side", default=None, help="the side active when the round ended: light/dark, mild/wild")
def score(cards: tuple[str, ...], variant: str, side: str | None) -> None:
    """Count the points of a hand of real cards: each card and the total.

    Example: unokit score --variant flip_attack --side wild "2 5 8 flip hit_5x reverse
    skip_everyone wild_discard_all wild_all_out_attack"
    """
    w = words()
    try:
        rules = get_rules(variant)
        s = side_index(rules, side)
        valued = hand_points(rules.name, " ".join(cards), rules.side_names[s])
    except OptionError as exc:
        raise click.UsageError(w.error(exc)) from None
    except ScoreError as exc:
        raise click.UsageError(exc.said(w)) from None
    counted = w.t("n.cards", count=len(valued))
    if rules.double_sided:
        click.echo(w.t("cli.score_header_side", variant=rules.name, side=rules.side_names[s], cards=counted))
    else:
        click.echo(w.t("cli.score_header", variant=rules.name, cards=counted))
    titles = [card_title(c.text, w) for c in valued]
    total = w.t("summary.total")
    width = max([cells(t) for t in titles] + [cells(total)])
    for title, card in zip(titles, valued, strict=True):
        click.echo(f"  {pad(title, width)}  {card.points:>4}")
    click.echo(f"  {pad(total, width)}  {sum(c.points for c in valued):>4}")


# ----------------------------------------------------------------------- unokit table


_TABLE_FIELDS = frozenset({"format", "variant", "scoring", "target", "rounds", "players", "rounds_played"})
_ROW_FIELDS = frozenset({"round", "winner", "side", "hands", "hand_points", "points", "totals"})


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def check_players(names: object, rules: VariantRules) -> list[str]:
    """The players' names for a table of ``rules``: a list of different (ignoring case) names
    that :func:`~unokit.play.names.name_problem` accepts (none empty, none with a control
    character), as many as the variant seats; raise :class:`TableError`."""
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise TableError(N_("sheet.error.players_list"))
    players = [name.strip() for name in names]
    for name in players:
        problem = name_problem(name)
        if problem is not None:
            raise TableError(problem.key, **problem.params)
    if not rules.min_players <= len(players) <= rules.max_players:
        raise TableError(
            N_("error.players_range"),
            variant=rules.name,
            low=rules.min_players,
            high=rules.max_players,
            given=str(len(players)),
        )
    if len({name.lower() for name in players}) != len(players):
        raise TableError(N_("sheet.error.same_name"))
    return players


@dataclass
class ScoreTable:
    """The running scores of one game of real cards (R-1.7, D-11, D-15, D-16)."""

    variant: str
    players: list[str]
    scoring: str = "winner"
    target: int = 500
    rounds: int | None = None
    rows: list[dict[str, Any]] = field(default_factory=list)

    @property
    def totals(self) -> list[int]:
        return list(self.rows[-1]["totals"]) if self.rows else [0] * len(self.players)

    @property
    def winners(self) -> list[str]:
        """The game's winners once it is over, else an empty list."""
        return list(self.rows[-1].get("winners", [])) if self.rows else []

    def seat(self, name: str) -> int:
        for i, player in enumerate(self.players):
            if player.lower() == name.strip().lower():
                return i
        raise ScoreError(N_("sheet.error.no_player"), given=name, names=", ".join(self.players))

    def add_round(self, winner: str, side: str | None, hands: dict[str, str], points: dict[str, int]) -> dict[str, Any]:
        """Score one round. Every player but ``winner`` needs a hand (cards) or points."""
        if self.winners:
            raise ScoreError(N_("sheet.error.over"), names=", ".join(self.winners))
        w = self.seat(winner)
        rules = get_rules(self.variant)
        side_name = rules.side_names[side_index(rules, side)]
        values = [0] * len(self.players)
        shown: dict[str, list[str] | None] = {}
        given: set[int] = set()
        for name, cards in hands.items():
            s = self.seat(name)
            if s in given:
                raise ScoreError(N_("sheet.error.twice"), name=self.players[s])
            given.add(s)
            valued = hand_points(self.variant, cards, side_name)
            values[s] = sum(c.points for c in valued)
            shown[self.players[s]] = [c.text for c in valued]
        for name, value in points.items():
            s = self.seat(name)
            if s in given:
                raise ScoreError(N_("sheet.error.twice"), name=self.players[s])
            if value < 0:
                raise ScoreError(N_("sheet.error.negative"), name=name, value=value)
            given.add(s)
            values[s] = value
            shown[self.players[s]] = None
        if values[w]:
            raise ScoreError(N_("sheet.error.winner_points"), name=self.players[w])
        missing = [self.players[s] for s in range(len(self.players)) if s != w and s not in given]
        if missing:
            example = f'--hand "{missing[0]}=red 5 skip"'
            raise ScoreError(N_("sheet.error.missing"), names=", ".join(missing), text=example)
        if self.scoring == "winner":
            gained = [0] * len(self.players)
            gained[w] = sum(values)
        else:
            gained = values
        totals = [a + b for a, b in zip(self.totals, gained, strict=True)]
        row: dict[str, Any] = {
            "round": len(self.rows) + 1,
            "winner": self.players[w],
            "side": side_name,
            "hands": shown,
            "hand_points": values,
            "points": gained,
            "totals": totals,
        }
        over = game_winners(totals, w, self.scoring, self.target, self.rounds, len(self.rows) + 1)
        if over is not None:
            row["winners"] = [self.players[s] for s in over]
        self.rows.append(row)
        return row

    def undo(self) -> dict[str, Any]:
        """Take back the last round entered and return it; :class:`TableError` when there is none."""
        if not self.rows:
            raise TableError(N_("sheet.error.no_round"))
        return self.rows.pop()

    def to_json(self) -> dict[str, Any]:
        return {
            "format": TABLE_FORMAT,
            "variant": self.variant,
            "scoring": self.scoring,
            "target": self.target,
            "rounds": self.rounds,
            "players": list(self.players),
            "rounds_played": self.rows,
        }

    def dumps(self) -> str:
        """The table as the text of its file."""
        return json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"

    @staticmethod
    def from_json(obj: Any) -> ScoreTable:
        """Read a score table and check all of it: the settings as ``unokit table new`` checks
        them (variant, players, scoring, target, rounds), then every round, scored again from
        its hands and compared with what the file says. Raise :class:`TableError` naming the
        first problem."""
        if not isinstance(obj, dict) or obj.get("format") != TABLE_FORMAT:
            raise TableError.damaged(f"not a unokit score table (a JSON object with format {TABLE_FORMAT!r})")
        unknown = sorted(set(obj) - _TABLE_FIELDS)
        if unknown:
            raise TableError.damaged(
                f"unknown field {unknown[0]!r}; a score table has {', '.join(sorted(_TABLE_FIELDS))}"
            )
        missing = sorted(_TABLE_FIELDS - set(obj))
        if missing:
            raise TableError.damaged(f"the field {missing[0]!r} is missing")
        variant = obj["variant"]
        if not isinstance(variant, str):
            raise TableError.damaged(f"the variant must be a name such as 'classic', not {variant!r}")
        try:
            rules = get_rules(variant)
            options = make_options(rules, {name: obj[name] for name in ("scoring", "target", "rounds")})
        except OptionError as exc:
            raise TableError.of_option(exc) from None
        table = ScoreTable(
            rules.name, check_players(obj["players"], rules), options.scoring, options.target, options.rounds
        )
        played = obj["rounds_played"]
        if not isinstance(played, list):
            raise TableError.damaged("'rounds_played' must be a list of rounds")
        for number, row in enumerate(played, start=1):
            try:
                table._replay(row)
            except ScoreError as exc:  # a damaged round, or add_round's reason
                raise TableError(N_("sheet.error.in_round"), round=number, error=_line(exc)) from None
        return table

    def _replay(self, row: object) -> None:
        """Score a round read from a file again, from its hands (or counted points), and check
        that the file says the same; then keep it."""
        if self.winners:
            raise TableError(N_("sheet.error.already_over"))
        if not isinstance(row, dict):
            raise TableError.damaged("a round must be a JSON object")
        unknown = sorted(set(row) - _ROW_FIELDS - {"winners"})
        missing = sorted(_ROW_FIELDS - set(row))
        if unknown or missing:
            what = f"unknown field {unknown[0]!r}" if unknown else f"the field {missing[0]!r} is missing"
            raise TableError.damaged(f"{what}; a round has {', '.join(sorted(_ROW_FIELDS))} (and winners at the end)")
        n = len(self.players)
        held, hands = row["hand_points"], row["hands"]
        if not isinstance(held, list) or len(held) != n or not all(_is_count(v) for v in held):
            raise TableError.damaged(f"'hand_points' must list {n} whole numbers, 0 or more, one per player")
        if not isinstance(row["winner"], str) or not isinstance(row["side"], str):
            raise TableError.damaged("'winner' and 'side' must be names")
        if not isinstance(hands, dict) or not all(
            value is None or (isinstance(value, list) and all(isinstance(card, str) for card in value))
            for value in hands.values()
        ):
            raise TableError.damaged("'hands' must map each player to their cards (a list of card names) or to null")
        cards = {name: " ".join(value) for name, value in hands.items() if value is not None}
        counted = {name: held[self.seat(name)] for name, value in hands.items() if value is None}
        scored = self.add_round(row["winner"], row["side"], cards, counted)
        for key in ("round", "winner", "side", "hand_points", "points", "totals", "winners"):
            if scored.get(key) != row.get(key):
                self.rows.pop()
                raise TableError.damaged(f"{key!r} is {row.get(key)!r}, but the hands give {scored.get(key)!r}")

    def render(self, w: Words | None = None) -> list[str]:
        """The table in the language of ``w`` (default: the terminal's): one line a round, then
        the totals and the state of the game."""
        w = w or words()
        facts = {
            "variant": w.variant(self.variant),
            "scoring": w.t(f"option.scoring.{self.scoring}"),
            "target": str(self.target),
        }
        if self.rounds:
            caption = w.cat.t("sheet.caption_rounds", **facts, rounds=w.t("n.rounds", count=self.rounds))
        else:
            caption = w.cat.t("sheet.caption", **facts)
        first = [w.t("table.round"), w.t("summary.total")]
        left = max(cells(label) for label in first)
        winner_width = max([cells(w.t("sheet.went_out"))] + [cells(row["winner"]) for row in self.rows])
        width = max(6, *(cells(p) for p in self.players))
        lines = [caption]
        head = f"{pad(first[0], left)}  {pad(w.t('sheet.went_out'), winner_width)}"
        lines.append(head + "".join(f"  {pad(p, width, '>')}" for p in self.players))
        for row in self.rows:
            points = "".join(f"  {'+' + str(v) if v else '·':>{width}}" for v in row["points"])
            lines.append(f"{pad(str(row['round']), left, '>')}  {pad(row['winner'], winner_width)}{points}")
        totals = "".join(f"  {t:>{width}}" for t in self.totals)
        lines.append(f"{pad(first[1], left)}  {'':<{winner_width}}{totals}")
        if self.winners:
            lines.append(w.t("table.game_over", winners=", ".join(self.winners)))
        else:
            lines.append(w.t("sheet.next_round", round=len(self.rows) + 1))
        return lines


def new_table(
    variant: str, players: object, scoring: str = "winner", target: int | None = None, rounds: int | None = None
) -> ScoreTable:
    """A new, empty score table; :class:`TableError` names a bad variant, option or list of
    players (``target`` ``None``: the scoring mode's default)."""
    try:
        rules = get_rules(variant)
        raw: dict[str, object] = {"scoring": scoring, "rounds": rounds}
        if target is not None:
            raw["target"] = target
        options = make_options(rules, raw)
    except OptionError as exc:
        raise TableError.of_option(exc) from None
    return ScoreTable(rules.name, check_players(players, rules), options.scoring, options.target, options.rounds)


def load_table(path: Path) -> ScoreTable:
    """Read and check the table in ``path``; a ``click`` error names what is wrong."""
    w = words()
    try:
        return ScoreTable.from_json(parse_json(path.read_text(encoding="utf-8")))
    except UnicodeDecodeError:
        raise click.ClickException(w.t("cli.file_problem", path=str(path), error=w.t("sheet.error.not_text"))) from None
    except JsonError as exc:
        problem = w.t("sheet.error.not_json", detail=str(exc))
        raise click.ClickException(w.t("cli.file_problem", path=str(path), error=problem)) from None
    except OSError as exc:
        raise click.ClickException(w.t("cli.file_problem", path=str(path), error=exc.strerror or str(exc))) from None
    except TableError as exc:
        raise click.ClickException(w.t("cli.file_problem", path=str(path), error=exc.said(w))) from None


def change_table(path: Path, change: Callable[[ScoreTable], list[str]]) -> None:
    """Load the table in ``path``, apply ``change`` (which returns the lines to print) and write
    it back, all under the file's lock, so that two commands at once never lose each other's
    rounds; the file is replaced in one step, and only once ``change`` has succeeded."""
    try:
        with locked(path):
            sheet = load_table(path)
            lines = change(sheet)
            write_atomically(path, sheet.dumps())
    except OSError as exc:
        problem = words().t("cli.cannot_change", detail=exc.strerror or str(exc))
        raise click.ClickException(words().t("cli.file_problem", path=str(path), error=problem)) from None
    click.echo("\n".join(lines))


def _pairs(values: tuple[str, ...], what: str) -> list[tuple[str, str]]:
    out = []
    for item in values:
        name, sep, rest = item.partition("=")
        if not sep:
            name, sep, rest = item.partition(":")
        if not sep or not name.strip():
            raise click.BadParameter(words().t("sheet.error.pair", given=item), param_hint=what)
        out.append((name.strip(), rest.strip()))
    return out


def _refused(exc: ScoreError) -> click.UsageError:
    """A refusal of the score keeper, said in the terminal's language."""
    return click.UsageError(exc.said())


@click.group()
def table() -> None:
    """Keep the running scores of a game of real cards, round by round, in a JSON file.

    \b
    unokit table new night.json --variant flip --players Ana,Bo,Cy
    unokit table round night.json --winner Ana --hand "Bo=red 5 skip" --points Cy=35
    unokit table show night.json
    unokit table undo night.json
    """


@table.command("new")
@lang_option
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--variant", default="classic", show_default=True, help=VARIANT_HELP)
@click.option("--players", "names", required=True, help="the players' names, comma-separated, in seating order")
@click.option("--scoring", default="winner", show_default=True, help="winner, own_hand or loser (R-1.7)")
@click.option("--target", type=int, default=None, help="points that end the game [500; 200 for loser]")
@click.option("--rounds", type=int, default=None, help="end after this many rounds")
@click.option("--force", is_flag=True, help="overwrite an existing file")
def table_new(
    file: Path, variant: str, names: str, scoring: str, target: int | None, rounds: int | None, force: bool
) -> None:
    """Start a new score table in FILE."""
    players = names.split(",")  # an empty name between two commas is refused, never dropped
    try:
        sheet = new_table(variant, players, scoring, target, rounds)
    except ScoreError as exc:
        raise _refused(exc) from None
    target_file = output_file(file, "FILE")
    assert target_file is not None
    w = words()
    try:
        with locked(target_file):
            if target_file.exists() and not force:
                raise click.UsageError(w.t("cli.table_exists", path=str(file)))
            write_atomically(target_file, sheet.dumps())
    except OSError as exc:
        problem = w.t("cli.cannot_write", detail=exc.strerror or str(exc))
        raise click.ClickException(w.t("cli.file_problem", path=str(file), error=problem)) from None
    click.echo("\n".join(sheet.render()))


@table.command("round")
@lang_option
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--winner", required=True, help="who went out")
@click.option("--side", default=None, help="the side active at the end of the round (light/dark, mild/wild)")
@click.option("--hand", "hands", multiple=True, metavar="NAME=CARDS", help="cards left in a player's hand")
@click.option("--points", "points", multiple=True, metavar="NAME=N", help="a player's hand, already counted")
def table_round(file: Path, winner: str, side: str | None, hands: tuple[str, ...], points: tuple[str, ...]) -> None:
    """Score one round: who went out and what everyone else still held."""
    w = words()
    try:
        counted = {name: int(value) for name, value in _pairs(points, "--points")}
    except ValueError:
        raise click.BadParameter(w.t("sheet.error.points_number"), param_hint="--points") from None
    given = dict(_pairs(hands, "--hand"))

    def score_round(sheet: ScoreTable) -> list[str]:
        try:
            row = sheet.add_round(winner, side, given, counted)
        except ScoreError as exc:
            raise _refused(exc) from None
        lines = []
        for name, value in zip(sheet.players, row["hand_points"], strict=True):
            if name != row["winner"]:
                cards = row["hands"].get(name)
                if cards:
                    titles = w.cat.join(card_title(card, w) for card in cards)
                    lines.append(w.t("n.sheet.holds_cards", name=name, count=value, cards=titles))
                else:
                    lines.append(w.t("n.sheet.holds", name=name, count=value))
        return lines + sheet.render(w)

    change_table(file, score_round)


@table.command("show")
@lang_option
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def table_show(file: Path) -> None:
    """Print the score table."""
    click.echo("\n".join(load_table(file).render()))


@table.command("undo")
@lang_option
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def table_undo(file: Path) -> None:
    """Take back the last round entered."""
    w = words()

    def take_back(sheet: ScoreTable) -> list[str]:
        try:
            row = sheet.undo()
        except ScoreError as exc:
            raise _refused(exc) from None
        gained = [
            w.t("sheet.gained", name=name, points=points)
            for name, points in zip(sheet.players, row["points"], strict=True)
            if points
        ]
        scores = w.cat.join(gained) if gained else w.t("sheet.no_points")
        return [w.t("sheet.took_back", round=row["round"], name=row["winner"], scores=scores), *sheet.render(w)]

    change_table(file, take_back)
