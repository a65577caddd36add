"""A policy file is a bot: ``policy:FILE.onnx`` builds exactly the environments' observation from
its view (history block included, compared action by action), plays the legal id its model scores
highest, and plays wherever a bot name goes: the environments' opponents, ``sim``,
``tournament``, ``play`` and a server room."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime
import pytest
from click.testing import CliRunner

from unokit.bots import bot_label, check_bot_spec, make_bot
from unokit.bots.policy import META_KEYS, PolicyBot, PolicyError, export_mlp, load_policy
from unokit.cli import main
from unokit.core.actions import DISCARD, PLAY, PLAY_DRAWN
from unokit.core.rng import Rng
from unokit.encoding import Encoding
from unokit.envs.gymnasium import UnoEnv
from unokit.envs.pettingzoo import raw_env
from unokit.play.commands import make_setup

from ..helpers import write_policy


@pytest.fixture(scope="module")
def classic2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_policy(tmp_path_factory.mktemp("policies") / "classic2.onnx", "classic", 2)


CASES = [
    ("classic", 2, 2, {}),
    ("flip", 4, 3, {}),
    ("attack", 3, 2, {}),
    ("flip_attack", 3, 1, {}),
    ("flip_marvel", 3, 2, {}),
    ("classic", 4, 2, {"jump_in": True, "seven_o": True}),
]


@pytest.mark.parametrize(("variant", "players", "history", "options"), CASES)
def test_the_bots_observation_is_the_environments_action_by_action(
    tmp_path: Path, variant: str, players: int, history: int, options: dict[str, Any]
) -> None:
    bot = PolicyBot(0, write_policy(tmp_path / "p.onnx", variant, players, history))
    table = raw_env(variant, players, history=history, **options)
    chooser = Rng(7)
    hist = table.encoding.block("history")
    compared = offers = with_history = 0
    for hand in range(3):
        table.reset(seed=100 + hand)
        session = table.session
        record: list[list[int]] = [[] for _ in range(players)]
        for _ in range(500):  # decisions of this hand compared at most
            if any(table.terminations.values()) or any(table.truncations.values()):
                break
            agent = table.agent_selection
            seat = table.possible_agents.index(agent)
            view = session.views[seat]
            offered = bool(session.offers)
            expected = table.observe(agent)["observation"]
            assert np.array_equal(bot.observation(view, offered=offered), expected), (variant, hand, compared)
            mask = table.action_mask(agent)
            if not offered:
                assert sorted(bot.encoding.legal_ids(view)) == np.flatnonzero(mask).tolist()
            offers += offered
            with_history += bool(expected[hist.start : hist.start + hist.size].any())
            # the history block against a record kept here, from the actions taken
            assert np.array_equal(bot.encoding.observe(view, record, -1, offered), expected)
            legal = np.flatnonzero(mask)
            chosen = int(legal[chooser.below(len(legal))])
            action = bot.encoding.decode(chosen, session.game.side, seat)
            if action is not None and action.kind in (PLAY, DISCARD):
                record[seat].insert(0, action.card)
            elif action is not None and action.kind == PLAY_DRAWN:
                record[seat].insert(0, session.drawn_card(seat))
            table.step(chosen)
            compared += 1
    assert compared > 200 and with_history > compared // 2  # the history block was compared filled
    if options.get("jump_in"):
        assert offers > 0  # the Jump-In offer's observation was compared too


def test_the_bot_plays_the_legal_id_its_model_scores_highest(classic2: Path) -> None:
    session = onnxruntime.InferenceSession(str(classic2), providers=["CPUExecutionProvider"])
    environment = UnoEnv("classic", ["random"])
    bot = make_bot(f"policy:{classic2}", 5)
    assert isinstance(bot, PolicyBot)
    obs, info = environment.reset(seed=3)
    for _ in range(40):
        (logits,) = session.run(["logits"], {"observation": obs[None, :]})
        legal = np.flatnonzero(info["action_mask"])
        expected = int(legal[np.argmax(logits[0][legal])])
        view = environment.session.views[0]
        action = bot.act(view)
        assert bot.encoding.encode(action, 0) == expected
        obs, _reward, terminated, truncated, info = environment.step(expected)
        if terminated or truncated:
            obs, info = environment.reset()


def test_a_policy_plays_as_an_opponent_of_the_environments(classic2: Path) -> None:
    # training against a frozen copy of yourself: the policy sits in the other seat
    environment = UnoEnv("classic", [f"policy:{classic2}"])
    labels = environment.encoding.action_labels
    rewards = []
    for seed in range(6):
        _obs, info = environment.reset(seed=seed)
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"]).tolist()
            calls = [i for i in legal if labels[i].endswith(" uno")]  # a missed UNO call is caught
            _obs, reward, terminated, truncated, info = environment.step(calls[0] if calls else legal[0])
            done = terminated or truncated
        rewards.append(reward)
    assert set(rewards) <= {1.0, -1.0}


def test_bad_policy_files_are_refused_by_name(tmp_path: Path, classic2: Path) -> None:
    with pytest.raises(PolicyError, match="no policy file"):
        make_bot(f"policy:{tmp_path / 'missing.onnx'}")
    with pytest.raises(PolicyError, match=r"policy:PATH\.onnx"):
        make_bot("policy:")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    with pytest.raises(PolicyError, match="not an ONNX model"):
        load_policy(junk)
    with pytest.raises(PolicyError, match="plays classic with 2 seats, not flip with 4"):
        check_bot_spec(f"policy:{classic2}", "flip", 4)
    check_bot_spec(f"policy:{classic2}", "classic", 2)
    enc = Encoding("classic", 2)
    with pytest.raises(PolicyError, match="152 action ids"):
        export_mlp(tmp_path / "bad.onnx", [(np.zeros((3, enc.size)), np.zeros(3))], variant="classic", players=2)
    with pytest.raises(PolicyError, match="do not take"):
        export_mlp(tmp_path / "bad.onnx", [(np.zeros((3, 5)), np.zeros(3))], variant="classic", players=2)
    assert not (tmp_path / "bad.onnx").exists()


def _graph(path: Path, inputs: int, outputs: int, shapes: tuple[Any, Any]) -> Path:
    """A one-layer policy file whose metadata says Classic with 2 seats: its weights take
    ``inputs`` values and give ``outputs`` scores; ``shapes`` are the widths its graph declares
    for the observation and the logits (a name leaves one open, and then the weights are an
    initializer a caller may override, so that nothing tells the widths before a run)."""
    from onnx import TensorProto, helper, numpy_helper, save

    enc = Encoding("classic", 2)
    open_ = isinstance(shapes[0], str)
    weights = numpy_helper.from_array(np.zeros((outputs, inputs), np.float32), "w")
    bias = numpy_helper.from_array(np.zeros(outputs, np.float32), "b")
    graph = helper.make_graph(
        [helper.make_node("Gemm", ["observation", "w", "b"], ["logits"], transB=1)],
        "odd",
        [
            helper.make_tensor_value_info("observation", TensorProto.FLOAT, ["batch", shapes[0]]),
            *([helper.make_tensor_value_info("w", TensorProto.FLOAT, ["out", "in"])] if open_ else []),
        ],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", shapes[1]])],
        [weights, bias],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    values = ("classic", 2, 2, enc.size, enc.num_actions)
    for key, value in zip(META_KEYS, values, strict=True):
        entry = model.metadata_props.add()
        entry.key, entry.value = key, str(value)
    save(model, str(path))
    return path


def test_a_graph_that_does_not_fit_the_encoding_is_refused_at_load(tmp_path: Path) -> None:
    """A policy file whose metadata is right but whose graph takes another observation width or
    gives too few or too many scores is refused when it is loaded, with PolicyError naming the
    mismatch, whether the graph declares its shapes or leaves them open: never at the first
    decision with onnxruntime's error, an IndexError, or silently."""
    enc = Encoding("classic", 2)
    size, ids = enc.size, enc.num_actions
    cases = [
        (
            (10, ids, (10, ids)),
            f"takes an 'observation' of tensor(float) (batch, 10); classic with 2 seats gives float32 (batch, {size})",
        ),
        ((size, 5, (size, 5)), f"gives 'logits' of shape (batch, 5); classic with 2 seats has {ids} action ids"),
        ((size, ids + 40, (size, ids + 40)), f"of shape (batch, {ids + 40}); classic with 2 seats has {ids}"),
        ((10, ids, ("width", "ids")), f"cannot run on an observation of {size} values (classic with 2 seats)"),
        ((size, 5, ("width", "ids")), f"gives (1, 5) scores for one observation; classic with 2 seats has {ids}"),
        ((size, ids + 40, ("width", "ids")), f"gives (1, {ids + 40}) scores for one observation"),
    ]
    for k, ((inputs, outputs, shapes), named) in enumerate(cases):
        path = _graph(tmp_path / f"odd{k}.onnx", inputs, outputs, shapes)
        with pytest.raises(PolicyError) as info:
            load_policy(path)
        assert named in str(info.value), str(info.value)
    assert load_policy(_graph(tmp_path / "fits.onnx", size, ids, ("width", "ids"))).info.num_actions == ids
    runner = CliRunner()
    odd = f"policy:{tmp_path / 'odd1.onnx'}"
    sim = runner.invoke(main, ["sim", "--bots", f"{odd},random", "--games", "2", "--workers", "1"])
    assert sim.exit_code == 2 and "action ids" in sim.output and "Traceback" not in sim.output, sim.output


def test_sim_tournament_and_play_take_a_policy(classic2: Path) -> None:
    runner = CliRunner()
    spec = f"policy:{classic2}"
    sim = runner.invoke(main, ["sim", "--bots", f"{spec},random", "--games", "20", "--workers", "1", "--seed", "1"])
    assert sim.exit_code == 0, sim.output
    assert "policy:" in sim.output
    wrong = runner.invoke(main, ["sim", "--variant", "flip", "--players", "2", "--bots", f"{spec},random"])
    assert wrong.exit_code == 2 and "plays classic with 2 seats, not flip with 2" in wrong.output
    tour = runner.invoke(
        main, ["tournament", "--bots", f"{spec},random", "--players", "2", "--games", "4", "--workers", "1"]
    )
    assert tour.exit_code == 0, tour.output
    setup = make_setup("classic", 2, spec, 3, [], [], None, None)
    session = setup.session()
    assert session.players[1].bot_name == spec


def test_a_player_reads_a_policy_by_its_files_name_not_its_path() -> None:
    assert bot_label("policy:runs/2026/ppo-classic.onnx") == "ppo-classic"
    assert bot_label("external:python3 mybot.py") == "python3 mybot.py"
    assert bot_label("heuristic") == "heuristic"
