"""The public API contract of :mod:`unokit`: building games, options, the game's read-only
properties, legal actions, events and redaction, positions, and the shipped pairing data."""

from __future__ import annotations

import contextlib
import copy
import json
from importlib import resources
from typing import Any

import pytest

import unokit
from unokit import DECISION_NAMES, VARIANTS, Game, OptionError, PositionError
from unokit.core.colors import COLOR_NAMES, SIDE_COLORS
from unokit.core.decks import flip_attack_generated_pairs, write_pairs_csv
from unokit.core.errors import InvalidActionError
from unokit.core.rng import Rng

VARIANT_NAMES = unokit.VARIANT_NAMES
Event = dict[str, Any]


def play_out(game: Game, chooser_seed: int, limit: int = 50_000) -> list[list[Event]]:
    """Play ``game`` to its end with a seeded chooser; return the events of each action."""
    chooser = Rng(chooser_seed)
    log: list[list[Event]] = []
    for _ in range(limit):
        if game.is_over:
            return log
        log.append(game.apply(chooser.choice(game.legal_actions())))
    raise AssertionError(f"no end after {limit} actions")


# --------------------------------------------------------------------------- building games


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_new_game_takes_variant_players_seed_and_options(variant: str) -> None:
    game = unokit.new_game(variant, 3, 7, scoring="own_hand", target=123)
    assert game.variant == variant
    assert game.players == 3
    assert game.seed == 7
    position = game.to_position()
    assert position["variant"] == variant
    assert position["players"] == 3
    assert position["options"]["scoring"] == "own_hand"
    assert position["options"]["target"] == 123
    assert len(position["hands"]) == 3
    assert all(len(hand) == 7 for hand in position["hands"])


def test_variant_string_carries_players_and_options() -> None:
    from_string = unokit.new_game("flip(players=4,stacking=true)", seed=1)
    from_arguments = unokit.new_game("flip", 4, 1, stacking=True)
    assert from_string.players == 4
    assert from_string.to_position()["options"]["stacking"] is True
    assert from_string.to_position() == from_arguments.to_position()
    same_players = unokit.new_game("flip(players=4)", 4, seed=1)
    assert same_players.players == 4


def test_options_as_strings_equal_options_as_values() -> None:
    a = unokit.new_game("attack(launcher=pattern,target=50,rounds=2)", 3, seed=5)
    b = unokit.new_game("attack", 3, 5, launcher="pattern", target=50, rounds=2)
    assert a.to_position() == b.to_position()
    c = unokit.new_game("attack(launcher=scripted,launcher_script=[0,3,0])", 3, seed=5)
    assert c.to_position()["options"]["launcher_script"] == [0, 3, 0]


def test_without_a_seed_the_game_keeps_a_fresh_one() -> None:
    game = unokit.new_game("classic", 3)
    assert isinstance(game.seed, int)
    again = unokit.new_game("classic", 3, game.seed)
    assert again.to_position() == game.to_position()


def test_game_new_returns_the_set_up_events() -> None:
    game, events = Game.new("classic", 3, 1)
    assert events, "the cut and the deal produce events"
    assert {"cut", "dealer", "deal"} <= {e["type"] for e in events}
    assert game.to_position() == unokit.new_game("classic", 3, 1).to_position()


def test_conflicting_players_are_refused() -> None:
    with pytest.raises(OptionError, match="players"):
        unokit.new_game("flip(players=4)", 3, seed=1)


