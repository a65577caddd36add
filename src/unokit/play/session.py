"""One game at the terminal, without the screen: seats, bots, the prompts a human answers,
the event log in words, round summaries and the record. :mod:`unokit.play.app` draws it.

Keeping this apart from the UI lets the tests check every decision kind directly, and lets
another front end (a plain prompt, a web page) reuse it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import reduce
from pathlib import Path
from typing import Any

from ..bots.advice import Advice, advise
from ..bots.habits import ForgetfulBot, Reaction
from ..core.actions import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    COLOR,
    DISCARD,
    DRAW,
    KEEP,
    PLAY,
    PLAY_DRAWN,
    PRESS,
    PRESS_AGAIN,
    STOP,
    TRADE,
    UNO,
    Action,
)
from ..core.cards import COLOR_BY_NAME, COLOR_NAMES, KIND_BY_NAME, KINDS, NO_COLOR, SIDE_COLORS
from ..core.errors import UnokitError
from ..core.game import Event, Game
from ..core.observation import View, observe
from ..core.teams import team_members
from ..core.types import DecisionKind
from ..core.variants import OPTION_SPECS, VARIANTS, Options
from ..i18n import catalog
from ..i18n.lines import Words
from ..i18n.prompts import prompt_line
from ..keys import HAND_DECISIONS
from ..narration import Narrator, action_line
from ..record import GameRecord, RecordingGame, Seat, save_record
from ..record.hints import HintMark, mark_hint
from ..record.replay import start_game
from . import faces

#: Where records of played games go unless ``--record`` says otherwise.
RECORDS_ENV = "UNOKIT_RECORDS"
#: How hard the engine looks for a hint (:data:`unokit.bots.advice.EFFORTS`): a tenth of a second
#: or so on the compiled kernel, a few tenths on the Python engine.
HINT_EFFORT = "normal"
#: Decisions answered by picking a card of the hand to discard.
_DISCARDING = (DecisionKind.CHOOSE_DISCARD, DecisionKind.DISCARD_CARDS)


def default_record_dir() -> Path:
    """``$UNOKIT_RECORDS``, else ``$XDG_DATA_HOME/unokit/records``, else
    ``~/.local/share/unokit/records``."""
    explicit = os.environ.get(RECORDS_ENV)
    if explicit:
        return Path(explicit).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "unokit" / "records"


def default_record_path(variant: str, seed: int, when: datetime | None = None) -> Path:
    """A fresh file name in :func:`default_record_dir` for a game of ``variant`` and ``seed``."""
    stamp = (when or datetime.now()).strftime("%Y%m%d-%H%M%S")
    return default_record_dir() / f"{stamp}-{variant}-{seed}.json"


@dataclass
class Player:
    """A seat: a person (``bot`` is ``None``) or a bot with its name for the record."""

    name: str
    bot: ForgetfulBot | None = None
    bot_name: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def human(self) -> bool:
        return self.bot is None

    def seat_record(self) -> Seat:
        if self.bot is None:
            return Seat(self.name, "human")
        habits = self.bot.habits
        settings = {
            **self.settings,
            "forget": habits.forget,
            "late_uno": habits.late_uno,
            "catch": habits.catch,
            "reaction": list(habits.reaction),
            "think": list(habits.think),
        }
        return Seat(self.name, "bot", self.bot_name or self.bot.inner.name, settings)


@dataclass(frozen=True)
class Choice:
    """One answer of a menu prompt. An answer that still needs a colour named (a wild played
    or passed on) holds one choice per colour in ``colors``, asked next, and ``action`` is the
    first of them."""

    label: str
    action: Action
    colors: tuple[Choice, ...] = ()


def naming_a_color(label: str, actions: Sequence[Action]) -> Choice:
    """One answer for ``actions``, the same card naming each colour it may (or one action
    naming none)."""
    if len(actions) == 1 and actions[0].color == NO_COLOR:
        return Choice(label, actions[0])
    return Choice(label, actions[0], tuple(Choice(faces.color_label(COLOR_NAMES[a.color]), a) for a in actions))


@dataclass(frozen=True)
class HandCard:
    """A card of the hand as shown: its id, active face, visible back and whether it can go now."""

    card: int
    face: str
    back: str | None
    legal: bool


@dataclass(frozen=True)
class Prompt:
    """What a human must decide: pick a card from ``hand`` (``pick_from_hand``) or one of
    ``choices``; in a hand prompt ``choices`` holds the other options (draw, press)."""

    seat: int
    decision: str
    message: str
    hand: list[HandCard]
    pick_from_hand: bool
    choices: list[Choice]


@dataclass(frozen=True)
class SummaryLine:
    """One seat in a round summary: the cards left (each face on the side the round ended on,
    with its points) and the scores."""

    seat: int
    name: str
    cards: list[tuple[str, int]]
    hand_points: int
    gained: int
    total: int


@dataclass(frozen=True)
class RoundSummary:
    """The end of a round: who went out, on which side, every hand and the running scores;
    with ``teams=true`` the teams (seats) and their totals."""

    round: int
    winner: int
    side: str
    lines: list[SummaryLine]
    over: bool
    winners: list[int]
    blocked: bool
    teams: list[list[int]] = field(default_factory=list)
    team_scores: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Outcome:
    """What one applied action did."""

    seat: int
    action: Action
    events: list[Event]
    summary: RoundSummary | None
    exposed: int | None  # a seat that has just played down to one card without calling UNO
    flipped_to: str | None  # the new side's name when everything flipped


def hand_cards(game: Game, seat: int, legal_cards: set[int] | None = None) -> list[HandCard]:
    """``seat``'s hand as shown: sorted by the active face (colours in side order, then kind),
    each card with its back on a double-sided deck; ``legal_cards`` are marked playable."""
    deck = game.deck
    side = game.side
    cards = sorted(
        game.hands[seat],
        key=lambda t: (deck.color[side][t] if deck.color[side][t] != NO_COLOR else 99, deck.kind[side][t], t),
    )
    legal = legal_cards or set()
    return [
        HandCard(t, deck.face_texts[side][t], deck.face_texts[1 - side][t] if deck.double_sided else None, t in legal)
        for t in cards
    ]


def summarize(variant: str, names: Sequence[str], events: list[Event]) -> RoundSummary | None:
    """The :class:`RoundSummary` of the round that ``events`` end (from the hands its
    ``round_end`` event shows), or ``None``."""
    end = next((e for e in events if e["type"] == "round_end"), None)
    if end is None:
        return None
    rules = VARIANTS[variant]
    side = rules.side_names.index(end["side"])
    hands = end["hands"]
    lines = []
    for seat, name in enumerate(names):
        cards = []
        for text in hands[seat]:
            face = faces.face_of(text, side)
            cards.append((face, rules.card_points(faces.parse(face).kind)))
        if sum(p for _, p in cards) != end["hand_points"][seat]:
            cards = []  # not reconstructible: show only the engine's total
        lines.append(SummaryLine(seat, name, cards, end["hand_points"][seat], end["points"][seat], end["scores"][seat]))
    game_end = next((e for e in events if e["type"] == "game_end"), None)
    team_scores = list(end.get("team_scores", []))
    return RoundSummary(
        round=end["round"],
        winner=end["winner"],
        side=end["side"],
        lines=lines,
        over=game_end is not None,
        winners=list(game_end["winners"]) if game_end else [],
        blocked=any(e["type"] == "blocked" for e in events),
        teams=[list(members) for members in team_members(len(names))] if team_scores else [],
        team_scores=team_scores,
    )


def house_rules_line(options: Options, names: Sequence[str], lang: str | None = None) -> str:
    """The active house rules in words (``House rules: Jump-In · Stacking: progressive``), or an
    empty string when the official rules are played."""
    words = Words(catalog(lang))
    parts = []
    for spec in OPTION_SPECS:
        value = getattr(options, spec.name)
        if not spec.house_rule or not value:
            continue
        if spec.name == "stacking":
            reading = "same" if value is True else str(value)
            parts.append(words.t("play.house_rule_value", option=spec.name, value=words.cat.t(spec.value_key(reading))))
        elif spec.name == "teams":
            each = [" & ".join(names[s] for s in members) for members in team_members(len(names))]
            teams = reduce(lambda first, second: words.t("play.teams_versus", first=first, second=second), each)
            parts.append(words.t("play.house_rule_teams", option=spec.name, teams=teams))
        elif spec.name == "jump_in":
            parts.append(words.t("play.house_rule_jump_in", option=spec.name))  # J jumps in
        else:
            parts.append(words.option(spec.name))
    return words.t("play.house_rules", rules=" · ".join(parts)) if parts else ""


def _as_is(value: Any) -> Any:
    return value


#: The parameters of a question the terminal shows in its own way (the rest by their types).
_TERMINAL_SHOWN: dict[str, Callable[[Any], Any]] = {"card": faces.label, "color": faces.color_label}


class TerminalWords(Words):
    """:class:`~unokit.i18n.lines.Words` for the terminal: a colour comes with the glyph of its
    colour-blind symbol (``teal ▲``)."""

    def color(self, name: str | None) -> str:
        if not name or name not in COLOR_BY_NAME:
            return super().color(name)
        return f"{super().color(name)} {faces.glyph(name)}"

    def color_label(self, name: str | None) -> str:
        """A colour with its glyph and its symbol's name (``red ● circle``); a dash while one is
        being chosen."""
        return faces.color_label(name)


class Teller:
    """Tells events in words (:class:`~unokit.narration.Narrator` and :class:`TerminalWords`),
    following the side in play: ``Ann played Wild Draw Color — teal ▲``; to the reader at seat
    ``me`` in its reader forms (``You played Red 5``)."""

    def __init__(
        self,
        names: Sequence[str],
        side: int = 0,
        double_sided: bool = True,
        lang: str | None = None,
        me: int | None = None,
    ) -> None:
        self.names = list(names)
        faces.use_deck(double_sided)  # the marks of the deck it tells of
        self.narrator = Narrator(side, double_sided)
        self.words = TerminalWords(catalog(lang), self.names, me)

    @property
    def side(self) -> int:
        return self.narrator.side

    def line(self, event: Event) -> str | None:
        """One event in words (already redacted for the reader); ``None`` when not worth it."""
        line = self.narrator.line(event)
        return None if line is None else self.words.say(line)

    def lines(self, events: list[Event]) -> list[str]:
        return [line for line in (self.line(e) for e in events) if line]

    def phrases(self, deck_texts: Iterable[str]) -> list[str]:
        """What a line this teller says is never broken inside, when it is laid out in lines: the
        title of each face of the deck's cards (``deck_texts``, ``red 5/pink 2``), each colour of the
        deck in use as it is said (``teal ▲``) and each player's name."""
        titles = {self.words.card(face) for text in deck_texts for face in text.split("/")}
        colours = {self.words.color(name) for name in COLOR_NAMES if faces.in_use(name)}
        return sorted(titles | colours | set(self.names))


