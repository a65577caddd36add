"""What the rule-based bots do in positions that test one idea each."""

from __future__ import annotations

from typing import Any

from unokit.bots import make_bot
from unokit.bots.heuristic import HeuristicBot, _Ctx
from unokit.bots.rule_bots import RlcardRuleBot
from unokit.core.cards import BLUE, YELLOW
from unokit.core.decks import standard_deck
from unokit.core.game import Game
from unokit.core.observation import View


def position(**fields: Any) -> Game:
    base: dict[str, Any] = {"variant": "classic", "players": 2, "turn": 0, "seed": 1}
    base.update(fields)
    return Game.from_position(base)


#: Cards to fill hands with, none of which appears elsewhere in these positions.
FILLER = ["yellow 5", "yellow 6", "yellow 8", "green 1", "green 3", "green 8", "yellow 1", "green 9"]


def decide(bot_name: str, game: Game, seat: int | None = None) -> str:
    seat = game.to_act if seat is None else seat
    assert seat is not None
    bot = make_bot(bot_name, 3)
    bot.reset(seat)
    return str(bot.act(View(game, seat)))


# --------------------------------------------------------------------------- both bots


def test_both_bots_declare_uno_with_the_play() -> None:
    game = position(color="red", hands=[["red 5", "blue 7"], ["yellow 3", "red 1"]], discard=["red 9"])
    for name in ("rlcard_rule", "heuristic"):
        assert decide(name, game).endswith(" uno")


def test_both_bots_catch_a_player_who_forgot_uno() -> None:
    game = position(color="red", hands=[["red 5", "blue 7"], ["yellow 3", "red 1", "green 2"]], discard=["red 9"])
    game.apply("play red 5")  # seat 0 is down to one card without calling UNO
    for bot in (RlcardRuleBot(1), HeuristicBot(1)):
        bot.reset(1)
        reaction = bot.react(View(game, 1))
        assert reaction is not None and str(reaction) == "catch 0"
        assert str(bot.act(View(game, 1))) == "catch 0"  # also first thing on its own turn


# --------------------------------------------------------------------------- rlcard_rule


def test_rule_bot_draws_only_when_nothing_is_playable() -> None:
    stuck = position(color="red", hands=[["blue 5", "green 7"], ["yellow 3"]], discard=["red 9"])
    assert decide("rlcard_rule", stuck) == "draw"
    free = position(color="red", hands=[["blue 9", "green 7", "wild"], ["yellow 3"]], discard=["red 9"])
    assert decide("rlcard_rule", free) == "play blue 9"


def test_rule_bot_plays_a_fair_wild_draw_first_naming_its_main_colour() -> None:
    game = position(
        color="red",
        hands=[["blue 9", "green 7", "green 8", "wild_draw_four", "yellow 2"], ["yellow 3"]],
        discard=["red 9"],
    )
    assert decide("rlcard_rule", game) == "play wild_draw_four green"


def test_rule_bot_keeps_an_unfair_wild_draw_and_its_wilds() -> None:
    game = position(
        color="red",
        hands=[["red 2", "wild", "wild_draw_four", "yellow 2"], ["yellow 3"]],
        discard=["red 9"],
    )
    assert decide("rlcard_rule", game) == "play red 2"


def test_rule_bot_never_challenges() -> None:
    game = position(color="red", hands=[["red 2", "wild_draw_four", "red 3"], ["yellow 3", "red 4"]], discard=["red 9"])
    game.apply("play wild_draw_four blue")
    assert game.decision == "challenge"
    assert decide("rlcard_rule", game) == "accept"


# --------------------------------------------------------------------------- heuristic


def test_heuristic_keeps_its_wild_when_a_coloured_card_fits() -> None:
    game = position(color="red", hands=[["red 2", "wild", "blue 7", "yellow 2"], FILLER[:6]], discard=["red 9"])
    assert decide("heuristic", game).startswith("play red 2")


def test_heuristic_goes_out_through_a_run_of_extra_turns() -> None:
    # Two players: Skip and Reverse give the turn back, so all three cards go this turn.
    game = position(
        color="red", hands=[["red 5", "red skip", "red reverse"], ["yellow 3", "blue 1"]], discard=["red 9"]
    )
    assert decide("heuristic", game) in ("play red skip", "play red reverse")


def test_heuristic_names_the_colour_it_holds_most() -> None:
    game = position(
        color="red",
        hands=[["wild", "blue 7", "blue 8", "blue 1", "yellow 2"], FILLER[:5]],
        discard=["red 9"],
    )
    assert decide("heuristic", game) in ("play wild blue", "draw")
    game = position(color="red", hands=[["wild", "blue 7", "blue 8", "blue 1"], ["yellow 3"]], discard=["red 9"])
    assert decide("heuristic", game) == "play wild blue"  # the opponent is about to go out