@pytest.mark.parametrize(
    ("variant", "players", "options", "named"),
    [
        ("uno", 4, {}, "uno"),
        ("flip(players=4", None, {}, "flip(players=4"),
        ("classic", 4, {"colour_blind": True}, "colour_blind"),
        ("classic(colour_blind=true)", 4, {}, "colour_blind"),
        ("attack", 4, {"draw_until_playable": True}, "draw_until_playable"),
        ("flip_attack", 4, {"force_play": True}, "force_play"),
        ("attack", 4, {"bluffing": False}, "bluffing"),
        ("classic", 4, {"launcher": "random"}, "launcher"),
        ("classic", 4, {"pairing": "random"}, "pairing"),
        ("flip", 4, {"launcher_script": [1]}, "launcher_script"),
        ("classic", 11, {}, "players"),
        ("classic", 1, {}, "players"),
        ("flip_attack", 7, {}, "players"),
        ("classic", "3", {}, "players"),
        ("classic", True, {}, "players"),
        ("classic(players=x)", None, {}, "players"),
        ("classic", 4, {"target": 0}, "target"),
        ("classic", 4, {"target": -5}, "target"),
        ("classic", 4, {"target": "many"}, "target"),
        ("classic", 4, {"rounds": 0}, "rounds"),
        ("attack", 4, {"launcher_script": [0, 1]}, "launcher_script"),
        ("attack", 4, {"launcher": "pattern", "launcher_script": [0, 1]}, "launcher_script"),
        ("attack", 4, {"launcher": "scripted"}, "launcher_script"),
        ("attack", 4, {"launcher": "scripted", "launcher_script": [0, -1]}, "launcher_script"),
        ("attack", 4, {"launcher": "cannon"}, "launcher"),
        ("classic", 4, {"stacking": "yes"}, "stacking"),
        ("classic", 4, {"stacking": 1}, "stacking"),
        ("classic(bluffing=maybe)", 4, {}, "bluffing"),
        ("flip", 4, {"wild_counts_as_color_match": None}, "wild_counts_as_color_match"),
        ("flip", 4, {"flip_wild_chooser": "dealer"}, "flip_wild_chooser"),
        ("flip", 4, {"pairing": "mirror"}, "pairing"),
        ("flip", 4, {"scoring": "best"}, "scoring"),
        ("classic(stacking=true)", 4, {"stacking": False}, "stacking"),
        ("classic(stacking=true,stacking=false)", 4, {}, "stacking"),
    ],
)
def test_bad_variants_and_options_raise_option_error_naming_them(
    variant: str, players: Any, options: dict[str, object], named: str
) -> None:
    with pytest.raises(OptionError) as info:
        unokit.new_game(variant, players, 1, **options)
    assert named in str(info.value), f"the message {str(info.value)!r} does not name {named!r}"


def test_option_errors_are_unokit_errors() -> None:
    assert issubclass(OptionError, unokit.UnokitError)
    assert issubclass(PositionError, unokit.UnokitError)
    assert issubclass(unokit.IllegalActionError, unokit.UnokitError)
    assert issubclass(unokit.InvalidActionError, unokit.UnokitError)
    assert issubclass(unokit.AmbiguousActionError, unokit.IllegalActionError)


# --------------------------------------------------------------------------- game properties


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_properties_at_the_start(variant: str) -> None:
    game = unokit.new_game(variant, 4, 3)
    assert game.to_act is not None and 0 <= game.to_act < 4
    assert 0 <= game.turn < 4
    assert game.decision in DECISION_NAMES and game.decision != "over"
    assert game.is_over is False
    assert game.winner is None
    assert game.winners == []
    assert game.scores == [0, 0, 0, 0]
    assert game.round_number == 1


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("scoring", ["winner", "own_hand", "loser"])
def test_properties_through_a_whole_game(variant: str, scoring: str) -> None:
    target = {"winner": 150, "own_hand": 150, "loser": 60}[scoring]
    game = unokit.new_game(variant, 3, 2, scoring=scoring, target=target, rounds=None)  # to the target
    chooser = Rng(4)
    rounds_ended = 0
    game_end: Event | None = None
    for _ in range(100_000):
        if game.is_over:
            break
        seat = game.to_act
        assert seat is not None
        assert game.decision != "over"
        round_before = game.round_number
        events = game.apply(chooser.choice(game.legal_actions()))
        ends = [e for e in events if e["type"] == "round_end"]
        rounds_ended += len(ends)
        if not game.is_over:
            assert game.round_number == round_before + len(ends)
        game_end = next((e for e in events if e["type"] == "game_end"), game_end)
    assert game.is_over
    assert game.to_act is None
    assert game.decision == "over"
    assert game.legal_actions() == []
    assert game_end is not None
    assert game.winners == game_end["winners"]
    assert game.scores == game_end["scores"]
    assert game.round_number == rounds_ended
    assert game.winners and all(0 <= s < 3 for s in game.winners)
    if len(game.winners) == 1:
        assert game.winner == game.winners[0]
    else:
        assert game.winner is None
    if scoring == "winner":
        assert max(game.scores) >= target
        assert game.scores[game.winners[0]] == max(game.scores)
    else:
        assert max(game.scores) >= target
        losing = [s for s in range(3) if s not in game.winners]
        assert all(game.scores[w] < game.scores[s] for w in game.winners for s in losing)
    with pytest.raises(unokit.IllegalActionError):
        game.apply("draw")


