"""The ``ismcts`` bot: legal play in every variant, determinisations that never contradict what
the seat sees, reproducibility, and strength against ``random``."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from typing import Any

import pytest

import unokit
from tests import helpers
from unokit import Game, View
from unokit.bots import make_bot
from unokit.bots.base import Bot
from unokit.bots.ismcts import (
    CARD_FEATURES,
    DEFAULT_ITERATIONS,
    EXTRA_CARD_TERM,
    FEATURE_TERMS,
    FEATURES,
    HAND_SIZE_TERM,
    IsmctsBot,
    Reads,
    _rewards,
    card_features,
    card_weights,
    hand_features,
    log_strength,
)
from unokit.bots.runner import play_decision, react_all
from unokit.core.decks import standard_deck
from unokit.core.determinise import Determiniser
from unokit.core.determinise import slot_groups as _slot_groups

#: A small, fast budget: legality and consistency do not need strength.
TINY: dict[str, Any] = {"iterations": 8, "rollout_depth": 6}

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("classic", 2, {}),
    ("classic", 4, {"stacking": True}),
    ("classic", 3, {"bluffing": False}),
    ("classic", 3, {"wild_counts_as_color_match": True}),
    ("flip", 2, {}),
    ("flip", 4, {"stacking": True, "flip_wild_chooser": "next"}),
    ("flip", 3, {"pairing": "random", "scoring": "own_hand"}),
    ("attack", 2, {}),
    ("attack", 4, {"launcher": "pattern"}),
    ("attack", 3, {"launcher": "scripted", "launcher_script": [0, 1, 0, 2, 3, 0, 0, 1] * 300}),
    ("flip_attack", 2, {}),
    ("flip_attack", 4, {"pairing": "random"}),
    ("flip_attack", 3, {"launcher": "one_card", "scoring": "loser"}),
    ("flip_marvel", 3, {}),
    ("flip_stranger_things", 4, {}),
    ("flip_transformers", 3, {"pairing": "random"}),
]


def config_id(config: tuple[str, int, dict[str, Any]]) -> str:
    variant, players, options = config
    return f"{variant}-{players}-" + ",".join(f"{k}={v}" for k, v in options.items() if k != "launcher_script")


def walk(game: Game, bots: list[Bot], max_decisions: int = 3000) -> list[tuple[View, str]]:
    """Play ``game`` with ``bots``, checking that each returns one of its legal actions, and
    return every decision as the deciding seat's view (frozen on a copy of the game) and the
    action taken."""
    for index, bot in enumerate(bots):
        bot.reset(index)
    views = [View(game, s) for s in range(game.n)]
    seen: list[tuple[View, str]] = []
    for _ in range(max_decisions):
        if game.is_over:
            break
        seat = game.to_act
        assert seat is not None
        frozen = View(game.clone(), seat)
        action = bots[seat].act(views[seat])
        assert action in views[seat].legal_actions(), (str(action), game.decision)
        seen.append((frozen, str(action)))
        game.apply(action, seat=seat)
        react_all(game, bots, views)  # out-of-turn catches and late UNO calls, as the runner does
    return seen


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_only_legal_actions_in_every_variant(config: tuple[str, int, dict[str, Any]]) -> None:
    variant, players, options = config
    for seed in range(2):
        game = unokit.new_game(variant, players, seed=seed, rounds=1, **options)
        bots: list[Bot] = [IsmctsBot(seed * 10 + s, **TINY) for s in range(players)]
        walk(game, bots)
        assert game.is_over


def test_multi_round_games_full_rollouts_and_the_default_runner() -> None:
    for variant in ("flip", "classic"):
        game = unokit.new_game(variant, 3, seed=4, rounds=2)
        bots: list[Bot] = [
            IsmctsBot(0, **TINY),
            IsmctsBot(1, iterations=8, rollout_depth=None),  # every rollout plays the hand out
            IsmctsBot(2, iterations=8, rollout_depth=0, read_draws=False),  # the model alone
        ]
        unokit.bots.runner.play_game(game, bots)
        assert game.is_over and game.round_number >= 2


# ---------------------------------------------------------------------- determinisation


def check_sample(view: View, hands: list[list[int]], draw: list[int]) -> None:
    """Everything a sample must agree on with what ``view``'s seat knows."""
    deck = view.deck
    seat = view.seat
    assert sorted(hands[seat]) == sorted(view.hand)
    assert [len(h) for h in hands] == view.hand_sizes
    assert len(draw) == view.draw_size
    everything: Counter[int] = Counter(view.discard)
    for hand in hands:
        everything.update(hand)
    everything.update(draw)
    assert everything == Counter(deck.cards())
    if deck.double_sided:
        back = deck.back_class[1 - view.side]
        for s in range(view.players):
            if s != seat:
                assert sorted(back[t] for t in hands[s]) == view.backs(s)
        if view.draw_top_back is not None:
            assert back[draw[-1]] == view.draw_top_back


