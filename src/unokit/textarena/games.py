"""unokit's variants as TextArena games: :class:`UnoEnv` and :func:`register`.

A game is one hand between 2 to 4 seats (TextArena's ``reset(num_players, seed)``), played
through the environments' :class:`~unokit.envs.session.Session` (the catch rule ``auto`` and the
Jump-In offers of ``docs/envs.md``), so that every seat acts in turn:

* **observations** are TextArena's messages: a prompt to each seat at the start (the game, its
  seat, how to answer), each move as a game message to everyone (``Player 1: [play red 5]``),
  and to the seat to act the board (its hand, the top card and the colour to match, the cards
  each seat holds, the draw pile, the direction, the side on Flip, the draw stack) with its
  legal moves in unokit's notation in square brackets (``[play red 5]``, ``[draw]``);
* **actions** are text: the move in square brackets, read by :func:`unokit.llm.harness.parse_move`
  (the last legal move named counts; the registered games' ``ActionFormattingWrapper`` adds the
  brackets to an answer without any);
* **invalid moves** get TextArena's treatment (its multi-player state's error allowance,
  ``error_allowance=1`` as its games have): a first invalid move is answered with the reason and
  the seat moves again; one more in a row eliminates the seat, which ends the hand: the
  eliminated seat's reward is -1 and every other seat's +1;
* **rewards** at the end of the hand are the environments' ``reward="hand"``: +1 to the winner,
  ``-1/(n-1)`` to every other seat; a hand still running after ``max_turns`` decisions is a draw
  (0 to everyone).
"""

from __future__ import annotations

import secrets
from typing import Any

import textarena as ta
from textarena.envs.registration import ENV_REGISTRY, register_with_versions
from textarena.wrappers import (
    ActionFormattingWrapper,
    GameMessagesAndCurrentBoardObservationWrapper,
    LLMObservationWrapper,
)

from ..core.errors import UnokitError
from ..core.variants import get_rules
from ..envs.session import Session
from ..llm.harness import board_lines, game_title, moves_line, parse_move, proxy
from ..llm.moves import session_moves

#: The TextArena id of each variant it registers.
ENV_IDS: dict[str, str] = {
    "UNO-v0": "classic",
    "UNO-Flip-v0": "flip",
    "UNO-Attack-v0": "attack",
    "UNO-FlipAttack-v0": "flip_attack",
}
#: The table sizes a TextArena game takes.
MIN_PLAYERS, MAX_PLAYERS = 2, 4
#: Decisions after which a hand ends in a draw unless the game is made with another ``max_turns``.
DEFAULT_MAX_TURNS = 1000


