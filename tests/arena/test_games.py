"""The variants as TextArena games (unokit.textarena): registered through TextArena's own
registry, played to their end with random and scripted agents through ``make`` / ``reset`` /
``step`` / ``close``, observations in TextArena's style, invalid moves with its error allowance."""

from __future__ import annotations

import re

import pytest
import textarena as ta
from textarena.envs.registration import ENV_REGISTRY

import unokit.textarena
from unokit.core.rng import Rng
from unokit.textarena import ENV_IDS, UnoEnv

_MOVES = re.compile(r"Your legal moves: (.*)")


def _legal(observation: str) -> list[str]:
    """The legal moves the last board of ``observation`` lists (in brackets)."""
    line = _MOVES.findall(observation)[-1]
    return re.findall(r"\[([^\]]+)\]", line)


def _scripted(legal: list[str]) -> str:
    """A scripted agent: it accepts a Wild Draw Four, else plays the last card it may play (the
    action cards and wilds are listed last), else makes the first move (``draw``, ``keep`` ...)."""
    plays = [m for m in legal if m.startswith("play")]
    move = "accept" if "accept" in legal else (plays[-1] if plays else legal[0])
    return f"I will play [{move}]"


def _play(
    env_id: str, players: int, seed: int, agent: str, max_turns: int = 1000
) -> tuple[dict[int, float], dict[int, dict[str, object]], int]:
    env = ta.make(env_id, max_turns=max_turns)
    env.reset(num_players=players, seed=seed)
    rng = Rng(seed)
    done = False
    steps = 0
    while not done:
        player, observation = env.get_observation()
        assert isinstance(player, int) and isinstance(observation, str)
        legal = _legal(observation)
        assert legal, observation
        answer = _scripted(legal) if agent == "scripted" else legal[rng.below(len(legal))]
        done, _info = env.step(answer)
        steps += 1
    rewards, info = env.close()
    return rewards, info, steps


def test_importing_registers_the_four_games_with_textarena() -> None:
    assert set(ENV_IDS) == {"UNO-v0", "UNO-Flip-v0", "UNO-Attack-v0", "UNO-FlipAttack-v0"}
    for env_id in ENV_IDS:
        assert env_id in ENV_REGISTRY
        assert f"{env_id}-raw" in ENV_REGISTRY and f"{env_id}-train" in ENV_REGISTRY
    unokit.textarena.register()  # again: a no-op, not TextArena's "already registered"
    env = ta.make("UNO-v0-raw")
    assert isinstance(env, UnoEnv) and env.variant == "classic"


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_every_game_plays_to_its_end_with_a_scripted_agent(env_id: str) -> None:
    rewards, info, _ = _play(env_id, 2, 3, "scripted")
    assert sorted(rewards) == [0, 1]
    winners = [s for s, r in rewards.items() if r == 1.0]
    assert len(winners) == 1, (rewards, info)
    assert sum(rewards.values()) == pytest.approx(0.0)
    assert "got rid of all their cards" in str(info[0]["reason"])
    assert not any(i["invalid_move"] for i in info.values())


@pytest.mark.parametrize(
    ("env_id", "players"), [("UNO-v0", 4), ("UNO-Flip-v0", 3), ("UNO-Attack-v0", 3), ("UNO-FlipAttack-v0", 4)]
)
def test_every_game_ends_with_random_agents(env_id: str, players: int) -> None:
    """Random agents end a hand (a win, or the draw at max_turns), every seat rewarded."""
    rewards, info, steps = _play(env_id, players, 3, "random", max_turns=300)
    assert sorted(rewards) == list(range(players))
    assert sum(rewards.values()) == pytest.approx(0.0)
    assert steps <= 300
    assert all("reason" in i for i in info.values())


def test_the_observation_is_textarenas_with_the_legal_moves_in_brackets() -> None:
    env = ta.make("UNO-v0")
    env.reset(num_players=2, seed=4)
    player, observation = env.get_observation()
    assert observation.startswith("\n[GAME] You are Player")
    assert "Your hand: " in observation and "Top card: " in observation
    legal = _legal(observation)
    assert "draw" in legal and all(m.split()[0] in {"play", "draw"} for m in legal)
    env.step(legal[-1])
    _, second = env.get_observation()
    assert f"[GAME] Player {player}: [{legal[-1]}]" in second  # the last move, to the next seat


def test_a_bare_answer_is_bracketed_and_the_same_seed_deals_the_same_game() -> None:
    seen = []
    for _ in range(2):
        env = ta.make("UNO-Flip-v0")
        env.reset(num_players=3, seed=9)
        _, observation = env.get_observation()
        env.step(_legal(observation)[0])  # no brackets: the default wrapper adds them
        seen.append(env.get_observation())
    assert seen[0] == seen[1]
    assert "attempted an invalid move" not in seen[0][1]


def test_an_invalid_move_gets_textarenas_error_allowance() -> None:
    env = ta.make("UNO-v0")
    env.reset(num_players=3, seed=2)
    player, _ = env.get_observation()
    done, _ = env.step("[play purple 12]")
    assert not done
    again, observation = env.get_observation()
    assert again == player  # the same seat moves again, told why
    assert (
        f"Player {player} attempted an invalid move. Reason: 'play purple 12' is not one of your legal moves"
        in observation
    )
    done, _ = env.step("I have no idea")
    assert done  # the second in a row eliminates the seat, which ends the hand
    rewards, info = env.close()
    assert rewards[player] == -1 and all(r == 1 for s, r in rewards.items() if s != player)
    assert info[player]["invalid_move"] is True


def test_a_table_size_textarena_does_not_seat_is_refused() -> None:
    env = ta.make("UNO-v0")
    with pytest.raises(ValueError, match="2 to 4 players"):
        env.reset(num_players=5, seed=1)
