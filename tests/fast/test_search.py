"""The compiled search's parts against the Python ones they compile: dealing the unseen cards
(``Determiniser.sample`` given the same random orders), the actions searched (``searched_actions``), the
greedy rollout policy (``ismcts._rollout``, draw for draw) and the hand-strength model."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import unokit
from unokit import Game, View
from unokit.bots.ismcts import EXTRA_CARD_TERM, FEATURE_TERMS, HAND_SIZE_TERM, _rewards, _rollout, searched_actions
from unokit.core.determinise import Determiniser, Void, key_order
from unokit.core.rng import MASK64, Rng
from unokit.fast import Batch
from unokit.fast import kernel as K
from unokit.fast import search as S
from unokit.fast.load import as_int64, load_game

#: The seed change of the determiniser's second order (the draw pile below a seen top).
SECOND_ORDER = 0x5DEECE66D

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("classic", 2, {}),
    ("classic", 4, {"stacking": True}),
    ("classic", 3, {"bluffing": False, "scoring": "loser"}),
    ("flip", 2, {}),
    ("flip", 4, {"stacking": True}),
    ("attack", 2, {}),
    ("attack", 3, {"launcher": "scripted", "launcher_script": [0, 1, 0, 2, 3, 0, 0, 1] * 300}),
    ("flip_attack", 2, {}),
    ("flip_attack", 3, {"scoring": "own_hand"}),
]


def config_id(config: tuple[str, int, dict[str, Any]]) -> str:
    return f"{config[0]}-{config[1]}p-{len(config[2])}opts"


def views_of(variant: str, players: int, options: dict[str, Any], seed: int, every: int = 3) -> list[View]:
    """Views of the seat to act at every ``every``-th decision of a random game (each on its own
    copy of the game), with every decision that is not an ordinary turn."""
    game = unokit.new_game(variant, players, seed=seed, rounds=1, **options)
    rng = Rng(seed)
    out: list[View] = []
    step = 0
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        if step % every == 0 or game.decision not in ("turn", "stack"):
            out.append(View(game.clone(), seat))
        actions = game.legal_actions()
        game.step(actions[rng.below(len(actions))])
        step += 1
    return out


_BATCHES: dict[str, Batch] = {}


def kernel_of(template: Game) -> Batch:
    """A one-game batch (no play history) of ``template``'s variant, seats and options (one per
    table kind, reused: a test loads each position into it)."""
    options = template.options.as_dict(template.rules)
    key = repr((template.variant, template.n, sorted(options.items())))
    if key not in _BATCHES:
        _BATCHES[key] = Batch(template.variant, template.n, 1, 0, history=0, **options)
    return _BATCHES[key]


def some_voids(view: View) -> dict[int, list[Void]]:
    """Reads of the other seats' hands (as a search bot would make), for the constrained deal."""
    kinds = view.deck.kind[0]
    reds = frozenset(t for t in range(len(kinds)) if view.deck.color[0][t] == 0)
    sevens = frozenset(t for t in range(len(kinds)) if kinds[t] == 7)
    return {s: [(reds, 4), (sevens, 2)] for s in range(view.players) if s != view.seat}


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_compiled_deal_is_the_determinisers_for_the_same_orders(config: tuple[str, int, dict[str, Any]]) -> None:
    variant, players, options = config
    modes = set()
    for view in views_of(variant, players, options, seed=3):
        for voids in (None, some_voids(view)):
            sampler = Determiniser(view, voids)
            template = sampler.game(0, 0)
            batch = kernel_of(template)
            R = batch.rules_vector
            hidden = S.Hidden.of(sampler)
            modes.add(hidden.mode)
            taken = int(hidden.seats[:, 2].sum()) + int((hidden.slots[:, 0] < 0).sum())
            for seed in range(3):
                order = np.asarray(key_order(seed, len(hidden.pool)), np.int64)
                second = key_order(seed ^ SECOND_ORDER, len(hidden.pool) - taken)
                order2 = np.asarray(second if hidden.mode != S.DEAL_PLAIN else [], np.int64)
                row = batch.state[0]
                load_game(R, row, template)
                S.deal_with_orders(row, R, hidden.pool, hidden.seats, hidden.mode, hidden.groups,
                                   hidden.back_of, hidden.slots, order, order2, view.seat)  # fmt: skip
                row[K.F_RNG] = as_int64(seed + 1)
                assert batch.position(0) == sampler.game(seed, seed + 1).to_position()
    single = not unokit.new_game(variant, 2, seed=0, rounds=1).deck.double_sided
    assert modes == ({S.DEAL_PLAIN, S.DEAL_READS} if single else {S.DEAL_BACKS})


