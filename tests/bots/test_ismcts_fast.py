"""The ``ismcts_fast`` bot: legal play in every variant (on the kernel where it plays the game,
on the Python engine elsewhere), choices that depend only on what the seat sees and on the seed,
a search whose statistics add up, and strength against ``random``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

import unokit
from tests.bots.test_ismcts import CONFIGS, binomial_bound, config_id, walk
from unokit import Game, View
from unokit.bots import bot_names, ismcts_fast, make_bot
from unokit.bots.base import Bot
from unokit.bots.ismcts import EXTRA_CARD_TERM, FEATURE_TERMS, FEATURES, HAND_SIZE_TERM
from unokit.bots.ismcts_fast import FAST_ITERATIONS, FastIsmctsBot, engine_for
from unokit.bots.runner import play_decision
from unokit.cli import main
from unokit.core.decks import standard_deck
from unokit.core.determinise import Determiniser
from unokit.fast import kernel as K
from unokit.fast import search as S
from unokit.fast.load import as_int64, load_game

#: The tables the kernel plays (the others are searched by the Python engine).
ON_THE_KERNEL = {
    "classic-2-",
    "classic-3-bluffing=False",
    "classic-4-stacking=True",
    "flip-2-",
    "attack-2-",
    "attack-3-launcher=scripted",  # the determinised game replaces the script by the random model
    "flip_attack-2-",
}


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_only_legal_actions_in_every_variant_on_the_right_engine(config: tuple[str, int, dict[str, Any]]) -> None:
    variant, players, options = config
    expected = "kernel" if config_id(config) in ON_THE_KERNEL else "python"
    game = unokit.new_game(variant, players, seed=1, rounds=1, **options)
    assert engine_for(View(game, game.to_act or 0)) == expected
    bots: list[Bot] = [FastIsmctsBot(10 + s, iterations=60 if expected == "kernel" else 6) for s in range(players)]
    walk(game, bots)  # checks every action against the seat's legal actions
    assert game.is_over
    engines = {bot.engine for bot in bots if isinstance(bot, FastIsmctsBot)} - {""}
    assert engines == {expected}


@pytest.mark.parametrize("settings", [{"rollout_depth": None}, {"rollout_depth": 0}, {"policy": "random"}])
def test_full_rollouts_the_model_alone_and_random_rollouts_play_legally(settings: dict[str, Any]) -> None:
    for variant in ("classic", "flip_attack"):
        game = unokit.new_game(variant, 3, seed=6, rounds=1)
        bots: list[Bot] = [FastIsmctsBot(s, iterations=40, **settings) for s in range(3)]
        walk(game, bots)
        assert game.is_over


def test_colour_aware_rollouts_and_named_colour_reads_play_legally() -> None:
    for seed in range(3):
        game = unokit.new_game("classic", 2, seed=40 + seed, rounds=1)
        bots: list[Bot] = [FastIsmctsBot(s, iterations=80, policy="greedy_color", read_colors=True) for s in range(2)]
        walk(game, bots)
        assert game.is_over
        assert all(isinstance(bot, FastIsmctsBot) and bot.reads and bot.reads.named_colors for bot in bots)
    plain = FastIsmctsBot(0, read_colors=False).reads
    assert plain is not None and not plain.named_colors


def test_reading_plays_weights_the_deal_plays_legally_and_is_reproducible() -> None:
    """``read_plays=True`` passes one weight per unseen card (2-player single-sided games) and
    the search stays a function of its seed; elsewhere the deal stays uniform."""

    def moves(variant: str, players: int) -> list[str]:
        game = unokit.new_game(variant, players, seed=44, rounds=1)
        bots: list[Bot] = [FastIsmctsBot(s, iterations=120, read_plays=True) for s in range(players)]
        played = [action for _, action in walk(game, bots)]
        assert game.is_over
        return played

    assert moves("classic", 2) == moves("classic", 2)
    moves("flip", 2)
    moves("classic", 3)
    assert not FastIsmctsBot(0).read_plays


def test_same_seed_same_choices() -> None:
    def moves(seed: int) -> list[str]:
        game = unokit.new_game("classic", 3, seed=8, rounds=1)
        bots: list[Bot] = [FastIsmctsBot(seed + s, iterations=300) for s in range(3)]
        return [action for _, action in walk(game, bots)]

    assert moves(1) == moves(1)
    assert moves(1) != moves(2)


def test_the_choice_depends_only_on_what_the_seat_sees() -> None:
    """Two tables that look the same from seat 0 but hide different cards (and engine seeds)
    get the same choices from bots with the same seed: the search reads nothing hidden."""
    hand = ["blue 5/pink 9", "yellow 3/purple 1", "red 3/pink 7", "wild/pink 5", "red draw_one/pink 3"]
    draw = ["red 7/orange 1", "red 1/purple 2", "red 6/pink skip_everyone"]
    deck = standard_deck("flip")
    by_back: dict[str, list[str]] = {}
    for t in range(len(deck.types)):
        if deck.text[t] not in hand + draw + ["red 9/teal reverse"]:
            by_back.setdefault(deck.face_texts[1][t], []).append(deck.text[t])
    twins = next(texts for texts in by_back.values() if len(texts) >= 2)  # one back, two fronts
    common: dict[str, Any] = {
        "variant": "flip",
        "players": 2,
        "turn": 0,
        "color": "red",
        "discard": ["red 9/teal reverse"],
        "draw": draw,
    }
    a = Game.from_position({**common, "hands": [hand, [twins[0], "green 2/teal draw_five"]], "seed": 3})
    b = Game.from_position({**common, "hands": [hand, [twins[1], "green 2/teal draw_five"]], "seed": 99})
    view_a, view_b = View(a, 0), View(b, 0)
    assert a.hands[1] != b.hands[1]
    assert view_a.observe() == view_b.observe()
    assert engine_for(view_a) == "kernel"
    choices = set()
    for seed in range(6):
        first, second = FastIsmctsBot(seed, iterations=500), FastIsmctsBot(seed, iterations=500)
        choice = first.act(view_a)
        assert second.act(view_b) is choice
        assert first.rng.state == second.rng.state
        choices.add(str(choice))
    assert choices <= {str(action) for action in view_a.legal_actions()}


class _Search:
    """The compiled search's inputs for the seat to act in ``game``, prepared as the bot does."""

    def __init__(self, game: Game) -> None:
        self.view = View(game, game.to_act or 0)
        sampler = Determiniser(self.view)
        template = sampler.game(0, 0)
        kernel = ismcts_fast._kernel(template)
        assert kernel is not None
        self.kernel = kernel
        self.base = np.zeros(int(kernel.rules[K.C_S_WIDTH]), np.int64)
        load_game(kernel.rules, self.base, template)
        self.hidden = S.Hidden.of(sampler)

    def run(
        self, tree: tuple[Any, Any, Any], rng: Any, iterations: int, expand: int = -1, opponent_decisions: int = 0
    ) -> int:
        """:func:`unokit.fast.search.run` on ``tree`` (nodes, wins, used) with the default
        exploration, greedy rollouts of 8 decisions and the hand-strength model; the other
        seats play the greedy policy at the decisions of ``opponent_decisions``."""
        nodes, wins, used = tree
        h = self.hidden
        ran = S.run(
            self.base, self.kernel.rules, h.pool, h.seats, h.mode, h.groups, h.back_of, h.slots,
            self.view.seat, rng, nodes, wins, used, iterations, 0.7, S.POLICY_GREEDY, 8,
            self.kernel.flags, np.asarray(HAND_SIZE_TERM), EXTRA_CARD_TERM, np.asarray(FEATURE_TERMS), expand,
            S.POLICY_GREEDY, opponent_decisions, np.zeros(0), np.zeros((0, 1), np.int64), np.zeros(0),
        )  # fmt: skip
        return int(ran)


