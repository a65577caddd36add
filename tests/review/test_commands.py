"""``unokit review``: words in the reader's language, JSON, the PNG graph, the same review with
any number of processes, and clear refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from unokit.bots import make_bot
from unokit.bots.runner import play_game
from unokit.cli import main
from unokit.record import RecordingGame, Seat, save_record
from unokit.review import Review, analysis

from ..test_player_words import CYRILLIC, wrong_words

NAMES = {"en": ["Ann", "Bo"], "ru": ["Аня", "Боря"]}


def saved_game(folder: Path, lang: str = "en") -> Path:
    """A short scored game of 2-player Classic, Ann (a person) against a bot, saved."""
    game, _ = RecordingGame.new("classic", 2, seed=21, target=40)
    play_game(game, [make_bot("normal", 1), make_bot("normal", 2)])
    first, second = NAMES[lang]
    return save_record(game.to_record([Seat(first, "human"), Seat(second, "bot", "normal")]), folder / "game.json")


def review(*args: str) -> str:
    result = CliRunner().invoke(main, ["review", *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_review_in_words_in_the_readers_language(tmp_path: Path, lang: str) -> None:
    text = review(str(saved_game(tmp_path, lang)), "--lang", lang, "--effort", "low", "--workers", "1")
    assert wrong_words(text, lang) == []
    first = NAMES[lang][0]
    if lang == "en":
        assert text.startswith(f"Game review: {first} · Classic UNO · effort: low")
        for part in ("Hands won:", "Decisions:", "Chance to win the hand", "Key moments", "Every decision", "round 2"):
            assert part in text
    else:
        assert text.startswith(f"Разбор партии: {first}")
        assert len(CYRILLIC.findall(text)) > 20


def test_json_with_one_or_two_processes_is_the_same_review(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis, "ALONE", 0)  # share even this short game between processes
    path = str(saved_game(tmp_path))
    one = review(path, "--json", "--effort", "low", "--seed", "3", "--workers", "1")
    two = review(path, "--json", "--effort", "low", "--seed", "3", "--workers", "2")
    assert one == two
    parsed = Review.from_json(json.loads(one))
    assert parsed.seat == 0 and parsed.names == ("Ann", "Bo") and parsed.effort == "low"


def test_the_graph_as_a_png(tmp_path: Path) -> None:
    plot = tmp_path / "graphs" / "review.png"
    text = review(str(saved_game(tmp_path)), "--effort", "low", "--workers", "1", "--plot", str(plot))
    assert f"Graph saved: {plot}" in text
    data = plot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_refusals_name_the_problem(tmp_path: Path) -> None:
    path = str(saved_game(tmp_path))
    runner = CliRunner()
    result = runner.invoke(main, ["review", path, "--seat", "2"])
    assert result.exit_code == 2 and "seats are 0 to 1" in result.output
    result = runner.invoke(main, ["review", path, "--effort", "huge"])
    assert result.exit_code == 2 and "'huge' is not one of 'low', 'normal', 'high'" in result.output
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    result = runner.invoke(main, ["review", str(broken)])
    assert result.exit_code == 1 and "broken.json" in result.output and "Traceback" not in result.output