def test_a_shared_win_has_winners_but_no_winner() -> None:
    # own_hand scoring (D-11): seat 0 goes out; seat 1 holds a 0 and so ties seat 0 for the
    # lowest total, while seat 2 passes the target and ends the game.
    game = Game.from_position(
        {
            "variant": "classic",
            "options": {"scoring": "own_hand", "target": 200},
            "players": 3,
            "scores": [150, 150, 190],
            "turn": 0,
            "color": "red",
            "hands": [["red 5"], ["red 0"], ["blue 9", "blue 8"]],
            "discard": ["red 3"],
            "draw": [],
            "seed": 1,
        }
    )
    game.apply("play red 5")
    assert game.is_over
    assert game.scores == [150, 150, 207]
    assert game.winners == [0, 1]
    assert game.winner is None
    assert game.to_act is None


# --------------------------------------------------------------------------- legal actions


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_legal_actions_are_deterministic(variant: str) -> None:
    a = unokit.new_game(variant, 3, 9)
    b = unokit.new_game(variant, 3, 9)
    chooser = Rng(1)
    for _ in range(300):
        if a.is_over:
            break
        legal = a.legal_actions()
        assert legal == a.legal_actions(), "two calls on one game differ"
        assert legal == b.legal_actions(), "the same game built twice differs"
        assert [str(x) for x in legal] == [str(x) for x in b.legal_actions()]
        for seat in range(3):
            assert a.legal_actions(seat) == b.legal_actions(seat)
        action = chooser.choice(legal)
        a.apply(action)
        b.apply(str(action))


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_legal_actions_of_other_seats_are_only_catch_and_uno(variant: str) -> None:
    game = unokit.new_game(variant, 4, 12)
    chooser = Rng(3)
    asked = non_empty = 0
    for _ in range(1000):
        if game.is_over:
            break
        acting = game.to_act
        assert acting is not None
        assert game.legal_actions(acting) == game.legal_actions()
        for seat in range(4):
            if seat == acting:
                continue
            others = game.legal_actions(seat)
            asked += 1
            non_empty += bool(others)
            assert {a.kind for a in others} <= {"catch", "uno"}, (seat, others)
        game.apply(chooser.choice(game.legal_actions()))
    assert asked > 0
    assert non_empty <= asked // 10, f"{non_empty} of {asked} out-of-turn lists were non-empty"


def test_legal_actions_returns_a_copy() -> None:
    game = unokit.new_game("classic", 3, 1)
    legal = game.legal_actions()
    legal.clear()
    assert game.legal_actions(), "changing the returned list changed the game"


# --------------------------------------------------------------------------- events


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_events_are_json_dicts_with_a_type(variant: str) -> None:
    game, setup_events = Game.new(variant, 3, 8, rounds=2)
    logs = [setup_events, *play_out(game, 8)]
    for events in logs:
        assert isinstance(events, list)
        for event in events:
            assert isinstance(event, dict)
            assert isinstance(event.get("type"), str) and event["type"]
            assert json.loads(json.dumps(event)) == event, event


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_redact_hides_other_seats_cards_but_keeps_counts(variant: str) -> None:
    game, setup_events = Game.new(variant, 3, 6, rounds=1)
    logs = [setup_events, *play_out(game, 6)]
    events = [e for log in logs for e in log]
    private = [e for e in events if "private" in e]
    assert any(e["type"] == "deal" for e in private), "dealt cards are private"
    original = copy.deepcopy(events)
    for seat in (0, 1, 2, None):
        redacted = unokit.redact(events, seat)
        assert events == original, "redact changed its input"
        assert len(redacted) == len(events)
        for before, after in zip(events, redacted, strict=True):
            assert "private" not in after
            assert after["type"] == before["type"]
            if "private" in before and (seat is None or seat not in before["private"]):
                assert "cards" not in after and "revealed" not in after, after
                if "count" in before:
                    assert after["count"] == before["count"] == len(before["cards"])
                if "backs" in before:
                    assert after["backs"] == before["backs"]
            else:
                assert after == {k: v for k, v in before.items() if k != "private"}
    # The seat that drew (or pressed) sees its cards; another seat sees only how many.
    draws = [e for e in events if e["type"] in ("draw", "press") and e.get("cards")]
    assert draws
    draw = draws[0]
    own = unokit.redact([draw], draw["seat"])[0]
    other = unokit.redact([draw], (draw["seat"] + 1) % 3)[0]
    assert own["cards"] == draw["cards"]
    assert "cards" not in other and other["count"] == len(draw["cards"])


