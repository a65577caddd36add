"""Scenario and unit tests for the UNO Attack launcher (R-6.1 to R-6.4) and decision D-5.

The statistical tests use a fixed seed, and their tolerances are several binomial standard
deviations wide, so they are deterministic and would still fail on a model whose true rate is
off by more than about a percentage point.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest

from tests.helpers import attack_deck, game, hand
from unokit import Game, LauncherError, OptionError
from unokit.core.launcher import OneCardLauncher, PatternLauncher, RandomLauncher, ScriptedLauncher
from unokit.core.rng import Rng

COLORS = ("red", "yellow", "green", "blue")

#: The presses (1-based) on which the original launcher fires, from R-6.2.
PATTERN = (
    2, 6, 9, 13, 17, 21, 24, 26, 27, 29, 32, 36, 37, 41, 44, 47, 48,
    51, 54, 57, 58, 62, 66, 69, 72, 73, 77, 81, 84, 85, 88, 92, 93, 96,
)  # fmt: skip
#: Chance to fire after 0, 1, 2 and 3 empty presses in a row (R-6.2, R-6.3).
HAZARD = (0.21, 0.11, 0.54, 1.0)
#: Percent chance of 1..12 cards per fire, as documented in docs/rules/attack.md (R-6.3).
CARDS_PER_FIRE = (2, 4, 10, 14, 16, 16, 14, 10, 6, 4, 2, 2)
#: How many binomial standard deviations a statistical estimate may stray.
Z = 4.5

HANDS = [["red 5", "blue 3"], ["green 1", "green 2"], ["yellow 1", "yellow 2"]]


def rest_of_deck(*named: list[str]) -> list[str]:
    """Every Attack card not in ``named``, so a position can place all 112 cards itself."""
    rest = attack_deck()
    for cards in named:
        rest.subtract(Counter(cards))
    assert all(v >= 0 for v in rest.values())
    return sorted(rest.elements())


def attack(
    options: dict[str, Any],
    hands: list[list[str]] | None = None,
    discard: list[str] | None = None,
    color: str = "red",
    draw: list[str] | None = None,
    **fields: Any,
) -> Game:
    """An UNO Attack position (top card ``red 3`` unless told) with launcher ``options``."""
    return game(
        "attack",
        hands=hands if hands is not None else HANDS,
        discard=discard if discard is not None else ["red 3"],
        color=color,
        draw=draw,
        options=options,
        **fields,
    )


def scripted(script: list[int], **kwargs: Any) -> Game:
    """An UNO Attack position with a scripted launcher."""
    return attack({"launcher": "scripted", "launcher_script": script}, **kwargs)


def press_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The press events, in order."""
    return [e for e in events if e["type"] == "press"]


def turn_press(g: Game) -> int:
    """The seat to act presses on its turn; return how many cards its hand gained."""
    seat = g.to_act
    assert seat is not None
    assert g.decision == "turn"
    before = len(g.hands[seat])
    g.apply("press")
    return len(g.hands[seat]) - before


def stack_texts(g: Game) -> list[str]:
    """The launcher's cards, top first."""
    return [g.card_text(t) for t in reversed(g.draw)]


# ---------------------------------------------------------------------------
def test_r6_1_press_ejects_nothing_or_the_top_k_cards() -> None:
    """R-6.1: a press ejects no card, or k >= 1 cards off the top of the launcher's stack."""
    g = scripted([0, 3, 1], draw=["blue 7", "green 8", "yellow 9", "red 9", "wild"])
    size = len(g.draw)
    assert turn_press(g) == 0
    assert len(g.draw) == size
    assert turn_press(g) == 3
    assert hand(g, 1) == ["blue 7", "green 1", "green 2", "green 8", "yellow 9"]
    assert len(g.draw) == size - 3
    assert stack_texts(g)[:2] == ["red 9", "wild"]
    assert turn_press(g) == 1
    assert hand(g, 2) == ["red 9", "yellow 1", "yellow 2"]
    assert len(g.draw) == size - 4


@pytest.mark.parametrize("model", ["random", "pattern", "one_card"])
def test_r6_1_every_press_ejects_cards_off_the_stack(model: str) -> None:
    """R-6.1: with every seeded model, a press moves exactly the ejected cards from the stack to the hand."""
    g = attack({"launcher": model}, seed=5)
    for _ in range(20):
        seat = g.to_act
        assert seat is not None
        stack = stack_texts(g)
        before = Counter(hand(g, seat))
        events = g.apply("press")
        (event,) = press_events(events)
        gained = Counter(hand(g, seat)) - before
        k = event["count"]
        assert 0 <= k <= 12
        assert event["fired"] == (k > 0)
        assert gained == Counter(stack[:k])
        assert stack_texts(g) == stack[k:]


