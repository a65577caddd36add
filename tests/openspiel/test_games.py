"""The variants as OpenSpiel games (unokit.openspiel): OpenSpiel's own conformance test, the
exact mapping of the engine's generator onto chance nodes, agreement with unokit on the same
actions, serialisation through the record, and OpenSpiel's ISMCTS playing a hand."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import unokit.openspiel
from tests.helpers import sized
from unokit import VARIANT_NAMES, Game
from unokit.core.rng import Rng
from unokit.envs.session import Session
from unokit.openspiel.chance import RecordingRng, ScriptedRng, coin_probability, deal
from unokit.openspiel.games import GAME_NAMES, UnoGame, UnoState, state_from_seed
from unokit.record.format import FORMAT, GameRecord
from unokit.record.replay import verify


def _without_seed(game: Game) -> dict[str, object]:
    position = game.to_position()
    position.pop("seed")
    return position


def _chance(state: UnoState, rng: np.random.RandomState) -> None:
    """Sample chance outcomes (with OpenSpiel's probabilities) until a seat must decide."""
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))


def test_every_variant_is_registered_on_import() -> None:
    names = set(pyspiel.registered_names())
    assert set(unokit.openspiel.GAME_NAMES.values()) <= names
    assert {"uno_classic", "uno_flip", "uno_attack", "uno_flip_attack"} <= names
    game = pyspiel.load_game("uno_flip(players=3,seven_o=True,stacking=progressive)")
    assert isinstance(game, UnoGame)
    assert game.num_players() == 3
    state = game.new_initial_state()
    assert state.is_chance_node()


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_openspiel_random_simulation_test_with_serialisation(variant: str) -> None:
    """OpenSpiel's own API check (clones, serialisation, observations, chance, returns), on short
    hands (``max_decisions``) so that every variant fits make test; make test-all plays whole ones."""
    limit = sized(2000, 60)
    game = pyspiel.load_game(f"{GAME_NAMES[variant]}(players=3,max_decisions={limit})")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_random_simulation_with_house_rules() -> None:
    spec = "uno_classic(players=4,jump_in=True,seven_o=True,stacking=mixed,teams=True,max_decisions=80)"
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_recorded_draws_set_up_the_game_that_game_new_deals(variant: str) -> None:
    """The chance mapping is exact: the draws of Rng(seed), fed back as chance outcomes, give
    the very game of Game.new (same position, generator state included)."""
    for seed in (1, 2**40 + 7):
        game, _ = Game.new(variant, 3, seed)
        recording = RecordingRng(seed)
        recorded, _ = deal(game.rules, game.options, 3, recording)
        assert recorded.to_position() == game.to_position()
        scripted = ScriptedRng(list(recording.outcomes))
        replayed, _ = deal(game.rules, game.options, 3, scripted)
        assert scripted.used == len(recording.outcomes)
        assert _without_seed(replayed) == _without_seed(game)


def test_the_launcher_fires_with_its_exact_probability() -> None:
    """random() < p is true for ceil(p * 2**53) of the 2**53 fractions (R-6.2)."""
    assert coin_probability(0.21) == pytest.approx(0.21, abs=2**-53)
    assert coin_probability(1.0) == 1.0
    assert coin_probability(0.0) == 0.0
    rng = Rng(99)
    for p in (0.21, 0.11, 0.54):
        hits = sum(rng.random() < p for _ in range(4000))
        assert abs(hits / 4000 - coin_probability(p)) < 0.03


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("classic", 2, ""),
        ("classic", 4, ",seven_o=True,jump_in=True,stacking=progressive"),
        ("flip", 3, ""),
        ("attack", 2, ""),
        ("attack", 3, ",launcher=pattern"),
        ("flip_attack", 2, ""),
        ("flip_transformers", 3, ""),
    ],
)
def test_openspiel_and_unokit_agree_on_the_same_actions(variant: str, players: int, options: str) -> None:
    """A seeded unokit hand and the OpenSpiel state fed the same action ids (and the seed's
    draws as chance outcomes) end in the same position with the same returns."""
    game = pyspiel.load_game(f"{GAME_NAMES[variant]}(players={players}{options})")
    assert isinstance(game, UnoGame)
    engine_options = dict(game.options)
    for seed in range(sized(6, 2)):
        session = Session(variant, players, options=engine_options)
        session.reset(seed)
        chooser = Rng(seed + 1000)
        actions: list[int] = []
        rewards = [0.0] * players
        while not session.game.is_over and len(actions) < 400:
            seat = session.actor
            assert seat is not None
            legal = [int(i) for i in np.flatnonzero(session.mask(seat))]
            action = chooser.choice(legal)
            actions.append(action)
            rewards = [a + b for a, b in zip(rewards, session.act(action), strict=True)]
        state = state_from_seed(game, seed, actions)
        engine = state.game_state
        assert engine is not None
        assert _without_seed(engine) == _without_seed(session.game)
        assert state.is_terminal() == session.game.is_over
        assert state.returns() == pytest.approx(rewards)
        if state.is_terminal():
            assert sum(state.returns()) == pytest.approx(0.0)