def test_redacted_events_do_not_name_hidden_cards_on_double_sided_decks() -> None:
    _game, events = Game.new("flip", 3, 2)
    for event in unokit.redact(events, 0):
        if event["type"] == "deal" and event["seat"] != 0:
            assert "cards" not in event
            assert len(event["backs"]) == event["count"] == 7
            assert all("/" not in back for back in event["backs"])


# --------------------------------------------------------------------------- positions


def _position() -> dict[str, Any]:
    game = unokit.new_game("classic", 3, 1)
    return game.to_position()


def _rejected(position: dict[str, Any]) -> str:
    with pytest.raises(PositionError) as info:
        Game.from_position(position)
    return str(info.value)


def test_a_position_round_trips() -> None:
    position = _position()
    assert Game.from_position(copy.deepcopy(position)).to_position() == position


def test_position_with_an_unknown_field_is_refused() -> None:
    position = _position()
    position["colour_in_play"] = "red"
    assert "colour_in_play" in _rejected(position)


def test_position_with_too_many_of_a_card_is_refused() -> None:
    position = _position()
    position["hands"][0] += ["wild_draw_four"] * 5
    assert "wild_draw_four" in _rejected(position)


def test_minimal_position_with_five_wild_draw_fours_is_refused() -> None:
    message = _rejected(
        {
            "variant": "classic",
            "players": 2,
            "turn": 0,
            "color": "red",
            "hands": [["wild_draw_four"] * 5, ["red 2"]],
            "discard": ["red 3"],
            "draw": [],
            "seed": 1,
        }
    )
    assert "wild_draw_four" in message
    assert "5" in message and "4" in message


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("turn", 3, "turn"),
        ("turn", -1, "turn"),
        ("turn", "0", "turn"),
        ("dealer", 3, "dealer"),
        ("uno_exposed", 7, "uno_exposed"),
        ("players", 11, "players"),
    ],
)
def test_position_with_bad_seats_is_refused(field: str, value: object, named: str) -> None:
    position = _position()
    position[field] = value
    assert named in _rejected(position)


def test_position_with_a_bad_pending_seat_is_refused() -> None:
    position = _position()
    position["pending"]["seat"] = 3
    assert "seat" in _rejected(position)


@pytest.mark.parametrize("card", ["red 12", "mauve 5", "pink 5", "red", "wild_draw_eight"])
def test_position_with_an_unknown_card_is_refused(card: str) -> None:
    position = _position()
    position["hands"][1].append(card)
    message = _rejected(position)
    assert "seat 1" in message
    assert any(word in message for word in card.split()), message


def test_position_with_an_unknown_card_in_the_discard_is_refused() -> None:
    position = _position()
    position["discard"].insert(0, "blue 10")
    message = _rejected(position)
    assert "discard" in message and "10" in message


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("variant", "uno", "uno"),
        ("format", "unokit-position/0", "format"),
        ("seed", -1, "seed"),
        ("side", "dark", "side"),
        ("color", "pink", "pink"),
        ("direction", "sideways", "direction"),
        ("hands", [[], []], "hands"),
        ("options", {"stacking": "perhaps"}, "stacking"),
        ("options", {"launcher": "random"}, "launcher"),
    ],
)
def test_position_with_bad_fields_is_refused(field: str, value: object, named: str) -> None:
    position = _position()
    position[field] = value
    assert named in _rejected(position)


def test_a_position_must_be_an_object() -> None:
    with pytest.raises(PositionError):
        Game.from_position([])  # type: ignore[arg-type]


