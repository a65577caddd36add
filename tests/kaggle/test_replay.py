"""Replay files of the Kaggle-style package (unokit.kaggle.uno.replay): an episode of agents
answering ids and text, and the record it writes, which the engine replays and OpenSpiel reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyspiel
import pytest

import unokit.openspiel  # noqa: F401 - registers the games
from unokit.kaggle.uno import replay
from unokit.llm.bot import RETRIES
from unokit.record.format import load_record
from unokit.record.replay import verify


def first_move(observation: dict[str, Any]) -> str:
    """A scripted stand-in for a model: the first legal move, in brackets."""
    return f"I play [{observation['legalActionStrings'][0]}]"


def last_id(observation: dict[str, Any]) -> int:
    return int(observation["legalActions"][-1])


def muddled(observation: dict[str, Any]) -> str:
    """Nonsense at every third decision of its seat (three times: a random move), a move it may
    not make at others (then told why, it answers the first legal move)."""
    if observation.get("previousRefusal") == "not_legal":
        return first_move(observation)
    muddled.calls += 1  # type: ignore[attr-defined]
    if muddled.calls % 3 == 0:  # type: ignore[attr-defined]
        return "hmm"
    return "[play purple 9]" if observation.get("previousRefusal") is None else "hmm"


@pytest.mark.parametrize("chance", ["sampled", "exact"])
def test_an_episode_writes_a_replay_file_the_engine_replays(chance: str, tmp_path: Path) -> None:
    muddled.calls = 0  # type: ignore[attr-defined]
    game = pyspiel.load_game(f"uno_classic(players=2,chance={chance},seed=3,max_decisions=300)")
    episode = replay.play_episode(game, [muddled, last_id], names=["Muddled", "Last id"], seed=5)
    path = episode.write(tmp_path / "episode.json")
    record = load_record(path)
    assert record.names == ["Muddled", "Last id"] and [s.kind for s in record.seats] == ["bot", "bot"]
    if chance == "sampled":  # dealt by a seed: the engine replays it as it is
        verdict = verify(record)
        assert verdict.ok, verdict.message
    again = game.deserialize_state(path.read_text())  # OpenSpiel reads it back, meta and all
    assert again.history() == episode.state.history()
    kaggle = record.meta["kaggle"]
    assert kaggle["version"] == replay.VERSION
    decisions = kaggle["decisions"]
    # One decision for every player action of the history, in order; each step counts the
    # engine actions before it (a catch is an action no seat decided).
    player_actions = [a for a, p in zip(episode.state.history(), _players(game, episode.state), strict=True) if p >= 0]
    assert [d["action"] for d in decisions] == player_actions
    steps = [d["step"] for d in decisions]
    assert steps == sorted(steps) and steps[0] == 0 and steps[-1] < len(record.actions)
    for d in decisions:
        assert record.actions[d["step"]] == (d["seat"], d["move"])  # no Jump-In: every decision an action
    mine = [d for d in decisions if d["seat"] == 0]
    refused = {a.get("refusal") for d in mine for a in d["answers"]}
    assert {"not_legal", "no_move", None} <= refused
    randoms = [d for d in mine if d.get("random")]
    assert randoms and all(len(d["answers"]) == 1 + RETRIES for d in randoms)
    assert all(a["refusal"] for d in randoms for a in d["answers"])
    assert all("answers" not in d for d in decisions if d["seat"] == 1)  # ids: no text


def _players(game: Any, state: Any) -> list[int]:
    """The player of each entry of ``state``'s history (chance -1), replayed on ``game``."""
    if game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        return [0] * len(state.history())  # no chance node
    replayed = game.new_initial_state()
    out = []
    for action in state.history():
        out.append(replayed.current_player())
        replayed.apply_action(action)
    return out


def test_a_played_state_writes_its_replay_without_decisions_and_bad_agents_are_refused(tmp_path: Path) -> None:
    game = pyspiel.load_game("uno_flip(players=3,chance=sampled,max_decisions=40)")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    path = replay.write_replay(tmp_path / "state.json", state)
    obj = json.loads(path.read_text())
    assert obj["format"] == "unokit-record/1" and obj["meta"]["kaggle"] == {"version": 1, "decisions": []}
    assert obj["meta"]["openspiel"]["deal"] == obj["seed"]
    with pytest.raises(ValueError, match="2 names for 3 seats"):
        replay.replay_record(state, names=["a", "b"])
    with pytest.raises(ValueError, match="not one of"):
        replay.play_episode("uno_classic(chance=sampled)", [lambda _o: 10**6, last_id])
    with pytest.raises(ValueError, match="an action id or a text"):
        not_an_answer: Any = lambda _o: 1.5  # noqa: E731 - an agent that breaks its contract
        replay.play_episode("uno_classic(chance=sampled)", [not_an_answer, last_id])
    with pytest.raises(ValueError, match="1 agents for 2 seats"):
        replay.play_episode("uno_classic(chance=sampled)", [last_id])
