"""The interactive replay viewer of ``unokit replay`` (Textual): a record's table at any step,
drawn like the game itself (cards by name, in colour, with their symbols), seen by one seat
or by everyone, with the step's events in words.

Keys (the bottom line lists exactly these): ``→`` ``l`` space next step, ``←`` ``h`` previous,
``PgDn`` ``PgUp`` ten steps, ``Home`` ``End`` first and last step, ``n`` ``p`` next and
previous round, ``0``-``9`` view as that seat, ``o`` everyone, ``↑`` ``↓`` scroll the table,
``q`` ``Esc`` quit.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..core.cards import COLOR_NAMES
from ..core.observation import redact
from ..i18n.lines import words
from ..narration import plural
from ..record.replay import Replay
from . import look
from .session import Teller, hand_cards
from .terminal import leave_on_hangup

#: The bottom line: every key the viewer answers, and no other (O: everyone's eyes).
KEYS_LINE = "←→ step · PgUp/PgDn ±10 · Home/End · N/P round · 0-9/O seat · ↑↓ scroll · Q quit"


def header_text(replay: Replay, step: int, seat: int | None) -> Text:
    """The game, the step, the round, the side (Flip variants only) and whose eyes."""
    game = replay.game_at(step)
    text = Text(f"{game.rules.title} · step {step} of {len(replay)} · round {game.round_number} ", style="bold")
    if game.rules.double_sided:
        text.append_text(look.side_badge(game.side_name))
    text.append(f"  seen by {'everyone' if seat is None else replay.record.names[seat]}", style="italic")
    return text


def table_text(replay: Replay, step: int, seat: int | None, width: int) -> Text:
    """The table after ``step``: discard, colour, direction, supply, who acts, and every seat
    with what the viewer may see of its hand (``seat`` ``None``: everything, and the next
    card of the draw pile)."""
    game = replay.game_at(step)
    names = replay.record.names
    obs = game.observe(0 if seat is None else seat)
    text = Text("Discard ")
    if game.discard:
        text.append_text(look.chip(game.face_text(game.top_card), marked=False))
    text.append("  Colour ")
    text.append_text(look.color_chip(COLOR_NAMES[game.color] if game.color >= 0 else None))
    text.append("  ↻ clockwise\n" if game.direction == 1 else "  ↺ counterclockwise\n")
    launcher = game.launcher is not None
    text.append(f"Launcher: {obs['draw_size']} cards inside" if launcher else f"Draw pile: {obs['draw_size']} cards")
    if seat is None and game.draw and not launcher:
        text.append(", next ")
        text.append_text(look.chip(game.face_text(game.draw[-1]), marked=False))
    elif obs.get("draw_top_back"):
        text.append(", top card's back ")
        text.append_text(look.short_chip(str(obs["draw_top_back"])))
    if obs["stack"]:
        text.append(f"   stacked draw: +{obs['stack']}", style="bold")
    if game.is_over:
        text.append(f"\nGame over: {', '.join(names[s] for s in game.winners)} won\n", style="bold reverse")
    elif game.to_act is not None:
        text.append(f"\n▶ {names[game.to_act]} {words().decision(game.decision)}\n", style="bold")
    backs = obs.get("backs")
    for s in range(game.n):
        size = len(game.hands[s])
        text.append("▶ " if game.to_act == s else "  ", style="bold")
        text.append(f"{names[s]}", style="bold")
        text.append(f" — {plural(size, 'card')}, {game.scores[s]} pts")
        if obs["uno_exposed"] == s:
            text.append("  forgot UNO!", style="bold")
        if seat is None or s == seat:
            chips = [look.chip(card.face, marked=False) for card in hand_cards(game, s)]
        elif backs is not None and backs[s] is not None:
            chips = [look.short_chip(back) for back in backs[s]]
            text.append("  backs", style="italic")
        else:
            chips = []
        for row in look.chip_rows(chips, max(width - 4, 10)):
            text.append("\n    ")
            text.append_text(Text(" ").join(chips[i] for i in row))
        text.append("\n")
    return text


def events_text(replay: Replay, step: int, seat: int | None) -> Text:
    """What the action of ``step`` did, in words, as the viewer saw it (step 0: the deal)."""
    record = replay.record
    before = replay.game_at(max(step - 1, 0))
    action = replay.action_at(step)
    title = "The deal" if action is None else f"Step {step}: {record.names[action[0]]}"
    teller = Teller(record.names, before.side if step else 0, before.rules.double_sided)
    events = replay.events_at(step)
    lines = teller.lines(events if seat is None else redact(events, seat))
    text = Text(title, style="bold")
    for line in lines or ["(nothing to see)"]:
        text.append(f"\n  {line}")
    return text


class ReplayApp(App[None]):
    """Step through a :class:`Replay` as any seat or as everyone (``seat`` ``None``)."""

    TITLE = "unokit replay"
    CSS = """
    #header { height: 1; background: $panel; }
    #view { height: 1fr; }
    #events { height: auto; max-height: 9; border-top: solid $primary; }
    #keys { height: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        # priority: the scroll view must not take the arrows, PgUp/PgDn or Home/End
        Binding(keys, action, priority=True, show=False)
        for keys, action in (
            ("right,l,space", "step(1)"),
            ("left,h", "step(-1)"),
            ("pagedown", "step(10)"),
            ("pageup", "step(-10)"),
            ("home", "goto(0)"),
            ("end", "goto(-1)"),
            ("n", "round(1)"),
            ("p", "round(-1)"),
            ("o", "seat(-1)"),
            ("up", "scroll(-1)"),
            ("down", "scroll(1)"),
            ("q,escape", "quit"),
            *((str(d), f"seat({d})") for d in range(10)),
        )
    ]

    def __init__(self, replay: Replay, seat: int | None = None, step: int = 0) -> None:
        super().__init__()
        self.replay = replay
        self.seat = seat
        self.step = max(0, min(step, len(replay)))

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        view = VerticalScroll(id="view")
        view.can_focus = False  # every key goes to the viewer's bindings
        with view:
            yield Static(id="table")
        yield Static(id="events")
        yield Static(Text(KEYS_LINE, style="reverse"), id="keys")

    def on_mount(self) -> None:
        leave_on_hangup(self)
        self.refresh_view()

    def on_resize(self) -> None:
        self.refresh_view()

    def refresh_view(self) -> None:
        width = self.query_one("#view", VerticalScroll).size.width or self.size.width
        self.query_one("#header", Static).update(header_text(self.replay, self.step, self.seat))
        self.query_one("#table", Static).update(table_text(self.replay, self.step, self.seat, width))
        self.query_one("#events", Static).update(events_text(self.replay, self.step, self.seat))

    def action_step(self, delta: int) -> None:
        self.step = max(0, min(len(self.replay), self.step + delta))
        self.refresh_view()

    def action_goto(self, step: int) -> None:
        self.step = len(self.replay) if step < 0 else step
        self.refresh_view()

    def action_round(self, direction: int) -> None:
        starts = self.replay.round_starts()
        if direction > 0:
            later = [s for s in starts if s > self.step]
            self.step = later[0] if later else len(self.replay)
        else:
            earlier = [s for s in starts if s < self.step]
            self.step = earlier[-1] if earlier else 0
        self.refresh_view()

    def action_seat(self, seat: int) -> None:
        if seat < 0:
            self.seat = None
        elif seat < self.replay.record.players:
            self.seat = seat
        else:
            self.notify(f"there is no seat {seat}: seats are 0 to {self.replay.record.players - 1}")
            return
        self.refresh_view()

    def action_scroll(self, lines: int) -> None:
        view = self.query_one("#view", VerticalScroll)
        view.scroll_relative(y=lines, animate=False)