PUBLIC_FIELDS = (
    "players",
    "seat",
    "side",
    "direction",
    "turn",
    "to_act",
    "decision",
    "pending",
    "color",
    "top",
    "discard",
    "hand",
    "hand_sizes",
    "draw_size",
    "stack",
    "uno_exposed",
    "legal_actions",
    "backs",
    "draw_top_back",
)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_determinisations_never_contradict_the_view(config: tuple[str, int, dict[str, Any]]) -> None:
    variant, players, options = config
    game = unokit.new_game(variant, players, seed=11, rounds=1, **options)
    bots: list[Bot] = [IsmctsBot(s, **TINY) for s in range(players)]
    decisions = walk(game, bots)
    checked = Counter[str]()
    for i, (view, _) in enumerate(decisions):
        if i % 3 and view.decision in ("turn", "stack"):
            continue  # every unusual decision, a third of the ordinary ones
        sampler = Determiniser(view)
        observed = view.observe()
        for seed in range(3):
            hands, draw = sampler.sample(seed)
            check_sample(view, hands, draw)
            determinised = sampler.game(seed, seed + 1)
            check_sample(view, determinised.hands, determinised.draw)
            mine = determinised.observe(view.seat)
            for name in PUBLIC_FIELDS:
                assert mine.get(name) == observed.get(name), name
        checked[view.decision] += 1
    assert checked["turn"] > 0


def test_samples_vary_and_depend_only_on_the_seed() -> None:
    game = unokit.new_game("flip", 3, seed=2, rounds=1)
    view = View(game, game.to_act or 0)
    sampler = Determiniser(view)
    assert sampler.sample(5) == sampler.sample(5)
    assert len({str(sampler.sample(s)) for s in range(20)}) == 20


def test_the_sampler_reads_nothing_hidden() -> None:
    """Two tables that look the same from seat 0 but hide different cards give the same samples."""
    deck = standard_deck("flip")
    by_back: dict[str, list[str]] = {}
    for t in range(len(deck.types)):
        by_back.setdefault(deck.face_texts[1][t], []).append(deck.text[t])
    twins = next(texts for texts in by_back.values() if len(texts) >= 2)  # one back, two fronts
    common: dict[str, Any] = {
        "variant": "flip",
        "players": 2,
        "turn": 0,
        "color": "red",
        "discard": ["red 9/teal reverse"],
        "draw": ["red 7/orange 1"],  # the same visible back on both draw piles
    }
    hand = ["blue 5/pink 9", "yellow 3/purple 1"]
    a = Game.from_position({**common, "hands": [hand, [twins[0], "green 2/teal draw_five"]], "seed": 3})
    b = Game.from_position({**common, "hands": [hand, [twins[1], "green 2/teal draw_five"]], "seed": 99})
    view_a, view_b = View(a, 0), View(b, 0)
    assert a.hands[1] != b.hands[1] and a.draw != b.draw
    assert view_a.observe() == view_b.observe()
    for seed in range(10):
        assert Determiniser(view_a).sample(seed) == Determiniser(view_b).sample(seed)
        assert Determiniser(view_a).game(seed, 1).to_position() == Determiniser(view_b).game(seed, 1).to_position()


def test_a_challenged_wild_draw_is_fair_exactly_when_the_sampled_hand_says_so() -> None:
    game = Game.from_position(
        {
            "variant": "classic",
            "players": 2,
            "turn": 0,
            "color": "blue",
            "hands": [["wild_draw_four", "red 1", "green 2"], ["yellow 3", "yellow 4", "blue 5"]],
            "discard": ["blue 8"],
            "seed": 1,
        }
    )
    game.apply("play wild_draw_four red")
    view = View(game, 1)
    assert view.decision == "challenge"
    sampler = Determiniser(view)
    fair_seen = set()
    for seed in range(40):
        determinised = sampler.game(seed, seed)
        fair = determinised.pending()["fair"]
        holds_blue = any(determinised.deck.color[0][t] == 3 for t in determinised.hands[0])
        assert fair == (not holds_blue)
        fair_seen.add(fair)
    assert fair_seen == {True, False}


