"""The score keeper for real cards, checked on the worked examples of the rule pages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from unokit.play.scorekeeper import ScoreTable, hand_points, score, table


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


@pytest.mark.parametrize(
    ("variant", "cards", "side", "message"),
    [
        ("flip_attack", "skip_everyone", "mild", "not a card of the mild side of UNO Flip Attack"),
        ("flip", "red 5", "dark", "red is not a colour of the dark side"),
        ("classic", "5", "dark", "has only the light side"),
        ("classic", "red wild", None, "wild has no colour"),
        ("classic", "red", None, "not followed by a card"),
        ("attack", "0", None, "'0' is not a card"),
    ],
)
def test_cards_that_do_not_exist_are_named(variant: str, cards: str, side: str | None, message: str) -> None:
    with pytest.raises(ValueError, match=message):
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
    assert "Ben holds 80 points (red 3, green 7, blue skip, wild)" in out
    assert "Cat holds 29 points" in out
    saved = json.loads((tmp_path / "night.json").read_text())
    assert saved["rounds_played"][0]["points"] == [112, 0, 0, 0]
    out = run("round", night, "--winner", "ben", "--points", "Ann=500", "--points", "Cat=0", "--points", "Dan=0")
    assert "Game over: Ben won." in out
    assert [line.split()[-4:] for line in out.splitlines() if line.startswith("total")] == [["112", "500", "0", "0"]]
    result = CliRunner().invoke(table, ["round", night, "--winner", "Ann", "--points", "Ben=1"])
    assert result.exit_code == 2 and "the game is over" in result.output
    out = run("undo", night)
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
    assert "Game over: Ann, Dan won." in out  # Ben passed 100; Ann and Dan share the lowest total (D-11)
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
    assert "Ann holds 240 points" in out and "Game over: Ben, Cat won." in out


def test_a_fixed_number_of_rounds(tmp_path: Path) -> None:
    night = str(tmp_path / "n.json")
    run("new", night, "--variant", "attack", "--players", "Ann,Ben", "--rounds", "1")
    out = run("round", night, "--winner", "Ben", "--hand", "Ann=red 4, blue hit_2, yellow trade_hands, wild_all_hit")
    assert "Ann holds 104 points" in out and "Game over: Ben won." in out


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
        (["new", str(tmp_path / "x.json"), "--players", "A,B", "--scoring", "most"], "scoring"),
    ):
        result = CliRunner().invoke(table, args)
        assert result.exit_code == 2, result.output
        assert message in result.output
