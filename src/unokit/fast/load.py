"""Loading a reference game into a kernel row: the inverse of :meth:`Batch.position`.

:func:`load_game` writes a :class:`~unokit.core.game.Game` (a position read with
``Game.from_position``, a determinised game of a search) into one row of the kernel's state, so
that the row's position is the game's ``to_position()`` and every later action plays exactly
as in the reference engine. The row's play history (the observation's ``history`` block) starts
empty: positions do not record it.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..core.decisions import Challenge, ChooseColor, PlayOrKeep, PressYourLuck
from ..core.errors import OptionError
from ..core.game import Game
from ..core.launcher import RandomLauncher
from ..core.position import exposed_seat
from ..core.rng import MASK64
from . import kernel as K
from .kernel import D_OVER, DECISION_KINDS

_SIGN = 1 << 63


def as_int64(word: int) -> int:
    """A 64-bit unsigned word as the ``int64`` with the same bits."""
    word &= MASK64
    return word - (1 << 64) if word & _SIGN else word


def load_game(R: NDArray[np.int64], row: NDArray[np.int64], game: Game) -> None:
    """Write ``game`` into the kernel ``row`` of the rules vector ``R`` (same variant, seats and
    options: the caller checks them). Raises :class:`~unokit.OptionError` when the game holds
    something the kernel cannot (a launcher other than the random one)."""
    n = int(R[K.C_PLAYERS])
    if game.n != n:
        raise OptionError(f"a game of {game.n} players does not fit a kernel of {n}")
    launcher = game.launcher
    if launcher is not None and not isinstance(launcher, RandomLauncher):
        raise OptionError(f"unokit.fast plays the random launcher, not {launcher.model!r}")
    row[:] = 0
    row[int(R[K.C_S_HIST]) : int(R[K.C_S_SCRATCH])] = -1
    decision = game.open_decision
    code = DECISION_KINDS.index(decision.kind)
    exposed = exposed_seat(game)
    row[K.F_SIDE] = game.side
    row[K.F_DIR] = game.direction
    row[K.F_TURN] = game.turn
    row[K.F_COLOR] = game.color
    row[K.F_EXPOSED] = -1 if exposed is None else exposed
    row[K.F_STACK] = game.stack_total
    row[K.F_PASSES] = game.passes
    row[K.F_DEC] = code
    row[K.F_SEAT] = decision.seat if code != D_OVER else game.turn
    row[K.F_DEALER] = game.dealer
    row[K.F_ROUND] = game.round_number
    row[K.F_STREAK] = launcher.empty_streak if launcher is not None else 0
    row[K.F_RNG] = as_int64(game.rng.state)
    winners = game.winners
    row[K.F_WINNERS] = sum(1 << s for s in winners)
    row[K.F_ROUND_WINNER] = winners[0] if len(winners) == 1 else -1
    if isinstance(decision, PlayOrKeep):
        row[K.F_D0] = decision.card
    elif isinstance(decision, Challenge):
        row[K.F_D0 : K.F_D4 + 1] = (
            decision.by,
            decision.card,
            decision.color,
            int(decision.fair),
            decision.previous_color,
        )
    elif isinstance(decision, ChooseColor):
        row[K.F_D0] = decision.then
    elif isinstance(decision, PressYourLuck):  # and ChooseDiscard
        luck = int(R[K.C_S_LUCK])
        row[luck : luck + len(decision.discarded)] = decision.discarded
        row[K.F_LUCKLEN] = len(decision.discarded)
    scores = int(R[K.C_S_SCORES])
    row[scores : scores + n] = game.scores
    for seat, hand in enumerate(game.hands):
        write_hand(R, row, seat, hand)
    write_pile(R, row, K.C_S_DRAW, K.F_DRAWLEN, game.draw)
    write_pile(R, row, K.C_S_DISC, K.F_DISCLEN, game.discard)


def write_hand(R: NDArray[np.int64], row: NDArray[np.int64], seat: int, cards: list[int]) -> None:
    """Make ``cards`` (in order) ``seat``'s hand in ``row``, with its counts and set of types."""
    hand = int(R[K.C_S_HAND]) + seat * K.CAP
    count = int(R[K.C_S_CNT]) + seat * K.CAP
    bits = int(R[K.C_S_BITS]) + 2 * seat
    row[hand : hand + len(cards)] = cards
    row[int(R[K.C_S_HLEN]) + seat] = len(cards)
    row[count : count + K.CAP] = np.bincount(np.asarray(cards, np.int64), minlength=K.CAP)[: K.CAP]
    words = [0, 0]
    for t in set(cards):
        words[t >> 6] |= 1 << (t & 63)
    row[bits] = as_int64(words[0])
    row[bits + 1] = as_int64(words[1])


def write_pile(R: NDArray[np.int64], row: NDArray[np.int64], block: int, length: int, cards: list[int]) -> None:
    """Make ``cards`` (bottom first) the pile at ``R[block]`` whose length is the field ``length``."""
    start = int(R[block])
    row[start : start + len(cards)] = cards
    row[length] = len(cards)