class Session:
    """A game between people and bots, recorded. The seat to act is asked through
    :meth:`prompt` (people) or :meth:`bot_act` (bots); :meth:`apply` plays an action."""

    def __init__(
        self,
        game: RecordingGame,
        players: Sequence[Player],
        setup: list[Event] | None = None,
        record_path: Path | None = None,
        meta: dict[str, Any] | None = None,
        hints: bool = True,
    ) -> None:
        if len(players) != game.n:
            raise ValueError(f"{game.n} seats need {game.n} players, got {len(players)}")
        self.game = game
        self.players = list(players)
        self.setup = list(setup or [])
        self.record_path = record_path
        self.meta = dict(meta or {})
        self.save_error: str | None = None
        self.uno_called: set[int] = set()  # seats that called UNO for the one card they hold
        self.views = [View(game, seat) for seat in range(game.n)]
        #: Whether a person may ask for hints: offered in games of one person against bots.
        self.hints = hints and len(self.humans) == 1
        faces.use_deck(game.rules.double_sided)  # the marks of this deck, in every word of the table
        for seat, player in enumerate(self.players):
            if player.bot is not None:
                player.bot.reset(seat)

    # ------------------------------------------------------------------ seats
    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    @property
    def humans(self) -> list[int]:
        return [s for s, p in enumerate(self.players) if p.human]

    @property
    def reader(self) -> int | None:
        """The seat of the one person at the table, who reads it (``None`` in a hot-seat game,
        whose log everyone reads)."""
        humans = self.humans
        return humans[0] if len(humans) == 1 else None

    def is_human(self, seat: int | None) -> bool:
        return seat is not None and self.players[seat].human

    def said_uno(self, seat: int) -> bool:
        """Whether ``seat`` holds one card and called UNO for it (with the play that left it
        one card, or late); seen by everyone at the table."""
        if len(self.game.hands[seat]) != 1:
            self.uno_called.discard(seat)
            return False
        return seat in self.uno_called

    # ------------------------------------------------------------------ acting
    def apply(self, action: Action | str, seat: int) -> Outcome:
        """Apply ``action`` for ``seat``; errors (``UnokitError``) leave everything as it was."""
        game = self.game
        if isinstance(action, str):
            action = game.parse_action(action, seat)
        events = game.apply(action, seat=seat)
        for event in events:
            if event["type"] == "uno" or (event["type"] in ("play", "discard") and event.get("uno")):
                self.uno_called.add(event["seat"])
        exposed = self.views[0].uno_exposed
        newly = None
        if exposed >= 0 and any(
            e["type"] in ("play", "discard") and e["seat"] == exposed and not e.get("uno") for e in events
        ):
            newly = exposed
        flips = [e for e in events if e["type"] == "flip"]
        summary = summarize(game.variant, self.names, events)
        if summary is not None:
            self.save()
        return Outcome(seat, action, events, summary, newly, str(flips[-1]["side"]) if flips else None)

    def think_time(self, seat: int) -> float:
        """Seconds the bot at ``seat`` takes to think before its decision (its habits)."""
        bot = self.players[seat].bot
        if bot is None:
            raise ValueError(f"seat {seat} is not a bot")
        return bot.think_time()

    def bot_act(self, seat: int) -> Action:
        bot = self.players[seat].bot
        if bot is None:
            raise ValueError(f"seat {seat} is not a bot")
        return bot.act(self.views[seat])

    def reactions(self) -> list[Reaction]:
        """The bots' reactions to a missing UNO call, fastest first (ties: in turn order from
        the exposed seat). Each bot draws its chance and reaction time from its own RNG."""
        exposed = self.views[0].uno_exposed
        if exposed < 0:
            return []
        out = []
        n = self.game.n
        for k in range(n):
            seat = (exposed + k) % n
            bot = self.players[seat].bot
            if bot is None:
                continue
            reaction = bot.reaction(self.views[seat])
            if reaction is not None:
                out.append((reaction.after, k, reaction))
        return [r for _, _, r in sorted(out, key=lambda x: (x[0], x[1]))]

    def out_of_turn(self, seat: int) -> list[Action]:
        """``seat``'s catch or late UNO call, when one is open."""
        return [a for a in self.game.legal_actions(seat) if a.kind in (CATCH, UNO)]

    def jumps(self, seat: int) -> list[Action]:
        """``seat``'s jumps (``jump_in=true``, H-1): its plays out of turn, without the UNO
        call (``with_uno`` adds it)."""
        if seat == self.game.to_act:
            return []
        return [a for a in self.game.legal_actions(seat) if a.kind == PLAY and not a.uno]

    def jump_reactions(self) -> list[Reaction]:
        """The bots that jump in on the card just played, fastest first (ties: in turn order
        from its player, as ``game.responders()`` lists them)."""
        game = self.game
        if not game.options.jump_in or not game.windows:
            return []
        out = []
        for k, seat in enumerate(game.responders()):
            bot = self.players[seat].bot
            if bot is None or not self.jumps(seat):
                continue
            reaction = bot.jump(self.views[seat])
            if reaction is not None:
                out.append((reaction.after, k, reaction))
        return [r for _, _, r in sorted(out, key=lambda x: (x[0], x[1]))]

    def house_rules(self) -> str:
        """The settings line: the active house rules, or an empty string."""
        return house_rules_line(self.game.options, self.names)

    # ------------------------------------------------------------------ prompts
    def hand(self, seat: int, legal_cards: set[int] | None = None) -> list[HandCard]:
        """``seat``'s hand, sorted by the active face (colours in side order, then kind)."""
        return hand_cards(self.game, seat, legal_cards)

    @property
    def words(self) -> TerminalWords:
        """The table's words, in the terminal's language, seats by name, to its :attr:`reader`."""
        return TerminalWords(catalog(), self.names, self.reader)

    def prompt(self, seat: int) -> Prompt:
        """What ``seat`` (the seat to act) must decide, for a person, in the terminal's language."""
        game = self.game
        decision = game.decision
        legal = [a for a in game.legal_actions(seat) if a.kind not in (CATCH, UNO)]
        pending = self.views[seat].pending()
        w = self.words
        # The question, worded as the browser words it (unokit.i18n.prompts); the terminal shows
        # a card and a colour with their glyphs (``● Red 5``, ``blue ■ square``).
        line = prompt_line(observe(game, seat))
        message = w.t(line.key, **{name: _TERMINAL_SHOWN.get(name, _as_is)(v) for name, v in line.params.items()})
        discarding = decision in _DISCARDING
        if decision in HAND_DECISIONS:
            kinds = (DISCARD,) if discarding else (PLAY,)
            playable = {a.card for a in legal if a.kind in kinds}
            others = []
            for a in legal:
                if a.kind == DRAW:
                    if decision == "stack":
                        label = w.t("n.action.draw_all", count=game.stack_total)
                    elif game.options.draw_until_playable:
                        label = w.t("action.draw.until")
                    else:
                        label = w.t("action.draw")
                    others.append(Choice(label, a))
                elif a.kind == PRESS:
                    if decision == "stack":
                        label = w.t("n.action.press_all", count=game.stack_total)
                    else:
                        label = w.t("action.press")
                    others.append(Choice(label, a))
            return Prompt(seat, decision, message, self.hand(seat, playable), True, others)
        choices: list[Choice] = []
        if decision == "play_or_keep":
            drawn = faces.face_of(str(pending["card"]), game.side)
            plays = [a for a in legal if a.kind == PLAY_DRAWN and not a.uno]
            if plays:
                choices.append(naming_a_color(w.t("play.play_drawn", card=drawn), plays))
            choices += [Choice(w.t("action.keep"), a) for a in legal if a.kind == KEEP]
        elif decision == "challenge":
            kind = KINDS[KIND_BY_NAME[str(pending["card"])]]
            previous = pending.get("previous_color")
            # The challenge asks a question about the hand; it tells nothing about it.
            if previous:
                claim = w.t("play.challenge_color", by=pending["by"], color=previous)
            else:
                claim = w.t("play.challenge_bluff", by=pending["by"])
            passes: dict[int, list[Action]] = {}  # stacked Wild Draw cards passed on (H-3), by card
            for a in legal:
                if a.kind == CHALLENGE:
                    choices.append(Choice(claim, a))
                elif a.kind == ACCEPT:
                    if game.stack_total:
                        accept = w.t("n.play.accept_all", count=game.stack_total)
                    elif kind.draws:
                        accept = w.t("n.play.accept_draw", count=kind.draws)
                    else:
                        accept = w.t("play.accept_until", color=pending["color"])
                    choices.append(Choice(accept, a))
                elif a.kind == PLAY and not a.uno:
                    passes.setdefault(a.card, []).append(a)
            for passed, plays in passes.items():
                choices.append(naming_a_color(w.t("play.pass_on", card=game.face_text(passed)), plays))
        elif decision == "choose_color":
            choices = [Choice(w.color_label(COLOR_NAMES[a.color]), a) for a in legal if a.kind == COLOR]
        elif decision == "choose_player":
            sizes = self.views[seat].hand_sizes
            choices = [
                Choice(w.t("action.trade.cards", target=a.seat, cards=w.t("n.cards", count=sizes[a.seat])), a)
                for a in legal
                if a.kind == TRADE
            ]
        elif decision == "press_your_luck":
            # Every empty press is followed by a discard, so no discard yet means no press yet.
            done = pending.get("discarded") or []
            labels = {
                PRESS_AGAIN: w.t("action.press_again") if done else w.t("action.press"),
                STOP: w.t("action.stop"),
            }
            choices = [Choice(labels[a.kind], a) for a in legal if a.kind in labels]
        elif decision == "choose_target":
            choices = [Choice(w.t("action.target", target=a.seat), a) for a in legal]
        else:
            choices = [Choice(w.say(action_line(game, a.text, seat)), a) for a in legal]
        return Prompt(seat, decision, message, self.hand(seat), False, choices)

    def card_actions(self, seat: int, card: int) -> list[Action]:
        """The plays (or discards) of ``card`` open to ``seat`` now, without the UNO call;
        several when a colour must be named."""
        kinds = (DISCARD,) if self.game.decision in _DISCARDING else (PLAY,)
        return [a for a in self.game.legal_actions(seat) if a.kind in kinds and a.card == card and not a.uno]

    def with_uno(self, seat: int, action: Action, declare: bool) -> Action:
        """``action`` with the UNO call when ``declare`` and the call is open for it."""
        if not declare or action.kind not in (PLAY, PLAY_DRAWN, DISCARD):
            return action
        wanted = (action.kind, action.card, action.color, True, action.seat)
        for other in self.game.legal_actions(seat):
            if other.key == wanted:
                return other
        return action

    def explain(self, seat: int, card: int) -> str:
        """Why ``card`` cannot be played now, in the terminal's language."""
        game = self.game
        verb = "discard" if game.decision in _DISCARDING else "play"
        text = f"{verb} {game.card_text(card)}"
        if verb == "play" and game.deck.kinds[game.side][card].color_with_play:
            text += f" {COLOR_NAMES[SIDE_COLORS[game.side][0]]}"  # a wild is played naming a colour
        probe = game.clone()
        try:
            probe.apply(text, seat=seat)
        except UnokitError as exc:
            return self.words.error(exc)
        return self.words.t("play.cannot_play", card=game.face_text(card))

    # ------------------------------------------------------------------ hints
    def hint_work(self, seat: int) -> Callable[[], Advice]:
        """The work of a hint for ``seat``'s open decision (:func:`unokit.bots.advice.advise`,
        from what the seat saw of the game so far), holding its own copy of the game: it may
        run in another thread while the table waits. ``ValueError`` when hints are not offered
        here."""
        if not self.hints:
            raise ValueError("hints are offered in games of one person against bots")
        start, _ = start_game(self.game.to_record(result=False))
        moves = list(self.game.moves)
        seed = self.game.seed
        return lambda: advise(start, moves, seat, HINT_EFFORT, seed)

    def mark_hint(self, advice: Advice) -> None:
        """Mark in the record that ``advice`` was shown (``meta.hints``, docs/records.md)."""
        mark_hint(
            self.meta, HintMark(advice.step, advice.seat, advice.best.text, round(advice.chance, 4), advice.effort)
        )

    # ------------------------------------------------------------------ words and records
    def teller(self, side: int | None = None) -> Teller:
        """A :class:`Teller` for this table, from the game's side (or ``side``)."""
        game = self.game
        return Teller(self.names, game.side if side is None else side, game.rules.double_sided, me=self.reader)

    def record(self) -> GameRecord:
        return self.game.to_record([p.seat_record() for p in self.players], self.meta)

    def save(self) -> Path | None:
        """Write the record (if the session has a path); return where. ``None`` also when it
        could not be written (a full disk, a folder removed meanwhile): ``save_error`` says why."""
        if self.record_path is None:
            return None
        try:
            path = save_record(self.record(), self.record_path)
        except OSError as exc:
            self.save_error = catalog().t("play.save_error", path=str(self.record_path), error=str(exc.strerror or exc))
            return None
        self.save_error = None
        return path


__all__ = [
    "Choice",
    "HandCard",
    "Outcome",
    "Player",
    "Prompt",
    "RoundSummary",
    "Session",
    "SummaryLine",
    "Teller",
    "TerminalWords",
    "default_record_dir",
    "default_record_path",
    "hand_cards",
    "summarize",
]