def test_every_iteration_visits_the_root_once() -> None:
    """At the seat's own decision each iteration adds exactly one visit to one root child, and
    the child's availability counts the iterations in which its action was searched."""
    search = _Search(unokit.new_game("classic", 2, seed=11, rounds=1))
    view = search.view
    nodes, wins, used = tree = S.new_tree(3001)
    rng = np.array([as_int64(5)], np.int64)
    assert search.run(tree, rng, 3000) == 3000
    children = []
    child = int(nodes[0, S.N_CHILD])
    while child >= 0:
        children.append(child)
        child = int(nodes[child, S.N_NEXT])
    legal = {search.kernel.encoding.encode(a, view.seat) for a in view.legal_actions()}
    assert {int(nodes[c, S.N_CODE]) for c in children} <= legal
    assert len(children) > 1
    assert all(int(nodes[c, S.N_ACTOR]) == view.seat for c in children)
    assert sum(int(nodes[c, S.N_VISITS]) for c in children) == 3000
    assert all(int(nodes[c, S.N_AVAIL]) <= 3000 for c in children)
    assert all(0.0 <= wins[c] <= nodes[c, S.N_VISITS] for c in children)
    assert used[0] <= 3001
    # The tree is full: a further call runs nothing.
    assert search.run(tree, rng, 10) == 0 and used[0] == 3001


