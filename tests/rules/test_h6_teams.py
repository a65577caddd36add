"""Scenario tests for partner play (``teams=true``, H-6 in docs/rules/teams.md): partners sit
facing each other, a team wins a round when one of them goes out and scores the other teams'
hands, and the teams' totals decide the game.

Every expected value is derived from the rule text, not read back from the engine.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import classic_points, game, of_type
from unokit import Game, OptionError, PositionError, new_game
from unokit.core.teams import partner, team_members, team_of, team_totals

TEAMS = {"teams": True}
LEFT = [["red 1"], ["blue 9", "blue skip"], ["green 7", "wild"], ["yellow 3", "yellow draw_two"]]


def going_out(**options: Any) -> Game:
    """Seat 0 (of 4) holds only the red 1 on a red 5; the others hold ``LEFT``."""
    return game(hands=LEFT, discard=["red 5"], color="red", options={**TEAMS, **options})


def points(cards: list[str]) -> int:
    return sum(classic_points(c) for c in cards)


@pytest.mark.parametrize(("variant", "players"), [("classic", 3), ("classic", 5), ("flip", 8), ("attack", 2)])
def test_h6_1_teams_need_four_or_six_players(variant: str, players: int) -> None:
    """H-6.1: partners face each other: 4 or 6 seats, else an OptionError naming the rule."""
    with pytest.raises(OptionError, match="4 or 6 players"):
        new_game(variant, players, 1, teams=True)
    bad = {"variant": "classic", "players": 3, "hands": [["red 1"]] * 3, "discard": ["red 5"], "color": "red"}
    with pytest.raises(PositionError, match="4 or 6"):
        Game.from_position({**bad, "turn": 0, "seed": 1, "options": TEAMS})


def test_h6_1_partners_sit_facing_each_other() -> None:
    """H-6.1: at 4 seats 0+2 and 1+3; at 6 seats 0+3, 1+4, 2+5."""
    assert team_members(4) == ((0, 2), (1, 3))
    assert team_members(6) == ((0, 3), (1, 4), (2, 5))
    assert [partner(s, 6) for s in range(6)] == [3, 4, 5, 0, 1, 2]
    assert [team_of(s, 4) for s in range(4)] == [0, 1, 0, 1]
    assert new_game("flip_attack", 6, 1, teams=True).teams == ((0, 3), (1, 4), (2, 5))


def test_h6_2_the_round_winner_scores_the_other_teams_hands_not_the_partners() -> None:
    """H-6.2: seat 0 goes out: it scores seats 1 and 3, not its partner seat 2."""
    g = going_out()
    events = g.apply("play red 1")
    end = of_type(events, "round_end")[0]
    expected = points(LEFT[1]) + points(LEFT[3])
    assert end["points"] == [expected, 0, 0, 0]
    assert end["team_scores"] == [expected, 0]
    assert g.team_scores == [expected, 0]


def test_h6_3_a_game_of_one_hand_is_won_by_the_whole_team() -> None:
    """H-6.3 with D-15: ``rounds=1``: both partners of the player who went out win."""
    g = going_out(rounds=1)
    g.apply("play red 1")
    assert g.is_over
    assert g.winners == [0, 2]
    assert g.winner is None


def test_h6_3_the_teams_total_reaches_the_target() -> None:
    """H-6.3: seat 2 already has 80 points, seat 0 none: seat 0's round brings the team past
    the target of 100 though neither partner alone reaches it."""
    gained = points(LEFT[1]) + points(LEFT[3])
    assert gained < 100 <= 80 + gained
    g = game(hands=LEFT, discard=["red 5"], color="red", scores=[0, 10, 80, 5], options={**TEAMS, "target": 100})
    g.apply("play red 1")
    assert g.is_over
    assert g.winners == [0, 2]
    assert g.team_scores == [80 + gained, 15]


def test_h6_3_own_hand_scoring_the_lowest_team_total_wins() -> None:
    """H-6.3 with R-1.7: each seat adds its own hand; once a team total reaches the target,
    the team with the lowest total wins, both of its members."""
    g = game(
        hands=LEFT,
        discard=["red 5"],
        color="red",
        scores=[10, 40, 60, 30],
        options={**TEAMS, "scoring": "own_hand", "target": 100},
    )
    g.apply("play red 1")
    totals = [10 + 0 + 60 + points(LEFT[2]), 40 + points(LEFT[1]) + 30 + points(LEFT[3])]
    assert g.team_scores == totals
    assert max(totals) >= 100
    assert g.winners == ([0, 2] if totals[0] < totals[1] else [1, 3])


def test_h6_3_loser_scoring_the_team_that_reaches_the_target_loses() -> None:
    """H-6.3 with R-1.7 (``loser``): the team whose total reaches the target loses."""
    g = game(
        hands=LEFT,
        discard=["red 5"],
        color="red",
        scores=[0, 100, 0, 80],
        options={**TEAMS, "scoring": "loser", "target": 200},
    )
    g.apply("play red 1")
    assert team_totals(g.scores)[1] >= 200
    assert g.winners == [0, 2]


def test_h6_4_partners_see_only_their_own_hands() -> None:
    """H-6.4: seat 0's observation shows its own hand, the teams and their totals, and nothing
    of seat 2's cards."""
    g = going_out()
    obs = g.observe(0)
    assert obs["hand"] == ["red 1"]
    assert obs["teams"] == [[0, 2], [1, 3]]
    assert obs["team_scores"] == [0, 0]
    assert "green 7" not in str(obs) and "known" not in obs


def test_h6_5_a_blocked_round_is_won_for_the_team_of_the_smallest_hand() -> None:
    """H-6.5 with D-4: nobody can play or draw; after a full circuit of passes the smallest
    hand (seat 1: 1 + 2 points) wins the round, and its team scores the other team's hands
    (seats 0 and 2: 9 + 7), not seat 3's."""
    deck = ["red 5", "blue 9", "blue 1", "green 2", "green 7", "yellow 3", "yellow 4"]
    g = game(
        hands=[["blue 9"], ["blue 1", "green 2"], ["green 7"], ["yellow 3", "yellow 4"]],
        discard=["red 5"],
        color="red",
        options={**TEAMS, "deck": deck, "rounds": 1},
    )
    events = []
    for _ in range(4):
        events = g.apply("draw")
    assert of_type(events, "blocked")[0]["winner"] == 1
    assert of_type(events, "round_end")[0]["points"] == [0, 9 + 7, 0, 0]
    assert g.winners == [1, 3]