def test_hidden_facts_follow_from_the_dealt_hands() -> None:
    """A challenged Wild Draw Four is fair exactly when the dealt hand holds no card of the
    previous colour, in the compiled deal as in the determiniser."""
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
    sampler = Determiniser(view)
    template = sampler.game(0, 0)
    batch = kernel_of(template)
    hidden = S.Hidden.of(sampler)
    fair_seen = set()
    for seed in range(40):
        row = batch.state[0]
        load_game(batch.rules_vector, row, template)
        order = np.asarray(key_order(seed, len(hidden.pool)), np.int64)
        S.deal_with_orders(row, batch.rules_vector, hidden.pool, hidden.seats, hidden.mode, hidden.groups,
                           hidden.back_of, hidden.slots, order, order, 1)  # fmt: skip
        fair = batch.position(0)["pending"]["fair"]
        assert fair == sampler.game(seed, 0).pending()["fair"]
        fair_seen.add(fair)
    assert fair_seen == {True, False}


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_searched_actions_rollouts_and_the_model_are_the_python_bots(config: tuple[str, int, dict[str, Any]]) -> None:
    variant, players, options = config
    sizes = np.asarray(HAND_SIZE_TERM, np.float64)
    terms = np.asarray(FEATURE_TERMS, np.float64)
    codes = np.empty(K.LEGAL_CAP, np.int64)
    rewards = np.empty(players, np.float64)
    checked = 0
    for view in views_of(variant, players, options, seed=5, every=2):
        game = Determiniser(view).game(7, 8)
        batch = kernel_of(game)
        R = batch.rules_vector
        row = batch.state[0]
        load_game(R, row, game)
        flags = S.type_flags(game.deck.kind)
        count = S.prune_legal(row, R, codes)
        seat = view.seat
        expected = [batch.encoding.encode(a, seat) for a in searched_actions(game.legal_actions())]
        assert codes[:count].tolist() == expected
        S.rewards_of(row, R, rewards, flags, sizes, EXTRA_CARD_TERM, terms)
        assert rewards == pytest.approx(_rewards(game), abs=1e-12)
        for depth in (3, 12):
            ahead = game.clone()
            python_rng = Rng(depth * 1000 + checked)
            _rollout(ahead, python_rng, depth)
            load_game(R, row, game)
            rng = np.array([as_int64(depth * 1000 + checked)], np.int64)
            S.rollout_of(row, R, rng, S.POLICY_GREEDY, depth)
            assert batch.position(0) == ahead.to_position()
            assert int(rng[0]) & MASK64 == python_rng.state
        checked += 1
    assert checked > 20


def _first_plays(hand: list[str], top: str, policy: int, seeds: range) -> set[str]:
    """The card that ``policy`` plays first from ``hand`` on ``top`` (2-player Classic, seat 0
    to act, the opponent's hand irrelevant), for each generator seed."""
    color = top.split(maxsplit=1)[0]
    game = Game.from_position(
        {
            "variant": "classic",
            "players": 2,
            "turn": 0,
            "color": color,
            "hands": [hand, ["yellow 3", "yellow 9", "green 8", "red 8", "blue 8"]],
            "discard": [top],
            "seed": 2,
            "options": {"rounds": 1},
        }
    )
    batch = kernel_of(game)
    R = batch.rules_vector
    row = batch.state[0]
    played = set()
    for seed in seeds:
        load_game(R, row, game)
        S.rollout_of(row, R, np.array([as_int64(seed)], np.int64), policy, 1)
        position = batch.position(0)
        assert len(position["hands"][0]) == len(hand) - 1
        played.add(str(position["discard"][-1]))
    return played