# --------------------------------------------------------------------------- data files


def test_shipped_flip_attack_pairing_is_regenerated_from_its_seed() -> None:
    shipped = (
        resources.files("unokit.core").joinpath("data", "uno_flip_attack_card_pairs.csv").read_text(encoding="utf-8")
    )
    assert shipped == write_pairs_csv(flip_attack_generated_pairs())


# --------------------------------------------------------------------------- bad input: typed errors only


def _catchable_game() -> Game:
    """Seat 0 of 3 on a red 9 holds red 5 and blue 7 and has not drawn yet."""
    return Game.from_position(
        {
            "variant": "classic",
            "players": 3,
            "turn": 0,
            "color": "red",
            "hands": [["red 5", "blue 7"], ["yellow 3", "red 1"], ["green 1", "green 4"]],
            "discard": ["red 9"],
            "seed": 1,
        }
    )


@pytest.mark.parametrize("seat", [10, 3, -1, "0", 1.0, True, None])
def test_parse_action_for_a_seat_that_does_not_exist_is_illegal(seat: Any) -> None:
    """A seat outside the table (or not a seat number at all) is refused as IllegalActionError;
    in particular seat -1 does not read another seat's hand."""
    game = _catchable_game()
    if seat is None:
        assert str(game.parse_action("play red 5", seat)) == "play red 5"
        return
    with pytest.raises(unokit.IllegalActionError, match="there is no seat"):
        game.parse_action("play red 5", seat)


@pytest.mark.parametrize("seat", ["0", -1, 3, 2.5])
def test_observe_and_views_of_a_seat_that_does_not_exist_are_illegal(seat: Any) -> None:
    game = _catchable_game()
    if seat is not None:  # observe(None) is a spectator's view (tests/test_spectator_view.py)
        with pytest.raises(unokit.IllegalActionError, match="there is no seat"):
            game.observe(seat)
    with pytest.raises(unokit.IllegalActionError, match="there is no seat"):
        unokit.View(game, seat)
    with pytest.raises(unokit.IllegalActionError, match="there is no seat"):
        game.legal_actions(seat)


@pytest.mark.parametrize("seat", [True, 1.0, False, 0.0])
def test_a_seat_is_a_whole_number_not_a_truth_value_or_a_float(seat: Any) -> None:
    """True and 1.0 equal 1 (False and 0.0 equal 0) in Python, but they name no seat: each call
    that takes a seat refuses them, also when that seat is the one to act."""
    game = Game.from_position({**_catchable_game().to_position(), "turn": int(seat), "pending": {"kind": "turn"}})
    assert game.to_act == int(seat)
    for call in (game.legal_actions, game.observe, lambda s: unokit.View(game, s)):
        with pytest.raises(unokit.IllegalActionError, match="there is no seat"):
            call(seat)


def test_a_view_needs_a_seat_while_observe_none_is_the_spectators_view() -> None:
    game = _catchable_game()
    with pytest.raises(unokit.IllegalActionError, match="there is no seat"):
        unokit.View(game, None)  # type: ignore[arg-type]
    assert game.observe(None)["hand"] == []


@pytest.mark.parametrize("variant", [None, 5, ["classic"], b"classic"])
def test_new_game_with_a_variant_that_is_not_text_is_an_option_error(variant: Any) -> None:
    with pytest.raises(OptionError, match="a variant is named by text"):
        unokit.new_game(variant)


@pytest.mark.parametrize("text", ["catch ²", "catch ٣", "trade 1½", "catch -1", "catch 1 2", "target x"])
def test_seat_numbers_in_the_notation_are_ascii_digits(text: str) -> None:
    """A seat written with other digits is bad syntax (InvalidActionError), not a ValueError."""
    game = _catchable_game()
    with pytest.raises(unokit.InvalidActionError, match="followed by a seat number"):
        game.apply(text)


def test_error_messages_cut_long_inputs() -> None:
    """An error quotes what was given, cut to a few dozen characters."""
    game = _catchable_game()
    long = "x" * 10_000
    for call in (
        lambda: game.apply(f"play {long}"),
        lambda: game.apply(long),
        lambda: unokit.new_game(long),
        lambda: unokit.new_game("classic", stacking=long),
        lambda: Game.from_position({**_position(), "hands": [[long], ["red 1"]]}),
    ):
        with pytest.raises(unokit.UnokitError) as info:
            call()
        assert len(str(info.value)) < 200, str(info.value)[:300]