# --------------------------------------------------------------------------- pattern
def test_r6_2_pattern_fires_on_the_listed_presses() -> None:
    """R-6.2: the pattern model fires exactly on presses 2, 6, 9, ... 96, then starts again."""
    launcher = PatternLauncher()
    rng = Rng(3)
    outcomes = [launcher.press(rng) for _ in range(2 * 96)]
    fired = [i for i, k in enumerate(outcomes, start=1) if k]
    assert fired == [*PATTERN, *(p + 96 for p in PATTERN)]
    assert len(PATTERN) == 34
    assert sum(1 for k in outcomes[:96] if k) == 34
    assert all(1 <= k <= 12 for k in outcomes if k)


def test_r6_2_pattern_never_more_than_three_empty_presses() -> None:
    """R-6.2: the pattern model is never silent for more than three presses in a row."""
    launcher = PatternLauncher()
    rng = Rng(4)
    run = longest = 0
    for _ in range(3 * 96):
        if launcher.press(rng):
            run = 0
        else:
            run += 1
            longest = max(longest, run)
    assert longest == 3


def test_r6_2_pattern_through_the_game() -> None:
    """R-6.2, R-6.3: with launcher="pattern" the presses at the table fire on presses 2, 6, 9, ..."""
    g = attack({"launcher": "pattern"}, seed=8)
    fired = [turn_press(g) > 0 for _ in range(14)]
    assert fired == [n in PATTERN for n in range(1, 15)]


def test_r6_2_pattern_position_index_carries_the_count() -> None:
    """R-6.2, R-6.3: a position's pattern index is the number of presses made; the count wraps after 96."""
    g = attack({"launcher": "pattern"}, launcher={"model": "pattern", "index": 94})
    fired = [turn_press(g) > 0 for _ in range(4)]
    assert fired == [95 in PATTERN, 96 in PATTERN, 1 in PATTERN, 2 in PATTERN]
    assert fired == [False, True, False, True]
    assert g.to_position()["launcher"] == {"model": "pattern", "index": 2}


# --------------------------------------------------------------------------- random
def test_r6_3_random_is_the_default_model() -> None:
    """R-6.3: without the launcher option the model is random."""
    g, _ = Game.new("attack", 3, 1)
    assert g.launcher is not None
    assert g.launcher.model == "random"
    assert g.to_position()["launcher"]["model"] == "random"


def test_r6_3_random_fourth_press_after_three_empty_always_fires() -> None:
    """R-6.2, R-6.3: after three empty presses in a row the random launcher always fires."""
    for seed in range(2000):
        assert RandomLauncher(empty_streak=3).press(Rng(seed)) > 0


def test_r6_3_random_fourth_press_in_the_game_always_fires() -> None:
    """R-6.3: a position whose random launcher had three empty presses fires on the next press."""
    for seed in range(100):
        g = attack({"launcher": "random"}, launcher={"model": "random", "empty_streak": 3}, seed=seed)
        assert turn_press(g) > 0


def test_r6_3_random_hazard_by_empty_streak() -> None:
    """R-6.2, R-6.3: the random model fires with chance 0.21, 0.11, 0.54, 1.0 after 0, 1, 2, 3 empty presses."""
    launcher = RandomLauncher()
    rng = Rng(20240601)
    attempts = [0, 0, 0, 0]
    fires = [0, 0, 0, 0]
    streak = 0
    for _ in range(120_000):
        assert streak <= 3
        attempts[streak] += 1
        if launcher.press(rng):
            fires[streak] += 1
            streak = 0
        else:
            streak += 1
    assert fires[3] == attempts[3] > 1000
    for s in range(3):
        p = HAZARD[s]
        sd = math.sqrt(p * (1 - p) / attempts[s])
        assert abs(fires[s] / attempts[s] - p) < Z * sd, (s, fires[s] / attempts[s])


def test_r6_3_random_fire_rate_after_a_fire_is_021() -> None:
    """R-6.2, R-6.3: a random launcher that has just fired (0 empty presses) fires again with chance 0.21."""
    rng = Rng(77)
    n = 40_000
    fires = sum(1 for _ in range(n) if RandomLauncher(empty_streak=0).press(rng) > 0)
    p = HAZARD[0]
    sd = math.sqrt(p * (1 - p) / n)
    assert abs(fires / n - p) < Z * sd


