"""The external-bot protocol, against a small bot written here and run as a subprocess."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from unokit.bots import make_bot
from unokit.bots.external import ExternalBot, ExternalBotError
from unokit.bots.runner import play_game
from unokit.core.game import Game
from unokit.core.observation import View

#: A complete bot in the protocol: it plays the first legal action, or misbehaves on request
#: (argv[1]: "good", "illegal", "slow", "crash", "handshake", "react"); argv[2] is a log file.
BOT_SOURCE = r"""
import json, sys, time

mode = sys.argv[1]
log = open(sys.argv[2], "a")
for line in sys.stdin:
    message = json.loads(line)
    log.write(json.dumps(message) + "\n")
    log.flush()
    kind = message["type"]
    if kind == "hello":
        if mode == "handshake":
            print("hello there", flush=True)
            continue
        print(json.dumps({"type": "ready", "name": "first-legal", "react": mode == "react"}), flush=True)
    elif kind == "act":
        if mode == "illegal":
            print("play purple 11", flush=True)
        elif mode == "slow":
            time.sleep(30)
        elif mode == "crash":
            sys.stderr.write("something went wrong\n")
            sys.exit(3)
        else:
            print(message["legal_actions"][0], flush=True)
    elif kind == "react":
        print("pass" if mode == "react" else message["legal_actions"][0], flush=True)
    elif kind == "quit":
        break
"""


@pytest.fixture
def bot_script(tmp_path: Path) -> Path:
    path = tmp_path / "first_legal_bot.py"
    path.write_text(BOT_SOURCE, encoding="utf-8")
    return path


def command(script: Path, mode: str, log: Path) -> list[str]:
    return [sys.executable, str(script), mode, str(log)]


def messages(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_an_external_bot_plays_whole_hands(bot_script: Path, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    with ExternalBot(5, command(bot_script, "good", log)) as bot:
        for seed in range(3):
            game, _ = Game.new("flip", 2, seed, rounds=1)
            play_game(game, [bot, make_bot("random", seed)])
            assert game.is_over
        assert bot.bot_name == "first-legal"
    sent = messages(log)
    assert sent[0] == {"type": "hello", "protocol": "unokit-bot/1"}
    new_games = [m for m in sent if m["type"] == "new_game"]
    assert len(new_games) == 3
    assert new_games[0]["seat"] == 0 and new_games[0]["variant"] == "flip" and new_games[0]["players"] == 2
    acts = [m for m in sent if m["type"] == "act"]
    assert acts and all(m["legal_actions"] for m in acts)
    observation = acts[0]["observation"]
    assert isinstance(observation, dict) and observation["seat"] == 0 and "seed" not in observation
    assert sent[-1] == {"type": "quit"}


def test_an_illegal_answer_is_a_clear_error(bot_script: Path, tmp_path: Path) -> None:
    game, _ = Game.new("classic", 2, 1, rounds=1)
    bot = ExternalBot(0, command(bot_script, "illegal", tmp_path / "log"))
    bot.reset(0)
    with pytest.raises(ExternalBotError, match=r"answered 'play purple 11'.*not a legal action.*legal actions were"):
        bot.act(View(game, game.to_act or 0))
    bot.close()


def test_a_late_answer_is_a_clear_error(bot_script: Path, tmp_path: Path) -> None:
    game, _ = Game.new("classic", 2, 1, rounds=1)
    bot = ExternalBot(0, command(bot_script, "slow", tmp_path / "log"), time_limit=0.3)
    bot.reset(0)
    with pytest.raises(ExternalBotError, match=r"did not answer the decision 'turn' within 0.3 s"):
        bot.act(View(game, game.to_act or 0))
    bot.close()


def test_a_bot_that_exits_is_a_clear_error(bot_script: Path, tmp_path: Path) -> None:
    game, _ = Game.new("classic", 2, 1, rounds=1)
    bot = ExternalBot(0, command(bot_script, "crash", tmp_path / "log"))
    bot.reset(0)
    with pytest.raises(ExternalBotError, match=r"exited \(code 3\).*something went wrong"):
        bot.act(View(game, game.to_act or 0))


def test_a_bad_handshake_or_command_is_a_clear_error(bot_script: Path, tmp_path: Path) -> None:
    with pytest.raises(ExternalBotError, match=r"answered the handshake with 'hello there'"):
        ExternalBot(0, command(bot_script, "handshake", tmp_path / "log")).start()
    with pytest.raises(ExternalBotError, match="could not start"):
        ExternalBot(0, [str(tmp_path / "no-such-program")]).start()
    with pytest.raises(ValueError, match="needs a command"):
        ExternalBot(0, "")


def test_reactions_are_asked_only_when_the_bot_wants_them(bot_script: Path, tmp_path: Path) -> None:
    def exposed() -> Game:
        game = Game.from_position(
            {
                "variant": "classic",
                "players": 2,
                "turn": 0,
                "color": "red",
                "hands": [["red 5", "blue 7"], ["yellow 3", "red 1", "green 2"]],
                "discard": ["red 9"],
                "seed": 1,
            }
        )
        game.apply("play red 5")  # seat 0 forgot UNO
        return game

    with ExternalBot(0, command(bot_script, "react", tmp_path / "a")) as asks:
        asks.reset(1)
        assert asks.react(View(exposed(), 1)) is None  # it answered "pass"
    with ExternalBot(0, command(bot_script, "good", tmp_path / "b")) as default:
        default.reset(1)
        reaction = default.react(View(exposed(), 1))
        assert reaction is not None and str(reaction) == "catch 0"  # not asked: catches, like every bot
    assert any(m["type"] == "react" for m in messages(tmp_path / "a"))
    assert not any(m["type"] == "react" for m in messages(tmp_path / "b"))