def _first_root_children(game: Game, expand: int, seeds: range) -> set[int]:
    """The action id of the root child that one iteration expands, for each generator seed."""
    search = _Search(game)
    codes = set()
    for seed in seeds:
        tree = S.new_tree(2)
        search.run(tree, np.array([as_int64(seed)], np.int64), 1, expand)
        nodes = tree[0]
        codes.add(int(nodes[int(nodes[0, S.N_CHILD]), S.N_CODE]))
    return codes


def test_policy_expansion_first_tries_the_rollout_policys_action() -> None:
    """``expansion="policy"``: a new node's first child is the greedy policy's action (here the
    only coloured card that fits, rather than the wild in four colours or a draw); random
    expansion picks any of the six."""
    game = Game.from_position(
        {
            "variant": "classic",
            "players": 2,
            "turn": 0,
            "color": "red",
            "hands": [["red 5", "blue 7", "wild"], ["yellow 3", "green 9", "blue 1"]],
            "discard": ["red 2"],
            "seed": 3,
        }
    )
    red_5 = _Search(game).kernel.encoding.encode(next(a for a in game.legal_actions() if str(a) == "play red 5"), 0)
    assert _first_root_children(game, S.POLICY_GREEDY, range(20)) == {red_5}
    assert len(_first_root_children(game, -1, range(20))) >= 3
    bot = FastIsmctsBot(4, iterations=200, expansion="policy")
    assert bot.act(View(game, 0)) in game.legal_actions()
    with pytest.raises(ValueError, match="expansion"):
        FastIsmctsBot(0, expansion="widest")


def _challenge_children(model: str) -> set[str]:
    """What the opponent does, in the tree of 2,000 iterations, after the seat's Wild Draw Four
    played while it holds the colour in play (a bluff), with the opponent model ``model``."""
    game = Game.from_position(
        {
            "variant": "classic",
            "players": 2,
            "turn": 0,
            "color": "red",
            "hands": [["wild_draw_four", "red 7", "blue 5", "green 1"], ["yellow 3", "green 9", "red 2", "blue 8"]],
            "discard": ["red 4"],
            "seed": 2,
        }
    )
    search = _Search(game)
    encoding = search.kernel.encoding
    wild = encoding.encode(next(a for a in game.legal_actions() if str(a) == "play wild_draw_four blue"), 0)
    nodes, _, _ = tree = S.new_tree(2001)
    search.run(tree, np.array([as_int64(8)], np.int64), 2000, -1, ismcts_fast.OPPONENT_MODELS[model])
    assert wild is not None
    after = S.find_child(nodes, 0, 0, wild)
    assert after >= 0
    answers = set()
    child = int(nodes[after, S.N_CHILD])
    while child >= 0:
        assert int(nodes[child, S.N_ACTOR]) == 1
        answers.add(str(encoding.decode(int(nodes[child, S.N_CODE]), 0, 1)))
        child = int(nodes[child, S.N_NEXT])
    return answers


def test_opponents_choosing_by_the_policy_never_challenge_unless_challenges_stay_in_the_tree() -> None:
    """``opponents="policy"``: the opponent answers a Wild Draw Four as the greedy policy does
    (it accepts); with ``policy_unless_challenge`` and ``tree`` it tries both answers."""
    assert _challenge_children("policy") == {"accept"}
    assert _challenge_children("policy_unless_challenge") == {"accept", "challenge"}
    assert _challenge_children("tree") == {"accept", "challenge"}
    for model in ismcts_fast.OPPONENT_MODELS:
        game = unokit.new_game("classic", 3, seed=12, rounds=1)
        bots: list[Bot] = [FastIsmctsBot(s, iterations=60, opponents=model) for s in range(3)]
        walk(game, bots)
        assert game.is_over
    with pytest.raises(ValueError, match="opponent model"):
        FastIsmctsBot(0, opponents="oracle")