def _nested(depth: int) -> Any:
    value: Any = "red 5"
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"variant": "attack", "launcher": {"model": "random", "empty_streak": -1}}, "empty_streak"),
        ({"variant": "attack", "launcher": {"model": "random", "empty_streak": float("inf")}}, "empty_streak"),
        ({"variant": "attack", "launcher": {"model": "pattern", "index": -3}}, "index"),
        ({"variant": "attack", "launcher": {"model": "pattern", "index": 1e300}}, "index"),
        (
            {
                "variant": "attack",
                "options": {"launcher": "scripted", "launcher_script": [0]},
                "launcher": {"model": "scripted", "script": [0, 2], "index": -1},
            },
            "index",
        ),
        (
            {
                "variant": "attack",
                "options": {"launcher": "scripted", "launcher_script": [0]},
                "launcher": {"model": "scripted", "script": [0, float("inf")], "index": 0},
            },
            "script",
        ),
        ({"pending": {"kind": ["turn"], "seat": 0}}, "pending"),
        ({"pending": {"kind": 5}}, "pending"),
        ({"pending": "turn"}, "pending"),
        ({"hands": [_nested(5000), ["red 1"], ["red 2"]]}, "hand of seat 0"),
        ({"options": {"stacking": _nested(5000)}}, "stacking"),
        ({"launcher": _nested(5000)}, "launcher"),
        ({"seed": _nested(5000)}, "seed"),
        ({"format": _nested(5000)}, "format"),
        ({"seed": -(10**5000)}, "number too long"),
        ({"stack": 10**5000}, "number too long"),
        ({"uno_exposed": [10**5000]}, "number too long"),
        ({"pending": {"kind": "turn", "seat": 10**5000}}, "number too long"),
    ],
)
def test_malformed_positions_raise_position_error_and_nothing_else(changes: dict[str, Any], named: str) -> None:
    """Negative or infinite launcher counters, a non-text decision kind and deeply nested values
    are refused with PositionError naming the field (never IndexError, OverflowError,
    TypeError or RecursionError)."""
    variant = changes.pop("variant", "classic")
    position = {**unokit.new_game(variant, 3, 1).to_position(), **changes}
    assert named in _rejected(position)


#: The decisions (beyond a turn, a stack answer and the end) each variant's deck can open on each
#: side, with the card kinds a decision names: a challenge of a Wild Draw card (R-2.3, R-3.5,
#: R-3.6), Trade Hands' choice (R-4.3), Wild Press Your Luck's (R-5.5), the themed editions'
#: wilds (R-7). A drawn card to play or keep and a colour to name arise everywhere.
_ARISING: dict[tuple[str, str], dict[str, set[str] | None]] = {
    ("classic", "light"): {"challenge": {"wild_draw_four"}},
    ("flip", "light"): {"challenge": {"wild_draw_two"}},
    ("flip", "dark"): {"challenge": {"wild_draw_color"}},
    ("attack", "light"): {"choose_player": None},
    ("flip_attack", "mild"): {"press_your_luck": None, "choose_discard": None},
    ("flip_attack", "wild"): {},
    ("flip_marvel", "light"): {"challenge": {"wild_draw_two"}, "discard_cards": {"wild_super_hero"}},
    ("flip_marvel", "dark"): {"challenge": {"wild_draw_color"}},
    ("flip_stranger_things", "light"): {"challenge": {"wild_draw_two"}, "discard_cards": {"wild_jim_hopper"}},
    ("flip_stranger_things", "dark"): {"challenge": {"wild_draw_color"}},
    ("flip_transformers", "light"): {
        "challenge": {"wild_draw_two"},
        "choose_target": {"wild_optimus_prime"},
        "discard_cards": {"wild_optimus_prime"},
    },
    ("flip_transformers", "dark"): {"challenge": {"wild_draw_color"}, "choose_target": {"wild_megatron"}},
}
_EVERYWHERE = {"play_or_keep": None, "choose_color": None}
#: The card kinds a pending decision of each kind may name (every one, of any variant).
_NAMED = {
    "challenge": ["wild_draw_four", "wild_draw_two", "wild_draw_color"],
    "choose_target": ["wild_optimus_prime", "wild_megatron"],
    "discard_cards": ["wild_super_hero", "wild_jim_hopper", "wild_optimus_prime"],
}


