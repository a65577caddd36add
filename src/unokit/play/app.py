"""The terminal UI of ``unokit play`` (Textual): the table, your hand, prompts, the log.

Keyboard only, 80x24 and up. The screen draws a :class:`~unokit.play.session.Session`;
bots act in a worker with a short delay, launcher presses get a moment of suspense, and a
missing UNO call opens a short window in which you (and the bots, at their reaction times)
may catch it. With Jump-In (``jump_in=true``) a card you could jump on opens such a window
too: press J to jump in before the bots do. A settings line under the header names the house
rules in play. Keys: see ``docs/play.md`` or the bottom line of the screen.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import RichLog, Static

from ..bots import bot_label
from ..bots.advice import Advice
from ..bots.external import ExternalBotError
from ..core.actions import CATCH, DRAW, PRESS, UNO, Action
from ..core.cards import COLOR_NAMES
from ..core.errors import UnokitError
from ..core.game import Game
from ..core.observation import redact
from ..core.teams import partner
from ..i18n import N_, catalog
from ..i18n.cells import cells, pad
from ..i18n.lines import words_for
from ..keys import terminal_keys
from ..narration import action_line
from . import faces, look
from .help import KEYS, rules_page, rules_summary, whole_words
from .look import chip_rows, wrap_chips
from .session import Choice, Outcome, Prompt, RoundSummary, Session, Teller, naming_a_color
from .terminal import leave_on_hangup

SessionFactory = Callable[[], Session]

#: The most rows of the screen the opponents and the rows of cards in the hand take (see
#: ``PlayApp.CSS``); the prompt always shows every answer, and the log keeps at least
#: ``LOG_ROWS`` lines (it takes whatever the other panels leave; L shows all of it).
OPPONENT_ROWS = 10
HAND_ROWS = 6
LOG_ROWS = 3
#: The log lines the round summary repeats: the plays that ended the round.
LAST_PLAYS = 4
#: Seconds of the table's pauses (a launcher's suspense, a bot's reaction that nobody can race)
#: when the bots' pause before a decision is their own think time.
PAUSE = 0.6


class PassScreen(Screen[None]):
    """Hot seat: covers the whole table until the next player is at the keyboard."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "ready", "ready"),
        Binding("q,ctrl+q", "quit_game", "quit"),
    ]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        yield Static(
            Text.assemble(
                (tr("play.pass_to"), "bold"),
                (" ", ""),
                (self.player, "bold reverse"),
                (f"\n\n{tr('play.look_away')}\n\n", ""),
                (tr("play.press_enter_when_ready", name=self.player), "italic"),
                (f"\n\n{tr('play.key_quit')}", "italic"),
                justify="center",
            ),
            id="pass",
        )

    def action_ready(self) -> None:
        self.dismiss(None)

    def action_quit_game(self) -> None:
        app = self.app
        if isinstance(app, PlayApp):
            app.ask_to_quit()


class QuitScreen(ModalScreen[bool]):
    """Asks before leaving a game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "yes"),
        Binding("n,escape", "answer(False)", "no"),
    ]

    def __init__(self, where: Path | None) -> None:
        super().__init__()
        self.where = where

    def compose(self) -> ComposeResult:
        saved = tr("play.quit_saves", path=str(self.where)) if self.where else tr("play.not_recorded")
        yield Static(f"{tr('play.quit_question')}\n{saved}", id="quit")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


def help_rules(game: Game) -> Group:
    """The game being played in short (:func:`~unokit.play.help.rules_summary`) as the help
    shows it: each line flows over as many lines as the width needs without breaking a card's
    title or a card with its points (:func:`~unokit.play.help.whole_words`); then the keys that
    close the help."""
    whole = look.flow_pieces(whole_words(game))
    lines: list[RenderableType] = [
        Text(f"\n{words_for(None, None).t('help.in_short', variant=game.variant)}", style="bold")
    ]
    for line in [*rules_summary(game, legend=True), rules_page(game)]:
        indent = Text(" ") if line.startswith("  ") else None  # with the gap: two spaces
        lines.append(look.Flow(look.words_to_flow(line, whole), lead=indent) if line.strip() else Text(""))
    lines.append(Text(f"\n{tr('help.close_keys')}", style="italic"))
    return Group(*lines)


class HelpScreen(ModalScreen[None]):
    """``?``: the keys, and the game being played in short (:mod:`unokit.play.help`)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,question_mark,q,enter", "close", "close")]

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        keys = Table(box=None, show_header=False, padding=(0, 1), title=tr("help.keys"), title_justify="left")
        keys.add_column(style="bold", no_wrap=True)
        keys.add_column()
        for key, what in KEYS:
            keys.add_row(key, tr(what))
        with VerticalScroll(id="help-box"):
            yield Static(Group(keys, help_rules(self.game)), id="help")

    def on_mount(self) -> None:
        self.query_one("#help-box", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


class LogScreen(ModalScreen[None]):
    """``L``: the whole log of the game so far, newest at the bottom, for what scrolled away."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,l,q,enter", "close", "close")]

    def __init__(self, lines: Sequence[Text]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        text = Text(f"{tr('play.log_title')}\n", style="bold")
        text.append_text(Text("\n").join(self.lines))
        text.append(f"\n\n{tr('play.log_keys')}", style="italic")
        with VerticalScroll(id="log-box"):
            yield Static(text, id="whole-log")

    def on_mount(self) -> None:
        box = self.query_one("#log-box", VerticalScroll)
        box.focus()
        self.call_after_refresh(box.scroll_end, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


class NoticeScreen(ModalScreen[None]):
    """A message for the person at the keyboard alone, before the device is passed on."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space,escape", "close", "close")]

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble(self.message, (f"\n\n{tr('play.enter_go_on')}", "italic")), id="notice")

    def action_close(self) -> None:
        self.dismiss(None)


