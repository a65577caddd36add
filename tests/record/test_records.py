"""Game records: written while a game is played, read back, replayed to any step, verified."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import unokit
from unokit import Game, IllegalActionError
from unokit.bots import make_bot
from unokit.bots.runner import play_game
from unokit.i18n.lines import words
from unokit.narration import action_line
from unokit.play.commands import replay as replay_command
from unokit.record import (
    FORMAT,
    GameRecord,
    IncompatibleRecordError,
    RecordError,
    RecordingGame,
    Replay,
    Seat,
    compatible,
    load_record,
    position_digest,
    record_game,
    save_record,
    verify,
)
from unokit.record.commands import verify as verify_command

VARIANTS = list(unokit.VARIANT_NAMES)


def bot_game(variant: str, seed: int = 3, players: int = 3, **options: object) -> GameRecord:
    game, _setup = RecordingGame.new(variant, players, seed, **options)
    play_game(game, [make_bot("random", seed * 10 + i) for i in range(players)])
    seats = [Seat(f"bot {i}", "bot", "random", {"seed": seed * 10 + i}) for i in range(players)]
    return game.to_record(seats, {"note": "test"})


@pytest.fixture(scope="module", params=VARIANTS)
def finished(request: pytest.FixtureRequest) -> GameRecord:
    return bot_game(request.param, rounds=2, target=10_000)


def test_records_round_trip_through_json_and_verify(finished: GameRecord, tmp_path: Path) -> None:
    path = save_record(finished, tmp_path / "game.json")
    loaded = load_record(path)
    assert loaded.to_json() == finished.to_json()
    assert loaded.format == FORMAT and loaded.unokit == finished.unokit
    assert loaded.result is not None and loaded.result.over
    assert loaded.seats[1] == Seat("bot 1", "bot", "random", {"seed": 31})
    verdict = verify(loaded)
    assert verdict.ok, verdict.message
    assert verdict.message.startswith(f"reproduces: {len(loaded.actions):,} actions, 2 rounds, scores ")
    assert "[" not in verdict.message  # scores by name, not as a list


def test_the_record_file_is_readable_json_with_one_action_a_line(finished: GameRecord) -> None:
    text = finished.dumps()
    obj = json.loads(text)
    assert list(obj) == [
        "format", "unokit", "created", "variant", "players", "options", "seed",
        "start", "seats", "actions", "result", "meta",
    ]  # fmt: skip
    assert obj["options"]["rounds"] == 2
    first, second = text.split('"actions": [\n')[1].splitlines()[:2]
    assert json.loads(first.rstrip(",")) == list(finished.actions[0])
    assert json.loads(second.rstrip(",")) == list(finished.actions[1])


def test_replay_rebuilds_every_step(finished: GameRecord) -> None:
    replay = Replay(finished)
    game, _ = Game.new(finished.variant, finished.players, finished.seed, **finished.options)
    steps = len(replay)
    checks = {0, 1, 63, 64, 65, steps // 2, steps - 1, steps}
    for step, (seat, text) in enumerate(finished.actions, start=1):
        events = game.apply(text, seat=seat)
        assert replay.events_at(step) == events
        if step in checks:
            assert position_digest(replay.game_at(step)) == position_digest(game)
    assert replay.game_at(0).round_number == 1
    assert replay.round_starts() == [
        0,
        *[s for s in range(1, steps + 1) if any(e["type"] == "round_start" for e in replay.events_at(s))],
    ]
    with pytest.raises(IndexError):
        replay.game_at(steps + 1)


def test_the_recorder_stores_canonical_text_and_only_accepted_actions() -> None:
    game = RecordingGame.from_position(
        {
            "variant": "flip",
            "players": 3,
            "turn": 0,
            "color": "red",
            "hands": [
                ["red 5/pink 2", "yellow 3/purple 1"],
                ["red 1/pink 3", "green 4/pink 8"],
                ["yellow 2/teal 1", "yellow 2/teal 8"],
            ],
            "discard": ["red 9/teal reverse"],
            "seed": 2,
        }
    )
    with pytest.raises(IllegalActionError):
        game.apply("play yellow 3")
    game.apply("play red 5")  # down to one card without UNO
    game.apply("catch 0", seat=2)
    game.step(game.legal_actions()[0])
    assert game.moves == [(0, "play red 5/pink 2"), (2, "catch 0"), (1, "play red 1/pink 3")]
    record = game.to_record()
    assert record.start is not None and record.seats[0].kind == "unknown"
    assert verify(record).ok


def test_record_game_copies_a_game_in_any_state() -> None:
    original, _ = Game.new("attack", 2, 5)
    original.apply(original.legal_actions()[-1])
    recording = record_game(original)
    before = position_digest(original)
    play_game(recording, [make_bot("random", 1), make_bot("random", 2)])
    assert position_digest(original) == before  # the original is left alone
    assert verify(recording.to_record()).ok


def tamper(record: GameRecord, **changes: Any) -> GameRecord:
    obj = record.to_json()
    for key, value in changes.items():
        if key == "action":
            index, text = value
            obj["actions"][index][1] = text
        elif key == "scores":
            obj["result"]["scores"] = value
        else:
            obj[key] = value
    return GameRecord.from_json(obj)


def test_a_tampered_record_fails_with_a_clear_message() -> None:
    record = bot_game("classic", rounds=1)
    _seat, text = record.actions[5]
    legal = Replay(record).game_at(5).legal_actions()
    other = next(str(a) for a in legal if str(a) != text)
    changed = verify(tamper(record, action=(5, other)))
    assert not changed.ok
    assert changed.message.startswith("does not reproduce:")
    bogus = verify(tamper(record, action=(5, "play wild_draw_four purple")))
    assert not bogus.ok and "action 6 of" in bogus.message and "is refused by this engine" in bogus.message
    assert record.result is not None
    scores = verify(tamper(record, scores=[s + 1 for s in record.result.scores]))
    assert not scores.ok and "scores: the replay gives" in scores.message and "the record says" in scores.message
    reseeded = verify(tamper(record, seed=record.seed + 1))
    assert not reseeded.ok and "does not reproduce" in reseeded.message


@pytest.mark.parametrize(
    ("start_changes", "action", "named"),
    [
        ({"launcher": {"model": "random", "empty_streak": -1}}, None, "empty_streak"),
        ({"launcher": {"model": "pattern", "index": 10**400}}, None, "index"),
        ({"pending": {"kind": ["turn"]}}, None, "pending"),
        ({"hands": "NESTED"}, None, "hands"),
        (None, (0, "catch ²"), "seat number"),
        (None, (1, "play red 5"), "refused"),
    ],
)
def test_records_with_bad_input_fail_verify_and_replay_clearly(
    start_changes: dict[str, Any] | None, action: tuple[int, str] | None, named: str, tmp_path: Path
) -> None:
    """A record whose start position or actions the engine refuses fails ``verify`` and
    ``replay`` with a message naming the problem, never a traceback."""
    game = Game.from_position(Game.new("attack", 2, 4)[0].to_position())
    recording = record_game(game)
    record = recording.to_record(result=False)
    data = record.to_json()
    if start_changes is not None:
        nested: Any = "red 5"
        for _ in range(500):
            nested = [nested]
        changes = {key: (nested if value == "NESTED" else value) for key, value in start_changes.items()}
        data["start"] = {**data["start"], **changes}
    if action is not None:
        data["actions"] = [list(action)]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    outcome = verify(load_record(path))
    assert not outcome.ok and named in outcome.message, outcome.message
    runner = CliRunner()
    result = runner.invoke(verify_command, [str(path)])
    assert result.exit_code == 1 and named in result.output and "Traceback" not in result.output
    result = runner.invoke(replay_command, [str(path), "--print"])
    assert result.exit_code != 0 and (result.exception is None or isinstance(result.exception, SystemExit))
    assert named in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"seed": "HUGE"}, "the record is not readable: it holds a number of more than 4,300 digits"),
        ({"players": "HUGE"}, "the record is not readable: it holds a number of more than 4,300 digits"),
        ({"unokit": "0.1.DIGITS"}, "is not a unokit version"),
        ({"unokit": "DIGITS.1.0"}, "is not a unokit version"),
    ],
)
def test_a_record_with_a_number_too_long_for_python_is_refused_clearly(
    changes: dict[str, str], named: str, tmp_path: Path
) -> None:
    """Python converts no integer of more than 4,300 digits (sys.get_int_max_str_digits): such a
    number in a record, or in its version, is named; the file is left as it is."""
    text = bot_game("classic", rounds=1).dumps()
    for key, value in changes.items():
        data = json.loads(text)
        data[key] = "HUGE" if value == "HUGE" else value.replace("DIGITS", "9" * 5000)
        text = json.dumps(data).replace('"HUGE"', "9" * 5000)
    path = tmp_path / "huge.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError, match=named):
        load_record(path)
    runner = CliRunner()
    for command, args in ((verify_command, [str(path)]), (replay_command, [str(path), "--print"])):
        result = runner.invoke(command, args)
        assert result.exit_code == 1 and named in result.output, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
    assert path.read_text(encoding="utf-8") == text


def test_a_deeply_nested_record_file_is_refused_clearly() -> None:
    with pytest.raises(RecordError, match="nested too deeply"):
        GameRecord.loads("[" * 100_000 + "]" * 100_000)


def test_a_record_of_an_incompatible_version_fails_clearly() -> None:
    record = bot_game("flip", rounds=1)
    newer = tamper(record, unokit="0.2.0")
    verdict = verify(newer)
    assert not verdict.ok
    assert "written by unokit 0.2.0" in verdict.message and "not compatible" in verdict.message
    assert "replay it with unokit 0.2.x" in verdict.message
    assert verify(newer, check_version=False).ok
    with pytest.raises(IncompatibleRecordError):
        Replay(newer)
    with pytest.raises(IncompatibleRecordError, match="unsupported record format 'unokit-record/9'"):
        tamper(record, format="unokit-record/9")


@pytest.mark.parametrize(
    ("recorded", "current", "ok"),
    [
        ("0.1.0", "0.1.0", True),
        ("0.1.3", "0.1.0", True),
        ("0.2.0", "0.1.0", False),
        ("1.2.0", "1.5.1", True),
        ("2.0.0", "1.9.0", False),
    ],
)
def test_version_compatibility(recorded: str, current: str, ok: bool) -> None:
    assert compatible(recorded, current) is ok


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not valid JSON"),
        ("[]", "a record is a JSON object"),
        ('{"format": "chess"}', "not a unokit record"),
        (
            '{HEAD, "actions": [[5, "draw"]]}',
            "seat from 0 to 1",
        ),
        (
            '{HEAD, "actions": [], "extra": 1}',
            "unknown record field",
        ),
        (
            '{"format": "unokit-record/1", "variant": "flip", "players": 2, "seed": 1, "actions": []}',
            "which unokit wrote it",
        ),
    ],
)
def test_malformed_records_are_named(text: str, message: str) -> None:
    text = text.replace(
        "HEAD", '"format": "unokit-record/1", "unokit": "0.1.0", "variant": "flip", "players": 2, "seed": 1'
    )
    with pytest.raises(RecordError, match=message):
        GameRecord.loads(text)


# ----------------------------------------------------------------------- the commands


def test_verify_command_exit_codes(tmp_path: Path) -> None:
    record = bot_game("attack", rounds=1)
    good = save_record(record, tmp_path / "good.json")
    bad = save_record(tamper(record, scores=[1] * record.players), tmp_path / "bad.json")
    (tmp_path / "junk.json").write_text("{", encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(verify_command, [str(good)])
    assert result.exit_code == 0 and f"{good}: reproduces:" in result.output
    result = runner.invoke(verify_command, [str(good), str(bad)])
    assert result.exit_code == 1 and f"{bad}: does not reproduce: scores" in result.output
    result = runner.invoke(verify_command, [str(tmp_path / "junk.json")])
    assert result.exit_code == 1 and "cannot be read: the record is not valid JSON" in result.output
    old = save_record(tamper(record, unokit="0.9.0"), tmp_path / "old.json")
    result = runner.invoke(verify_command, [str(old)])
    assert result.exit_code == 1 and "incompatible" in result.output
    assert runner.invoke(verify_command, ["--any-version", str(old)]).exit_code == 0


def test_replay_print_shows_a_step_as_a_seat_or_everyone(tmp_path: Path) -> None:
    record = bot_game("flip", rounds=1)
    path = save_record(record, tmp_path / "flip.json")
    runner = CliRunner()
    everyone = runner.invoke(replay_command, [str(path), "--print", "--step", "3"])
    assert everyone.exit_code == 0, everyone.output
    lines = everyone.output.splitlines()
    assert "step 3 of" in lines[0] and "seen by everyone (omniscient)" in lines[0]
    seat, text = record.actions[2]
    played = words().say(action_line(Replay(record).game_at(2), text, seat))
    assert lines[1] == f"Action 3: bot {seat} > {played}"  # the action in words, not in notation
    game = Replay(record).game_at(3)
    hands = game.to_position()["hands"]
    titles = [[words().card(card.split("/")[game.side]) for card in hand] for hand in hands]
    assert ", ".join(titles[1]) in everyone.output
    as_seat = runner.invoke(replay_command, [str(path), "--print", "--step", "3", "--seat", "0"])
    assert "seen by bot 0" in as_seat.output
    seat_lines = {line.split(":")[0].strip(" >"): line for line in as_seat.output.splitlines() if "cards," in line}
    assert all(card in seat_lines["1 bot 0"] for card in titles[0])  # seats numbered from 1
    assert "backs:" in seat_lines["2 bot 1"] and "/" not in seat_lines["2 bot 1"]
    log = runner.invoke(replay_command, [str(path), "--print", "--log", "--step", "2"])
    assert "[1] bot" in log.output and "[2] bot" in log.output and "[3] bot" not in log.output
    end = runner.invoke(replay_command, [str(path), "--print"])
    steps = f"{len(record.actions):,}"  # English groups thousands (CLDR): a long game's 1,916
    assert f"step {steps} of {steps}" in end.output and "Game over:" in end.output
    assert runner.invoke(replay_command, [str(path), "--seat", "7", "--print"]).exit_code == 2
    assert runner.invoke(replay_command, [str(path), "--step", "99999", "--print"]).exit_code == 2
    no_terminal = runner.invoke(replay_command, [str(path)])
    assert no_terminal.exit_code == 2 and "use --print" in no_terminal.output
    assert "Side: light" in everyone.output and re.search(r"To act: bot \d, to \w+", everyone.output)
    classic = save_record(bot_game("classic", rounds=1), tmp_path / "classic.json")
    printed = runner.invoke(replay_command, [str(classic), "--print", "--step", "1"]).output
    assert "Direction: " in printed and "Side" not in printed and "side" not in printed


def test_a_house_rules_game_records_its_rules_jumps_and_team_scores(tmp_path: Path) -> None:
    """Records keep the house rules in their options, jumps as actions of the jumping seat, and
    with teams the team totals (H-1, H-6); the replay reproduces them, a tampered total fails."""
    options: dict[str, object] = {"jump_in": True, "seven_o": True, "teams": True, "stacking": "mixed", "rounds": 2}
    game, _setup = RecordingGame.new("classic", 4, 11, **options)
    play_game(game, [make_bot("heuristic", 40 + i) for i in range(4)])
    record = game.to_record()
    assert record.options["jump_in"] is True and record.options["stacking"] == "mixed"
    assert "draw_until_playable" not in record.options  # a house rule that is off is not written
    assert record.result is not None and record.result.team_scores == game.team_scores
    assert sum(record.result.team_scores) == sum(record.result.scores)
    loaded = load_record(save_record(record, tmp_path / "teams.json"))
    assert loaded.result == record.result
    assert verify(loaded).ok and "team scores" in verify(loaded).message
    replay = Replay(loaded)
    jumps = [e for step in range(1, len(replay) + 1) for e in replay.events_at(step) if e["type"] == "jump_in"]
    assert jumps  # applied for the jumping seat, out of turn, when replayed
    tampered = json.loads(record.dumps())
    tampered["result"]["team_scores"] = [0, 1]
    assert not verify(GameRecord.from_json(tampered)).ok
    official = bot_game("classic", rounds=1)
    assert official.result is not None and "team_scores" not in official.result.to_json()