class UnoEnv(ta.Env):  # type: ignore[misc]
    """One unokit variant as a TextArena game (see the module docstring); ``options`` are rule
    options of the variant (``stacking``, ``seven_o`` ...), ``error_allowance`` the invalid
    moves a seat may make in a row before it is eliminated."""

    def __init__(
        self,
        variant: str = "classic",
        error_allowance: int = 1,
        max_turns: int = DEFAULT_MAX_TURNS,
        **options: object,
    ) -> None:
        self.variant = get_rules(variant).name
        if max_turns < 1 or error_allowance < 0:
            raise ValueError(
                f"max_turns must be 1 or more and error_allowance 0 or more ({max_turns}, {error_allowance})"
            )
        self.error_allowance = error_allowance
        self.max_turns = max_turns
        self.options = dict(options)
        self.session: Session | None = None
        self.moves: dict[str, int] = {}

    # ------------------------------------------------------------------ TextArena's API
    def reset(self, num_players: int, seed: int | None = None) -> None:
        """A new hand of ``num_players`` seats dealt with ``seed`` (a random one when ``None``)."""
        if not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise ValueError(
                f"{game_title(self.variant)} takes {MIN_PLAYERS} to {MAX_PLAYERS} players here, not {num_players}"
            )
        deal = seed if seed is not None else secrets.randbits(63)
        try:
            self.session = Session(self.variant, num_players, options=self.options)
        except UnokitError as exc:
            raise ValueError(str(exc)) from None
        self.session.reset(deal)
        self.state = ta.FFAMultiPlayerState(
            num_players=num_players, seed=seed, max_turns=self.max_turns, error_allowance=self.error_allowance
        )
        self.state.reset(game_state={"seed": deal, "moves": []}, player_prompt_function=self._prompt)
        actor = self.session.actor
        assert actor is not None
        self.state.manually_set_current_player_id(actor)  # the dealer's left, not seat 0
        self._to_act()

    def step(self, action: str) -> tuple[bool, dict[str, Any]]:
        """The move of the seat to act: applied when legal, else TextArena's invalid move."""
        state = self.state
        session = self.session
        assert session is not None, "reset() first"
        seat = state.current_player_id
        state.add_observation(from_id=seat, message=action, observation_type=ta.ObservationType.PLAYER_ACTION)
        if state.done:
            return state.step(rotate_player=False)  # type: ignore[no-any-return]
        parsed = parse_move(action, list(self.moves))
        if parsed.move is None:
            if state.set_invalid_move(reason=parsed.detail):
                others = [s for s in range(state.num_players) if s != seat]
                state.set_winners(others, f"Player {seat} was eliminated by invalid moves.")
            return state.step(rotate_player=False)  # type: ignore[no-any-return]
        rewards = session.act(self.moves[parsed.move])
        state.game_state["moves"].append((seat, parsed.move))
        state.add_observation(
            message=f"Player {seat}: [{parsed.move}]", observation_type=ta.ObservationType.GAME_ACTION_DESCRIPTION
        )
        if session.game.is_over:
            winner = session.result.winner if session.result is not None else None
            state.set_game_outcome(
                {s: float(r) for s, r in enumerate(rewards)},
                f"Player {winner} got rid of all their cards." if winner is not None else "The hand ended.",
            )
        elif session.decisions >= self.max_turns:
            state.set_draw(f"The hand reached {self.max_turns} moves.")
        else:
            actor = session.actor
            assert actor is not None
            state.manually_set_current_player_id(actor)
            self._to_act()
        return state.step(rotate_player=False)  # type: ignore[no-any-return]

    def get_board_str(self) -> str:
        """The table as everyone may see it (no hand shown), for TextArena's renderers."""
        session = self.session
        if session is None:
            return ""
        obs = session.game.observe(None)
        sizes = ", ".join(f"Player {s}: {n}" for s, n in enumerate(obs.get("hand_sizes") or []))
        top = f"Top card: {obs.get('top')} (colour {obs.get('color')})"
        return f"{top}; cards held: {sizes}; draw pile: {obs.get('draw_size')}"

    # ------------------------------------------------------------------ messages
    def _prompt(self, player_id: int, game_state: dict[str, Any]) -> str:
        n = self.state.num_players
        return (
            f"You are Player {player_id} in a game of {game_title(self.variant)} with {n} players.\n"
            "Be the first to get rid of all your cards. On your turn play a card that matches the top card's "
            "colour or its number or symbol, or a wild card, or draw.\n"
            "Each turn you are shown your hand, the table and your legal moves in square brackets. "
            "Answer with one of them, brackets included, e.g. '[play red 5]' or '[draw]'. "
            f"An invalid move is refused with the reason; {self.error_allowance + 1} in a row eliminate you."
        )

    def _to_act(self) -> None:
        """Tell the seat to act what it sees and its legal moves."""
        session = self.session
        assert session is not None
        seat = session.actor
        assert seat is not None
        self.moves = session_moves(session)
        p = proxy(session.game.observe(seat))
        lines = board_lines(p)
        if session.offers:
            lines.append("You may jump in out of turn with an identical card, or [pass].")
        else:
            lines.append(f"Decision: {p['phase']}")
        lines.append(f"Your legal moves: {moves_line(list(self.moves))}")
        self.state.add_observation(to_id=seat, message="\n".join(lines), observation_type=ta.ObservationType.GAME_BOARD)


def register() -> None:
    """Register ``UNO-v0``, ``UNO-Flip-v0``, ``UNO-Attack-v0`` and ``UNO-FlipAttack-v0`` with
    TextArena (again a no-op), with the wrappers its own card games have: the default one
    accumulates the messages for a language model and brackets a bare answer, ``-train`` shows
    the messages with the current board, ``-raw`` none."""
    for env_id, variant in ENV_IDS.items():
        if env_id in ENV_REGISTRY:
            continue
        register_with_versions(
            id=env_id,
            entry_point=f"{__name__}:UnoEnv",
            wrappers={
                "default": [LLMObservationWrapper, ActionFormattingWrapper],
                "-train": [GameMessagesAndCurrentBoardObservationWrapper, ActionFormattingWrapper],
            },
            variant=variant,
        )


__all__ = ["ENV_IDS", "MAX_PLAYERS", "MIN_PLAYERS", "UnoEnv", "register"]