def test_r6_3_random_overall_fire_rate() -> None:
    """R-6.2, R-6.3: in the long run the random model fires on about 35.5% of presses."""
    # Expected rate: 1 / (mean presses per fire); P(a cycle lasts >= k presses) from the hazard.
    survive = 1.0
    mean_cycle = 0.0
    for h in HAZARD:
        mean_cycle += survive
        survive *= 1 - h
    rate = 1 / mean_cycle
    launcher = RandomLauncher()
    rng = Rng(31)
    n = 60_000
    fires = sum(1 for _ in range(n) if launcher.press(rng) > 0)
    # Fires are not independent; 2 * the binomial sd is a generous bound on the true sd here.
    sd = 2 * math.sqrt(rate * (1 - rate) / n)
    assert abs(fires / n - rate) < Z * sd


def test_r6_3_random_cards_per_fire() -> None:
    """R-6.1, R-6.3: a fire ejects 1 to 12 cards, by the documented distribution (mostly 3-8)."""
    rng = Rng(4242)
    counts: Counter[int] = Counter()
    fires = 0
    while fires < 30_000:
        k = RandomLauncher(empty_streak=3).press(rng)
        counts[k] += 1
        fires += 1
    assert min(counts) >= 1
    assert max(counts) <= 12
    for k, percent in enumerate(CARDS_PER_FIRE, start=1):
        p = percent / 100
        sd = math.sqrt(p * (1 - p) / fires)
        assert abs(counts[k] / fires - p) < Z * sd, (k, counts[k] / fires)
    mid = sum(counts[k] for k in range(3, 9)) / fires
    assert abs(mid - 0.80) < Z * math.sqrt(0.8 * 0.2 / fires)


def test_r6_3_random_is_seeded() -> None:
    """R-6.3: the same seed gives the same presses."""
    a = attack({"launcher": "random"}, seed=12)
    b = attack({"launcher": "random"}, seed=12)
    for _ in range(20):
        assert a.apply("press") == b.apply("press")
    assert a.to_position() == b.to_position()


# --------------------------------------------------------------------------- one_card
def test_r6_3_one_card_unit() -> None:
    """R-6.3: the one_card model ejects exactly one card on every press."""
    launcher = OneCardLauncher()
    rng = Rng(1)
    assert [launcher.press(rng) for _ in range(50)] == [1] * 50


def test_r6_3_one_card_in_the_game() -> None:
    """R-6.3: with one_card a press is a plain draw of the top card (and the turn still ends, R-4.1)."""
    g = attack(
        {"launcher": "one_card"},
        hands=[["red hit_2", "red 5"], ["green 1"], ["yellow 1"]],
        draw=["red 7", "blue 8", "green 9"],
    )
    g.apply("play red hit_2")
    assert hand(g, 1) == ["blue 8", "green 1", "red 7"]
    assert g.to_act == 2
    g.apply("press")
    assert hand(g, 2) == ["green 9", "yellow 1"]
    assert g.to_act == 0


def test_r6_3_one_card_wild_hit_fire_is_one_press() -> None:
    """R-6.3, R-4.3: with one_card, Wild Hit-Fire fires on the first press: one card."""
    g = attack(
        {"launcher": "one_card"},
        hands=[["wild_hit_fire", "red 5"], ["green 1"], ["yellow 1"]],
        draw=["red 7", "blue 8"],
    )
    events = g.apply("play wild_hit_fire blue")
    assert len(press_events(events)) == 1
    assert hand(g, 1) == ["green 1", "red 7"]
    assert g.to_act == 2


# --------------------------------------------------------------------------- scripted
def test_r6_3_scripted_outcomes_in_order() -> None:
    """R-6.3: the scripted model plays out its list, one outcome a press."""
    launcher = ScriptedLauncher([0, 4, 0, 2])
    rng = Rng(1)
    assert [launcher.press(rng) for _ in range(4)] == [0, 4, 0, 2]
    with pytest.raises(LauncherError):
        launcher.press(rng)


def test_r6_3_scripted_used_up_raises_and_leaves_the_game_unchanged() -> None:
    """R-6.3: a press past the end of the script raises LauncherError and changes nothing."""
    g = scripted([2], draw=["blue 7", "green 8"])
    turn_press(g)
    before = g.to_position()
    with pytest.raises(LauncherError):
        g.apply("press")
    assert g.to_position() == before
    assert g.to_act == 1


