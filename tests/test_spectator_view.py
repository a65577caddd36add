"""The spectator's view, ``observe(None)``: what every player sees and nothing more."""

from __future__ import annotations

import unokit
from unokit.core.rng import Rng

from .helpers import position


def test_the_spectator_sees_every_back_and_no_hand() -> None:
    game = unokit.new_game("flip", players=3, seed=3)
    view = game.observe(None)
    assert view["seat"] is None
    assert view["hand"] == []
    assert view["legal_actions"] == []
    seat_views = [game.observe(seat) for seat in range(3)]
    for seat in range(3):
        # every seat's backs as the others see them, and nothing of the faces in front of it
        assert view["backs"][seat] == seat_views[(seat + 1) % 3]["backs"][seat]
    public = {key for key in view if key not in ("seat", "hand", "legal_actions", "backs", "pending")}
    for key in public:
        assert all(view[key] == seat_view[key] for seat_view in seat_views), key


def test_the_spectator_does_not_see_a_drawn_card_being_decided() -> None:
    game = unokit.Game.from_position(
        position("classic", hands=[["blue 1"], ["yellow 3"]], discard=["red 9"], color="red", draw=["red 2"], seed=1)
    )
    game.apply("draw")
    assert game.decision == "play_or_keep"
    assert "card" in game.observe(0)["pending"]
    assert "card" not in game.observe(None)["pending"]


def test_a_spectator_view_through_a_whole_game_names_no_hidden_card() -> None:
    game = unokit.new_game("classic", players=2, seed=5, rounds=1)
    chooser = Rng(9)
    while not game.is_over:
        view = game.observe(None)
        assert view["hand"] == [] and view["legal_actions"] == []
        assert view["hand_sizes"] == [len(game.observe(s)["hand"]) for s in range(2)]
        game.apply(chooser.choice(game.legal_actions()))
