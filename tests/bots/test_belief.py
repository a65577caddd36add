"""The belief over the opponent's hand (``ismcts_belief``): the opponent's round read as events,
the weights of its possible hands on exact positions (a hand that contradicts what it did gets
none; the weights are the model's, computed here by hand on small cases), the deal of a hand
drawn by weight, and the bot that searches with it."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from tests.bots.test_ismcts import _reads_after
from unokit import Game, View
from unokit.bots import make_bot
from unokit.bots.belief import OPPONENT_MODELS, BeliefIsmctsBot, Model, latest_turns, opponent_model
from unokit.bots.ismcts import EV_GAIN, EV_KEEP, EV_PLAY, EV_TURN, Event, Reads
from unokit.bots.runner import play_decision
from unokit.core.determinise import Determiniser
from unokit.core.game import action_table
from unokit.fast import belief as B
from unokit.fast import search as S
from unokit.fast.kernel import CAP

GAME = Game.from_position(
    {
        "variant": "classic",
        "players": 2,
        "turn": 0,
        "color": "red",
        "hands": [["red 5"], ["blue 4"]],
        "discard": ["red 2"],
        "draw": [],
        "seed": 1,
    }
)
DECK = GAME.deck
TID = DECK.text.index
RED, BLUE = DECK.color[0][TID("red 1")], DECK.color[0][TID("blue 1")]
#: A model with every term at work, for the computations by hand.
THETA = np.array([-2.0, 0.5, -1.0, -1.2, -2.2, -0.4, -0.6, 0.7, 0.3, 0.9])


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def model(events: list[tuple[int, int, int, int, int]], theta: np.ndarray) -> Model:
    """The model of ``events`` as the bot builds it (2-player Classic, bluffing allowed)."""
    return opponent_model(DECK, 0, True, events, theta)


def exact(
    events: list[tuple[int, int, int, int, int]], n: int, theta: np.ndarray, paths: int = 1, temper: float = 1.0
) -> dict[str, float]:
    """Every hand of ``n`` cards among the unseen cards (the deck less the cards played in
    ``events``), by its text, with its weight (not normalised)."""
    avail = np.asarray(DECK.counts + (0,) * (CAP - len(DECK.counts)), np.int64)
    for kind, card, *_ in events:
        if kind == EV_PLAY:
            avail[card] -= 1
    rng = np.array([7], np.int64)
    hands, logs = B.exact_belief(np.zeros(0, np.int64), avail, n, model(events, theta), rng, paths, temper)
    return {" + ".join(DECK.text[t] for t in row): math.exp(w) for row, w in zip(hands, logs, strict=True)}


def key(*cards: str) -> str:
    """A hand of :func:`exact`: its cards in type order."""
    return " + ".join(sorted(cards, key=TID))


def test_every_opponent_model_has_every_term() -> None:
    assert all(len(terms) == B.N_TERMS == len(B.TERMS) for terms in OPPONENT_MODELS.values())


def test_reads_keep_the_opponents_round_as_events() -> None:
    """Its turns, with the table each was played on: a card from its hand, a draw kept, a wild
    naming a colour; a penalty is cards taken, with no turn."""
    hands = [["red 5", "blue 3", "blue 7", "red draw_two", "yellow 2"], ["blue 5", "wild", "green 4", "green 9"]]
    moves = ["play red 5", "play blue 5", "play blue 3", "draw", "play blue 7", "play wild green"]
    reads, _ = _reads_after(hands, "red 2", moves)
    green = DECK.color[0][TID("green 1")]
    assert reads.events == [
        (EV_TURN, TID("red 5"), RED, TID("blue 5"), -1),
        (EV_PLAY, TID("blue 5"), 0, 0, 0),
        (EV_TURN, TID("blue 3"), BLUE, -1, -1),  # drew the yellow 8, which did not fit: kept
        (EV_GAIN, 1, 0, 0, 0),
        (EV_KEEP, TID("blue 3"), BLUE, 0, 0),
        (EV_TURN, TID("blue 7"), BLUE, TID("wild"), green),
        (EV_PLAY, TID("wild"), 0, 0, 0),
    ]
    reads.clear()
    assert reads.events == []


def events_after(hands: list[list[str]], draw: list[str], moves: list[tuple[int, str]]) -> list[Event]:
    """Seat 0's reading of the opponent's round on a 2-player Classic table with a red 2 on the
    pile, after ``moves`` (seat, action), read as the bot reads: before and after each of its
    decisions, and at the end."""
    position = {"variant": "classic", "players": 2, "turn": 0, "color": "red", "hands": hands}
    game = Game.from_position({**position, "discard": ["red 2"], "draw": draw, "seed": 1})
    reads = Reads()
    view = View(game, 0)
    for seat, move in moves:
        if seat == 0:
            reads.update(view)
            reads.acted(view, game.parse_action(move))
        game.apply(move, seat=seat)
    reads.update(view)
    return reads.events


def test_a_penalty_is_cards_taken_with_no_turn() -> None:
    """A Draw Two: the opponent takes two cards and loses its turn; nothing is read of it."""
    hands = [["red 5", "red draw_two", "yellow 2"], ["blue 5", "green 4"]]
    moves = [(0, "play red draw_two"), (0, "play red 5"), (1, "play blue 5")]
    assert events_after(hands, ["yellow 4", "yellow 6", "yellow 8"], moves) == [
        (EV_GAIN, 2, 0, 0, 0),
        (EV_TURN, TID("red 5"), RED, TID("blue 5"), -1),
        (EV_PLAY, TID("blue 5"), 0, 0, 0),
    ]


def test_a_drawn_card_played_at_once_is_a_draw_and_nothing_more() -> None:
    """The red 8 it drew fits and goes down at once: its hand did not change."""
    moves = [(0, "play red 5"), (1, "draw"), (1, "play_drawn")]
    assert events_after([["red 5", "blue 3"], ["green 4", "green 9"]], ["red 8"], moves) == [
        (EV_TURN, TID("red 5"), RED, -1, -1)
    ]


def test_hands_that_contradict_what_the_opponent_did_get_no_weight() -> None:
    """The opponent drew on a red 5 (and played the drawn card: its hand did not change). To a
    model that never draws while a card fits, a hand of two cards holding a red card, a 5 or a
    wild contradicts that draw; every other hand keeps its weight from the deal."""
    never_draws = THETA.copy()
    never_draws[0] = never_draws[1] = -math.inf
    weights = exact([(EV_TURN, TID("red 5"), RED, -1, -1)], 2, never_draws)
    fits = set(action_table(DECK).match(0, RED, DECK.kind[0][TID("red 5")], True)[1])
    assert len(weights) == len(set(DECK.text)) * (len(set(DECK.text)) + 1) // 2
    for hand, weight in weights.items():
        cards = [TID(text) for text in hand.split(" + ")]
        if fits.intersection(cards):
            assert weight == 0.0, hand
        else:  # the number of ways to hold it among the unseen cards
            counts = Counter(cards)
            assert weight == pytest.approx(math.prod(math.comb(DECK.counts[t], k) for t, k in counts.items()))
    assert weights[key("blue 4", "green 9")] == 4 and weights[key("blue 4", "blue 4")] == 1
    assert weights[key("red 4", "blue 4")] == 0


def test_the_weights_are_the_models_computed_by_hand() -> None:
    """The opponent played a red 7 on a red 2, then a wild naming blue; it holds one card. Each
    possible card gives it a known hand at both turns, so its weight is the ways to hold it
    times the model's chances of both plays and of naming blue, computed here term by term."""
    events = [
        (EV_TURN, TID("red 2"), RED, TID("red 7"), -1),
        (EV_PLAY, TID("red 7"), 0, 0, 0),
        (EV_TURN, TID("red 7"), RED, TID("wild"), BLUE),
        (EV_PLAY, TID("wild"), 0, 0, 0),
    ]
    weights = exact(events, 1, THETA)
    draw_colored, draw_wild = sigmoid(THETA[0]), sigmoid(THETA[1])
    wild, colour_in_play, per_card, named = THETA[3], THETA[7], THETA[8], THETA[9]

    def naming(blue: int, others: list[int]) -> float:  # named blue, by the cards of each colour kept
        return math.exp(named * blue) / sum(math.exp(named * k) for k in [blue, *others])

    # It holds a blue 4: on the red 7 only the wild fitted; on the red 2, the red 7 or the wild.
    first = (
        (1 - draw_colored)
        * math.exp(colour_in_play + per_card)
        / (math.exp(colour_in_play + per_card) + math.exp(wild))
    )
    second = (1 - draw_wild) * 1.0 * naming(1, [0, 0, 0])
    assert weights["blue 4"] == pytest.approx(2 * first * second)
    # Tempered, the likelihood counts for its square root; at 0 only the ways to hold it count.
    assert exact(events, 1, THETA, temper=0.5)["blue 4"] == pytest.approx(2 * math.sqrt(first * second))
    assert exact(events, 1, THETA, temper=0.0)["blue 4"] == pytest.approx(2.0)
    # A red 9: on the red 7 it fitted too (and was kept); on the red 2 it fitted with the red 7.
    score = {"red 7": colour_in_play + 2 * per_card, "red 9": colour_in_play + 2 * per_card, "wild": wild}
    first = (1 - draw_colored) * math.exp(score["red 7"]) / sum(math.exp(v) for v in score.values())
    second = (1 - draw_colored) * math.exp(wild) / (math.exp(wild) + math.exp(colour_in_play + per_card))
    assert weights["red 9"] == pytest.approx(2 * first * second * naming(0, [1, 0, 0]))
    # A second wild: both wilds are one type, so on the red 7 the wild was the only choice.
    score = {"red 7": colour_in_play + per_card, "wild": wild}
    first = (1 - draw_colored) * math.exp(score["red 7"]) / sum(math.exp(v) for v in score.values())
    assert weights["wild"] == pytest.approx(3 * first * (1 - draw_wild) * naming(0, [0, 0, 0]))
    # The model reads: a hand that could have kept the colour it named is likelier than one that could not.
    assert weights["blue 4"] / 2 > weights["green 4"] / 2