def test_r6_3_scripted_used_up_in_the_middle_of_an_effect_undoes_the_play() -> None:
    """R-6.3: when the script runs out during a Hit 2, the whole play is undone."""
    g = scripted([3], hands=[["red hit_2", "red 5"], ["green 1"], ["yellow 1"]], draw=["blue 7", "green 8", "red 8"])
    before = g.to_position()
    with pytest.raises(LauncherError):
        g.apply("play red hit_2")
    assert g.to_position() == before
    assert hand(g, 0) == ["red 5", "red hit_2"]
    assert hand(g, 1) == ["green 1"]
    assert g.card_text(g.discard[-1]) == "red 3"
    assert g.to_act == 0


def test_r6_3_scripted_goes_on_with_an_extended_script() -> None:
    """R-6.3: after the script is used up, a position with the script extended carries on."""
    g = scripted([0], hands=[["red hit_2", "red 5"], ["green 1"], ["yellow 1"]], draw=["blue 7", "green 8"])
    with pytest.raises(LauncherError):
        g.apply("play red hit_2")
    pos = g.to_position()
    pos["launcher"]["script"] = [0, 2]
    pos["options"]["launcher_script"] = [0, 2]
    g2 = Game.from_position(pos)
    g2.apply("play red hit_2")
    assert hand(g2, 1) == ["blue 7", "green 1", "green 8"]
    assert g2.to_act == 2


@pytest.mark.parametrize(
    "options",
    [
        {"launcher": "scripted"},
        {"launcher": "random", "launcher_script": [1]},
        {"launcher_script": [1]},
        {"launcher": "scripted", "launcher_script": [1, -2]},
        {"launcher": "sometimes"},
    ],
)
def test_r6_3_launcher_options_are_checked(options: dict[str, Any]) -> None:
    """R-6.3: launcher_script goes with launcher="scripted" and only then; outcomes are >= 0."""
    with pytest.raises(OptionError):
        Game.new("attack", 3, 1, **options)


# --------------------------------------------------------------------------- D-5 and
def full_deck_game(
    options: dict[str, Any], draw: list[str], hands: list[list[str]] | None = None, **fields: Any
) -> Game:
    """A position naming all 112 cards: the launcher holds exactly ``draw``; the rest is discarded."""
    top = ["red 3"]
    hands = hands if hands is not None else HANDS
    return attack(
        options,
        hands=hands,
        draw=draw,
        discard=[*rest_of_deck(*hands, draw, top), *top],
        **fields,
    )


def test_d5_fire_larger_than_the_launcher_ejects_what_it_holds() -> None:
    """D-5: a fire asking for five cards when the launcher holds two ejects those two and no reload."""
    g = full_deck_game({"launcher": "scripted", "launcher_script": [5, 1]}, draw=["blue 7", "green 8"])
    assert len(g.draw) == 2
    discard = list(g.discard)
    events = g.apply("press")
    assert "reload" not in [e["type"] for e in events]
    assert hand(g, 0) == ["blue 3", "blue 7", "green 8", "red 5"]
    assert g.draw == []
    assert g.discard == discard
    assert g.to_act == 1


def test_r6_4_empty_launcher_reloads_from_the_discard_pile_but_its_top() -> None:
    """R-6.4: a press that finds the launcher empty first reloads it with the discard pile but its top."""
    g = full_deck_game({"launcher": "scripted", "launcher_script": [5, 3]}, draw=["blue 7", "green 8"])
    g.apply("press")  # empties the launcher (D-5)
    old_discard = [g.card_text(t) for t in g.discard]
    assert len(old_discard) == 112 - 6 - 2
    before = Counter(hand(g, 1))
    g.apply("press")
    assert [g.card_text(t) for t in g.discard] == ["red 3"]
    gained = Counter(hand(g, 1)) - before
    assert sum(gained.values()) == 3
    assert gained + Counter(stack_texts(g)) == Counter(old_discard[:-1])
    assert len(g.draw) == len(old_discard) - 1 - 3
    assert g.to_act == 2


def test_r6_4_reload_shuffles_the_discard_pile() -> None:
    """R-6.4: the reloaded launcher holds the discard pile shuffled, not in its old order."""
    g = full_deck_game({"launcher": "scripted", "launcher_script": [5, 0]}, draw=["blue 7", "green 8"])
    g.apply("press")
    old = [g.card_text(t) for t in g.discard[:-1]]
    g.apply("press")
    loaded = stack_texts(g)
    assert Counter(loaded) == Counter(old)
    assert loaded not in (old, old[::-1])