def test_greedy_color_plays_the_colour_held_most() -> None:
    """``greedy_color`` plays, among the coloured cards that fit, one of the colour it holds most
    (blue: three cards), where ``greedy`` draws among all of them."""
    hand = ["red 1", "blue 2", "blue 3", "blue 4", "green 2", "wild"]
    assert _first_plays(hand, "red 2", S.POLICY_GREEDY_COLOR, range(30)) == {"blue 2"}
    assert _first_plays(hand, "red 2", S.POLICY_GREEDY, range(30)) == {"red 1", "blue 2", "green 2"}


def test_greedy_color_draws_among_equal_colours_and_keeps_wilds_last() -> None:
    # Blue and green are held twice each: both are played, never the lone red.
    tied = ["red 1", "blue 2", "blue 3", "green 2", "green 4"]
    assert _first_plays(tied, "red 2", S.POLICY_GREEDY_COLOR, range(40)) == {"blue 2", "green 2"}
    # A coloured card of a colour held once still goes before a wild naming the colour held most.
    assert _first_plays(["red 1", "blue 3", "blue 4", "blue 5", "wild"], "red 2", S.POLICY_GREEDY_COLOR, range(20)) == {
        "red 1"
    }
    # A play that leaves one card (with UNO) still comes first, whatever its colour.
    assert _first_plays(["red 1", "blue 2"], "red 2", S.POLICY_GREEDY_COLOR, range(20)) == {"red 1", "blue 2"}


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_greedy_color_rollouts_play_legal_games_to_the_end(config: tuple[str, int, dict[str, Any]]) -> None:
    """Rollouts with ``greedy_color`` from positions of every variant reach the end of the hand
    by legal actions (the kernel refuses an illegal one) with every card accounted for."""
    variant, players, options = config
    for view in views_of(variant, players, options, seed=9, every=5)[:6]:
        game = Determiniser(view).game(3, 4)
        batch = kernel_of(game)
        R = batch.rules_vector
        row = batch.state[0]
        load_game(R, row, game)
        S.rollout_of(row, R, np.array([as_int64(11)], np.int64), S.POLICY_GREEDY_COLOR, -1)
        position = batch.position(0)
        assert position["winners"]
        assert Game.from_position(position).is_over


def test_a_weighted_order_samples_its_first_entries_in_proportion_to_the_weights() -> None:
    """:func:`unokit.fast.search.weighted_order`: a permutation each time; its first entry is
    ``i`` with chance ``w_i / sum(w)`` (1/2 here), an item of weight ~0 is never among the
    ``k`` sampled, and the entries after those come in uniformly random order."""
    rng = np.array([as_int64(3)], np.int64)
    weights = np.array([3.0, 1.0, 1.0, 1e-12, 1.0])
    order = np.empty(5, np.int64)
    firsts = [0] * 5
    lasts = [0] * 5
    rounds = 4000
    for _ in range(rounds):
        S.weighted_order(rng, weights, order, 5, 2)
        assert sorted(order.tolist()) == [0, 1, 2, 3, 4]
        assert 3 not in order[:2]
        firsts[int(order[0])] += 1
        lasts[int(order[4])] += 1
    # Binomial(4000, 1/2): a standard deviation of 0.0079; 0.03 is almost four of them.
    assert abs(firsts[0] / rounds - 3 / 6) < 0.03
    assert abs(firsts[1] / rounds - 1 / 6) < 0.03 and firsts[3] == 0
    # The unsampled entries are shuffled: the item of weight ~0 ends last a third of the time.
    assert abs(lasts[3] / rounds - 1 / 3) < 0.03
