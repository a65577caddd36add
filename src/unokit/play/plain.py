"""``unokit play --plain``: the terminal game as lines of text, for screen readers and braille
displays, and for anything that talks through a pipe.

Nothing is redrawn: every event is one line, printed as it happens, in the words of the
terminal game's log (:class:`~unokit.play.session.Teller`); each decision is its question and
numbered answers (:meth:`~unokit.play.session.Session.prompt`, the same prompts the full-screen
game shows). A person answers with a line: the number of an answer, a move in the notation
(``play red 5``, ``draw``, ``challenge``; any unambiguous beginning of one), or a command
(:data:`COMMANDS`). No escape code, no cursor movement, no Textual: standard input and output
only, so a script of typed lines plays a whole game.
"""

from __future__ import annotations

import os
import select
import time
from collections.abc import Callable, Iterable
from typing import TextIO

from ..bots import bot_label
from ..core.actions import CATCH, PLAY, UNO, Action
from ..core.cards import COLOR_NAMES
from ..core.errors import UnokitError
from ..core.game import Event
from ..core.observation import redact
from ..i18n import catalog
from . import faces
from .help import rules_page, rules_summary
from .session import Choice, Prompt, RoundSummary, Session, naming_a_color

#: The commands of the line mode, each with the words that ask for it: English words and the
#: letter of its key in the full-screen game (or the browser's reading keys H, T, R); the words
#: of the catalogue's ``text.read.*`` in the player's language are added (:func:`command_of`).
COMMANDS: dict[str, tuple[str, ...]] = {
    "hand": ("hand", "h"),
    "table": ("table", "t"),
    "moves": ("moves", "last", "log", "r", "l"),
    "uno": ("uno", "u"),
    "catch": ("catch", "c"),
    "jump": ("jump", "j"),
    "help": ("help", "?"),
    "quit": ("quit", "q", "exit"),
}
#: The catalogue's words for the reading commands, in the player's language.
_READ_KEYS = {"hand": "text.read.hand", "table": "text.read.table", "moves": "text.read.moves"}
#: How many lines of the log ``moves`` reads again.
LAST_LINES = 6


def _move(action: Action) -> tuple[str, int, int, int]:
    """What an action does, whether or not it calls UNO with it."""
    kind, card, color, _uno, seat = action.key
    return (kind, card, color, seat)


class Quit(Exception):
    """The person asked to quit, or standard input ended."""


def command_of(text: str) -> str | None:
    """The command ``text`` asks for (a key of :data:`COMMANDS`), or ``None``."""
    said = " ".join(text.lower().split())
    for command, names in COMMANDS.items():
        local = catalog().t(_READ_KEYS[command]).lower().split("|") if command in _READ_KEYS else []
        if said in names or said in local:
            return command
    return None