class SummaryScreen(Screen[str]):
    """The end of a round: every hand with each card's points, the running scores, and the
    choice to go on (or, after the last round, to start again) or to quit."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,n", "choose('next')", "next"),
        Binding("q,escape", "choose('quit')", "quit"),
    ]

    def __init__(
        self,
        summary: RoundSummary,
        names: list[str],
        can_restart: bool,
        last_plays: Sequence[str] = (),
        double_sided: bool = True,
        reader: int | None = None,
    ) -> None:
        super().__init__()
        self.summary = summary
        self.names = names
        self.reader = reader  # the seat of the person reading it, said as "you"
        self.can_restart = can_restart
        self.last_plays = list(last_plays)
        self.double_sided = double_sided

    def compose(self) -> ComposeResult:
        s = self.summary
        w = words_for(None, self.names, self.reader)
        text = Text()
        key = N_("play.round_blocked") if s.blocked else N_("play.round_out")
        text.append(w.t(key, round=s.round, winner=s.winner), style="bold")
        if self.double_sided:
            text.append(f"  {w.t('play.counted_on_side', side=s.side)}")
        text.append("\n")
        if self.last_plays:  # the plays that ended the round, which this screen covers
            text.append(f"{w.t('play.how_it_ended')}\n", style="italic")
            for play in self.last_plays:
                text.append(f"  {play}\n", style="italic")
        text.append(f"\n{w.t('play.scores')}", style="bold underline")
        text.append(f"   {w.t('play.scores_columns')}\n", style="italic")
        for line in s.lines:
            gained = f"+{line.gained}" if line.gained else "  ·"
            text.append(f"  {pad(line.name, 14)} {gained:>5}   {line.total:>5}\n")
        for members, total in zip(s.teams, s.team_scores, strict=True):
            team = w.t("play.team", names=" & ".join(self.names[seat] for seat in members))
            text.append(f"  {pad(team, 29)} {total:>5}\n", style="bold")
        if s.over:
            text.append(f"\n{w.t('play.game_over', winners=list(s.winners))}\n", style="bold reverse")
        text.append(f"\n{w.t('play.hands_with_points')}", style="bold underline")
        hands = []  # each laid out at the screen's width, never breaking a card
        for line in s.lines:
            # The language's list separator ends each card but the last ("," or Chinese "、",
            # after which the next card follows with no space).
            separator = w.t("list.separator")
            apart = Text if separator.endswith(" ") else look.Glued
            said = [
                w.t("summary.card_points_terminal", card=faces.label(face), points=points)
                for face, points in line.cards
            ]
            cards = [
                (Text if k == 0 else apart)(card + (separator.rstrip() if k < len(said) - 1 else ""))
                for k, card in enumerate(said)
            ]
            if not cards and line.hand_points == 0:
                cards = [Text(w.t("play.no_cards"))]
            cards.append(Text(f" = {line.hand_points}"))
            hands.append(look.Flow(cards, lead=Text(f"{line.name}:", style="bold")))
        again = f"{w.t('play.key_new_game')}   " if self.can_restart else ""
        keys = f"{again}{w.t('play.key_quit')}" if s.over else f"{w.t('play.key_next_round')}   {w.t('play.key_quit')}"
        with VerticalScroll(id="summary-box"):
            yield Static(Group(text, *hands), id="summary")
        yield Static(Text(f"{keys}   {w.t('play.key_scroll')}", style="reverse"), id="summary-keys")

    def on_mount(self) -> None:
        self.query_one("#summary-box", VerticalScroll).focus()

    def action_choose(self, what: str) -> None:
        if what == "next" and self.summary.over and not self.can_restart:
            return
        self.dismiss(what)


class TableScreen(Screen[None]):
    """The game: table, opponents, your hand, the prompt, the log and the keys."""

    AUTO_FOCUS = None

    def __init__(
        self,
        session: Session,
        *,
        delay: float | None,
        catch_window: float,
        can_restart: bool,
    ) -> None:
        super().__init__()
        self.session = session
        #: The pause before each bot's decision: ``None`` for each bot's think time.
        self.think = delay
        #: The other pauses (a launcher's suspense, a bot's reaction when you cannot react).
        self.delay = PAUSE if delay is None else delay
        self.catch_window = catch_window
        self.can_restart = can_restart
        humans = session.humans
        self.hot_seat = len(humans) > 1
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.ready = False  # waiting for a person's decision
        self.prompt: Prompt | None = None
        self.cursor = 0
        self.menu_index = 0
        self.submenu: list[Choice] | None = None
        self.submenu_title = ""
        self.uno_armed = False
        self.message = ""
        self.window: asyncio.Future[Action | None] | None = None
        self.window_text = ""
        self.window_keys = ""
        self.finished = False
        self.teller: Teller = session.teller()
        self.log_pieces = look.flow_pieces(self.teller.phrases(session.game.deck.card_texts()))  # kept whole
        self.hand_layout: list[list[int]] = []  # the hand's rows of cards, as last drawn
        self.hand_top = 0  # the first row of cards in view, for hands taller than the screen
        self.recent: deque[str] = deque(maxlen=LAST_PLAYS)  # the log's latest lines, for the summary
        self.history: list[Text] = []  # every line of the log, for the log screen (L)

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="header")
        yield Static(id="settings")
        yield Static(id="opponents")
        yield Static(id="table")
        yield Static(id="hand")
        yield Static(id="prompt")
        log = RichLog(id="log", wrap=True, markup=False, min_width=20)
        log.can_focus = False  # every key goes to the table, never to the log's scrolling
        yield log
        yield Static(id="keys")

    def on_mount(self) -> None:
        settings = self.query_one("#settings", Static)
        rules = self.session.house_rules()
        settings.update(Text(rules, style="italic"))
        settings.display = bool(rules)  # the official rules need no line
        setup_teller = self.session.teller(side=0)
        self.log_lines(setup_teller.lines(redact(self.session.setup, self.log_viewer)))
        self.render_all()
        self.run_worker(self.guarded(self.drive()), exclusive=True, group="drive")

    # ------------------------------------------------------------------ drawing
    def render_all(self) -> None:
        prompt = self.prompt_text()
        opponent_rows, hand_rows = self.panel_rows(prompt)
        self.query_one("#header", Static).update(self.header_text())
        self.query_one("#opponents", Static).update(self.opponents_text(opponent_rows))
        self.query_one("#table", Static).update(self.table_text())
        self.query_one("#hand", Static).update(self.hand_text(hand_rows))
        self.query_one("#prompt", Static).update(prompt)
        self.query_one("#keys", Static).update(self.keys_text())
        self.set_class(self.session.game.side == 1, "flipped")
        self.call_after_refresh(self.follow_log)

    def follow_log(self) -> None:
        """Keep the newest lines of the log in view (after a summary screen, or when the
        panels above grow)."""
        self.query_one("#log", RichLog).scroll_end(animate=False)

    def on_resize(self, _event: events.Resize) -> None:
        """Lay the hand, the prompt and the opponents out again for the new width (once the
        panels have their new sizes), so that no card is broken across two lines."""
        self.call_after_refresh(self.render_all)

    def panel_rows(self, prompt: Text) -> tuple[int, int]:
        """The rows of the opponents and the rows of cards of the hand that fit on the screen
        beside the header, the settings line, the table, the hand's name (and picked card's)
        line, every line of the prompt, ``LOG_ROWS`` lines of log, the keys and the panels'
        rules. The prompt comes first: opponents that do not fit one a row share rows in
        columns, and a hand that does not fit scrolls (:meth:`hand_text`)."""
        width = max(self.app.size.width, 1)
        prompt_rows = len(prompt.wrap(self.app.console, width))
        table_rows = len(self.table_text().wrap(self.app.console, width))
        keys_rows = len(self.keys_text().wrap(self.app.console, width))
        settings = 1 if self.session.house_rules() else 0
        picking = self.ready and self.prompt is not None and self.prompt.pick_from_hand and self.submenu is None
        fixed = 1 + settings + table_rows + (1 + 1 + int(picking)) + (1 + prompt_rows) + (1 + LOG_ROWS) + keys_rows
        left = self.app.size.height - fixed
        seats = len(self.seat_order())
        most = max(1, min(seats, OPPONENT_ROWS, left - 1))
        opponents = -(-seats // -(-seats // most))  # as many rows as the columns need
        return opponents, max(1, min(HAND_ROWS, left - opponents))

    def header_text(self) -> Text:
        game = self.session.game
        w = self.session.words
        text = Text(f"{w.variant(game.variant)} · {w.t('play.round', round=game.round_number)} ", style="bold")
        if game.rules.double_sided:
            text.append_text(look.side_badge(game.side_name))
        names = self.session.names
        if game.is_over:
            text.append(f" {w.t('play.header_over')}", style="bold")
        elif game.to_act == self.viewer and self.ready:
            text.append(f" ▶ {w.t('play.your_move')}", style="bold reverse")
        elif game.to_act is not None:
            text.append(f" ▶ {names[game.to_act]}", style="bold")
        return text

    def seat_label(self, seat: int) -> str:
        """A seat's name, with its bot's level or kind in words for a bot."""
        player = self.session.players[seat]
        if not player.bot_name:
            return player.name
        words = self.session.words
        return words.t("play.bot_seat", name=player.name, bot=words.bot(bot_label(player.bot_name)))

    def seat_order(self) -> list[int]:
        n = self.session.game.n
        start = 0 if self.viewer is None else self.viewer + 1
        seats = [(start + k) % n for k in range(n)]
        return [s for s in seats if s != self.viewer]

    def opponents_text(self, rows: int = OPPONENT_ROWS) -> Text:
        """One line a seat (but the viewer's): turn marker, name, cards, points, UNO, and in
        the Flip variants the backs everyone can see, cut to the width; in columns, turn order
        going down each, when there are more seats than ``rows``."""
        session = self.session
        game = session.game
        view = session.views[self.viewer if self.viewer is not None else 0]
        obs_backs = view.observe().get("backs") if game.deck.double_sided else None
        sizes = view.hand_sizes
        width = self.width_of("#opponents")
        lines = []
        seats = self.seat_order()
        w = session.words
        labels = {s: self.seat_label(s) for s in seats}
        widest = max((cells(label) for label in labels.values()), default=0)
        mate = partner(self.viewer, game.n) if game.options.teams and self.viewer is not None else None
        for seat in seats:
            acting = game.to_act == seat
            size = sizes[seat]
            line = Text("▶ " if acting else "  ", style="bold")
            line.append(pad(labels[seat], widest), style="bold" if acting else "")
            if seat == mate:
                line.append(f" {w.t('play.partner')}", style="italic")
            line.append(
                f"  {w.t('n.play.cards_column', count=size)}  {w.t('n.play.points_column', count=game.scores[seat])}"
            )
            if session.said_uno(seat):
                line.append(f"  {w.t('play.uno')}", style="bold red")
            elif size == 1 and view.uno_exposed == seat:
                line.append(f"  {w.t('play.forgot_uno')}", style="bold")
            if obs_backs is not None:
                backs = obs_backs[seat]
                if backs is None:  # seat 0's own hand, seen by a spectator: its backs are public
                    backs = sorted(game.face_text(t, 1 - game.side) for t in game.hands[seat])
                line.append(f"  {w.t('play.backs')}")
                for back in backs:
                    line.append(" ")
                    line.append_text(look.short_chip(back))
            lines.append(line)
        if not lines:
            return Text()
        columns = -(-len(lines) // max(rows, 1))
        column_width = (width - 2 * (columns - 1)) // columns
        for line in lines:
            line.truncate(column_width, overflow="ellipsis", pad=columns > 1)
        height = -(-len(lines) // columns)
        return Text("\n").join(Text("  ").join(lines[r::height]) for r in range(height))

    def table_text(self) -> Text:
        """The discard, the colour in play and the direction, on as many lines as the width
        needs (each of the three whole on a line), then the draw pile or the launcher."""
        game = self.session.game
        view = self.session.views[self.viewer if self.viewer is not None else 0]
        top = game.face_text(game.top_card) if game.discard else None
        w = self.session.words
        discard = Text(f"{w.t('play.discard')} ")
        if top is not None:
            discard.append_text(look.chip(top, marked=False))
        colour = Text(f"{w.t('play.colour')} ")
        colour.append_text(look.color_chip(COLOR_NAMES[game.color] if game.color >= 0 else None))
        direction = "clockwise" if game.direction == 1 else "counterclockwise"
        arrow = "↻" if game.direction == 1 else "↺"
        turning = Text(f"{arrow} {w.direction(direction)}")
        text = wrap_chips([discard, colour, turning], self.width_of("#table"), gap="  ")
        text.append("\n")
        if game.launcher is not None:
            text.append(w.t("n.play.launcher_inside", count=view.draw_size))
        else:
            text.append(w.t("n.play.draw_pile", count=view.draw_size))
            back = view.draw_top_back
            if back is not None:
                text.append(f", {w.t('play.top_back')} ")
                text.append_text(look.short_chip(game.face_text(back, 1 - game.side)))
        if game.stack_total:
            text.append(f"   {w.t('play.stacked', total=game.stack_total)}", style="bold")
        return text

    def hand_text(self, rows: int) -> Text:
        """The viewer's hand in at most ``rows`` rows of cards. A hand that needs more shows the
        rows around the picked card and says how many cards are out of view, above or below."""
        session = self.session
        game = session.game
        if self.viewer is None:
            return Text(session.words.t("play.hands_hidden"), style="italic")
        player = session.players[self.viewer]
        prompt = self.prompt if self.ready and self.prompt is not None else None
        hand = prompt.hand if prompt is not None else session.hand(self.viewer)
        w = session.words
        text = Text(f"{player.name} — {w.t('n.cards', count=len(hand))}, ", style="bold")
        text.append(w.t("n.points", count=game.scores[self.viewer]), style="bold")
        picking = prompt is not None and prompt.pick_from_hand and self.submenu is None
        marking = prompt is not None and prompt.pick_from_hand
        chips = [
            look.chip(
                card.face,
                index=key_number(i),
                playable=card.legal or not marking,
                marked=marking,
                selected=picking and i == self.cursor,
            )
            for i, card in enumerate(hand)
        ]
        self.hand_layout = chip_rows(chips, self.width_of("#hand"))
        layout = self.hand_layout
        if len(layout) > rows:
            here = next((r for r, row in enumerate(layout) if self.cursor in row), 0)
            self.hand_top = min(max(self.hand_top, here - rows + 1), here, len(layout) - rows)
            shown = layout[self.hand_top : self.hand_top + rows]
            above = sum(len(row) for row in layout[: self.hand_top])
            below = sum(len(row) for row in layout[self.hand_top + rows :])
            hidden = [
                f"▲ {w.t('play.more', count=above)}" if above else "",
                f"▼ {w.t('play.more', count=below)}" if below else "",
            ]
            text.append("   " + "   ".join(count for count in hidden if count), style="italic")
        else:
            self.hand_top = 0
            shown = layout
        for row in shown:
            text.append("\n")
            text.append_text(Text(" ").join(chips[i] for i in row))
        if picking and hand:
            card = hand[min(self.cursor, len(hand) - 1)]
            text.append("\n")
            text.append(f"{faces.label(card.face)}", style="bold")
            if card.back is not None:
                text.append(f"  ({w.t('play.back', card=faces.label(card.back))})")
            text.append(f"  {w.t('table.playable') if card.legal else w.t('play.not_now')}", style="italic")
        return text

    def width_of(self, selector: str) -> int:
        width = self.query_one(selector, Static).size.width
        return width if width > 0 else self.app.size.width

    def menu_choices(self) -> list[Choice]:
        if self.submenu is not None:
            return self.submenu
        if self.prompt is not None and not self.prompt.pick_from_hand:
            return self.prompt.choices
        return []

    def prompt_text(self) -> Text:
        text = Text()
        if self.window is not None:
            text.append(self.window_text, style="bold reverse")
            return text
        if self.ready and self.prompt is not None:
            question = Text(self.prompt.message if self.submenu is None else self.submenu_title, style="bold")
            if self.uno_armed:
                question.append(f"  {self.session.words.t('play.uno_called')}", style="bold red")
            width = self.width_of("#prompt")
            if self.prompt.pick_from_hand and self.submenu is None:  # draw or press: beside the question
                others = [Text(f"D: {choice.label}") for choice in self.prompt.choices]
                text.append_text(wrap_chips([question, *others], width, gap="   "))
            else:
                items = [
                    Text(f"{i + 1} {choice.label}", style="reverse bold" if i == self.menu_index else "")
                    for i, choice in enumerate(self.menu_choices())
                ]
                text.append_text(question)
                text.append("\n")
                text.append_text(wrap_chips(items, width, gap="   "))
        elif not self.finished:
            to_act = self.session.game.to_act
            if to_act is not None:
                text.append(self.session.words.t("play.thinking", player=to_act), style="italic")
        if self.message:
            text.append(f"\n{self.message}", style="italic")
        return text

    def keys_text(self) -> Text:
        """The keys that work now, on one line, or on more when the width needs them (a key
        and its word are never split; ``·`` between them), the hint key among them whenever
        hints are offered (80 columns of a launcher's game in English then take two lines)."""
        parts = []
        if self.window is not None:
            parts.append(self.window_keys)
        elif self.ready and self.prompt is not None:
            if self.prompt.pick_from_hand and self.submenu is None:
                parts.append(tr("play.keys_pick"))
                verbs = {DRAW: N_("play.key_draw"), PRESS: N_("play.key_press")}
                draws = [verbs[c.action.kind] for c in self.prompt.choices if c.action.kind in verbs]
                if draws:
                    parts.append(tr(draws[0]))
            else:
                parts.append(tr("play.keys_choose"))
                if self.submenu is not None:
                    parts.append(tr("play.key_back"))
            parts.append(tr("play.key_uno"))
            if self.viewer is not None and any(a.kind == CATCH for a in self.session.out_of_turn(self.viewer)):
                parts.append(tr("play.key_catch"))
            if self.session.hints:
                parts.append(tr("play.key_hint"))
        parts += [tr("play.key_log"), tr("play.key_help"), tr("play.key_quit_short")]
        text = wrap_chips([Text(part) for part in parts], self.width_of("#keys"), gap=" · ")
        text.stylize("reverse")
        return text

    def log_lines(self, lines: Sequence[str], style: str = "") -> None:
        """Write ``lines`` into the log, each laid out at the log's width without breaking a
        card's title, a colour or a name (:meth:`~unokit.play.session.Teller.phrases`)."""
        log = self.query_one("#log", RichLog)
        for line in lines:
            self.history.append(Text(line, style=style))
            log.write(look.Flow(look.words_to_flow(line, self.log_pieces), style=style))

    # ------------------------------------------------------------------ the game loop
    async def pause(self, seconds: float) -> None:
        if seconds > 0:
            await asyncio.sleep(seconds)

    async def drive(self) -> None:
        """Let bots play until a person must decide (or the game ends)."""
        session = self.session
        game = session.game
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            if session.is_human(seat):
                if self.hot_seat and seat != self.viewer:
                    self.viewer = None
                    self.render_all()
                    await self.app.push_screen_wait(PassScreen(session.names[seat]))
                    self.viewer = seat
                self.open_prompt(seat)
                return
            self.render_all()
            await self.pause(session.think_time(seat) if self.think is None else self.think)
            await self.perform(await asyncio.to_thread(session.bot_act, seat), seat)
        self.finished = True
        self.render_all()

    async def guarded(self, work: Awaitable[None]) -> None:
        """Run the game loop ``work``; a bot that breaks the protocol, or a game that cannot go
        on (a scripted launcher used up), ends the app with the message, not a traceback."""
        try:
            await work
        except (ExternalBotError, UnokitError) as exc:
            app = self.app
            if isinstance(app, PlayApp):
                app.fail(
                    tr(
                        "play.game_stopped",
                        error=self.session.words.error(exc) if isinstance(exc, UnokitError) else str(exc),
                    )
                )

    def open_prompt(self, seat: int) -> None:
        self.prompt = self.session.prompt(seat)
        hand = self.prompt.hand
        legal = [i for i, card in enumerate(hand) if card.legal]
        self.cursor = min(self.cursor, max(len(hand) - 1, 0))
        if legal and self.cursor not in legal:
            self.cursor = legal[0]
        self.menu_index = 0
        self.submenu = None
        self.ready = True
        self.render_all()

    async def perform(self, action: Action, seat: int, *, reactions: bool = True) -> Outcome:
        """Apply an action, tell its events (presses with suspense), open the UNO window,
        show the round summary; then redraw."""
        outcome = self.session.apply(action, seat)
        await self.tell(outcome)
        if self.hot_seat and self.session.is_human(seat):
            await self.show_revealed(outcome, seat)
        if outcome.flipped_to is not None:  # under the prompt, never over it
            self.message = f"⟳ {self.session.words.t('play.flipped', side=outcome.flipped_to)}"
        if reactions and outcome.exposed is not None:
            await self.uno_window(outcome.exposed)
        if reactions and outcome.summary is None:
            await self.jump_window()
        if outcome.summary is not None:
            await self.show_summary(outcome.summary)
        self.render_all()
        return outcome

    @property
    def log_viewer(self) -> int | None:
        """Whose eyes the log is written for: nobody's in hot seat (the log stays on screen
        when the device is passed), else the viewer's."""
        return None if self.hot_seat else self.viewer

    async def tell(self, outcome: Outcome) -> None:
        """Write the outcome's events into the log, as the log's reader may see them."""
        ended = False
        for event in redact(outcome.events, self.log_viewer):
            if event["type"] == "press" and not event.get("empty"):
                presser = event["presser"] if "presser" in event else event["seat"]
                self.log_lines([self.teller.words.t("play.pressing", player=presser)], "italic")
                await self.pause(self.delay)
            line = self.teller.line(event)
            if event["type"] == "round_end":
                ended = True  # what follows deals the next round
            if line:
                style = "bold reverse" if event["type"] in ("flip", "round_end", "game_end") else ""
                self.log_lines([line], style)
                if not ended:
                    self.recent.append(line)
        self.render_all()

    async def show_revealed(self, outcome: Outcome, seat: int) -> None:
        """Hot seat: the shared log does not show the hand a challenge revealed, so the
        challenger sees it alone, before the device is passed on."""
        for event in redact(outcome.events, seat):
            if event["type"] == "challenge" and event["seat"] == seat and "revealed" in event:
                line = self.session.teller().line(event)
                if line:
                    await self.app.push_screen_wait(NoticeScreen(line))

    async def uno_window(self, exposed: int) -> None:
        """Someone has one card and did not call UNO: a short, fair window to react."""
        session = self.session
        reactions = session.reactions()
        mine = session.out_of_turn(self.viewer) if self.viewer is not None else []
        if mine and self.catch_window > 0:
            loop = asyncio.get_running_loop()
            self.window = loop.create_future()
            if exposed == self.viewer:
                self.window_text = session.words.t("play.you_forgot_uno")
            else:
                self.window_text = session.words.t("play.catch_window", player=exposed)
            self.window_keys = tr("play.catch_keys")
            self.render_all()
            timeout = min([r.after for r in reactions] + [self.catch_window])
            try:
                action = await asyncio.wait_for(asyncio.shield(self.window), timeout)
            except TimeoutError:
                action = None
            self.window = None
            if action is not None and self.viewer is not None:
                await self.perform(action, self.viewer, reactions=False)
                return
            if reactions and reactions[0].after <= self.catch_window:
                await self.perform(reactions[0].action, reactions[0].seat, reactions=False)
            self.render_all()
        elif reactions:
            await self.pause(self.delay)
            await self.perform(reactions[0].action, reactions[0].seat, reactions=False)

    async def jump_window(self) -> None:
        """A card was played that someone may jump on (H-1): if you can, a short window in
        which J jumps in, unless a bot is faster; without you, the fastest bot that wants to."""
        session = self.session
        if session.game.is_over or not session.game.windows:
            return
        reactions = session.jump_reactions()
        mine = session.jumps(self.viewer) if self.viewer is not None else []
        if mine and self.catch_window > 0:
            loop = asyncio.get_running_loop()
            self.window = loop.create_future()
            self.window_text = session.words.t("play.jump_window", card=session.game.face_text(mine[0].card))
            self.window_keys = tr("play.jump_keys")
            self.render_all()
            timeout = min([r.after for r in reactions] + [self.catch_window])
            try:
                action = await asyncio.wait_for(asyncio.shield(self.window), timeout)
            except TimeoutError:
                action = None
            self.window = None
            if action is not None and self.viewer is not None:
                self.uno_armed = False
                await self.perform(action, self.viewer)
                return
            if reactions and reactions[0].after <= self.catch_window:
                await self.perform(reactions[0].action, reactions[0].seat)
            self.render_all()
        elif reactions:
            await self.pause(self.delay)
            await self.perform(reactions[0].action, reactions[0].seat)

    async def show_summary(self, summary: RoundSummary) -> None:
        """The round summary (the record was saved when the round ended, in ``Session.apply``)."""
        screen = SummaryScreen(
            summary,
            self.session.names,
            self.can_restart,
            list(self.recent),
            self.session.game.rules.double_sided,
            self.session.reader,
        )
        self.recent.clear()
        choice = await self.app.push_screen_wait(screen)
        if choice == "quit":
            self.app.exit(self.session.save())
        elif summary.over and choice == "next":
            self.finished = True
            app = self.app
            if isinstance(app, PlayApp):
                app.call_later(app.restart)

    # ------------------------------------------------------------------ keys
    def submit(self, action: Action) -> None:
        seat = self.prompt.seat if self.prompt is not None else self.viewer
        if seat is None:
            return
        action = self.session.with_uno(seat, action, self.uno_armed)
        self.ready = False
        self.prompt = None
        self.submenu = None
        self.uno_armed = False
        self.message = ""
        self.run_worker(self.guarded(self.after_human(action, seat)), exclusive=True, group="drive")

    async def after_human(self, action: Action, seat: int) -> None:
        try:
            await self.perform(action, seat)
        except UnokitError as exc:  # the game is unchanged; ask again
            self.message = self.session.words.error(exc)
        await self.drive()

    def out_of_turn_key(self, kind: str) -> bool:
        """``c``/``u`` out of turn: catch, or call UNO late. True when it did something."""
        if self.viewer is None:
            return False
        for action in self.session.out_of_turn(self.viewer):
            if action.kind == kind:
                if self.window is not None and not self.window.done():
                    self.window.set_result(action)
                elif self.ready:
                    self.ready = False
                    self.run_worker(
                        self.guarded(self.after_out_of_turn(action, self.viewer)), exclusive=True, group="drive"
                    )
                return True
        return False

    def jump_key(self) -> bool:
        """``j`` while a window is open: jump in with the card identical to the top card (with
        the UNO call when it is armed). True when it did something."""
        if self.viewer is None or self.window is None or self.window.done():
            return False
        jumps = self.session.jumps(self.viewer)
        if not jumps:
            return False
        self.window.set_result(self.session.with_uno(self.viewer, jumps[0], self.uno_armed))
        return True

    async def after_out_of_turn(self, action: Action, seat: int) -> None:
        await self.perform(action, seat, reactions=False)
        await self.drive()

    def on_key(self, event: events.Key) -> None:
        key = event.key
        event.stop()
        if key in terminal_keys("quit"):
            app = self.app
            if isinstance(app, PlayApp):
                app.ask_to_quit()
            return
        if key in terminal_keys("help"):
            self.app.push_screen(HelpScreen(self.session.game))
            return
        if key in terminal_keys("log"):
            self.app.push_screen(LogScreen(self.history))
            return
        if key in terminal_keys("catch"):
            if not self.out_of_turn_key(CATCH):
                self.hint(tr("play.nobody_to_catch"))
            return
        if key in terminal_keys("jump"):
            if not self.jump_key():
                self.hint(tr("play.nothing_to_jump"))
            return
        if key in terminal_keys("hint"):
            self.ask_hint()
            return
        if key in terminal_keys("uno"):
            if not self.out_of_turn_key(UNO) and (self.ready or self.window is not None):
                self.uno_armed = not self.uno_armed
                self.hint(tr("play.uno_armed") if self.uno_armed else tr("play.uno_unarmed"))
            return
        if not self.ready or self.prompt is None or self.window is not None:
            return
        choices = self.menu_choices()
        if choices:
            self.menu_key(key, choices)
        elif self.prompt.pick_from_hand:
            self.hand_key(key)

    def hint(self, text: str) -> None:
        """Show ``text`` under the prompt."""
        self.message = text
        self.render_all()

    def ask_hint(self) -> None:
        """``h``: the engine's choice for your open decision and your chance to win the hand with
        it, searched in a worker from what your seat saw (:func:`unokit.bots.advice.advise`);
        shown, and marked in the record, only if the decision is still open when it comes."""
        session = self.session
        if not session.hints:
            self.hint(tr("play.hint_off"))
            return
        if not self.ready or self.prompt is None or self.window is not None:
            self.hint(tr("play.hint_not_now"))
            return
        self.hint(tr("play.hint_thinking"))
        self.run_worker(self.show_hint(self.prompt.seat, session.hint_work(self.prompt.seat)), group="hint")

    async def show_hint(self, seat: int, work: Callable[[], Advice]) -> None:
        advice = await asyncio.to_thread(work)
        session = self.session
        if not self.ready or self.prompt is None or self.prompt.seat != seat or len(session.game.moves) != advice.step:
            return  # the decision was taken meanwhile
        session.mark_hint(advice)
        words = session.words
        action = words.say(action_line(session.game, advice.best.text, seat))
        self.hint(
            words.t("play.hint", action=action, chance=words.t("number.percent", value=round(100 * advice.chance)))
        )

    def menu_key(self, key: str, choices: list[Choice]) -> None:
        if key in ("up", "left"):
            self.menu_index = (self.menu_index - 1) % len(choices)
        elif key in ("down", "right", "tab"):
            self.menu_index = (self.menu_index + 1) % len(choices)
        elif key.isdigit() and 1 <= int(key) <= len(choices):
            self.answer(choices[int(key) - 1])
            return
        elif key in terminal_keys("play"):
            self.answer(choices[self.menu_index])
            return
        elif key in terminal_keys("back") and self.submenu is not None:
            self.submenu = None
            self.menu_index = 0
        self.render_all()

    def answer(self, choice: Choice) -> None:
        """Take a menu answer: submit it, or ask for the colour it names first."""
        if choice.colors:
            self.ask_color(self.session.words.t("play.name_the_color", card=choice.label), list(choice.colors))
        else:
            self.submit(choice.action)

    def ask_color(self, title: str, colors: list[Choice]) -> None:
        """Open the colour menu (Esc goes back to the question or the hand)."""
        self.submenu_title = title
        self.submenu = colors
        self.menu_index = 0
        self.render_all()

    def hand_key(self, key: str) -> None:
        prompt = self.prompt
        assert prompt is not None
        hand = prompt.hand
        if key == "left" and hand:
            self.cursor = (self.cursor - 1) % len(hand)
        elif key == "right" and hand:
            self.cursor = (self.cursor + 1) % len(hand)
        elif key in ("up", "down") and hand:
            self.cursor = self.row_neighbour(-1 if key == "up" else 1)
        elif key == terminal_keys("first_last")[0]:
            self.cursor = 0
        elif key == terminal_keys("first_last")[1]:
            self.cursor = max(len(hand) - 1, 0)
        elif key.isdigit():
            index = (int(key) or 10) - 1
            if index < len(hand):
                self.cursor = index
        elif key in terminal_keys("draw"):
            draws = [c.action for c in prompt.choices if c.action.kind in (DRAW, PRESS)]
            if draws:
                self.submit(draws[0])
                return
        elif key in terminal_keys("play") and hand:
            self.choose_card(hand[self.cursor].card)
            return
        self.message = ""
        self.render_all()

    def row_neighbour(self, step: int) -> int:
        """The card a row above (``step`` -1) or below (1) the cursor, in the same column as far
        as that row reaches; the cursor itself at the first or last row."""
        rows = self.hand_layout
        here = next((r for r, row in enumerate(rows) if self.cursor in row), None)
        if here is None or not 0 <= here + step < len(rows):
            return self.cursor
        column = rows[here].index(self.cursor)
        target = rows[here + step]
        return target[min(column, len(target) - 1)]

    def choose_card(self, card: int) -> None:
        prompt = self.prompt
        assert prompt is not None
        actions = self.session.card_actions(prompt.seat, card)
        if not actions:
            self.hint(self.session.explain(prompt.seat, card))
        elif len(actions) == 1:
            self.submit(actions[0])
        else:
            face = self.session.game.face_text(card)
            words = self.session.words
            self.ask_color(
                words.t("play.which_color_discard")
                if face == "wild_discard_all"
                else words.t("play.name_the_color", card=face),
                list(naming_a_color(faces.title(face), actions).colors),
            )


def tr(key: str, **params: object) -> str:
    """A message of the terminal's catalogue (parameters shown as given)."""
    return catalog().t(key, **params)


def key_number(index: int) -> int | None:
    """The digit key that picks card ``index`` (0-based) of a hand: 1 to 9, then 0 for the
    tenth card; later cards have none (the arrows reach them)."""
    return index + 1 if index < 9 else 0 if index == 9 else None


class PlayApp(App[Path | None]):
    """``unokit play``: one game at a time; a finished game may be followed by a new one.

    ``new_session`` builds each game's :class:`Session`; the app's return value is the path
    of the last record saved.
    """

    TITLE = "unokit"
    CSS = """
    Screen { layout: vertical; }
    #header { height: 1; background: $panel; }
    #settings { height: 1; }
    #opponents { height: auto; max-height: 10; }
    #table { height: auto; }
    #hand { height: auto; border-top: solid $primary; }
    #prompt { height: auto; border-top: solid $primary; }
    #log { height: 1fr; min-height: 2; border-top: solid $primary; }
    #keys { height: auto; }
    TableScreen.flipped #hand { border-top: heavy magenta; }
    TableScreen.flipped #prompt { border-top: heavy magenta; }
    TableScreen.flipped #log { border-top: heavy magenta; }
    #pass { height: 1fr; content-align: center middle; }
    #summary-box { height: 1fr; padding: 1 2; }
    #summary-keys { height: 1; }
    QuitScreen { align: center middle; }
    HelpScreen { align: center middle; }
    LogScreen { align: center middle; }
    #log-box { width: 100%; height: 100%; border: thick $primary; padding: 0 1; background: $surface; }
    #help-box { width: 100%; height: 100%; border: thick $primary; padding: 0 1; background: $surface; }
    NoticeScreen { align: center middle; }
    #notice { width: 70; height: auto; border: thick $primary; padding: 1 2; background: $surface; }
    #quit { width: 60; height: auto; border: thick $primary; padding: 1 2; background: $surface; }
    """

    def __init__(
        self,
        new_session: SessionFactory,
        *,
        delay: float | None = PAUSE,
        catch_window: float = 2.5,
        restart: bool = True,
    ) -> None:
        super().__init__()
        self.new_session = new_session
        self.delay = delay
        self.catch_window = catch_window
        self.allow_restart = restart
        self.session: Session | None = None
        self.saved: list[Path] = []
        self.error: str | None = None

    def fail(self, message: str) -> None:
        """End the app because the game cannot go on (a bot broke the protocol); the game so
        far is saved and ``error`` holds the message for the command to print."""
        self.error = message
        self.exit(self.save_game())

    def on_mount(self) -> None:
        leave_on_hangup(self, self.save_game)
        self.restart(first=True)

    def ask_to_quit(self) -> None:
        """Q: ask, and on yes save the game and leave."""
        where = self.session.record_path if self.session is not None else None
        self.push_screen(QuitScreen(where), self.quit_answer)

    def quit_answer(self, answer: bool | None) -> None:
        if answer:
            self.exit(self.save_game())

    def save_game(self) -> Path | None:
        """Save the game being played (see :meth:`Session.save`); ``None`` when there is none
        or it could not be saved."""
        return self.session.save() if self.session is not None else None

    @property
    def table(self) -> TableScreen:
        screen = self.screen
        assert isinstance(screen, TableScreen), f"the screen is {type(screen).__name__}"
        return screen

    def restart(self, first: bool = False) -> None:
        """Start a new game on a new table screen."""
        if self.session is not None:
            path = self.session.save()
            if path is not None:
                self.saved.append(path)
        self.session = self.new_session()
        screen = TableScreen(
            self.session, delay=self.delay, catch_window=self.catch_window, can_restart=self.allow_restart
        )
        if first:
            self.push_screen(screen)
        else:
            self.switch_screen(screen)
