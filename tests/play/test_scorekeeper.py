"""The score keeper for real cards, checked on the worked examples of the rule pages."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from unokit.cli import main
from unokit.play.scorekeeper import NAME_WORDS, ScoreTable, card_words, hand_points, score, table


def total(variant: str, cards: str, side: str | None = None) -> int:
    return sum(card.points for card in hand_points(variant, cards, side))


def test_flip_attack_wild_side_example_scores_215() -> None:
    """docs/rules/flip_attack.md, "Scoring a round on the wild side" (R-5.8)."""
    cards = "2 5 8 flip hit_5x reverse skip_everyone wild_discard_all wild_all_out_attack"
    valued = hand_points("flip_attack", cards, "wild")
    assert [c.points for c in valued] == [2, 5, 8, 20, 20, 20, 30, 50, 60]
    assert sum(c.points for c in valued) == 215


def test_the_score_command_prints_each_card_and_the_total() -> None:
    args = ["--variant", "flip_attack", "--side", "wild"]
    cards = "2 5 8 flip hit_5x reverse skip_everyone wild_discard_all wild_all_out_attack"
    result = CliRunner().invoke(score, [*args, cards])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "UNO Flip Attack, wild side: 9 cards"
    assert lines[4].split() == ["Flip", "20"]
    assert lines[9].split() == ["Wild", "All-Out", "Attack", "60"]
    assert lines[-1].split() == ["Total", "215"]


def test_classic_example() -> None:
    """docs/rules/classic.md, "Scoring a round": Ben 80, Cat 29, Dan 3; Ann scores 112."""
    ben = total("classic", "red 3, green 7, blue skip, wild")
    cat = total("classic", "yellow 0 yellow 9 red draw_two")
    dan = total("classic", "blue 1 blue 2")
    assert (ben, cat, dan) == (80, 29, 3)
    assert ben + cat + dan == 112


def test_flip_dark_side_example() -> None:
    """docs/rules/flip.md, "Scoring on the dark side": 4 + 20 + 30 + 60 = 114."""
    assert total("flip", "pink 4, teal draw_five, orange skip_everyone, wild_draw_color", "dark") == 114


def test_attack_example() -> None:
    """docs/rules/attack.md, "Scoring a round": 4 + 20 + 30 + 50 = 104."""
    assert total("attack", "red 4, blue hit_2, yellow trade_hands, wild_all_hit") == 104


def test_card_names_may_be_written_with_spaces_hyphens_or_underscores() -> None:
    for cards in (
        "red 5, blue skip, wild draw four",
        "red 5 blue skip wild-draw-four",
        "red 5 blue skip wild_draw_four",
    ):
        assert [c.title for c in hand_points("classic", cards)] == ["Red 5", "Blue Skip", "Wild Draw Four"]
    assert [c.title for c in hand_points("classic", "wild, draw two")] == ["Wild", "Draw Two"]
    valued = hand_points("flip_attack", "Wild All-Out Attack, skip everyone, pink hit 5x", "wild")
    assert [c.points for c in valued] == [60, 30, 20]
    result = CliRunner().invoke(score, ["--variant", "classic", "red 5, blue skip, wild draw four"])
    assert result.exit_code == 0 and result.output.splitlines()[-1].split() == ["Total", "75"], result.output


def test_words_that_spell_a_card_of_another_variant_are_not_read_as_two_cards() -> None:
    """Classic UNO has a Wild and a Draw Two but no Wild Draw Two: the words name that card, so
    they are refused with the way to write the two cards, never read as two cards silently."""
    with pytest.raises(ValueError, match="'wild draw two' is not a card of Classic UNO; cards there: ") as refused:
        hand_points("classic", "wild draw two")
    assert str(refused.value).endswith("; for two cards, write them apart with a comma")


def test_a_hand_of_more_cards_than_the_deck_is_refused_and_the_whole_deck_is_read() -> None:
    """No hand holds more cards than the deck (108 in Classic UNO): a longer one is refused at
    once, however long the text goes on, and the whole deck itself is still read."""
    deck = " ".join(["red 5"] * 108)
    assert total("classic", deck) == 540
    for cards in (deck + " blue 1", " ".join(["wild"] * 20000)):
        with pytest.raises(ValueError, match="a hand of Classic UNO cannot hold more than 108 cards"):
            hand_points("classic", cards)
    result = CliRunner().invoke(score, ["--variant", "classic", *(["wild"] * 300)])
    assert result.exit_code == 2 and "cannot hold more than 108 cards, the whole deck" in result.output


def test_reading_a_hand_looks_a_card_name_long_ahead_and_no_further() -> None:
    """The longest name is four words (Wild All-Out Attack): a name is found among the next
    four words, so a hand is read in time proportional to its words, never by trying every
    stretch of the rest of the hand (which made 600 cards take seconds)."""
    assert card_words("wild all out attack wild draw four") == ["wild_all_out_attack", "wild_draw_four"]
    assert NAME_WORDS == 4
    assert card_words(" ".join(["wild"] * 50), most=10) == ["wild"] * 11


@pytest.mark.parametrize(
    ("variant", "cards", "side", "message"),
    [
        ("flip_attack", "skip_everyone", "mild", "not a card of the mild side of UNO Flip Attack"),
        ("flip", "red 5", "dark", "red is not a colour of the dark side"),
        ("classic", "5", "dark", "Classic UNO has one side: leave out the side (not 'dark')"),
        ("classic", "red wild", None, "Wild has no colour; write it without red"),
        ("classic", "red", None, "not followed by a card"),
        ("attack", "0", None, "'0' is not a card of UNO Attack; cards there: 1, 2,"),
        ("classic", "purple 5", None, "purple is not a colour of Classic UNO"),
    ],
)
def test_cards_that_do_not_exist_are_named(variant: str, cards: str, side: str | None, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        hand_points(variant, cards, side)
    args = ["--variant", variant, *(["--side", side] if side else []), cards]
    result = CliRunner().invoke(score, args)
    assert result.exit_code == 2 and message in result.output


# ----------------------------------------------------------------------- a game night


def run(*args: str) -> str:
    result = CliRunner().invoke(table, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_a_game_night_in_winner_mode(tmp_path: Path) -> None:
    night = str(tmp_path / "night.json")
    run("new", night, "--variant", "classic", "--players", "Ann,Ben,Cat,Dan")
    out = run(
        "round", night, "--winner", "Ann",
        "--hand", "Ben=red 3, green 7, blue skip, wild",
        "--hand", "Cat=yellow 0 yellow 9 red draw_two",
        "--points", "Dan=3",
    )  # fmt: skip
    assert "Ben holds 80 points (Red 3, Green 7, Blue Skip, Wild)" in out
    assert "Cat holds 29 points" in out
    saved = json.loads((tmp_path / "night.json").read_text())
    assert saved["rounds_played"][0]["points"] == [112, 0, 0, 0]
    out = run("round", night, "--winner", "ben", "--points", "Ann=500", "--points", "Cat=0", "--points", "Dan=0")
    assert "Game over: Ben won" in out
    assert [line.split()[-4:] for line in out.splitlines() if line.startswith("Total")] == [["112", "500", "0", "0"]]
    result = CliRunner().invoke(table, ["round", night, "--winner", "Ann", "--points", "Ben=1"])
    assert result.exit_code == 2 and "the game is over" in result.output
    out = run("undo", night)
    assert out.splitlines()[0] == "Took back round 2: Ben went out (Ben +500)."
    assert "Round 2 next." in out
    assert "Round 2 next." in run("show", night)


def test_own_hand_and_loser_modes_charge_everyone_their_own_cards(tmp_path: Path) -> None:
    own = str(tmp_path / "own.json")
    run("new", own, "--variant", "classic", "--players", "Ann,Ben,Cat,Dan", "--scoring", "own_hand", "--target", "100")
    run(
        "round",
        own,
        "--winner",
        "Ann",
        "--hand",
        "Ben=red 3, green 7, blue skip, wild",
        "--points",
        "Cat=29",
        "--points",
        "Dan=3",
    )
    sheet = ScoreTable.from_json(json.loads((tmp_path / "own.json").read_text()))
    assert sheet.totals == [0, 80, 29, 3]
    out = run("round", own, "--winner", "Dan", "--points", "Ann=3", "--points", "Ben=30", "--points", "Cat=0")
    assert "Game over: Ann, Dan won" in out  # Ben passed 100; Ann and Dan share the lowest total (D-11)
    loser = str(tmp_path / "loser.json")
    run("new", loser, "--variant", "flip", "--players", "Ann,Ben,Cat", "--scoring", "loser")
    assert ScoreTable.from_json(json.loads((tmp_path / "loser.json").read_text())).target == 200
    out = run(
        "round",
        loser,
        "--winner",
        "Cat",
        "--side",
        "dark",
        "--hand",
        "Ann=wild_draw_color wild_draw_color wild_draw_color wild_draw_color",
        "--hand",
        "Ben=pink 4",
    )
    assert "Ann holds 240 points" in out and "Game over: Ben, Cat won" in out


def test_a_fixed_number_of_rounds(tmp_path: Path) -> None:
    night = str(tmp_path / "n.json")
    run("new", night, "--variant", "attack", "--players", "Ann,Ben", "--rounds", "1")
    out = run("round", night, "--winner", "Ben", "--hand", "Ann=red 4, blue hit_2, yellow trade_hands, wild_all_hit")
    assert "Ann holds 104 points" in out and "Game over: Ben won" in out


def test_table_mistakes_are_explained(tmp_path: Path) -> None:
    night = str(tmp_path / "n.json")
    run("new", night, "--players", "Ann,Ben,Cat")
    for args, message in (
        (["round", night, "--winner", "Zed"], "no player called 'Zed'"),
        (["round", night, "--winner", "Ann", "--hand", "Ben=5"], "give the hand (or points) of Cat"),
        (
            ["round", night, "--winner", "Ann", "--points", "Ann=5", "--points", "Ben=1", "--points", "Cat=1"],
            "went out",
        ),
        (["round", night, "--winner", "Ann", "--hand", "Ben=5", "--points", "Ben=5"], "given twice"),
        (["new", night, "--players", "Ann,Ben"], "exists"),
        (["new", str(tmp_path / "x.json"), "--players", "Ann,ann"], "same name"),
        (["new", str(tmp_path / "x.json"), "--players", "Ann", "--variant", "flip"], "2 to 10 players"),
        (["new", str(tmp_path / "x.json"), "--players", "A,B", "--scoring", "most"], "not a value of Scoring"),
    ):
        result = CliRunner().invoke(table, args)
        assert result.exit_code == 2, result.output
        assert message in result.output


# ----------------------------------------------------------------------- the file


def a_night(tmp_path: Path) -> Path:
    """A valid table of three players after two rounds, in winner mode."""
    night = tmp_path / "night.json"
    run("new", str(night), "--variant", "flip", "--players", "Ann,Ben,Cat", "--target", "1000")
    run("round", str(night), "--winner", "Ann", "--hand", "Ben=red 5, wild", "--points", "Cat=12")
    run(
        "round",
        str(night),
        "--winner",
        "Ben",
        "--side",
        "dark",
        "--hand",
        "Ann=pink 4",
        "--hand",
        "Cat=teal skip_everyone",
    )
    return night


def edited(night: Path, change: Any) -> bytes:
    data = json.loads(night.read_text())
    change(data)
    night.write_text(json.dumps(data), encoding="utf-8")
    return night.read_bytes()


def set_field(path: tuple[Any, ...], value: Any) -> Any:
    def change(data: Any) -> None:
        for key in path[:-1]:
            data = data[key]
        data[path[-1]] = value

    return change


@pytest.mark.parametrize(
    ("players", "bad", "message"),
    [
        ("Ann,,Bo", "", "a player's name is empty"),
        ("Ann,Bo,", " ", "a player's name is empty"),
        ("Ann\nX,Bo", "Ann\nX", "'Ann\\nX': the character U+000A cannot be part of a name"),
        ("Ann\x1b[31m,Bo", "Ann\x1b[31m", "the character U+001B cannot be part of a name"),
        ("Ann\tX,Bo", "Ann\tX", "the character U+0009"),
        ("Ann\u202eoB,Bo", "Ann\u202eoB", "the character U+202E"),
        ("A" * 41 + ",Bo", "A" * 41, "is too long: a name has at most 40 characters"),
    ],
)
def test_names_that_would_break_the_table_are_refused_and_nothing_is_written(
    tmp_path: Path, players: str, bad: str, message: str
) -> None:
    """An empty name between commas was dropped, and a newline or an escape was stored and
    printed raw; each is refused by name, quoted with its control characters escaped, and no
    file is written. The terminal game's ``--name`` follows the same rule (and a file edited by
    hand, below)."""
    night = tmp_path / "n.json"
    result = CliRunner().invoke(table, ["new", str(night), "--players", players])
    assert result.exit_code == 2 and message in result.output, result.output
    assert "\x1b" not in result.output and not night.exists()
    played = CliRunner().invoke(main, ["play", "--name", bad, "--players", "3"])
    assert played.exit_code == 2 and message in played.output, played.output
    run("new", str(tmp_path / "ok.json"), "--players", "Zoë,Ἀθηνᾶ,李")


def drop_field(path: tuple[Any, ...]) -> Any:
    def change(data: Any) -> None:
        for key in path[:-1]:
            data = data[key]
        del data[path[-1]]

    return change


DAMAGES: list[tuple[str, Any, str]] = [
    ("unknown variant", set_field(("variant",), "uno"), "There is no game called 'uno'"),
    ("variant not a name", set_field(("variant",), 3), "the variant must be a name"),
    ("no players", set_field(("players",), []), "UNO Flip is for 2 to 10 players, not 0"),
    ("players not names", set_field(("players",), [1, 2]), "the players must be a list of names"),
    ("same name", set_field(("players",), ["Ann", "ann", "Cat"]), "two players have the same name"),
    ("empty name", set_field(("players",), ["Ann", " ", "Cat"]), "a player's name is empty"),
    ("escape in a name", set_field(("players",), ["Ann", "B\x1b[2Jen", "Cat"]), "the character U+001B"),
    ("scoring", set_field(("scoring",), "most"), "'most' is not a value of Scoring"),
    ("target zero", set_field(("target",), 0), "Target score must be at least 1"),
    ("target text", set_field(("target",), "lots"), "'lots' is not a value of Target score"),
    ("rounds zero", set_field(("rounds",), 0), "Rounds must be at least 1"),
    ("format", set_field(("format",), "other"), "not a unokit score table"),
    ("unknown field", set_field(("notes",), "x"), "unknown field 'notes'"),
    ("missing field", drop_field(("target",)), "the field 'target' is missing"),
    ("rounds not a list", set_field(("rounds_played",), {}), "'rounds_played' must be a list of rounds"),
    ("row not an object", set_field(("rounds_played", 1), 7), "round 2: a round must be a JSON object"),
    ("row missing totals", drop_field(("rounds_played", 0, "totals")), "round 1: the field 'totals' is missing"),
    ("row totals", set_field(("rounds_played", 1, "totals"), [65, 99, 0]), "round 2: 'totals' is [65, 99, 0], but"),
    ("row winner", set_field(("rounds_played", 0, "winner"), "Zed"), "round 1: no player called 'Zed'"),
    ("row side", set_field(("rounds_played", 0, "side"), "top"), "round 1: UNO Flip has the sides light and dark"),
    ("row card", set_field(("rounds_played", 0, "hands", "Ben"), ["purple 11"]), "round 1: purple is not a colour"),
    ("row points", set_field(("rounds_played", 0, "hand_points"), [0, "x", 12]), "round 1: 'hand_points' must list 3"),
    ("row hands", set_field(("rounds_played", 0, "hands"), ["Ben"]), "round 1: 'hands' must map each player"),
    ("row number", set_field(("rounds_played", 1, "round"), 5), "round 2: 'round' is 5, but the hands give 2"),
]


@pytest.mark.parametrize(("damage", "message"), [(d[1], d[2]) for d in DAMAGES], ids=[d[0] for d in DAMAGES])
@pytest.mark.parametrize("command", ["round", "undo", "show"])
def test_a_damaged_file_is_named_and_left_untouched(tmp_path: Path, command: str, damage: Any, message: str) -> None:
    night = a_night(tmp_path)
    before = edited(night, damage)
    args = [
        command,
        str(night),
        *(["--winner", "Ann", "--points", "Ben=1", "--points", "Cat=2"] * (command == "round")),
    ]
    result = CliRunner().invoke(table, args)
    assert result.exit_code == 1, result.output
    assert f"Error: {night}: " in result.output and message in result.output
    assert night.read_bytes() == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "not valid JSON"),
        (b"{'variant': 'classic'}", "not valid JSON"),
        (b"\xff\xfe\x00garbage", "not a text file"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b"[1, 2]", "not a unokit score table"),
        (b'{"format": "unokit-table/1", "target": ' + b"9" * 5000 + b"}", "a number of more than 4,300 digits"),
    ],
    ids=["empty", "not json", "binary", "deeply nested", "a list", "a number too long"],
)
def test_a_file_that_is_no_table_at_all_is_named_and_left_untouched(
    tmp_path: Path, content: bytes, message: str
) -> None:
    night = tmp_path / "night.json"
    night.write_bytes(content)
    for args in (
        ["round", str(night), "--winner", "Ann", "--points", "Ben=1"],
        ["undo", str(night)],
        ["show", str(night)],
    ):
        result = CliRunner().invoke(table, args)
        assert result.exit_code == 1 and message in result.output, result.output
        assert night.read_bytes() == content


def test_a_round_after_the_end_of_the_game_is_refused(tmp_path: Path) -> None:
    night = tmp_path / "n.json"
    run("new", str(night), "--players", "Ann,Ben", "--rounds", "1")
    run("round", str(night), "--winner", "Ann", "--points", "Ben=5")
    data = json.loads(night.read_text())
    data["rounds_played"].append({**data["rounds_played"][0], "round": 2})
    night.write_text(json.dumps(data))
    result = CliRunner().invoke(table, ["show", str(night)])
    assert result.exit_code == 1 and "round 2: the game was already over" in result.output


def test_a_variant_written_in_capitals_reads_as_on_the_command_line(tmp_path: Path) -> None:
    night = a_night(tmp_path)
    edited(night, set_field(("variant",), "FLIP"))
    out = run("round", str(night), "--winner", "Cat", "--hand", "Ann=red 1", "--hand", "Ben=blue 2")
    assert out.startswith("Ann holds 1 point (Red 1)\n") and "UNO Flip: the winner scores, target 1000" in out
    assert json.loads(night.read_text())["variant"] == "flip"


def test_a_refused_round_writes_nothing(tmp_path: Path) -> None:
    night = a_night(tmp_path)
    before = night.read_bytes()
    result = CliRunner().invoke(table, ["round", str(night), "--winner", "Ann", "--hand", "Ben=purple 9"])
    assert result.exit_code == 2 and "purple is not a colour of the light side" in result.output
    assert night.read_bytes() == before


def test_concurrent_rounds_are_all_counted(tmp_path: Path) -> None:
    """30 ``table round`` processes and 6 ``table show`` at once on one file:
    every round is counted once, and no reader ever sees half a file."""
    night = tmp_path / "night.json"
    run("new", str(night), "--players", "Ann,Ben", "--target", "1000000")
    code = "import sys\nfrom unokit.cli import main\nmain(sys.argv[1:], prog_name='unokit')\n"
    rounds = [["table", "round", str(night), "--winner", "Ann", "--points", f"Ben={k % 7}"] for k in range(30)]
    shows = [["table", "show", str(night)]] * 6
    processes = [
        subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for args in [*rounds, *shows]
    ]
    results = [(p.wait(timeout=600), p.stderr.read() if p.stderr else b"") for p in processes]
    for process in processes:
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
    assert [(code, err) for code, err in results if code != 0] == []
    sheet = ScoreTable.from_json(json.loads(night.read_text()))  # checks every round again
    assert [row["round"] for row in sheet.rows] == list(range(1, 31))
    assert sheet.totals == [sum(k % 7 for k in range(30)), 0]


def test_a_score_table_of_chinese_names_lines_up_in_cells() -> None:
    """A Han character takes two cells of a terminal: the columns of ``unokit table`` line up by
    cells, not characters, with Chinese names beside Latin ones (and in Chinese)."""
    from rich.cells import cell_len

    from unokit.i18n.lines import words
    from unokit.play.scorekeeper import new_table

    sheet = new_table("classic", ["小明", "Bo", "欧阳娜娜"])
    sheet.add_round("小明", None, {}, {"Bo": 12, "欧阳娜娜": 30})
    sheet.add_round("Bo", None, {}, {"小明": 7, "欧阳娜娜": 5})
    for lang in ("en", "zh-Hans"):
        rows = sheet.render(words(lang))[1:-1]  # the caption and the last line are sentences
        assert len(rows) == 4, rows
        assert len({cell_len(row) for row in rows}) == 1, "\n".join(rows)


def test_the_score_command_lines_up_chinese_titles_in_cells() -> None:
    from rich.cells import cell_len

    args = ["--lang", "zh-Hans", "--variant", "classic", "red 5, blue skip, wild_draw_four"]
    result = CliRunner().invoke(score, args)
    assert result.exit_code == 0, result.output
    rows = result.output.splitlines()[1:]
    assert [row.split()[-1] for row in rows] == ["5", "20", "50", "75"]
    assert len({cell_len(row) for row in rows}) == 1, result.output