def test_the_hand_strength_model_is_the_one_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    """``model`` picks the terms the kernel scores tables with, and nothing else: ``self`` with
    the ``heuristic`` terms searches exactly as ``heuristic`` does, and with its own terms it
    searches differently from the same seed."""
    for sizes, _extra, terms in ismcts_fast.HAND_MODELS.values():
        assert len(sizes) == len(HAND_SIZE_TERM) and len(terms) == len(FEATURES)
    assert ismcts_fast.HAND_MODELS["heuristic"] == (HAND_SIZE_TERM, EXTRA_CARD_TERM, FEATURE_TERMS)
    game = unokit.new_game("classic", 2, seed=21, rounds=1)
    view = View(game, game.to_act or 0)

    def searched(model: str) -> int:
        """The bot's generator after one search: it draws along the paths the terms steer."""
        bot = FastIsmctsBot(9, iterations=3000, model=model)
        bot.act(view)
        assert bot.last_iterations == 3000
        return bot.rng.state

    heuristic = searched("heuristic")
    assert searched("self") != heuristic
    monkeypatch.setitem(ismcts_fast.HAND_MODELS, "self", ismcts_fast.HAND_MODELS["heuristic"])
    assert searched("self") == heuristic
    for seed in range(2):
        game = unokit.new_game("classic", 2, seed=70 + seed, rounds=1)
        bots: list[Bot] = [FastIsmctsBot(s, iterations=80, model="self") for s in range(2)]
        walk(game, bots)
        assert game.is_over
    with pytest.raises(ValueError, match="hand-strength model"):
        FastIsmctsBot(0, model="oracle")


def test_the_spend_model_spends_a_wild_where_the_fitted_model_draws() -> None:
    """``model="spend"`` is ``heuristic`` with the wild card's term alone changed; with nine
    cards and nothing but a wild that fits, the fitted model keeps the wild and draws (a wild
    there is worth almost four cards), and ``spend`` plays it, from every seed tried."""
    sizes, extra, terms = ismcts_fast.HAND_MODELS["spend"]
    assert FEATURES[0] == "wilds" and terms[0] == ismcts_fast.SPEND_WILD_TERM
    assert (sizes, extra, terms[1:]) == (HAND_SIZE_TERM, EXTRA_CARD_TERM, FEATURE_TERMS[1:])
    mine = ["wild", "blue 7", "green 3", "yellow 8", "blue 2", "green 6", "yellow 1", "blue 9", "green 4"]
    theirs = ["yellow 3", "green 9", "blue 1", "red 8", "yellow 6", "blue 5", "green 2"]
    game = Game.from_position(
        {
            "variant": "classic",
            "players": 2,
            "turn": 0,
            "color": "red",
            "hands": [mine, theirs],
            "discard": ["red 5"],
            "seed": 3,
        }
    )
    plays = [str(a) for a in game.legal_actions() if str(a) != "draw"]
    assert plays == [f"play wild {color}" for color in ("red", "yellow", "green", "blue")]

    def choices(model: str) -> set[str]:
        """The kinds of action (``play`` or ``draw``) chosen from three seeds."""
        bots = [FastIsmctsBot(seed, iterations=20000, model=model) for seed in range(3)]
        return {bot.act(View(game, 0)).kind.value for bot in bots}

    assert choices("heuristic") == {"draw"}
    assert choices("spend") == {"play"}


def test_the_registry_the_default_budget_a_time_limit_and_bad_settings() -> None:
    assert "ismcts_fast" in bot_names()
    bot = make_bot("ismcts_fast", 3)
    assert isinstance(bot, FastIsmctsBot)
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
    assert bot.last_iterations == FAST_ITERATIONS["classic"]
    assert bot.engine == "kernel"
    game = unokit.new_game("classic", 2, seed=5, rounds=1)
    timed = FastIsmctsBot(1, time_limit=0.01)
    view = View(game, game.to_act or 0)
    assert timed.act(view) in view.legal_actions()
    assert timed.last_iterations >= 1
    with pytest.raises(ValueError, match="rollout policy"):
        FastIsmctsBot(0, policy="smart")
    with pytest.raises(ValueError, match="iterations"):
        FastIsmctsBot(0, iterations=0)


def test_it_beats_random_clearly() -> None:
    games = 40
    wins = 0
    for g in range(games):
        game = unokit.new_game("classic", 2, seed=2000 + g, rounds=1)
        me = g % 2
        bots: list[Bot] = [make_bot("random", g), make_bot("random", g)]
        bots[me] = FastIsmctsBot(g, iterations=500)
        for seat, bot in enumerate(bots):
            bot.reset(seat)
        views = [View(game, seat) for seat in range(2)]
        while not game.is_over:
            play_decision(game, bots, views)
        wins += me in game.winners
    # A coin would reach this many wins with probability below 0.1%.
    assert wins >= binomial_bound(games, 0.5, 0.001)


def test_the_simulator_seats_it_by_name(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    args = ["sim", "--variant", "classic", "--games", "2", "--hands-only", "--quiet", "--workers", "1"]
    result = CliRunner().invoke(main, [*args, "--bots", "ismcts_fast,random", "--json", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads(out.read_text(encoding="utf-8"))
    assert [entry["bot"] for entry in summary["bots"]] == ["ismcts_fast", "random"]
    assert summary["summary"]["games"] == 2