def test_a_state_serialises_through_a_unokit_record() -> None:
    game = pyspiel.load_game("uno_attack(players=3)")
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    for _ in range(400):
        if state.is_terminal():
            break
        _chance(state, rng)
        if not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
    text = state.serialize()
    record = GameRecord.loads(text)
    assert record.format == FORMAT
    assert record.variant == "attack" and record.players == 3
    assert record.actions and all(isinstance(a, str) for _, a in record.actions)
    assert record.meta["openspiel"]["history"] == list(state.history())
    again = game.deserialize_state(text)
    assert str(again) == str(state)
    assert again.history() == state.history()
    # OpenSpiel's own serialisation pickles the same record.
    text2 = pyspiel.serialize_game_and_state(game, state)
    _, state2 = pyspiel.deserialize_game_and_state(text2)
    assert str(state2) == str(state)
    # A record whose actions were changed is refused, naming the problem.
    obj = json.loads(text)
    obj["actions"][0][1] = "draw" if obj["actions"][0][1] != "draw" else "press"
    with pytest.raises(ValueError, match="not those of its OpenSpiel history"):
        game.deserialize_state(json.dumps(obj))


def test_parameters_are_the_options_and_bad_ones_are_refused() -> None:
    game = pyspiel.load_game("uno_classic(players=2,seven_o=True,scoring=own_hand)")
    state = game.new_initial_state()
    _chance(state, np.random.RandomState(1))
    assert isinstance(state, UnoState)
    engine = state.game_state
    assert engine is not None and engine.options.seven_o and engine.options.scoring == "own_hand"
    with pytest.raises(pyspiel.SpielError, match="nonsense"):
        pyspiel.load_game("uno_classic(nonsense=1)")
    with pytest.raises(ValueError, match="players"):
        UnoGame("classic", {"players": 11})
    with pytest.raises(ValueError, match="chance outcome"):
        fresh = game.new_initial_state()
        fresh.apply_action(10_000)


def test_the_observation_is_the_seats_view() -> None:
    game = pyspiel.load_game("uno_flip(players=3)")
    state = game.new_initial_state()
    _chance(state, np.random.RandomState(2))
    seat = state.current_player()
    view = json.loads(state.information_state_string(seat))
    engine = state.game_state
    assert engine is not None
    assert view == json.loads(json.dumps(engine.observe(seat)))
    assert view["hand"] and all(h is None or isinstance(h, list) for h in view["backs"])
    assert len(state.observation_tensor(seat)) == game.observation_tensor_size()
    other = (seat + 1) % 3
    assert json.loads(state.observation_string(other))["hand"] != view["hand"]


def test_openspiels_ismcts_plays_a_hand() -> None:
    """OpenSpiel's ISMCTS bot (random rollouts, resampling from the information state) plays a
    hand against a random player; the hand is short (max_decisions) to keep the test quick."""
    game = pyspiel.load_game("uno_classic(max_decisions=60)")
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _chance(state, rng)
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert moves > 0
    assert sum(state.returns()) == pytest.approx(0.0)


