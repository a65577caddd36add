"""``scripts/bench_ismcts.py``'s diagnostic ``--sees-hands``: the searching seat's view knows the
other hands (or part of them), so every determinisation deals what it knows as it is."""

from __future__ import annotations

from typing import Any

import unokit
from tests.helpers import load_script
from unokit import Game
from unokit.core.determinise import Determiniser

bench = load_script("bench_ismcts")


def test_a_seeing_view_deals_the_opponents_true_hand() -> None:
    game = unokit.new_game("classic", 2, seed=3, rounds=1)
    seeing = Determiniser(bench.SeeingView(game, 0))
    plain = Determiniser(unokit.View(game, 0))
    truth = sorted(game.hands[1])
    for seed in range(5):
        hands, draw = seeing.sample(seed)
        assert sorted(hands[1]) == truth and hands[0] == game.hands[0]
        assert sorted(draw) == sorted(game.draw)
    assert any(sorted(plain.sample(seed)[0][1]) != truth for seed in range(5))
    assert bench.SeeingView(game, 0).known(0) == []


def test_a_hand_with_the_seeing_view_plays_to_the_end() -> None:
    for mode in bench.SEEING:
        settings = {"bot": "ismcts", "iterations": 30, "time_limit": None, "sees_hands": mode}
        result = bench.play_hand((0, 1, settings, "random", "classic", 2))
        assert result["win"] in (0.0, 1.0) and result["iterations"]
        assert settings["sees_hands"] == mode  # the caller's settings are left as they were


def _table(opponent: list[str]) -> Game:
    return Game.from_position(
        {
            "variant": "classic",
            "players": 2,
            "turn": 0,
            "color": "red",
            "hands": [["red 5", "blue 3"], opponent],
            "discard": ["red 2"],
            "draw": ["yellow 4", "yellow 6", "yellow 8"],
            "seed": 1,
        }
    )


def test_partial_views_show_small_hands_wilds_or_colours() -> None:
    big = _table(["wild", "green 4", "green 9", "blue 7", "wild_draw_four"])
    small = _table(["wild", "green 4"])
    texts = big.deck.text

    def shown(view: Any, game: Game) -> list[str]:
        return sorted(texts[t] for t in view(game, 0).known(1))

    assert shown(bench.SeesSmallHands, big) == [] and shown(bench.SeesSmallHands, small) == ["green 4", "wild"]
    assert shown(bench.SeesWilds, big) == ["wild", "wild_draw_four"]
    colors = shown(bench.SeesColors, big)
    assert [c.split()[0] for c in colors] == ["blue", "green", "green", "wild", "wild_draw_four"]
    assert colors == shown(bench.SeesColors, big)  # the same table, the same draw
    Determiniser(bench.SeesColors(big, 0))  # the shown cards fit the deck's counts
    assert any(
        shown(bench.SeesColors, _table([f"green {n}", "green 9", "blue 7"])) != ["blue 7", f"green {n}", "green 9"]
        for n in range(1, 9)
    )