def test_reading_an_opponent_who_drew_instead_of_playing() -> None:
    game = Game.from_position(
        {
            "variant": "classic",
            "players": 2,
            "turn": 0,
            "color": "red",
            "hands": [["red 5", "blue 3", "green 7"], ["yellow 1", "blue 9"]],
            "discard": ["red 2"],
            "draw": ["yellow 4"],
            "seed": 1,
        }
    )
    bot = IsmctsBot(0, **TINY)
    bot.reset(0)
    reads = bot.reads
    assert reads is not None
    view = View(game, 0)
    reads.update(view)  # what act() does before choosing ...
    play = game.parse_action("play red 5")
    reads.acted(view, play)  # ... and after
    game.apply(play)
    game.apply("draw", seat=1)  # seat 1 holds no red card and no 5, and draws the yellow 4
    assert game.to_act == 0
    assert reads.voids == {}
    bot.act(view)  # reads what happened
    (excluded, covered), *more = reads.voids[1]
    assert not more and covered == 3
    deck = game.deck
    assert {deck.text[t] for t in excluded} == {
        text for text in deck.text if text.startswith("red ") or text.endswith(" 5")
    }
    sampler = Determiniser(view, reads.voids)
    for seed in range(20):
        hands, draw = sampler.sample(seed)
        check_sample(view, hands, draw)
        assert not excluded.intersection(hands[1])


def _reads_after(hands: list[list[str]], top: str, moves: list[str], named_colors: bool = True) -> tuple[Reads, View]:
    """Seat 0's reads of a 2-player Classic table after ``moves``, taken by seats 0 and 1 in
    turn from seat 0 (seat 0 reads and remembers each of its decisions as the bot does), with
    seat 0 to act at the end."""
    game = Game.from_position(
        {
            "variant": "classic",
            "players": 2,
            "turn": 0,
            "color": top.split(maxsplit=1)[0],
            "hands": hands,
            "discard": [top],
            "draw": ["yellow 4", "yellow 6", "yellow 8"],
            "seed": 1,
        }
    )
    reads, view = Reads(named_colors=named_colors), View(game, 0)
    for i, move in enumerate(moves):
        if i % 2 == 0:
            reads.update(view)
            reads.acted(view, game.parse_action(move))
        game.apply(move, seat=i % 2)
    assert game.to_act == 0
    reads.update(view)
    return reads, view


def test_reading_the_colour_an_opponent_names_until_it_plays_again() -> None:
    hands = [["red 5", "blue 3", "green 7", "yellow 2"], ["wild", "blue 9", "blue 1", "green 4"]]
    reads, view = _reads_after(hands, "red 2", ["play red 5", "play wild blue"])
    deck = view.deck
    blue_or_wild = {t for t, text in enumerate(deck.text) if text.startswith(("blue ", "wild"))}
    ((excluded, covered),) = reads.voids[1]
    assert covered == 1 and excluded == frozenset(range(len(deck.text))) - blue_or_wild
    sampler = Determiniser(view, reads.voids)
    for seed in range(30):
        hands_dealt, draw = sampler.sample(seed)
        check_sample(view, hands_dealt, draw)
        assert blue_or_wild.intersection(hands_dealt[1])
    # Without named_colors nothing is read from the same play.
    plain, _ = _reads_after(hands, "red 2", ["play red 5", "play wild blue"], named_colors=False)
    assert plain.voids.get(1, []) == []
    # Once the opponent plays again the card it may have played is no longer covered.
    reads, _ = _reads_after(hands, "red 2", ["play red 5", "play wild blue", "play blue 3", "play blue 9"])
    assert reads.voids[1] == []


def test_a_read_that_the_opponent_holds_none_of_the_colour_wins() -> None:
    hands = [["red 5", "blue 3", "green 3", "yellow 2"], ["wild", "red 9", "red 1", "green 4"]]
    # The opponent names blue, then draws when blue is in play: it holds no blue after all.
    reads, view = _reads_after(hands, "red 2", ["play red 5", "play wild blue", "play blue 3", "draw"])
    texts = view.deck.text
    no_blue_no_3 = frozenset(t for t, text in enumerate(texts) if text.startswith("blue ") or text.endswith(" 3"))
    assert reads.voids[1] == [(no_blue_no_3, 4)]
    # The opponent drew on blue, then names blue: the earlier read of its hand is kept alone.
    reads, _ = _reads_after(hands, "blue 2", ["play blue 3", "draw", "play green 3", "play wild blue"])
    assert reads.voids[1] == [(no_blue_no_3, 4)]