def test_a_kept_draw_is_averaged_over_which_card_was_drawn() -> None:
    """It drew on a red 2 and kept the card; now it holds a red 9 and a blue 4. Either was the
    drawn card, with equal chance: the red 9 (it fits, so kept with the keep chance; before,
    the blue 4 alone did not fit, so the draw was forced) or the blue 4 (nothing to keep; but
    before, it drew holding the red 9, which fitted). The random paths average the two."""
    events = [(EV_TURN, TID("red 2"), RED, -1, -1), (EV_GAIN, 1, 0, 0, 0), (EV_KEEP, TID("red 2"), RED, 0, 0)]
    hand = np.asarray([TID("red 9"), TID("blue 4")], np.int64)
    log = B.log_likelihood_of(hand, model(events, THETA), np.array([3], np.int64), 4000)
    expected = 0.5 * (sigmoid(THETA[2]) * 1.0 + 1.0 * sigmoid(THETA[0]))
    assert math.exp(log) == pytest.approx(expected, rel=0.03)
    # With one path, the likelihood is one of the two.
    one = math.exp(B.log_likelihood_of(hand, model(events, THETA), np.array([3], np.int64), 1))
    assert one == pytest.approx(sigmoid(THETA[2])) or one == pytest.approx(sigmoid(THETA[0]))


