"""How the heuristic and ISMCTS bots play the house rules, one idea per position (H-1 to H-6
in docs/rules/), and the reaction loop of the runner."""

from __future__ import annotations

from typing import Any

from unokit.bots.base import Bot
from unokit.bots.heuristic import HeuristicBot
from unokit.bots.ismcts import IsmctsBot, _rewards
from unokit.bots.ismcts_fast import FastIsmctsBot
from unokit.bots.random_bot import RandomBot
from unokit.bots.runner import react_all
from unokit.core.actions import Action
from unokit.core.game import Game
from unokit.core.observation import View


def position(options: dict[str, Any], **fields: Any) -> Game:
    base: dict[str, Any] = {"variant": "classic", "turn": 0, "seed": 1, "color": "red", "discard": ["red 9"]}
    base.update(fields)
    base["players"] = len(base["hands"])
    base["options"] = options
    return Game.from_position(base)


def heuristic(seat: int, **kwargs: Any) -> HeuristicBot:
    bot = HeuristicBot(3, **kwargs)
    bot.reset(seat)
    return bot


def test_h1_heuristic_jumps_in_with_an_identical_card() -> None:
    """H-1: seat 2 holds the red 5 just played: a free card to shed, so it jumps."""
    game = position(
        {"jump_in": True},
        hands=[["red 5", "blue 1", "blue 2"], ["green 1", "green 2", "green 3"], ["red 5", "yellow 1", "yellow 2"]],
    )
    game.apply("play red 5")
    assert str(heuristic(2).react(View(game, 2))) == "play red 5"
    assert heuristic(2, house_rules=False).react(View(game, 2)) is None


def test_h1_ismcts_takes_a_jump_that_wins_the_hand() -> None:
    """H-1: the jump is seat 2's last card: the search finds that jumping wins at once."""
    game = position(
        {"jump_in": True, "rounds": 1},
        hands=[["red 5", "blue 1", "blue 2"], ["green 1", "green 2", "red 7"], ["red 5"]],
    )
    game.apply("play red 5")
    bot = IsmctsBot(5, iterations=60)
    bot.reset(2)
    assert str(bot.react(View(game, 2))) == "play red 5"
    assert IsmctsBot(5, iterations=60, house_rules=False).react(View(game, 2)) is None


def test_h1_ismcts_fast_searches_a_jump_on_the_python_engine() -> None:
    """H-1: the compiled kernel plays no house rule, so ``ismcts_fast`` searches the jump on
    the Python engine, and finds the winning one as ``ismcts`` does."""
    game = position(
        {"jump_in": True, "rounds": 1},
        hands=[["red 5", "blue 1", "blue 2"], ["green 1", "green 2", "red 7"], ["red 5"]],
    )
    game.apply("play red 5")
    bot = FastIsmctsBot(5, iterations=60)
    bot.reset(2)
    assert str(bot.react(View(game, 2))) == "play red 5"
    assert bot.engine == "python"
    assert FastIsmctsBot(5, iterations=60, house_rules=False).react(View(game, 2)) is None


def test_h1_the_runner_asks_again_after_a_reaction() -> None:
    """H-1.6: with a deck of three red 5s, seat 2 jumps on seat 0's red 5, then seat 1 (skipped
    by that jump) jumps on seat 2's: react_all keeps asking until nobody reacts."""

    class Jumper(Bot):
        def act(self, view: View) -> Action:  # pragma: no cover - never asked here
            return view.legal_actions()[0]

        def react(self, view: View) -> Action | None:
            jumps = [a for a in view.legal_actions() if a.kind == "play"]
            return jumps[0] if jumps else None

    hands = [
        ["red 5", "blue 1", "blue 2"],
        ["red 5", "green 1", "green 2"],
        ["red 5", "yellow 1", "yellow 2"],
        ["blue 7", "blue 8", "blue 9"],
    ]
    deck = [card for hand in hands for card in hand] + ["red 9", "green 3", "yellow 3"]
    game = position({"jump_in": True, "deck": deck}, hands=hands)
    game.apply("play red 5")
    bots: list[Bot | None] = [None, Jumper(1), Jumper(2), RandomBot(3)]
    events = react_all(game, bots, [View(game, s) for s in range(4)])
    assert [e["seat"] for e in events if e["type"] == "jump_in"] == [2, 1]
    assert game.to_act == 2


def test_h2_heuristic_swaps_with_the_smallest_opponent_not_its_partner() -> None:
    """H-2, H-6: after its 7, seat 0 takes the 2-card hand of seat 3, not the 1-card hand of its
    partner seat 2 (the team would gain nothing)."""
    game = position(
        {"seven_o": True, "teams": True},
        hands=[
            ["red 7", "blue 1", "blue 2", "blue 3", "blue 4", "blue 5"],
            ["green 1", "green 2", "green 3", "green 4"],
            ["yellow 1"],
            ["yellow 2", "yellow 3"],
        ],
    )
    game.apply("play red 7")
    assert game.decision == "choose_player"
    assert str(heuristic(0).act(View(game, 0))) == "trade 3"
    assert str(heuristic(0, house_rules=False).act(View(game, 0))) == "trade 2"


def test_h3_heuristic_passes_a_stacked_wild_draw_four_on() -> None:
    """H-3.2: facing a stacked Wild Draw Four, it answers with its own instead of drawing 4."""
    game = position(
        {"stacking": "progressive"},
        hands=[["wild_draw_four", "blue 1", "blue 2"], ["wild_draw_four", "yellow 3", "yellow 4"], ["green 5"]],
    )
    game.apply("play wild_draw_four blue")
    assert game.decision == "challenge" and game.to_act == 1
    assert str(heuristic(1).act(View(game, 1))).startswith("play wild_draw_four")


def test_h6_bots_never_catch_their_partner() -> None:
    """H-6: seat 0 forgot UNO; its opponent catches it, its partner does not."""
    game = position(
        {"teams": True},
        hands=[["red 5", "blue 7"], ["yellow 3", "yellow 4"], ["green 1", "green 2"], ["blue 3", "blue 4"]],
    )
    game.apply("play red 5")
    assert game.uno_exposed == 0
    for make in (lambda: heuristic(2), lambda: IsmctsBot(1, iterations=10), lambda: RandomBot(1)):
        assert make().react(View(game, 2)) is None
    assert str(heuristic(1).react(View(game, 1))) == "catch 0"
    assert str(Bot.react(RandomBot(1), View(game, 3))) == "catch 0"


def test_h6_ismcts_rewards_are_the_teams() -> None:
    """H-6: both partners of the winning team get the whole reward; before the end each seat's
    reward is its team's chance."""
    game = position(
        {"teams": True, "rounds": 1},
        hands=[["red 5"], ["yellow 3", "yellow 4"], ["green 1", "green 2"], ["blue 3", "blue 4"]],
    )
    running = _rewards(game)
    assert running[0] == running[2] and running[1] == running[3]
    assert abs(running[0] + running[1] - 1.0) < 1e-9
    game.apply("play red 5")
    assert _rewards(game) == [1.0, 0.0, 1.0, 0.0]
    assert _rewards(game, for_teams=False) == [0.5, 0.0, 0.5, 0.0]
