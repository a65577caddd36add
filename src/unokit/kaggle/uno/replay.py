"""Replay files of the Kaggle-style UNO games: what an episode writes, for the web table's replay
(``/#/replay``, which opens a file) and for any program that reads unokit records.

A replay file is a unokit record (``unokit-record/1``, ``docs/records.md``), not a second game
format: the hand's engine actions with their seats, the OpenSpiel history under
``meta.openspiel`` (:meth:`~unokit.openspiel.games.UnoState.to_record`), and under
``meta.kaggle`` what a Kaggle replay keeps of each decision (:data:`VERSION`): the seat, the
OpenSpiel action it took, its move, and a text agent's answers with how each was read
(``docs/formats.md``, "Replay files"). Whatever reads records reads it: the web table's replay,
``unokit verify`` and ``unokit replay`` (those two for a sampled-chance hand, whose deal is a
seed) and ``UnoGame.deserialize_state``.

:func:`play_episode` plays a hand of an OpenSpiel UNO game with one agent a seat, as
kaggle-environments runs agents, and keeps its decisions; :func:`replay_record` and
:func:`write_replay` make the file of any played state, with the decisions when there are some.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyspiel

from ...core.rng import Rng
from ...llm.bot import RETRIES
from ...openspiel.games import UnoGame, UnoState
from ...record.format import GameRecord, Seat, save_record
from . import harness, uno_proxy

#: The form of ``meta.kaggle`` this module writes.
VERSION = 1

#: A Kaggle-style agent: given what a Kaggle agent receives (:func:`uno_proxy.observation`), an
#: OpenSpiel action id of its legal actions, or a text answer (a language model's) that the
#: harness reads (:func:`harness.parse_response`). Asked again after an answer that names no
#: legal move, it finds that answer in ``previousResponse`` and why in ``previousRefusal``.
Agent = Callable[[dict[str, Any]], int | str]


@dataclass(frozen=True)
class Answer:
    """One text answer of an agent: its ``text`` and why it named no legal move (``refusal``,
    a :class:`~unokit.llm.harness.Refusal` value), ``None`` for the answer that did."""

    text: str
    refusal: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text} if self.refusal is None else {"text": self.text, "refusal": self.refusal}


@dataclass(frozen=True)
class Decision:
    """One decision of an episode: ``step``, the number of engine actions in the record before
    it (the replay's step at which it is open); the ``seat``; the OpenSpiel ``action`` taken and
    its ``move`` (unokit's notation, ``pass`` for a Jump-In offer declined); a text agent's
    ``answers`` in order (none for an agent that answered an id); ``random`` when no answer
    named a legal move and a random one was made."""

    step: int
    seat: int
    action: int
    move: str
    answers: tuple[Answer, ...] = ()
    random: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"step": self.step, "seat": self.seat, "action": self.action, "move": self.move}
        if self.answers:
            out["answers"] = [answer.to_json() for answer in self.answers]
        if self.random:
            out["random"] = True
        return out


@dataclass
class Episode:
    """A played hand: its final ``state``, its ``decisions`` and the agents' ``names``."""

    state: UnoState
    decisions: list[Decision] = field(default_factory=list)
    names: list[str] | None = None

    def record(self) -> GameRecord:
        """The episode's replay file as a record (:func:`replay_record`)."""
        return replay_record(self.state, self.decisions, self.names)

    def write(self, path: str | Path) -> Path:
        """Write the episode's replay file to ``path`` (:func:`write_replay`)."""
        return write_replay(path, self.state, self.decisions, self.names)


def replay_record(
    state: UnoState, decisions: Sequence[Decision] = (), names: Sequence[str] | None = None
) -> GameRecord:
    """The replay file of ``state`` (played from its initial state): its record, the seats named
    ``names`` (bots: agents) when given, and ``decisions`` under ``meta.kaggle``."""
    record = state.to_record()
    players = state.get_game().num_players()
    if names is not None:
        if len(names) != players:
            raise ValueError(f"{len(names)} names for {players} seats")
        record.seats = [Seat(str(name), "bot") for name in names]
    record.meta["kaggle"] = {"version": VERSION, "decisions": [decision.to_json() for decision in decisions]}
    return record


def write_replay(
    path: str | Path, state: UnoState, decisions: Sequence[Decision] = (), names: Sequence[str] | None = None
) -> Path:
    """Write the replay file of ``state`` (:func:`replay_record`) to ``path`` in one step (a
    crash leaves the old file or the new one); return the path."""
    return save_record(replay_record(state, decisions, names), path)


def play_episode(
    game: UnoGame | str,
    agents: Sequence[Agent],
    *,
    names: Sequence[str] | None = None,
    seed: int = 0,
    retries: int = RETRIES,
) -> Episode:
    """Play one hand of ``game`` (an OpenSpiel UNO game or its string) with ``agents[seat]``
    deciding for each seat, to its end. Chance outcomes (``chance=exact``) and the random move
    after ``retries`` answers that named no legal move (as ``unokit eval``'s language-model
    agent makes it) are drawn from ``Rng(seed)``. An agent that answers an id that is not legal
    now, or something that is neither an id nor text, raises ``ValueError``."""
    loaded = pyspiel.load_game(game) if isinstance(game, str) else game
    if not isinstance(loaded, UnoGame):
        raise ValueError(f"{game!r} is not one of unokit's OpenSpiel games")
    players = loaded.num_players()
    if len(agents) != players:
        raise ValueError(f"{len(agents)} agents for {players} seats")
    rng = Rng(seed)
    state: UnoState = loaded.new_initial_state()
    episode = Episode(state, [], None if names is None else [str(name) for name in names])
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_outcome(state.chance_outcomes(), rng))
            continue
        player = state.current_player()
        decision = _decide(state, player, agents[player], rng, retries)
        episode.decisions.append(decision)
        state.apply_action(decision.action)
    return episode


def _outcome(outcomes: Sequence[tuple[int, float]], rng: Rng) -> int:
    """A chance outcome drawn with its probability."""
    x = rng.random()
    for outcome, probability in outcomes:
        x -= probability
        if x < 0:
            return outcome
    return outcomes[-1][0]


def _decide(state: UnoState, player: int, agent: Agent, rng: Rng, retries: int) -> Decision:
    """Ask ``agent`` for ``player``'s decision at ``state`` (see :func:`play_episode`)."""
    step = len(state._t.actions)  # the engine actions so far, as the record lists them
    legal = uno_proxy.legal_moves(state)
    observation: dict[str, Any] = uno_proxy.observation(state, player)
    answers: list[Answer] = []
    for _ in range(1 + retries):
        reply = agent(observation)
        if isinstance(reply, bool) or not isinstance(reply, (int, str)):
            raise ValueError(f"the agent of seat {player} answered {reply!r}: an action id or a text is expected")
        if isinstance(reply, int):
            if reply not in legal:
                raise ValueError(f"the agent of seat {player} answered action {reply}, not one of {sorted(legal)}")
            return Decision(step, player, reply, legal[reply], tuple(answers))
        parsed = harness.parse_response(reply, list(legal.values()))
        if parsed.move is not None:
            answers.append(Answer(reply))
            action = _action_of(legal, parsed.move)
            return Decision(step, player, action, parsed.move, tuple(answers))
        assert parsed.refusal is not None
        answers.append(Answer(reply, parsed.refusal.value))
        observation = {**observation, "previousResponse": reply, "previousRefusal": parsed.refusal.value}
    ids = sorted(legal)
    action = ids[rng.below(len(ids))]
    return Decision(step, player, action, legal[action], tuple(answers), random=True)


def _action_of(legal: Mapping[int, str], move: str) -> int:
    return next(action for action, text in legal.items() if text == move)


__all__ = [
    "VERSION",
    "Agent",
    "Answer",
    "Decision",
    "Episode",
    "play_episode",
    "replay_record",
    "write_replay",
]