def _pending(kind: str, card: str | None, position: dict[str, Any]) -> dict[str, Any]:
    """A pending decision of ``kind`` for seat 0, naming ``card`` where the kind names one."""
    pending: dict[str, Any] = {"kind": kind, "seat": 0}
    if kind == "play_or_keep":
        pending["card"] = position["hands"][0][0]
    elif kind == "challenge":
        pending.update(by=3, card=card, color=position["color"], fair=True)
    elif kind == "choose_target":
        pending["card"] = card
    elif kind == "discard_cards":
        pending.update(card=card, count=1)
    return pending


@pytest.mark.parametrize(("variant", "side"), list(_ARISING))
def test_a_pending_decision_must_arise_in_the_variant(variant: str, side: str) -> None:
    """Every decision kind against every variant and side: a position pending a decision that
    no card of the deck's active side opens (a Classic game pressing its luck, a Transformers
    target on the light side for Megatron) is refused with PositionError; one that can arise
    loads, and each of its legal actions applies or is refused with an UnokitError."""
    assert set(_ARISING) == {
        (name, rules.side_names[s]) for name, rules in VARIANTS.items() for s in range(1 + rules.double_sided)
    }
    rules = VARIANTS[variant]
    position = Game.new(variant, 4, 3, stacking=True)[0].to_position()
    position["side"] = side
    position["color"] = COLOR_NAMES[SIDE_COLORS[rules.side_names.index(side)][0]]
    arising = {**_EVERYWHERE, **_ARISING[(variant, side)]}
    for kind in DECISION_NAMES:
        if kind in ("turn", "stack", "over"):
            continue
        for card in _NAMED.get(kind, [None]):
            candidate = {**position, "pending": _pending(kind, card, position)}
            named = arising.get(kind, set())
            if kind in arising and (named is None or card in named):
                game = Game.from_position(candidate)
                assert game.decision == kind
                for action in game.legal_actions():
                    with contextlib.suppress(unokit.UnokitError):
                        game.clone().apply(action)
            else:
                assert "cannot arise" in _rejected(candidate), (kind, card)


def test_a_variant_that_is_not_a_name_is_a_position_error() -> None:
    for variant in (_nested(5000), 10**5000, 5):
        assert "'variant' must be the name of a variant" in _rejected({**_position(), "variant": variant})


def test_observe_and_the_view_agree_on_who_can_be_caught() -> None:
    """R-1.5, D-2, D-8: after an undeclared next-to-last Trade Hands that leaves its player with
    three cards, nobody can be caught: observe() and View.uno_exposed both say so, and no seat
    lists a catch."""
    game = Game.from_position(
        {
            "variant": "attack",
            "players": 3,
            "turn": 0,
            "color": "red",
            "hands": [["red trade_hands", "blue 7"], ["yellow 3", "red 1", "green 2"], ["green 1", "green 4"]],
            "discard": ["red 9"],
            "seed": 1,
        }
    )
    game.apply("play red trade_hands")  # no UNO call: seat 0 holds one card ...
    assert game.observe(1)["uno_exposed"] == 0 == unokit.View(game, 1).uno_exposed
    game.apply("trade 1")  # ... and now three (D-8)
    for seat in range(3):
        assert game.observe(seat)["uno_exposed"] is None
        assert unokit.View(game, seat).uno_exposed == -1
        assert "catch 0" not in [str(a) for a in game.legal_actions(seat)]


def test_a_colour_error_lists_the_variants_colours_only() -> None:
    classic, _ = Game.new("classic", 2, 1)
    flip, _ = Game.new("flip", 2, 1)
    for text in ("color pinkk", "color", "play pinkk 5"):
        with pytest.raises(InvalidActionError) as caught:
            classic.parse_action(text)
        assert "red, yellow, green, blue" in str(caught.value) and "teal" not in str(caught.value), text
    with pytest.raises(InvalidActionError, match="red, yellow, green, blue, pink, teal, orange, purple"):
        flip.parse_action("color x")
