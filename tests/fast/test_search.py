"""The compiled search's parts against the Python ones they compile: dealing the unseen cards
(``Determiniser.sample`` given the same random orders), the actions searched (``_prune``), the
greedy rollout policy (``ismcts._rollout``, draw for draw) and the hand-strength model."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import unokit
from unokit import Game, View
from unokit.bots.ismcts import EXTRA_CARD_TERM, FEATURE_TERMS, HAND_SIZE_TERM, _prune, _rewards, _rollout
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
        expected = [batch.encoding.encode(a, seat) for a in _prune(game.legal_actions())]
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
