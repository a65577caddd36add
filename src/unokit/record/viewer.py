"""The interactive replay viewer of ``unokit replay`` (Textual; needs the ``play`` extra).

Keys: ``→``/``l``/space next step, ``←``/``h`` previous, ``PgDn``/``PgUp`` ten steps,
``Home``/``End`` first/last step, ``n``/``p`` next/previous round, ``0``-``9`` view as that seat,
``o`` omniscient, ``q`` quit.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from .render import render_step
from .replay import Replay


class ReplayApp(App[None]):
    """Step through a :class:`Replay` as any seat or as an omniscient viewer."""

    TITLE = "unokit replay"
    CSS = """
    #table { padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l,space", "step(1)", "next"),
        Binding("left,h", "step(-1)", "back"),
        Binding("pagedown", "step(10)", "+10", show=False),
        Binding("pageup", "step(-10)", "-10", show=False),
        Binding("home", "goto(0)", "start", show=False),
        Binding("end", "goto(-1)", "end", show=False),
        Binding("n", "round(1)", "next round"),
        Binding("p", "round(-1)", "prev round"),
        Binding("o", "seat(-1)", "omniscient"),
        Binding("q,escape", "quit", "quit"),
        *(Binding(str(d), f"seat({d})", "seat", show=False) for d in range(10)),
    ]

    def __init__(self, replay: Replay, seat: int | None = None, step: int = 0) -> None:
        super().__init__()
        self.replay = replay
        self.seat = seat
        self.step = max(0, min(step, len(replay)))

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(id="table", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_table()

    def refresh_table(self) -> None:
        lines = render_step(self.replay, self.step, self.seat)
        self.query_one("#table", Static).update("\n".join(lines))

    def action_step(self, delta: int) -> None:
        self.step = max(0, min(len(self.replay), self.step + delta))
        self.refresh_table()

    def action_goto(self, step: int) -> None:
        self.step = len(self.replay) if step < 0 else step
        self.refresh_table()

    def action_round(self, direction: int) -> None:
        starts = self.replay.round_starts()
        if direction > 0:
            later = [s for s in starts if s > self.step]
            self.step = later[0] if later else len(self.replay)
        else:
            earlier = [s for s in starts if s < self.step]
            self.step = earlier[-1] if earlier else 0
        self.refresh_table()

    def action_seat(self, seat: int) -> None:
        if seat < 0:
            self.seat = None
        elif seat < self.replay.record.players:
            self.seat = seat
        else:
            self.notify(f"there is no seat {seat}")
            return
        self.refresh_table()
