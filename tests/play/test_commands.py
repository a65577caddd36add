"""``unokit play`` before and around the game: where records go (checked before the game
starts), external bots at the table, and a game that cannot go on."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import replace
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from unokit.bots.habits import Habits
from unokit.bots.levels import LEVELS
from unokit.play.app import SummaryScreen
from unokit.play.commands import close_bots, make_setup, play, play_habits, start_external_bots
from unokit.play.session import Session
from unokit.record import load_record, verify

from ..sim.support import bot_spec
from .support import CAREFUL, app_for, session_from, settle, waiting
from .test_app import two_player_classic


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(play, list(args))
    return result.exit_code, result.output


def test_an_unusable_record_path_is_refused_before_the_game(tmp_path: Path) -> None:
    (tmp_path / "notes").write_text("")
    code, output = invoke("--bots", "random", "--players", "2", "--record", str(tmp_path / "notes/game.json"))
    assert code == 2 and "Invalid value for --record:" in output and "notes is a file, not a folder" in output
    code, output = invoke("--bots", "random", "--players", "2", "--record", f"{tmp_path / 'notes'}/")
    assert code == 2 and "is a file, not a folder" in output


def test_missing_record_folders_are_created(tmp_path: Path) -> None:
    setup = make_setup("classic", 2, "random", 1, [], [], CAREFUL, tmp_path / "a/b/game.json")
    assert (tmp_path / "a/b").is_dir()
    assert setup.session().record_path == tmp_path / "a/b/game.json"
    folder = make_setup("classic", 2, "random", 1, [], [], CAREFUL, f"{tmp_path}/c/d/")
    assert (tmp_path / "c/d").is_dir() and folder.session().record_path is not None
    assert folder.session().record_path.parent == tmp_path / "c/d"  # type: ignore[union-attr]


def test_an_unusable_default_record_folder_says_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("UNOKIT_RECORDS", str(tmp_path / "file/records"))
    with pytest.raises(click.ClickException, match=r"cannot save game records: .* choose a place with --record"):
        make_setup("classic", 2, "random", 1, [], [], CAREFUL, None)


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        ("random,nobody", "unknown bot 'nobody'; levels are beginner, easy, normal, hard, expert; bots are"),
        ("external:", "write an external bot as 'external:<command>'"),
    ],
)
def test_bot_specs_are_checked_like_the_simulator_does(bots: str, message: str) -> None:
    code, output = invoke("--bots", bots, "--players", "3")
    assert code == 2 and message in output


def test_an_external_bot_plays_at_the_table(tmp_path: Path) -> None:
    spec = bot_spec(tmp_path, tmp_path / "started")
    setup = make_setup("classic", 2, f"{spec},random", 4, ["rounds=1"], [], CAREFUL, tmp_path / "game.json")
    externals = start_external_bots(setup.bots, 5.0)
    assert (tmp_path / "started").exists()  # started (and its handshake done) before any game
    setup = replace(setup, externals=externals)

    async def scenario() -> Session:
        app = app_for(setup.session)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: isinstance(app.screen, SummaryScreen), rounds=5000)
            assert app.session is not None
            return app.session

    try:
        session = asyncio.run(scenario())
    finally:
        close_bots(externals)
    assert session.game.is_over
    record = session.record()
    assert record.seats[0].bot == spec and record.seats[1].bot == "random"
    assert verify(record).ok


def test_a_broken_external_bot_ends_the_game_with_its_message(tmp_path: Path) -> None:
    script = tmp_path / "bad.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'ready', 'name': 'bad'}), flush=True)\n"
        "    elif json.loads(line)['type'] == 'act':\n"
        "        print('play purple 11', flush=True)\n",
        encoding="utf-8",
    )
    setup = make_setup(
        "classic", 2, f"external:{sys.executable} {script}", 1, [], ["Ann"], CAREFUL, tmp_path / "g.json"
    )
    externals = start_external_bots(setup.bots, 5.0)
    setup = replace(setup, externals=externals, habits=CAREFUL)
    position = two_player_classic(turn=0)

    def factory() -> Session:
        dealt = setup.session()
        session = session_from(position, ["Ann", dealt.players[1].bot], record=tmp_path / "g.json")  # type: ignore[list-item]
        return session

    async def scenario() -> tuple[str | None, Path | None]:
        app = app_for(factory)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: waiting(app))
            await pilot.press("1", "enter")  # Ann plays; then the bot answers nonsense
            await settle(pilot, lambda: app.error is not None)
        return app.error, app.return_value

    try:
        error, saved = asyncio.run(scenario())
    finally:
        close_bots(externals)
    assert error is not None and "answered 'play purple 11'" in error and "not a legal action" in error
    assert saved == tmp_path / "g.json" and verify(load_record(saved)).ok


def test_a_record_that_cannot_be_written_is_reported_not_raised(tmp_path: Path) -> None:
    session = session_from(two_player_classic(), ["You", "Ben"], record=tmp_path / "gone/game.json")
    (tmp_path / "gone").write_text("the folder became a file")
    assert session.save() is None
    assert session.save_error is not None and "could not be saved to" in session.save_error


def test_levels_sit_at_the_table_with_their_own_habits(tmp_path: Path) -> None:
    """``--bots`` takes the levels; each bot keeps its level's human habits (think time,
    forgetting, catching) unless the command line sets habits for every bot."""
    setup = make_setup("classic", 3, "beginner,expert", 1, ["rounds=1"], [], None, tmp_path / "g.json")
    session = setup.session()
    bots = [player.bot for player in session.players[1:]]
    assert [b.habits if b else None for b in bots] == [LEVELS["beginner"].habits, LEVELS["expert"].habits]
    assert [player.bot_name for player in session.players[1:]] == ["beginner", "expert"]
    chosen = make_setup("classic", 3, "beginner,expert", 1, ["rounds=1"], [], CAREFUL, tmp_path / "h.json")
    assert all(p.bot.habits == CAREFUL for p in chosen.session().players[1:] if p.bot)
    assert play_habits(None, None, None, False) is None
    assert play_habits(0.5, None, "1-2", False) == Habits(forget=0.5, reaction=(1.0, 2.0))
    steady = play_habits(None, None, None, True)
    assert steady is not None and steady.forget == 0.0 and steady.catch == 1.0
    with pytest.raises(click.UsageError, match="--no-habits cannot go with"):
        play_habits(0.1, None, None, True)
