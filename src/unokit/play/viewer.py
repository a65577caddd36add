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
from ..core.codes import Param
from ..core.observation import redact
from ..i18n import N_
from ..i18n.lines import words, words_for
from ..record.render import reader_names
from ..record.replay import Replay
from . import faces, look
from .session import Teller, hand_cards
from .terminal import leave_on_hangup

#: The bottom line: every key the viewer answers, and no other (O: everyone's eyes); a key of
#: the catalogue.
KEYS_LINE = N_("viewer.keys")


def header_text(replay: Replay, step: int, seat: int | None, width: int = 10_000) -> Text:
    """The game, the step, the round, the side (Flip variants only) and whose eyes, on as
    many lines of ``width`` as they need (none of the three broken)."""
    game = replay.game_at(step)
    w = words()
    title = w.t("viewer.header", variant=game.variant, step=step, steps=len(replay), round=game.round_number)
    parts = [Text(title, style="bold")]
    if game.rules.double_sided:
        parts.append(look.side_badge(game.side_name))
    who = w.t("viewer.everyone") if seat is None else reader_names(replay.record)[seat]
    parts.append(Text(w.t("viewer.seen_by", who=who), style="italic"))
    return look.wrap_chips(parts, width, gap="  ")


def keys_text(width: int) -> Text:
    """The keys line (:data:`KEYS_LINE`, its items apart by `` · ``), on as many lines of
    ``width`` as it needs, no item broken."""
    items = [Text(item) for item in words().t(KEYS_LINE).split(" · ")]
    text = look.wrap_chips(items, width, gap=" · ")
    text.stylize("reverse")
    return text


def table_text(replay: Replay, step: int, seat: int | None, width: int) -> Text:
    """The table after ``step``: discard, colour, direction, supply, who acts, and every seat
    with what the viewer may see of its hand (``seat`` ``None``: everything, and the next
    card of the draw pile)."""
    game = replay.game_at(step)
    names = reader_names(replay.record)
    obs = game.observe(0 if seat is None else seat)
    w = words_for(None, names)
    text = Text(f"{w.t('play.discard')} ")
    if game.discard:
        text.append_text(look.chip(game.face_text(game.top_card), marked=False))
    text.append(f"  {w.t('play.colour')} ")
    text.append_text(look.color_chip(COLOR_NAMES[game.color] if game.color >= 0 else None))
    arrow = "↻" if game.direction == 1 else "↺"
    text.append(f"  {arrow} {w.direction('clockwise' if game.direction == 1 else 'counterclockwise')}\n")
    launcher = game.launcher is not None
    key = N_("n.play.launcher_inside") if launcher else N_("n.play.draw_pile")
    text.append(w.t(key, count=obs["draw_size"]))
    if seat is None and game.draw and not launcher:
        text.append(f", {w.t('viewer.next')} ")
        text.append_text(look.chip(game.face_text(game.draw[-1]), marked=False))
    elif obs.get("draw_top_back"):
        text.append(f", {w.t('play.top_back')} ")
        text.append_text(look.short_chip(str(obs["draw_top_back"])))
    if obs["stack"]:
        text.append(f"   {w.t('play.stacked', total=obs['stack'])}", style="bold")
    if game.is_over:
        text.append(f"\n{w.t('table.game_over', winners=w.value(Param.SEATS, game.winners))}\n", style="bold reverse")
    elif game.to_act is not None:
        text.append(f"\n▶ {w.t('viewer.to_act', player=game.to_act, decision=game.decision)}\n", style="bold")
    backs = obs.get("backs")
    for s in range(game.n):
        size = len(game.hands[s])
        text.append("▶ " if game.to_act == s else "  ", style="bold")
        text.append(f"{names[s]}", style="bold")
        text.append(f" — {w.t('n.cards', count=size)}, {w.t('n.points', count=game.scores[s])}")
        if obs["uno_exposed"] == s:
            text.append(f"  {w.t('play.forgot_uno')}", style="bold")
        if seat is None or s == seat:
            chips = [look.chip(card.face, marked=False) for card in hand_cards(game, s)]
        elif backs is not None and backs[s] is not None:
            chips = [look.short_chip(back) for back in backs[s]]
            text.append(f"  {w.t('play.backs')}", style="italic")
        else:
            chips = []
        for row in look.chip_rows(chips, max(width - 4, 10)):
            text.append("\n    ")
            text.append_text(Text(" ").join(chips[i] for i in row))
        text.append("\n")
    return text


def events_text(replay: Replay, step: int, seat: int | None) -> Text:
    """What the action of ``step`` did, in words, as the viewer saw it (step 0: the deal)."""
    names = reader_names(replay.record)
    before = replay.game_at(max(step - 1, 0))
    action = replay.action_at(step)
    title = words().t("replay.deal") if action is None else words().t("viewer.step", step=step, name=names[action[0]])
    teller = Teller(names, before.side if step else 0, before.rules.double_sided)
    events = replay.events_at(step)
    lines = teller.lines(events if seat is None else redact(events, seat))
    text = Text(title, style="bold")
    for line in lines or [words().t("viewer.nothing")]:
        text.append(f"\n  {line}")
    return text


class ReplayApp(App[None]):
    """Step through a :class:`Replay` as any seat or as everyone (``seat`` ``None``)."""

    TITLE = "unokit replay"
    CSS = """
    #header { height: auto; background: $panel; }
    #view { height: 1fr; }
    #events { height: auto; max-height: 9; border-top: solid $primary; }
    #keys { height: auto; }
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
        faces.use_deck(replay.game_at(0).rules.double_sided)  # the marks of the record's deck

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        view = VerticalScroll(id="view")
        view.can_focus = False  # every key goes to the viewer's bindings
        with view:
            yield Static(id="table")
        yield Static(id="events")
        yield Static(id="keys")

    def on_mount(self) -> None:
        leave_on_hangup(self)
        self.refresh_view()

    def on_resize(self) -> None:
        self.refresh_view()

    def refresh_view(self) -> None:
        width = self.query_one("#view", VerticalScroll).size.width or self.size.width
        self.query_one("#header", Static).update(header_text(self.replay, self.step, self.seat, self.size.width))
        self.query_one("#keys", Static).update(keys_text(self.size.width))
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
            self.notify(words().t("viewer.no_seat", given=seat, high=self.replay.record.players - 1))
            return
        self.refresh_view()

    def action_scroll(self, lines: int) -> None:
        view = self.query_one("#view", VerticalScroll)
        view.scroll_relative(y=lines, animate=False)