def test_reads_nest_oldest_cards_first() -> None:
    a, b = frozenset({1, 2}), frozenset({3})
    assert _slot_groups([(a, 5), (b, 2)], 6) == [(a | b, 2), (a, 3)]
    assert _slot_groups([(a, 9), (b, 0)], 4) == [(a, 4)]
    assert _slot_groups([], 4) == []


def test_hand_features_of_an_exact_table() -> None:
    """Wilds, coloured draw cards, other actions, to act, matching cards, colours held."""
    g = helpers.game(
        hands=[["wild", "red draw_two", "blue skip", "red 5", "green 7", "wild_draw_four"], ["yellow 5", "blue 1"]],
        discard=["yellow 7"],
        color="yellow",
        turn=1,
    )
    # Seat 0: 2 wilds, 1 draw card, 1 skip, not to act, "green 7" matches the top's 7, 3 colours.
    assert hand_features(g, 0) == (2, 1, 1, 0, 1, 3)
    # Seat 1: to act, "yellow 5" matches the colour in play, 2 colours.
    assert hand_features(g, 1) == (0, 0, 0, 1, 1, 2)
    assert FEATURES == ("wilds", "draw cards", "other actions", "to act", "matching", "colours")


def test_the_hand_strength_model_prefers_fewer_cards_and_wilds() -> None:
    """The shipped model: fewer cards and more wilds are stronger; the reward is a distribution."""
    assert all(a > b for a, b in itertools.pairwise(HAND_SIZE_TERM[1:]))
    assert EXTRA_CARD_TERM < 0 and FEATURE_TERMS[0] > 0
    g = helpers.game(
        hands=[["red 1", "blue 2"], ["red 3", "blue 4", "green 5"], ["wild", "blue 6"]],
        discard=["yellow 7"],
        color="yellow",
    )
    rewards = _rewards(g)
    assert math.isclose(sum(rewards), 1.0)
    assert rewards[1] < rewards[0] < rewards[2]  # three cards < two cards < two cards with a wild
    many = [f"{color} {number}" for color in ("red", "blue", "green", "yellow") for number in range(1, 6)]
    big = helpers.game(hands=[many[:18], many], discard=["yellow 7"], color="yellow")
    assert log_strength(big, 1) < log_strength(big, 0)  # beyond the size table each card still counts


# ---------------------------------------------------------------------- the bot


def test_same_seed_same_choices() -> None:
    def moves(seed: int) -> list[str]:
        game = unokit.new_game("classic", 3, seed=8, rounds=1)
        bots: list[Bot] = [IsmctsBot(seed + s, iterations=40, rollout_depth=10) for s in range(3)]
        return [action for _, action in walk(game, bots)]

    assert moves(1) == moves(1)
    assert moves(1) != moves(2)
    game = unokit.new_game("flip", 2, seed=3, rounds=1)
    view = View(game, game.to_act or 0)
    first = IsmctsBot(7, iterations=200).act(view)
    assert all(IsmctsBot(7, iterations=200).act(view) is first for _ in range(2))


def test_it_catches_and_declares_out_of_turn() -> None:
    game = Game.from_position(
        {
            "variant": "classic",
            "players": 3,
            "turn": 0,
            "color": "red",
            "hands": [["red 5", "blue 7"], ["yellow 3", "red 1"], ["green 1", "green 4"]],
            "discard": ["red 9"],
            "draw": ["red 2", "red 3"],
            "seed": 1,
        }
    )
    game.apply("play red 5")  # seat 0 is down to one card without calling UNO
    assert str(IsmctsBot(0, **TINY).act(View(game, 1))) == "catch 0"
    assert str(IsmctsBot(0, **TINY).react(View(game, 2))) == "catch 0"
    assert str(IsmctsBot(0, **TINY).react(View(game, 0))) == "uno"


def test_a_time_limit_the_default_budget_and_the_registry() -> None:
    bot = make_bot("ismcts", 3)
    assert isinstance(bot, IsmctsBot)
    game = Game.from_position(
        {
            "variant": "classic",
            "players": 2,
            "turn": 0,
            "color": "red",
            "hands": [["red 5", "red 7", "blue 5", "wild"], ["yellow 3", "green 9"]],
            "discard": ["red 2"],
            "seed": 1,
        }
    )
    assert bot.act(View(game, 0)) in game.legal_actions()
    assert bot.last_iterations == DEFAULT_ITERATIONS["classic"]
    game = unokit.new_game("classic", 2, seed=5, rounds=1)
    timed = IsmctsBot(1, iterations=None, time_limit=0.01)
    view = View(game, game.to_act or 0)
    assert timed.act(view) in view.legal_actions()
    assert timed.last_iterations >= 1
    with pytest.raises(ValueError, match="iterations"):
        IsmctsBot(0, iterations=0)


