"""``scripts/bench_ismcts.py``'s diagnostic ``--sees-hands``: the searching seat's view knows the
other hands, so every determinisation deals them as they are and only the draw pile is sampled."""

from __future__ import annotations

import unokit
from tests.helpers import load_script
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
    settings = {"bot": "ismcts", "iterations": 30, "time_limit": None, "sees_hands": True}
    result = bench.play_hand((0, 1, settings, "random", "classic", 2))
    assert result["win"] in (0.0, 1.0) and result["iterations"]
    assert settings["sees_hands"] is True  # the caller's settings are left as they were