def test_the_belief_reads_the_latest_turns() -> None:
    turn = (EV_TURN, TID("red 2"), RED, -1, -1)
    play = (EV_PLAY, TID("red 7"), 0, 0, 0)
    events = [turn, play, (EV_GAIN, 2, 0, 0, 0), turn, play, turn]
    assert latest_turns(events, 2) == events[3:]
    assert latest_turns(events, 3) == latest_turns(events, None) == latest_turns(events, 9) == events
    with pytest.raises(ValueError, match="window"):
        BeliefIsmctsBot(1, window=0)


def test_the_search_deals_the_hand_drawn_by_weight_and_the_rest_to_the_draw_pile() -> None:
    pool = np.asarray(sorted([TID("red 1"), TID("red 1"), TID("blue 2"), TID("green 3"), TID("wild"), TID("red 9")]))
    particles = np.asarray([[TID("red 1"), TID("wild")], [TID("blue 2"), TID("green 3")]], np.int64)
    for weights, wanted in (([1.0, 0.0], 0), ([0.0, 2.0], 1)):
        cumulative = np.cumsum(weights)
        for seed in range(5):
            order = S.deal_particle_of(np.array([seed], np.int64), particles, cumulative, pool)
            assert sorted(order) == list(range(len(pool)))
            assert sorted(pool[order[:2]]) == sorted(particles[wanted])
    # Both rows in proportion to their weights.
    cumulative = np.cumsum([1.0, 3.0])
    firsts = [S.deal_particle_of(np.array([s], np.int64), particles, cumulative, pool)[0] for s in range(400)]
    share = sum(1 for i in firsts if pool[i] in (TID("blue 2"), TID("green 3"))) / 400
    assert 0.68 < share < 0.82


def test_the_bot_reads_exactly_then_over_the_round_and_plays_reproducibly() -> None:
    """Against ``heuristic`` in 2-player Classic: weights over the whole round while the
    opponent holds many cards, every possible hand once it holds two or fewer; every answer
    legal; the same seed and budget give the same game."""

    def play(seed: int) -> tuple[list[int], set[str]]:
        game = Game.new("classic", 2, 3, rounds=1)[0]
        bot = BeliefIsmctsBot(seed, iterations=60)
        bots = [bot, make_bot("heuristic", 9)]
        for s, b in enumerate(bots):
            b.reset(s)
        views = [View(game, s) for s in range(2)]
        used: set[str] = set()
        small = False
        while not game.is_over:
            seat = game.to_act
            if seat == 0:
                small = Determiniser(views[0]).free.get(1, 0) <= 2
            play_decision(game, bots, views)
            if seat == 0 and bot.last_iterations:
                used.add(bot.last_belief)
                if bot.last_belief:
                    assert (bot.last_belief == "exact") == small
        return [*game.discard, -1, *game.winners], used

    played, used = play(5)
    assert {"exact", "round"} <= used
    assert play(5)[0] == played