def binomial_bound(n: int, p: float, alpha: float) -> int:
    """The smallest k with P(X >= k) <= alpha for X ~ Binomial(n, p): more wins than chance
    allows at level alpha."""
    tail = 0.0
    for k in range(n, -1, -1):
        tail += math.comb(n, k) * p**k * (1 - p) ** (n - k)
        if tail > alpha:
            return k + 1
    return 0  # pragma: no cover


def test_it_beats_random_clearly() -> None:
    games = 24
    wins = 0
    for g in range(games):
        game = unokit.new_game("classic", 2, seed=1000 + g, rounds=1)
        me = g % 2
        bots: list[Bot] = [make_bot("random", g), make_bot("random", g)]
        bots[me] = IsmctsBot(g, iterations=30, rollout_depth=8)
        for seat, bot in enumerate(bots):
            bot.reset(seat)
        views = [View(game, seat) for seat in range(2)]
        while not game.is_over:
            play_decision(game, bots, views)
        wins += me in game.winners
    # A coin would reach this many wins with probability below 0.1%.
    assert wins >= binomial_bound(games, 0.5, 0.001)


def test_reads_keep_the_opponents_turns_and_what_they_say_of_each_card() -> None:
    """``Reads.turns`` holds each card the opponent played (with the colour in play before it
    and the colour it named) or its draw; :func:`card_features` turns them into facts about each
    card type of its hand (2-player Classic)."""
    hands = [["red 5", "blue 3", "blue 7", "yellow 2"], ["blue 5", "wild", "green 4", "green 9"]]
    moves = ["play red 5", "play blue 5", "play blue 3", "draw", "play blue 7", "play wild green"]
    reads, view = _reads_after(hands, "red 2", moves)
    deck = view.deck
    tid = deck.text.index
    red, blue, green = (deck.color[0][tid(f"{c} 1")] for c in ("red", "blue", "green"))
    assert reads.turns == [(tid("blue 5"), red, -1), (-1, blue, -1), (tid("wild"), blue, green)]
    features = card_features(view, reads)
    by_name = {name: i for i, name in enumerate(CARD_FEATURES)}

    def facts(card: str) -> set[str]:
        row = features[tid(card)]
        return {name for name, i in by_name.items() if row[i]}

    assert facts("green 4") == {"named last"}
    assert facts("blue 8") == {"wild on last", "drew on earlier", "played colour"}
    assert facts("red 8") == {"left earlier"}
    assert facts("red skip") == {"left earlier", "action, kept"}
    assert features[tid("red skip")][by_name["action, kept"]] == 2 / 8  # two plays so far
    assert facts("yellow 8") == set()
    assert facts("wild_draw_four") == {"wild, kept"}
    # The weights multiply exp(term) over the facts; with no terms every card weighs 1.
    terms = tuple(1.0 if name == "named last" else 0.0 for name in CARD_FEATURES)
    weights = card_weights(view, reads, terms)
    assert weights[tid("green 4")] == pytest.approx(math.e) and weights[tid("blue 8")] == 1.0
    assert set(card_weights(view, reads, (0.0,) * len(CARD_FEATURES))) == {1.0}
    # A new round forgets the turns, like the other reads.
    reads.clear()
    assert reads.turns == [] and not reads.just_played


def test_the_card_left_in_a_hand_of_one_that_fits_the_table_it_set() -> None:
    hands = [["red 5", "blue 3", "blue 7", "yellow 2"], ["blue 5", "green 4"]]
    reads, view = _reads_after(hands, "red 2", ["play red 5", "play blue 5 uno"])
    assert reads.just_played
    features = card_features(view, reads)
    one = CARD_FEATURES.index("fits, one card")
    fitting = {text for t, text in enumerate(view.deck.text) if features[t][one]}
    assert "blue 9" in fitting and "green 5" in fitting and "wild" in fitting and "wild_draw_four" in fitting
    assert "green 4" not in fitting and "red 8" not in fitting
    assert not any(row[CARD_FEATURES.index("fits, two cards")] for row in features)
    # Once this seat has played again and the opponent has only drawn, nothing is fresh.
    reads.acted(view, view._game.parse_action("play blue 3"))
    view._game.apply("play blue 3", seat=0)
    view._game.apply("draw", seat=1)
    reads.update(view)
    assert not reads.just_played and not any(row[one] for row in card_features(view, reads))