def test_r6_4_reload_restarts_the_pattern() -> None:
    """R-6.3, R-6.4: a reload restarts the pattern: the next press is press 1 (no fire), then press 2 fires."""
    g = full_deck_game({"launcher": "pattern"}, draw=[], launcher={"model": "pattern", "index": 5})
    # Without the restart the next presses would be presses 6 (fires) and 7 (empty).
    assert 6 in PATTERN
    assert 7 not in PATTERN
    assert turn_press(g) == 0
    assert [g.card_text(t) for t in g.discard] == ["red 3"]
    assert turn_press(g) > 0


def test_r6_4_no_reload_while_cards_remain() -> None:
    """R-6.4: the launcher is reloaded only when a press finds it empty."""
    g = full_deck_game({"launcher": "scripted", "launcher_script": [1, 1]}, draw=["blue 7", "green 8"])
    discard = list(g.discard)
    g.apply("press")
    assert g.discard == discard
    assert len(g.draw) == 1
    g.apply("press")
    assert g.discard == discard
    assert g.draw == []


def test_r6_3_flip_restarts_the_pattern() -> None:
    """R-6.3, R-5.3, D-12: in Flip Attack a Flip restarts the pattern: press 1 (no fire), then press 2 fires."""
    g = game(
        "flip_attack",
        hands=[
            ["yellow flip/pink 8", "red 1/purple 7", "red 3/purple 1"],
            ["red 7/orange 3", "red 8/orange 4"],
            ["red 9/pink 1", "green 4/orange flip"],
        ],
        discard=["red 4/pink 5", "yellow 2/pink 6"],
        color="yellow",
        options={"launcher": "pattern"},
        launcher={"model": "pattern", "index": 5},
    )
    g.apply("play yellow flip/pink 8")
    assert g.side_name == "wild"
    assert g.to_act == 1
    # Without the restart the next presses would be presses 6 (fires) and 7 (empty).
    assert turn_press(g) == 0
    assert turn_press(g) > 0


# --------------------------------------------------------------------------- launcher state
SCRIPT = [0, 2, 0, 1, 3, 0, 0, 1, 2, 0, 1, 0]


@pytest.mark.parametrize(
    "options",
    [
        {"launcher": "random"},
        {"launcher": "pattern"},
        {"launcher": "one_card"},
        {"launcher": "scripted", "launcher_script": SCRIPT},
    ],
)
def test_r6_3_launcher_state_round_trips_through_positions(options: dict[str, Any]) -> None:
    """R-6.3: the launcher's state is part of the game: a position rebuilds it and play goes on alike."""
    g = attack(options, seed=21)
    empty_run = 0
    for _ in range(5):
        empty_run = 0 if turn_press(g) else empty_run + 1
    pos = g.to_position()
    state = pos["launcher"]
    model = options["launcher"]
    assert state["model"] == model
    if model in ("pattern", "scripted"):
        assert state["index"] == 5
    if model == "scripted":
        assert state["script"] == SCRIPT
    if model == "random":
        assert state["empty_streak"] == empty_run
    copy = Game.from_position(pos)
    assert copy.to_position() == pos
    for _ in range(6):
        assert copy.apply("press") == g.apply("press")
        assert copy.to_position() == g.to_position()


def test_d5_r6_4_hit_2_across_an_empty_launcher() -> None:
    """D-5, R-6.4: Hit 2's first press empties a short launcher; the second reloads it and fires."""
    g = full_deck_game(
        {"launcher": "scripted", "launcher_script": [4, 2]},
        draw=["blue 7", "green 8"],
        hands=[["red hit_2", "red 5"], ["green 1", "green 2"], ["yellow 1", "yellow 2"]],
    )
    old_discard = [g.card_text(t) for t in g.discard]
    events = g.apply("play red hit_2")
    assert [e["presser"] for e in press_events(events)] == [1, 1]
    assert [e["type"] for e in events].count("reload") == 1
    gained = Counter(hand(g, 1)) - Counter(["green 1", "green 2", "blue 7", "green 8"])
    assert sum(gained.values()) == 2
    assert gained + Counter(stack_texts(g)) == Counter(old_discard)  # the old top went back too
    assert [g.card_text(t) for t in g.discard] == ["red hit_2"]
    assert g.to_act == 2