class Lines:
    """Lines read from ``stream``, with room to put one back (a line typed during a window
    that was not meant for it). ``ready`` waits for a line, as long as ``seconds``.

    A stream with a descriptor is read through it, unbuffered by Python, so that a line typed
    (or piped) ahead is never hidden in a buffer while ``ready`` asks the descriptor."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.back: list[str | None] = []
        self.pending = b""
        self.ended = False
        try:
            self.fd: int | None = stream.fileno()
        except (OSError, ValueError, AttributeError):
            self.fd = None  # an in-memory stream: always ready

    def ready(self, seconds: float) -> bool:
        if self.back or self.fd is None or self.ended or b"\n" in self.pending:
            return True
        readable, _, _ = select.select([self.fd], [], [], max(seconds, 0.0))
        return bool(readable)

    def read(self) -> str | None:
        """The next line without its end, or ``None`` once the input has ended."""
        if self.back:
            return self.back.pop()
        if self.fd is None:
            line = self.stream.readline()
            return None if line == "" else line.rstrip("\r\n")
        while b"\n" not in self.pending and not self.ended:
            chunk = os.read(self.fd, 4096)
            self.ended = not chunk
            self.pending += chunk
        if not self.pending:
            return None
        raw, _, self.pending = self.pending.partition(b"\n")
        return raw.decode("utf-8", errors="replace").rstrip("\r")

    def unread(self, line: str | None) -> None:
        self.back.append(line)


class PlainGame:
    """One game played in lines. ``think`` is every bot's wait before it acts (``None``: its
    level's think time; 0: none); ``catch_window`` the seconds a person has to type ``catch``
    (or ``uno``, ``jump``) when a window opens."""

    def __init__(
        self,
        session: Session,
        read: TextIO,
        write: TextIO,
        think: float | None = None,
        catch_window: float = 2.5,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.session = session
        self.lines = Lines(read)
        self.out = write
        self.think = think
        self.catch_window = catch_window
        self.sleep = sleep
        self.teller = session.teller()
        self.words = session.words
        humans = session.humans
        self.viewer: int | None = humans[0] if len(humans) == 1 else None  # hot seat: the public log
        self.history: list[str] = []
        self.uno_armed = False

    # ------------------------------------------------------------------ output
    def say(self, *lines: str) -> None:
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def tell(self, events: list[Event]) -> None:
        """Print each of ``events`` the reader may see as its line of the log."""
        for event in redact(events, self.viewer):
            if event["type"] == "press" and not event.get("empty"):
                presser = event["presser"] if "presser" in event else event["seat"]
                self.say(self.words.t("play.pressing", player=presser))
            line = self.teller.line(event)
            if line:
                self.say(line)
                self.history.append(line)

    # ------------------------------------------------------------------ the game
    def run(self) -> None:
        """Play until the game ends, the person quits or the input ends; the record is saved
        (by the session) at each round's end and here at the end."""
        session = self.session
        w = self.words
        try:
            self.say(w.t("plain.start", variant=session.game.variant, seats=catalog().join(self.seats())))
            rules = session.house_rules()
            if rules:
                self.say(rules)
            self.say(w.t("plain.commands"))
            self.tell(session.setup)
            self.drive()
        except (Quit, KeyboardInterrupt):  # Ctrl+C quits as `quit` does, the record saved
            pass
        finally:
            session.save()

    def seats(self) -> list[str]:
        w = self.words
        return [
            w.t("play.bot_seat", name=p.name, bot=w.bot(bot_label(p.bot_name))) if p.bot_name else p.name
            for p in self.session.players
        ]

    def drive(self) -> None:
        game = self.session.game
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            if self.session.is_human(seat):
                self.ask(seat)
            else:
                self.sleep(self.session.think_time(seat) if self.think is None else self.think)
                self.perform(self.session.bot_act(seat), seat)

    def perform(self, action: Action, seat: int, *, reactions: bool = True) -> None:
        outcome = self.session.apply(action, seat)
        events = outcome.events
        ends = [k for k, e in enumerate(events) if e["type"] in ("round_end", "game_end")]
        cut = ends[-1] + 1 if ends else len(events)
        self.tell(events[:cut])  # the round's end, then its summary, then the next deal
        if outcome.summary is not None:
            self.summary(outcome.summary)
        self.tell(events[cut:])
        if reactions and outcome.exposed is not None:
            self.uno_window(outcome.exposed)
        if reactions and outcome.summary is None:
            self.jump_window()

    def window(self, notice: str, mine: list[Action], fastest: float | None) -> Action | None:
        """Tell ``notice`` and wait (up to the catch window, or the fastest bot's reaction) for
        a line asking for one of ``mine``; any other line is kept for the next question."""
        self.say(notice)
        timeout = min([self.catch_window] + ([] if fastest is None else [fastest]))
        if not self.lines.ready(timeout):
            return None
        line = self.lines.read()
        command = command_of(line or "")
        kinds = {"catch": CATCH, "uno": UNO, "jump": PLAY}
        for action in mine:
            if command in kinds and action.kind == kinds[command]:
                return action
        self.lines.unread(line)
        return None

    def uno_window(self, exposed: int) -> None:
        session = self.session
        reactions = session.reactions()
        mine = session.out_of_turn(self.viewer) if self.viewer is not None else []
        if mine and self.catch_window > 0:
            w = self.words
            notice = w.t("read.forgot_uno") if exposed == self.viewer else w.t("read.may_catch", player=exposed)
            action = self.window(
                f"{notice} ({w.t('play.catch_keys')})", mine, reactions[0].after if reactions else None
            )
            if action is not None and self.viewer is not None:
                self.perform(action, self.viewer, reactions=False)
                return
            if reactions and reactions[0].after <= self.catch_window:
                self.perform(reactions[0].action, reactions[0].seat, reactions=False)
        elif reactions:
            self.perform(reactions[0].action, reactions[0].seat, reactions=False)

    def jump_window(self) -> None:
        session = self.session
        if session.game.is_over or not session.game.windows:
            return
        reactions = session.jump_reactions()
        mine = session.jumps(self.viewer) if self.viewer is not None else []
        if mine and self.catch_window > 0:
            w = self.words
            notice = f"{w.t('read.may_jump')} ({w.t('play.jump_keys')})"
            action = self.window(notice, mine[:1], reactions[0].after if reactions else None)
            if action is not None and self.viewer is not None:
                self.perform(self.session.with_uno(self.viewer, action, self.uno_armed), self.viewer)
                self.uno_armed = False
                return
            if reactions and reactions[0].after <= self.catch_window:
                self.perform(reactions[0].action, reactions[0].seat)
        elif reactions:
            self.perform(reactions[0].action, reactions[0].seat)

    def summary(self, summary: RoundSummary) -> None:
        w = self.words
        key = "play.round_blocked" if summary.blocked else "play.round_out"
        ended = w.t(key, round=summary.round, winner=summary.winner)
        if self.session.game.rules.double_sided:
            ended += f" {w.t('play.counted_on_side', side=summary.side)}"
        self.say(ended)
        self.say(f"{w.t('play.scores')} ({w.t('play.scores_columns')}):")
        for line in summary.lines:
            cards = catalog().join(
                [w.t("summary.card_points_terminal", card=face, points=points) for face, points in line.cards]
            )
            self.say(f"  {line.name}: +{line.gained}, {line.total}" + (f" ({cards})" if cards else ""))
        for members, total in zip(summary.teams, summary.team_scores, strict=True):
            names = " & ".join(self.session.names[seat] for seat in members)
            self.say(f"  {w.t('play.team', names=names)}: {total}")
        if summary.over:
            self.say(w.t("play.game_over", winners=list(summary.winners)))
            return
        self.say(w.t("plain.next_round"))
        answer = self.lines.read()
        if answer is None or command_of(answer) == "quit":
            raise Quit

    # ------------------------------------------------------------------ a person's decision
    def choices(self, prompt: Prompt) -> list[Choice]:
        """The numbered answers of ``prompt``: each card that may go now, once for identical
        cards (naming a colour next when it must), then the other answers."""
        if not prompt.pick_from_hand:
            return list(prompt.choices)
        cards: list[Choice] = []
        seen: set[tuple[str, str | None]] = set()
        legal = [card for card in prompt.hand if card.legal]
        faces_shown = [card.face for card in legal]
        for card in legal:
            actions = self.session.card_actions(prompt.seat, card.card)
            if not actions or (card.face, card.back) in seen:  # two identical cards: one move
                continue
            seen.add((card.face, card.back))
            label = faces.title(card.face)
            if card.back is not None and faces_shown.count(card.face) > 1:  # told apart by their backs
                label += f" ({self.words.t('play.back', card=faces.label(card.back))})"
            cards.append(naming_a_color(label, actions))
        return cards + list(prompt.choices)

    def show(self, question: str, choices: list[Choice]) -> None:
        self.say(question, *(f"  {k}. {choice.label}" for k, choice in enumerate(choices, 1)))

    def ask(self, seat: int) -> None:
        """Ask ``seat`` (a person) its decision until a line gives one that the game takes."""
        session = self.session
        w = self.words
        prompt = session.prompt(seat)
        if self.viewer is None:  # hot seat: say whose decision it is
            self.say(w.t("plain.turn", player=seat))
        if prompt.pick_from_hand:
            self.say(self.hand_words(seat))
        choices = self.choices(prompt)
        question = prompt.message
        self.show(question, choices)
        while True:
            line = self.lines.read()
            if line is None:
                raise Quit
            action = self.answer(line, seat, choices, question)
            if action is None:
                continue
            action = session.with_uno(seat, action, self.uno_armed)
            try:
                self.perform(action, seat)
            except UnokitError as exc:
                self.say(w.error(exc))
                self.show(question, choices)
                continue
            self.uno_armed = False
            return

    def answer(self, line: str, seat: int, choices: list[Choice], question: str) -> Action | None:
        """The action ``line`` gives, or ``None`` after answering it (a command, or a line
        that is no answer: then what may be typed, and the question again)."""
        w = self.words
        text = " ".join(line.split())
        if not text:
            self.show(question, choices)
            return None
        command = command_of(text)
        if command is not None:
            self.command(command, seat)
            if command not in ("hand", "table", "moves", "help"):
                return None
            self.show(question, choices)
            return None
        if text.isdigit():
            number = int(text)
            if not 1 <= number <= len(choices):
                self.say(w.t("plain.no_choice", text=text, high=len(choices)))
                self.show(question, choices)
                return None
            choice = choices[number - 1]
            if choice.colors:
                return self.pick_color(choice, seat)
            return choice.action
        legal = [a for a in self.session.game.legal_actions(seat) if a.kind not in (CATCH, UNO)]
        names = [a.text for a in legal]
        wanted = text.lower()
        if wanted in names:
            return legal[names.index(wanted)]
        matching = [a for a, name in zip(legal, names, strict=True) if name.startswith(wanted)]
        if len(matching) == 1:
            return matching[0]
        # the notation names engine words; a player reads the answers by their numbers and words
        number_of = {
            _move(action): k
            for k, choice in enumerate(choices, 1)
            for action in (choice.action, *(c.action for c in choice.colors))
        }
        numbers = sorted({number_of[_move(a)] for a in matching if _move(a) in number_of})
        if not numbers:  # the words of an answer: "red 8", «красная 8»
            numbers = [k for k, choice in enumerate(choices, 1) if choice.label.lower().startswith(wanted)]
            if len(numbers) == 1:
                choice = choices[numbers[0] - 1]
                return self.pick_color(choice, seat) if choice.colors else choice.action
        if len(numbers) > 1:
            self.say(w.t("text.which", text=text, moves=self.answers(choices, numbers)))
        else:
            self.say(w.t("text.unknown", text=text, moves=self.answers(choices, range(1, len(choices) + 1))))
            self.say(w.t("plain.commands"))
        self.show(question, choices)
        return None

    @staticmethod
    def answers(choices: list[Choice], numbers: Iterable[int]) -> str:
        """Answers by number and words: ``1 (Red 8), 2 (Green 5)``."""
        return catalog().join(f"{k} ({choices[k - 1].label})" for k in numbers)

    def pick_color(self, choice: Choice, seat: int) -> Action | None:
        """Ask the colour ``choice`` names; ``None`` (and the question again) when the line is
        no colour."""
        w = self.words
        question = w.t("play.name_the_color", card=choice.label)
        colors = list(choice.colors)
        while True:
            self.show(question, colors)
            line = self.lines.read()
            if line is None:
                raise Quit
            text = " ".join(line.split()).lower()
            if text.isdigit() and 1 <= int(text) <= len(colors):
                return colors[int(text) - 1].action
            named = [c for c in colors if c.label.lower().startswith(text) or c.action.text.endswith(f" {text}")]
            if text and len(named) == 1:
                return named[0].action
            if command_of(text) == "quit":
                raise Quit
            self.say(w.t("plain.no_choice", text=line.strip(), high=len(colors)))

    def command(self, command: str, seat: int) -> None:
        w = self.words
        session = self.session
        if command == "quit":
            raise Quit
        if command == "hand":
            self.say(self.hand_words(seat))
        elif command == "table":
            self.say(self.table_words())
        elif command == "moves":
            last = self.history[-LAST_LINES:]
            self.say(w.t("read.moves", lines="; ".join(last)) if last else w.t("read.no_moves"))
        elif command == "help":
            self.say(*rules_summary(session.game, legend=True), rules_page(session.game), w.t("plain.commands"))
        elif command in ("catch", "uno"):
            kind = CATCH if command == "catch" else UNO
            late = [a for a in session.out_of_turn(seat) if a.kind == kind]
            if late:
                self.perform(late[0], seat, reactions=False)
            elif command == "catch":
                self.say(w.t("play.nobody_to_catch"))
            else:
                self.uno_armed = not self.uno_armed
                self.say(w.t("play.uno_armed") if self.uno_armed else w.t("play.uno_unarmed"))
        elif command == "jump":
            self.say(w.t("play.nothing_to_jump"))

    def hand_words(self, seat: int) -> str:
        """The hand, each card by its name, those that may go now marked."""
        w = self.words
        session = self.session
        game = session.game
        legal = {a.card for a in game.legal_actions(seat) if a.kind != CATCH and a.kind != UNO}
        turn = game.to_act == seat
        hand = session.hand(seat, legal if turn else set())
        names = [w.t("read.card_playable", card=c.face) if c.legal else faces.title(c.face) for c in hand]
        return w.t("read.hand", cards=w.t("n.cards", count=len(hand)), list=catalog().join(names))

    def table_words(self) -> str:
        """The top card, the colour, the direction, the draw pile, each seat's cards and points,
        whose turn."""
        w = self.words
        session = self.session
        game = session.game
        view = session.views[self.viewer if self.viewer is not None else 0]
        parts = [w.t("read.top", card=game.face_text(game.top_card))] if game.discard else []
        parts.append(
            f"{w.t('table.color_in_play')}: {faces.color_label(COLOR_NAMES[game.color] if game.color >= 0 else None)}"
        )
        parts.append(w.direction("clockwise" if game.direction == 1 else "counterclockwise"))
        if game.launcher is not None:
            parts.append(w.t("n.play.launcher_inside", count=view.draw_size))
        else:
            parts.append(w.t("n.play.draw_pile", count=view.draw_size))
        if game.stack_total:
            parts.append(w.t("play.stacked", total=game.stack_total))
        for seat, name in enumerate(session.names):
            size = len(game.hands[seat])
            seat_parts = [name, w.t("n.cards", count=size), w.t("n.points", count=game.scores[seat])]
            if session.said_uno(seat):
                seat_parts.append(w.t("table.uno"))
            parts.append(catalog().join(seat_parts))
        if game.to_act is not None and not game.is_over:
            mine = game.to_act == self.viewer
            parts.append(w.t("play.your_move") if mine else w.t("plain.turn", player=game.to_act))
        return ". ".join(part[:1].upper() + part[1:] for part in parts)


__all__ = ["COMMANDS", "LAST_LINES", "Lines", "PlainGame", "Quit", "command_of"]