def test_openspiels_ismcts_is_an_eval_agent() -> None:
    """``openspiel:ismcts:N`` plays the suite's hands through unokit eval, reproducibly."""
    from unokit.eval.protocol import EvalConfig, load_suite, run_eval, stable_part

    config = EvalConfig(load_suite("classic-2").first(1), "openspiel:ismcts:3", ("random",), budget_ms=60_000)
    first = run_eval(config)
    assert stable_part(first) == stable_part(run_eval(config))
    match = first["matches"][0]
    assert match["hands"] == 2 and match["forfeits"] == 0
    assert "open_spiel" in first["versions"]


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_openspiel_random_simulation_test_with_sampled_chance(variant: str) -> None:
    """The sampled chance mode passes OpenSpiel's API check too. Without its serialisation step:
    that one asks a sampled game for its generator (GetRNGState), which pyspiel does not let a
    Python game provide; the next test checks the serialisation."""
    limit = sized(2000, 60)
    game = pyspiel.load_game(f"{GAME_NAMES[variant]}(players=3,max_decisions={limit},chance=sampled)")
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_a_sampled_state_is_the_engines_game_and_serialises_through_its_record() -> None:
    game = pyspiel.load_game("uno_flip(players=3,chance=sampled,seed=5,jump_in=True)")
    state = game.new_initial_state()
    assert not state.is_chance_node()
    rng = np.random.RandomState(3)
    actions = []
    for _ in range(40):
        if state.is_terminal():
            break
        action = int(rng.choice(state.legal_actions()))
        actions.append(action)
        state.apply_action(action)
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.history() == state.history() == actions
    record = state.to_record()
    assert record.seed == record.meta["openspiel"]["deal"]
    # The same hand as the engine deals with that seed, by the same actions.
    same = state_from_seed(game, record.seed, actions)
    assert same.game_state is not None and state.game_state is not None
    assert _without_seed(same.game_state) == _without_seed(state.game_state)
    # The k-th new state of a game deals the same hand in every process.
    first = [str(pyspiel.load_game("uno_classic(chance=sampled,seed=9)").new_initial_state()) for _ in range(2)]
    assert first[0] == first[1]
    with pytest.raises((ValueError, pyspiel.SpielError), match="chance must be one of exact, sampled"):
        pyspiel.load_game("uno_classic(chance=maybe)")


def test_max_decisions_beyond_openspiels_range_is_refused_naming_it() -> None:
    from unokit.openspiel.games import MAX_DECISIONS, UnoGame

    for bad in (0, MAX_DECISIONS + 1, 10**12):
        with pytest.raises(ValueError, match=f"max_decisions must be from 1 to {MAX_DECISIONS:,}"):
            UnoGame("classic", {"max_decisions": bad})
    assert UnoGame("classic", {"max_decisions": MAX_DECISIONS}).max_decisions == MAX_DECISIONS


@pytest.mark.parametrize("spec", ["uno_classic(players=2,max_decisions=150)", "uno_flip(players=3,max_decisions=250)"])
def test_a_sampled_hands_record_reproduces_in_the_engine_with_its_catches_and_end(spec: str) -> None:
    """The sampled mode's step (the action kept from the legal listing, the catch rule, the end
    of the hand or its truncation) against the engine itself: the record of each hand replays
    through ``Game.apply`` with its checks (``unokit verify``), catches included, and the
    returns and the terminal state are those of how the hand ended."""
    game = pyspiel.load_game(spec.replace(")", ",chance=sampled,seed=4)"))
    limit = game.max_decisions
    rng = np.random.RandomState(7)
    catches = ended = truncated = 0
    for _ in range(8):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal == sorted(legal) and not state.is_chance_node()
            # Mostly the lowest id (a play before a draw, so that hands end), else at random.
            state.apply_action(legal[0] if rng.random_sample() < 0.6 else int(rng.choice(legal)))
        record = state.to_record()
        verdict = verify(record)
        assert verdict.ok, verdict.message
        catches += sum(text.startswith("catch") for _, text in record.actions)
        engine = state.game_state
        assert engine is not None
        if engine.is_over:
            ended += 1
            assert record.result is not None and record.result.winners == engine.winners
            assert sorted(state.returns())[-1] == 1.0 and sum(state.returns()) == pytest.approx(0.0)
        else:  # truncated at max_decisions: 0 to everyone
            truncated += 1
            assert len(state.history()) == limit and state.returns() == [0.0] * game.num_players()
    assert catches and ended and truncated  # both ways of ending and the catch rule were played