def test_heuristic_challenges_only_on_good_odds() -> None:
    many = ["red 1", "red 2", "yellow 3", "yellow 4", "green 5", "green 6", "blue 7", "blue 8"] * 2
    # The player of the Wild Draw Four still holds 16 cards: it almost surely has a red one.
    game = position(color="red", hands=[[*many, "wild_draw_four"], ["yellow 9", "blue 4"]], discard=["red 9"])
    game.apply("play wild_draw_four blue")
    assert decide("heuristic", game) == "challenge"
    # With two cards left it most likely holds no red.
    game = position(
        color="red", hands=[["blue 1", "green 2", "wild_draw_four"], ["yellow 3", "blue 4"]], discard=["red 9"]
    )
    game.apply("play wild_draw_four blue")
    assert decide("heuristic", game) == "accept"


def test_heuristic_saves_a_draw_card_for_a_player_close_to_uno() -> None:
    hand = ["red draw_two", "red 4", "blue 5", "green 6", "yellow 7"]
    far = position(
        players=3,
        color="red",
        hands=[hand, FILLER[:8], ["blue 1", "blue 2", "blue 3", "blue 4", "green 4", "green 5", "green 6", "green 7"]],
        discard=["red 9"],
    )
    assert decide("heuristic", far) == "play red 4"
    near = position(
        players=3,
        color="red",
        hands=[hand, FILLER[:2], ["blue 1", "blue 2", "blue 3", "blue 4", "green 4", "green 5", "green 6", "green 7"]],
        discard=["red 9"],
    )
    assert decide("heuristic", near) == "play red draw_two"


def card(variant: str, light: str, dark: str | None = None) -> str:
    """The full text of a real card of ``variant`` with that light face (and dark face)."""
    deck = standard_deck(variant)
    for t in range(len(deck.types)):
        if deck.face_texts[0][t] == light and dark in (None, deck.face_texts[1][t]):
            return str(deck.text[t])
    raise AssertionError(f"no {light}/{dark} in {variant}")


def test_heuristic_reads_flip_backs() -> None:
    """The opponent's last card shows the back teal 2, whose front is green 7 or blue 3."""
    game = Game.from_position(
        {
            "variant": "flip",
            "players": 2,
            "turn": 0,
            "color": "yellow",
            "hands": [[card("flip", "yellow 4"), card("flip", "blue 9")], [card("flip", "green 7", "teal 2")]],
            "discard": [card("flip", "yellow 9")],
            "seed": 3,
        }
    )
    bot = HeuristicBot(0)
    bot.reset(0)
    ctx = _Ctx(bot, View(game, 0))
    assert ctx.p_play(1, YELLOW, 4) == 0.0  # after yellow 4 nothing it may hold fits
    assert 0.0 < ctx.p_play(1, BLUE, 9) < 1.0  # after blue 9 it can if it holds the blue 3
    assert decide("heuristic", game) == "play " + card("flip", "yellow 4") + " uno"


def test_heuristic_presses_its_luck_only_when_the_launcher_will_not_fire() -> None:
    def luck(index: int) -> Game:
        return Game.from_position(
            {
                "variant": "flip_attack",
                "players": 2,
                "turn": 0,
                "color": "red",
                "options": {"launcher": "pattern"},
                "launcher": {"model": "pattern", "index": index},
                "hands": [
                    [card("flip_attack", "red 2"), card("flip_attack", "blue 3"), card("flip_attack", "green 4")],
                    [card("flip_attack", "yellow 3"), card("flip_attack", "yellow 5")],
                ],
                "discard": [card("flip_attack", "red 9"), card("flip_attack", "wild_press_your_luck")],
                "pending": {"kind": "press_your_luck", "seat": 0, "discarded": []},
                "seed": 3,
            }
        )

    # The pattern fires on presses 2, 6, 9, ...: after press 2 comes a silent press 3, after 5 a fire.
    assert decide("heuristic", luck(2)) == "press_again"
    assert decide("heuristic", luck(5)) == "stop"


def test_heuristic_trades_with_the_smallest_hand() -> None:
    game = Game.from_position(
        {
            "variant": "attack",
            "players": 3,
            "turn": 0,
            "color": "red",
            "hands": [
                ["red trade_hands", "red 4", "blue 2", "blue 3", "green 4"],
                ["yellow 1", "yellow 2", "yellow 5", "yellow 6"],
                ["green 2", "green 3"],
            ],
            "discard": ["red 9"],
            "seed": 3,
        }
    )
    assert decide("heuristic", game) == "play red trade_hands"
    game.apply("play red trade_hands")
    assert decide("heuristic", game) == "trade 2"
