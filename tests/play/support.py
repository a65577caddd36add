"""Helpers for driving the terminal UI headless: scripted bots, sessions from positions,
waiting for the app, and the screen as text."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot

from unokit.bots.base import Bot
from unokit.bots.habits import ForgetfulBot, Habits
from unokit.core.actions import Action
from unokit.core.observation import View
from unokit.play.app import PlayApp, TableScreen
from unokit.play.session import Player, Session
from unokit.record import RecordingGame

#: Bots that never forget UNO and never catch (tests that need them say otherwise).
CAREFUL = Habits(forget=0.0, late_uno=0.0, catch=0.0, reaction=(0.0, 0.0))
#: Bots that catch at once, every time.
EAGER = Habits(forget=0.0, late_uno=0.0, catch=1.0, reaction=(0.0, 0.0))


class ScriptBot(Bot):
    """Plays the scripted actions in order, each when it is legal; otherwise the first legal
    of keep, draw, press, stop, accept, or simply the first legal action."""

    name = "script"

    def __init__(self, script: Sequence[str] = (), seed: int = 0) -> None:
        super().__init__(seed)
        self.script = list(script)

    def act(self, view: View) -> Action:
        legal = view.legal_actions()
        if self.script:
            for action in legal:
                if str(action) == self.script[0]:
                    self.script.pop(0)
                    return action
        for fallback in ("keep", "draw", "press", "stop", "accept"):
            for action in legal:
                if str(action) == fallback:
                    return action
        return legal[0]


def session_from(
    position: dict[str, Any],
    seats: Sequence[str | Bot],
    habits: Habits = CAREFUL,
    record: Path | None = None,
) -> Session:
    """A session on ``position``: a name is a person, a bot sits (wrapped) where given."""
    game = RecordingGame.from_position(position)
    players = []
    for i, seat in enumerate(seats):
        if isinstance(seat, str):
            players.append(Player(seat))
        else:
            bot = seat if isinstance(seat, ForgetfulBot) else ForgetfulBot(seat, habits)
            players.append(Player(f"Bot{i}", bot, bot.inner.name))
    return Session(game, players, [], record)


def app_for(factory: Callable[[], Session], *, catch_window: float = 0.0) -> PlayApp:
    return PlayApp(factory, delay=0.0, catch_window=catch_window, restart=False)


async def settle(pilot: Pilot[Any], until: Callable[[], bool], rounds: int = 400) -> None:
    """Let the app run until ``until()`` holds (bounded by a number of event-loop turns,
    not by time); fail when it never does."""
    for _ in range(rounds):
        if until():
            return
        await pilot.pause()
    raise AssertionError(f"the app never reached the expected state; screen:\n{screen_text(pilot.app)}")


def waiting(app: PlayApp) -> bool:
    """True when the table waits for a person's decision."""
    screen = app.screen
    return isinstance(screen, TableScreen) and screen.ready


def screen_text(app: App[Any]) -> str:
    """The whole screen as plain text, as Textual's own screenshot renders it."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), color_system=None, record=True)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()
