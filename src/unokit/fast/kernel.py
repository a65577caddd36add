"""The compiled rules: numba functions over games held in arrays (one row per game).

Every function here mirrors a method of :class:`unokit.core.game.Game` and draws from the
same SplitMix64 generator (:mod:`unokit.core.rng`) in the same order, so that a game played
here passes through exactly the states of the reference engine. The state of ``G`` games:

* ``sc[g, F_*]``: the scalar fields (side, direction, turn, colour, open decision, ...);
* ``rng[g]``: the generator state (the position's ``seed``);
* ``hand[g, s, :hlen[g, s]]``: seat ``s``'s cards in the reference engine's order; ``cnt`` and
  ``bits`` hold the same hand as counts per card type and as a 128-bit set of types, which the
  legal-action code walks in type order;
* ``pile[g, P_DRAW]``, ``pile[g, P_DISCARD]`` (bottom first, lengths in ``sc``) and
  ``pile[g, P_LUCK]``: the cards discarded under a Wild Press Your Luck this turn;
* ``scores[g, s]`` and ``hist[g, s, :]`` (the cards each seat played, most recent first, for
  the observation's history block).

Constant tables come from :mod:`unokit.fast.tables`: ``tab[R_*, t]`` per card type and
``cfg[C_*]`` for the variant, its options and the action-id and observation layouts of
:mod:`unokit.encoding`. Actions are those ids (``UNO_CODE`` and ``CATCH_CODE`` follow them
for the out-of-turn late UNO call and catch, which the environments leave out).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numpy.typing import NDArray

from ..core import cards as C
from ..core.launcher import CARDS_PER_FIRE_WEIGHTS, FIRE_HAZARD
from ..core.state import HAND_SIZE
from ..core.types import DecisionKind

#: The decisions the kernel opens, by code: the first eight are the observation's one-hot
#: slots (``unokit.encoding.DECISIONS``), then ``over``.
DECISION_KINDS: tuple[DecisionKind, ...] = (
    DecisionKind.TURN,
    DecisionKind.PLAY_OR_KEEP,
    DecisionKind.CHALLENGE,
    DecisionKind.CHOOSE_COLOR,
    DecisionKind.CHOOSE_PLAYER,
    DecisionKind.PRESS_YOUR_LUCK,
    DecisionKind.CHOOSE_DISCARD,
    DecisionKind.STACK,
    DecisionKind.OVER,
)
D_TURN = 0
D_PLAY_OR_KEEP = 1
D_CHALLENGE = 2
D_CHOOSE_COLOR = 3
D_CHOOSE_PLAYER = 4
D_PRESS_YOUR_LUCK = 5
D_CHOOSE_DISCARD = 6
D_STACK = 7
D_OVER = 8

F = TypeVar("F", bound=Callable[..., Any])


#: numba's (underscored) flag that compiles a function without its reference-counting runtime.
_WITHOUT_REFCOUNTS: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}


def jit(function: F) -> F:
    """Compile a rule function with numba, cached on disk next to this file, without numba's
    reference counting of arrays: these functions allocate nothing, and the counting would
    cost more than the rules themselves (an atomic update of each array at every call)."""
    return cast(F, numba.njit(**_WITHOUT_REFCOUNTS)(function))


def entry(function: F) -> F:
    """Compile a function called from Python (or one that allocates), cached on disk."""
    return cast(F, numba.njit(cache=True, nogil=True)(function))


def parallel_entry(function: F) -> F:
    """:func:`entry` whose ``numba.prange`` loops share the work between the cores."""
    return cast(F, numba.njit(cache=True, nogil=True, parallel=True)(function))


I64 = NDArray[np.int64]

# --------------------------------------------------------------------------- layout constants

#: Room for every card of the largest deck in one hand or pile.
CAP = 112

# Scalar fields st[F_*].
F_SIDE = 0
F_DIR = 1
F_TURN = 2
F_COLOR = 3
F_EXPOSED = 4
F_STACK = 5
F_PASSES = 6
F_DEC = 7
F_SEAT = 8
F_DEALER = 9
F_ROUND = 10
F_D0 = 11  # decision data: drawn card / challenge (by, kind, named, fair, previous) / then
F_D1 = 12
F_D2 = 13
F_D3 = 14
F_D4 = 15
F_STREAK = 16  # launcher: empty presses in a row
F_DRAWLEN = 17
F_DISCLEN = 18
F_LUCKLEN = 19
F_WINNERS = 20  # bit set of the game's winners
F_ROUND_WINNER = 21
F_STEPS = 22  # decisions taken through step_all
F_RNG = 23  # the generator state, as the bits of a 64-bit word
N_FIELDS = 24

# Per-type tables R[TAB + row * CAP + t].
R_KIND0 = 0
R_KIND1 = 1
R_COLOR0 = 2
R_COLOR1 = 3
R_POINTS0 = 4
R_POINTS1 = 5
R_WILD_INDEX = 6  # index among the wild types (encoding.wild_types), -1 for the others
R_SLOT0 = 7  # observation face slot of the type's light face (its back seen from the dark side)
R_SLOT1 = 8
N_ROWS = 9

# Configuration R[C_*].
C_PLAYERS = 0
C_TYPES = 1
C_DECK = 2
C_LAUNCHER = 3
C_DOUBLE = 4
C_SENT_BACK = 5  # first-card kind put back (-1: none)
C_IGNORE_ACTIONS = 6  # Flip Attack: action cards turned up first are ignored
C_STACKING = 7
C_BLUFFING = 8
C_SCORING = 9  # 0 winner, 1 own_hand, 2 loser
C_TARGET = 10
C_PLAY = 11  # action-id layout
C_PLAY_UNO = 12
C_WILD = 13
C_WILD_UNO = 14
C_DRAW = 15
C_DRAWN = 16
C_KEEP = 17
C_CHALLENGE = 18
C_COLOR = 19
C_TRADE = 20
C_PYL = 21
C_DISCARD = 22
C_DISCARD_UNO = 23
C_ACTIONS = 24
C_HISTORY = 25  # observation layout
C_O_TOP = 26
C_O_DRAWN = 27
C_O_HIST = 28
C_O_BACKS = 29
C_O_DRAW_BACK = 30
C_O_COLOR = 31
C_O_PREV = 32
C_O_DECISION = 33
C_O_TO_ACT = 34
C_O_SIZES = 35
C_O_SCORES = 36
C_O_FACES = 37
C_O_SIZE = 38
C_CATCH = 39  # the environments' catch rule: 1 the next seat catches a missed UNO, 0 never
C_S_SCORES = 40  # state offsets
C_S_HLEN = 41
C_S_BITS = 42
C_S_HAND = 43
C_S_CNT = 44
C_S_DRAW = 45
C_S_DISC = 46
C_S_LUCK = 47
C_S_HIST = 48
C_S_SCRATCH = 49
C_S_WIDTH = 50
C_UNO_PENALTY = 51  # cards drawn or presses for a missed UNO call
N_CONFIG = 52

# What an action id does: R[ACT + A_* * ACT_CAP + id].
ACT_CAP = 600
A_KIND = 0
A_CARD = 1
A_SLOT = 2
A_UNO = 3
N_ACT_ROWS = 4
K_PLAY = 0
K_DRAW = 1  # draw (or take a stack) / press
K_DRAWN = 2
K_KEEP = 3
K_CHALLENGE = 4
K_ACCEPT = 5
K_COLOR = 6
K_TRADE = 7  # A_SLOT holds the seat offset
K_PRESS_AGAIN = 8
K_STOP = 9
K_DISCARD = 10
K_UNO = 11
K_CATCH = 12

#: Playable types by (side, colour in play + 1, top card's kind) as two 64-bit words.
N_KINDS = C.WILD_DISCARD_ALL + 1
TAB = N_CONFIG
ACT = TAB + N_ROWS * CAP
MATCH = ACT + N_ACT_ROWS * ACT_CAP
CARDS = MATCH + 2 * 9 * N_KINDS * 2
RULES_SIZE = CARDS + CAP

SCORING_WINNER = 0
SCORING_OWN_HAND = 1
SCORING_LOSER = 2

#: Room for one decision's legal actions.
LEGAL_CAP = 4 * CAP + 64

_WILD = C.WILD
_WILD_DISCARD_ALL = C.WILD_DISCARD_ALL
_DRAW_CARDS = (C.WILD_DRAW_FOUR, C.WILD_DRAW_TWO, C.WILD_DRAW_COLOR)
_HITS = (C.HIT_2, C.HIT_2X, C.HIT_5X)
_HAZARD = tuple(float(x) for x in FIRE_HAZARD)
_WEIGHTS = tuple(int(x) for x in CARDS_PER_FIRE_WEIGHTS)
_WEIGHT_TOTAL = sum(CARDS_PER_FIRE_WEIGHTS)

_U0 = np.uint64(0)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_S58 = np.uint64(58)
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.array(
    [
        *(0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4, 62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30),
        *(24, 18, 12, 5, 63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11, 46, 26, 40, 15, 34, 20, 31),
        *(10, 25, 14, 19, 9, 13, 8, 7, 6),
    ],
    dtype=np.int64,
)
_INV53 = 1.0 / (1 << 53)


def state_width(players: int, history: int) -> tuple[int, ...]:
    """The state offsets (C_S_SCORES .. C_S_WIDTH) of a game of ``players`` seats that
    remembers ``history`` plays per seat."""
    scores = N_FIELDS
    hlen = scores + players
    bits = hlen + players
    hand = bits + 2 * players
    cnt = hand + players * CAP
    draw = cnt + players * CAP
    disc = draw + CAP
    luck = disc + CAP
    hist = luck + CAP
    scratch = hist + players * max(history, 1)
    width = scratch + 2 * players
    return (scores, hlen, bits, hand, cnt, draw, disc, luck, hist, scratch, width)


# --------------------------------------------------------------------------- the generator (core/rng.py)


@jit
def next64_at(words: I64, at: int) -> np.uint64:
    """``Rng.next64`` of the generator whose state is ``words[at]``."""
    z = np.uint64(words[at]) + _GOLDEN
    words[at] = np.int64(z)
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@jit
def below_at(words: I64, at: int, n: int) -> int:
    """``Rng.below(n)`` of the generator ``words[at]``: uniform in ``[0, n)`` by rejection,
    drawing as the reference does."""
    un = np.uint64(n)
    while True:
        x = next64_at(words, at)
        # Accept x < 2**64 - (2**64 mod n) (every x when n divides 2**64). As 2**64 mod n < n,
        # each x < 2**64 - n is accepted without the division that finds the remainder.
        if x < _U0 - un:
            return int(x % un)
        rem = (_U0 - un) % un
        if rem == _U0 or x < _U0 - rem:
            return int(x % un)


@jit
def below(st: I64, n: int) -> int:
    """``Rng.below(n)`` of the game's generator."""
    return below_at(st, F_RNG, n)


@jit
def uniform_at(words: I64, at: int) -> float:
    """``Rng.random()`` of the generator ``words[at]``: 53 random bits as a float in ``[0, 1)``."""
    return float(next64_at(words, at) >> _S11) * _INV53


@jit
def uniform(st: I64) -> float:
    """``Rng.random()`` of the game's generator."""
    return uniform_at(st, F_RNG)


@jit
def shuffle(st: I64, start: int, length: int) -> None:
    """``Rng.shuffle`` of ``st[start:start + length]`` (Fisher-Yates from the end)."""
    for i in range(length - 1, 0, -1):
        j = below(st, i + 1)
        t = st[start + i]
        st[start + i] = st[start + j]
        st[start + j] = t


# --------------------------------------------------------------------------- hands


@jit
def add_card(st: I64, R: I64, seat: int, t: int) -> None:
    """Append card ``t`` to ``seat``'s hand."""
    at = R[C_S_HLEN] + seat
    n = st[at]
    st[R[C_S_HAND] + seat * CAP + n] = t
    st[at] = n + 1
    st[R[C_S_CNT] + seat * CAP + t] += 1
    st[R[C_S_BITS] + 2 * seat + (t >> 6)] |= 1 << (t & 63)


@jit
def remove_card(st: I64, R: I64, seat: int, t: int) -> None:
    """Remove the first copy of ``t`` from ``seat``'s hand (``list.remove``)."""
    at = R[C_S_HLEN] + seat
    n = st[at]
    base = R[C_S_HAND] + seat * CAP
    i = base
    while st[i] != t:
        i += 1
    for j in range(i, base + n - 1):
        st[j] = st[j + 1]
    st[at] = n - 1
    c = R[C_S_CNT] + seat * CAP + t
    st[c] -= 1
    if st[c] == 0:
        st[R[C_S_BITS] + 2 * seat + (t >> 6)] &= ~(1 << (t & 63))


@jit
def lowest_bit(x: int) -> int:
    """Index of the lowest set bit of a non-zero 64-bit word."""
    low = np.uint64(x & -x)
    return int(_DEBRUIJN_INDEX[(low * _DEBRUIJN) >> _S58])


@jit
def hand_size(st: I64, R: I64, seat: int) -> int:
    """Cards in ``seat``'s hand."""
    return int(st[R[C_S_HLEN] + seat])


@jit
def count_color(st: I64, R: I64, seat: int, color: int) -> int:
    """Cards of ``color`` (on the active side) in ``seat``'s hand."""
    row = TAB + (R_COLOR0 + st[F_SIDE]) * CAP
    base = R[C_S_HAND] + seat * CAP
    total = 0
    for i in range(base, base + st[R[C_S_HLEN] + seat]):
        if R[row + st[i]] == color:
            total += 1
    return total


@jit
def hand_value(st: I64, R: I64, seat: int) -> int:
    """Points of ``seat``'s hand on the active side (R-1.7)."""
    row = TAB + (R_POINTS0 + st[F_SIDE]) * CAP
    base = R[C_S_HAND] + seat * CAP
    total = 0
    for i in range(base, base + st[R[C_S_HLEN] + seat]):
        total += R[row + st[i]]
    return total


@jit
def swap_hands(st: I64, R: I64, a: int, b: int) -> None:
    """Trade Hands: ``a`` and ``b`` exchange every card."""
    for block, size in ((C_S_HAND, CAP), (C_S_CNT, CAP), (C_S_BITS, 2), (C_S_HLEN, 1)):
        x = R[block] + a * size
        y = R[block] + b * size
        for i in range(size):
            t = st[x + i]
            st[x + i] = st[y + i]
            st[y + i] = t


# --------------------------------------------------------------------------- turns


@jit
def start_turn(st: I64, seat: int) -> None:
    """``Game._start_turn``."""
    st[F_TURN] = seat
    st[F_DEC] = D_STACK if st[F_STACK] else D_TURN
    st[F_SEAT] = seat


@jit
def next_seat(st: I64, R: I64, seat: int, steps: int) -> int:
    """The seat ``steps`` places after ``seat`` in the current direction."""
    return int((seat + st[F_DIR] * steps) % R[C_PLAYERS])


@jit
def advance(st: I64, R: I64, seat: int, steps: int) -> None:
    """``Game._advance``."""
    start_turn(st, next_seat(st, R, seat, steps))


@jit
def choose_color(st: I64, chooser: int, then: int) -> None:
    """``Game._choose_color``."""
    st[F_COLOR] = -1
    st[F_DEC] = D_CHOOSE_COLOR
    st[F_SEAT] = chooser
    st[F_TURN] = chooser
    st[F_D0] = then


# --------------------------------------------------------------------------- set-up


@jit
def deal(st: I64, R: I64, seed: int) -> None:
    """``Game.new`` with the standard deck and ``rounds=1``: cut for the dealer, deal, turn up.
    ``seed`` is the 64-bit seed as the bits of an ``int64``."""
    n = R[C_PLAYERS]
    size = R[C_DECK]
    for i in range(R[C_S_WIDTH]):
        st[i] = 0
    st[F_RNG] = seed
    for i in range(R[C_S_HIST], R[C_S_SCRATCH]):
        st[i] = -1
    draw = R[C_S_DRAW]
    # Cut for the dealer: highest number on the first side deals; ties cut again.
    candidates = R[C_S_SCRATCH]
    values = candidates + n
    count = n
    for seat in range(n):
        st[candidates + seat] = seat
    while True:
        for i in range(size):
            st[draw + i] = R[CARDS + i]
        shuffle(st, draw, size)
        top = draw + size
        best = -1
        for i in range(count):
            top -= 1
            k = R[TAB + R_KIND0 * CAP + st[top]]
            st[values + i] = k if k < 10 else 0
            best = max(best, st[values + i])
        kept = 0
        for i in range(count):
            if st[values + i] == best:
                st[candidates + kept] = st[candidates + i]
                kept += 1
        count = kept
        if count == 1:
            break
    dealer = st[candidates]
    st[F_DEALER] = dealer
    st[F_ROUND] = 1
    st[F_DIR] = 1
    st[F_COLOR] = -1
    st[F_EXPOSED] = -1
    st[F_ROUND_WINNER] = -1
    # Shuffle every card and deal seven each from the dealer's left.
    for i in range(size):
        st[draw + i] = R[CARDS + i]
    shuffle(st, draw, size)
    top = draw + size
    for _ in range(HAND_SIZE):
        for k in range(1, n + 1):
            top -= 1
            add_card(st, R, (dealer + k) % n, st[top])
    st[F_DRAWLEN] = top - draw
    turn_up_first_card(st, R)


@jit
def turn_up_first_card(st: I64, R: I64) -> None:
    """``Game._turn_up_first_card`` (R-2.4, R-3.8, R-4.4, R-5.2)."""
    n = R[C_PLAYERS]
    draw = R[C_S_DRAW]
    discard = R[C_S_DISC]
    dealer = st[F_DEALER]
    first = (dealer + 1) % n
    while True:
        length = st[F_DRAWLEN] - 1
        t = st[draw + length]
        k = R[TAB + R_KIND0 * CAP + t]
        if k == R[C_SENT_BACK]:
            shuffle(st, draw, length + 1)
            continue
        st[F_DRAWLEN] = length
        st[discard + st[F_DISCLEN]] = t
        st[F_DISCLEN] += 1
        if R[C_IGNORE_ACTIONS] and k >= 10:
            continue
        break
    st[F_COLOR] = R[TAB + R_COLOR0 * CAP + t]
    if k < 10 or k == C.DISCARD_ALL:
        start_turn(st, first)
    elif k == C.SKIP:
        start_turn(st, next_seat(st, R, first, 1))
    elif k == C.REVERSE:
        st[F_DIR] = -1
        start_turn(st, dealer)
    elif k in (C.DRAW_TWO, C.DRAW_ONE):
        draw_cards(st, R, first, 2 if k == C.DRAW_TWO else 1)
        start_turn(st, next_seat(st, R, first, 1))
    elif k == _WILD:
        choose_color(st, first, first)
    elif k == C.FLIP:
        flip(st, R)
        top = st[discard + st[F_DISCLEN] - 1]
        if R[TAB + R_KIND1 * CAP + top] >= _WILD:
            choose_color(st, first, first)
        else:
            st[F_COLOR] = R[TAB + R_COLOR1 * CAP + top]
            start_turn(st, first)
    elif k == C.HIT_2:
        penalty(st, R, first, 2)
        start_turn(st, next_seat(st, R, first, 1))
    elif k == C.WILD_ALL_HIT:
        seat = first
        while seat != dealer:
            press(st, R, seat, seat)
            seat = next_seat(st, R, seat, 1)
        choose_color(st, first, first)
    elif k == C.WILD_HIT_FIRE:
        press_until_fire(st, R, first)
        second = next_seat(st, R, first, 1)
        choose_color(st, second, second)


# --------------------------------------------------------------------------- drawing


@jit
def refill(st: I64, R: I64) -> bool:
    """``Game._refill``: the discard pile but its top, shuffled, goes under the draw pile."""
    length = st[F_DISCLEN]
    if length <= 1:
        return False
    discard = R[C_S_DISC]
    draw = R[C_S_DRAW]
    top = st[discard + length - 1]
    moved = length - 1
    shuffle(st, discard, moved)
    old = st[F_DRAWLEN]
    for i in range(old - 1, -1, -1):
        st[draw + i + moved] = st[draw + i]
    for i in range(moved):
        st[draw + i] = st[discard + i]
    st[F_DRAWLEN] = old + moved
    st[discard] = top
    st[F_DISCLEN] = 1
    st[F_STREAK] = 0  # the launcher is reloaded
    return True


@jit
def pop_draw(st: I64, R: I64) -> int:
    """Take the draw pile's top card (the pile must not be empty)."""
    length = st[F_DRAWLEN] - 1
    st[F_DRAWLEN] = length
    return int(st[R[C_S_DRAW] + length])


@jit
def draw_cards(st: I64, R: I64, seat: int, count: int) -> int:
    """``Game._draw``: ``seat`` draws ``count`` cards (fewer when none are left); returns the last."""
    last = -1
    for _ in range(count):
        if st[F_DRAWLEN] == 0 and not refill(st, R):
            break
        last = pop_draw(st, R)
        add_card(st, R, seat, last)
    return last


@jit
def draw_until_color(st: I64, R: I64, seat: int, color: int, extra: int) -> None:
    """``Game._draw_until_color`` (R-3.6)."""
    row = TAB + (R_COLOR0 + st[F_SIDE]) * CAP
    while True:
        if st[F_DRAWLEN] == 0 and not refill(st, R):
            break
        t = pop_draw(st, R)
        add_card(st, R, seat, t)
        if R[row + t] == color:
            break
    if extra:
        draw_cards(st, R, seat, extra)


@jit
def press(st: I64, R: I64, seat: int, receiver: int) -> int:
    """``Game._press`` with the random launcher: ``seat`` presses once, ejected cards go to
    ``receiver``; returns how many came out (R-6)."""
    if st[F_DRAWLEN] == 0 and not refill(st, R):
        return 0
    streak = st[F_STREAK]
    fired = 0
    if uniform(st) < _HAZARD[min(streak, 3)]:
        st[F_STREAK] = 0
        x = below(st, _WEIGHT_TOTAL)
        for i in range(len(_WEIGHTS)):
            if x < _WEIGHTS[i]:
                fired = i + 1
                break
            x -= _WEIGHTS[i]
    else:
        st[F_STREAK] = streak + 1
    ejected = min(fired, st[F_DRAWLEN])
    for _ in range(ejected):
        add_card(st, R, receiver, pop_draw(st, R))
    return int(ejected)


@jit
def nothing_to_draw(st: I64) -> bool:
    """No card in the draw pile and none to reshuffle."""
    return bool(st[F_DRAWLEN] == 0 and st[F_DISCLEN] <= 1)


@jit
def press_until_fire(st: I64, R: I64, seat: int) -> None:
    """``Game._press_until_fire``."""
    while press(st, R, seat, seat) == 0:
        if nothing_to_draw(st):
            break


@jit
def penalty(st: I64, R: I64, seat: int, count: int) -> None:
    """Draw ``count`` cards, or press the launcher ``count`` times (R-4.1)."""
    if R[C_LAUNCHER]:
        for _ in range(count):
            press(st, R, seat, seat)
    else:
        draw_cards(st, R, seat, count)


# --------------------------------------------------------------------------- legal actions


@jit
def legal(st: I64, R: I64, out: I64) -> int:
    """Write the legal actions of the seat to act into ``out`` in ``Game.legal_actions``'s
    order (``num_actions`` for a late UNO call, ``num_actions + 1`` for a catch); return how
    many."""
    dec = st[F_DEC]
    seat = st[F_SEAT]
    side = st[F_SIDE]
    size = st[R[C_S_HLEN] + seat]
    bits = R[C_S_BITS] + 2 * seat
    count = 0
    if dec in (D_TURN, D_STACK):
        kinds = TAB + (R_KIND0 + side) * CAP
        top_kind = R[kinds + st[R[C_S_DISC] + st[F_DISCLEN] - 1]]
        color = st[F_COLOR]
        after = size - 1
        match = MATCH + ((side * 9 + color + 1) * N_KINDS + top_kind) * 2
        play = R[C_PLAY]
        play_uno = R[C_PLAY_UNO]
        for w in range(2):
            x = st[bits + w]
            if dec == D_TURN:
                x &= R[match + w]
            while x != 0:
                t = w * 64 + lowest_bit(x)
                x &= x - 1
                k = R[kinds + t]
                if dec == D_STACK:
                    if k == top_kind:
                        out[count] = play + t
                        count += 1
                        if size == 2:
                            out[count] = play_uno + t
                            count += 1
                elif k >= _WILD:
                    base = R[C_WILD] + 4 * R[TAB + R_WILD_INDEX * CAP + t]
                    base_uno = R[C_WILD_UNO] + 4 * R[TAB + R_WILD_INDEX * CAP + t]
                    if k == _WILD_DISCARD_ALL:
                        for slot in range(4):
                            out[count] = base + slot
                            count += 1
                            if after - count_color(st, R, seat, side * 4 + slot) == 1:
                                out[count] = base_uno + slot
                                count += 1
                    elif R[C_BLUFFING] or k not in _DRAW_CARDS or count_color(st, R, seat, color) == 0:
                        for slot in range(4):
                            out[count] = base + slot
                            count += 1
                            if after == 1:
                                out[count] = base_uno + slot
                                count += 1
                elif k == C.DISCARD_ALL:
                    left = after - (count_color(st, R, seat, R[TAB + (R_COLOR0 + side) * CAP + t]) - 1)
                    out[count] = play + t
                    count += 1
                    if left == 1:
                        out[count] = play_uno + t
                        count += 1
                elif k != C.TRADE_HANDS or after > 0:
                    out[count] = play + t
                    count += 1
                    if after == 1:
                        out[count] = play_uno + t
                        count += 1
        out[count] = R[C_DRAW]
        count += 1
    elif dec == D_PLAY_OR_KEEP:
        t = st[F_D0]
        uno = size == 2
        base = R[C_DRAWN]
        if R[TAB + (R_KIND0 + side) * CAP + t] >= _WILD:
            for slot in range(4):
                out[count] = base + 2 + slot
                count += 1
                if uno:
                    out[count] = base + 6 + slot
                    count += 1
        else:
            out[count] = base
            count += 1
            if uno:
                out[count] = base + 1
                count += 1
        out[count] = R[C_KEEP]
        count += 1
    elif dec == D_CHALLENGE:
        out[0] = R[C_CHALLENGE]
        out[1] = R[C_CHALLENGE] + 1
        count = 2
    elif dec == D_CHOOSE_COLOR:
        for slot in range(4):
            out[slot] = R[C_COLOR] + slot
        count = 4
    elif dec == D_CHOOSE_PLAYER:
        n = R[C_PLAYERS]
        for other in range(n):
            if other != seat:
                out[count] = R[C_TRADE] + (other - seat) % n - 1
                count += 1
    elif dec == D_PRESS_YOUR_LUCK:
        out[0] = R[C_PYL]
        out[1] = R[C_PYL] + 1
        count = 2
    elif dec == D_CHOOSE_DISCARD:
        for w in range(2):
            x = st[bits + w]
            while x != 0:
                t = w * 64 + lowest_bit(x)
                x &= x - 1
                out[count] = R[C_DISCARD] + t
                count += 1
                if size == 2:
                    out[count] = R[C_DISCARD_UNO] + t
                    count += 1
    else:
        return 0
    exposed = st[F_EXPOSED]
    if exposed >= 0 and st[R[C_S_HLEN] + exposed] == 1:
        out[count] = R[C_ACTIONS] + (0 if seat == exposed else 1)
        count += 1
    return count


@jit
def playable(st: I64, R: I64, seat: int, t: int, cards_after: int) -> bool:
    """``Game._playable``: may ``seat`` play the card ``t`` just drawn."""
    side = st[F_SIDE]
    k = R[TAB + (R_KIND0 + side) * CAP + t]
    color = st[F_COLOR]
    if k >= _WILD:
        if not R[C_BLUFFING] and k in _DRAW_CARDS:
            return count_color(st, R, seat, color) == 0
        return True
    if k == C.TRADE_HANDS and cards_after == 0:
        return False
    top = st[R[C_S_DISC] + st[F_DISCLEN] - 1]
    return bool(R[TAB + (R_COLOR0 + side) * CAP + t] == color or k == R[TAB + (R_KIND0 + side) * CAP + top])


# --------------------------------------------------------------------------- applying actions


@jit
def do(st: I64, R: I64, code: int) -> None:
    """``Game._do`` of the action ``code`` (a legal one) by the seat to act; then the
    environments' catch rule when ``R[C_CATCH]`` asks for it."""
    seat = st[F_SEAT]
    kind = R[ACT + A_KIND * ACT_CAP + code]
    if kind == K_CATCH:
        target = st[F_EXPOSED]
        st[F_EXPOSED] = -1
        penalty(st, R, target, R[C_UNO_PENALTY])
        return
    if kind == K_UNO:
        st[F_EXPOSED] = -1
        return
    exposed = st[F_EXPOSED]
    dec = st[F_DEC]
    if exposed >= 0 and (seat != exposed or dec == D_TURN):
        st[F_EXPOSED] = -1  # the catch window closes (D-2)
    side = st[F_SIDE]
    uno = R[ACT + A_UNO * ACT_CAP + code] == 1
    slot = R[ACT + A_SLOT * ACT_CAP + code]
    played = -1
    if kind == K_PLAY:
        played = R[ACT + A_CARD * ACT_CAP + code]
        play(st, R, seat, played, -1 if slot < 0 else side * 4 + slot, uno)
    elif kind == K_DRAW:
        if R[C_LAUNCHER]:
            turn_press(st, R, seat)
        elif dec == D_STACK:
            total = st[F_STACK]
            st[F_STACK] = 0
            draw_cards(st, R, seat, total)
            advance(st, R, seat, 1)
        else:
            turn_draw(st, R, seat)
    elif kind == K_DRAWN:
        played = st[F_D0]
        play(st, R, seat, played, -1 if slot < 0 else side * 4 + slot, uno)
    elif kind in (K_KEEP, K_STOP):
        advance(st, R, seat, 1)
    elif kind in (K_CHALLENGE, K_ACCEPT):
        answer_wild_draw(st, R, seat, kind == K_CHALLENGE)
    elif kind == K_COLOR:
        st[F_COLOR] = side * 4 + slot
        start_turn(st, st[F_D0])
    elif kind == K_TRADE:
        swap_hands(st, R, seat, (seat + slot) % R[C_PLAYERS])
        advance(st, R, seat, 1)
    elif kind == K_PRESS_AGAIN:
        press_your_luck(st, R, seat)
    elif kind == K_DISCARD:
        played = R[ACT + A_CARD * ACT_CAP + code]
        luck_discard(st, R, seat, played, uno)
    if played >= 0:
        k = R[C_HISTORY]
        if k > 0:
            h = R[C_S_HIST] + seat * k
            for j in range(k - 1, 0, -1):
                st[h + j] = st[h + j - 1]
            st[h] = played
        if R[C_CATCH] and not uno and st[F_EXPOSED] == seat and st[F_DEC] != D_OVER:
            st[F_EXPOSED] = -1  # the next seat catches the missed UNO call
            penalty(st, R, seat, R[C_UNO_PENALTY])


@jit
def turn_draw(st: I64, R: I64, seat: int) -> None:
    """``Game._turn_draw``: draw one; a playable card may be played at once (R-2.2)."""
    if nothing_to_draw(st):
        pass_with_nothing(st, R, seat)
        return
    st[F_PASSES] = 0
    t = draw_cards(st, R, seat, 1)
    if playable(st, R, seat, t, st[R[C_S_HLEN] + seat] - 1):
        st[F_DEC] = D_PLAY_OR_KEEP
        st[F_D0] = t
    else:
        advance(st, R, seat, 1)


@jit
def turn_press(st: I64, R: I64, seat: int) -> None:
    """``Game._turn_press``: press once; the turn ends whatever comes out (R-4.1)."""
    if nothing_to_draw(st):
        pass_with_nothing(st, R, seat)
        return
    st[F_PASSES] = 0
    press(st, R, seat, seat)
    advance(st, R, seat, 1)


@jit
def pass_with_nothing(st: I64, R: I64, seat: int) -> None:
    """``Game._pass_with_nothing``: a full circuit of such passes blocks the round (D-4)."""
    n = R[C_PLAYERS]
    st[F_PASSES] += 1
    if st[F_PASSES] >= n:
        winner = -1
        best = 0
        for k in range(1, n + 1):
            other = next_seat(st, R, seat, k)
            value = hand_value(st, R, other)
            if winner < 0 or value < best:
                winner = other
                best = value
        end_round(st, R, winner)
    else:
        advance(st, R, seat, 1)


@jit
def play(st: I64, R: I64, seat: int, t: int, chosen: int, uno: bool) -> None:
    """``Game._play``: card ``t`` goes from ``seat``'s hand to the pile; its effect follows."""
    side = st[F_SIDE]
    colors = TAB + (R_COLOR0 + side) * CAP
    k = R[TAB + (R_KIND0 + side) * CAP + t]
    prev_color = st[F_COLOR]
    remove_card(st, R, seat, t)
    discard = R[C_S_DISC]
    if k in (C.DISCARD_ALL, _WILD_DISCARD_ALL):
        # Every card of the colour goes first, in type order; the Discard All on top.
        target = R[colors + t] if k == C.DISCARD_ALL else chosen
        bits = R[C_S_BITS] + 2 * seat
        for w in range(2):
            x = st[bits + w]
            while x != 0:
                other = w * 64 + lowest_bit(x)
                x &= x - 1
                if R[colors + other] == target:
                    for _ in range(st[R[C_S_CNT] + seat * CAP + other]):
                        st[discard + st[F_DISCLEN]] = other
                        st[F_DISCLEN] += 1
                        remove_card(st, R, seat, other)
    st[discard + st[F_DISCLEN]] = t
    st[F_DISCLEN] += 1
    st[F_PASSES] = 0
    if k >= _WILD:
        st[F_COLOR] = -1 if k == _WILD_DISCARD_ALL else chosen
    else:
        st[F_COLOR] = R[colors + t]
    left = st[R[C_S_HLEN] + seat]
    if left == 1 and not uno:
        st[F_EXPOSED] = seat  # catchable until the window closes (R-1.5, D-2)
    if left == 0:
        go_out(st, R, seat, k, chosen)
    else:
        effect(st, R, seat, k, chosen, prev_color)


@jit
def draw_amount(k: int) -> int:
    """Cards a coloured draw card makes the next player draw (0 for other kinds)."""
    if k == C.DRAW_ONE:
        return 1
    if k == C.DRAW_TWO:
        return 2
    if k == C.DRAW_FIVE:
        return 5
    return 0


@jit
def effect(st: I64, R: I64, seat: int, k: int, chosen: int, prev_color: int) -> None:
    """``Game._effect`` of a card of kind ``k`` just played by ``seat``."""
    amount = draw_amount(k)
    if k < 10 or k in (_WILD, C.DISCARD_ALL):
        advance(st, R, seat, 1)
    elif k == C.SKIP:
        advance(st, R, seat, 2)
    elif k == C.REVERSE:
        st[F_DIR] = -st[F_DIR]
        if R[C_PLAYERS] == 2:
            start_turn(st, seat)  # with two players a Reverse acts as a Skip
        else:
            advance(st, R, seat, 1)
    elif amount:
        if R[C_STACKING]:
            st[F_STACK] += amount
            advance(st, R, seat, 1)
        else:
            draw_cards(st, R, next_seat(st, R, seat, 1), amount)
            advance(st, R, seat, 2)
    elif k == C.SKIP_EVERYONE:
        start_turn(st, seat)
    elif k == C.FLIP:
        flip(st, R)
        after_flip(st, R, seat)
    elif k in _DRAW_CARDS:
        victim = next_seat(st, R, seat, 1)
        if R[C_BLUFFING]:
            fair = count_color(st, R, seat, prev_color) == 0
            st[F_TURN] = victim
            st[F_DEC] = D_CHALLENGE
            st[F_SEAT] = victim
            st[F_D0] = seat
            st[F_D1] = k
            st[F_D2] = chosen
            st[F_D3] = 1 if fair else 0
            st[F_D4] = prev_color
        else:
            wild_draw_penalty(st, R, victim, k, chosen, False)
            advance(st, R, seat, 2)
    elif k in _HITS:
        penalty(st, R, next_seat(st, R, seat, 1), 5 if k == C.HIT_5X else 2)
        advance(st, R, seat, 2)
    elif k == C.TRADE_HANDS:
        st[F_DEC] = D_CHOOSE_PLAYER
    elif k == C.WILD_ALL_HIT:
        all_hit(st, R, seat)
        advance(st, R, seat, 1)
    elif k == C.WILD_HIT_FIRE:
        press_until_fire(st, R, next_seat(st, R, seat, 1))
        advance(st, R, seat, 2)
    elif k == C.WILD_PRESS_YOUR_LUCK:
        st[F_DEC] = D_PRESS_YOUR_LUCK
        st[F_LUCKLEN] = 0
    elif k == C.WILD_ALL_OUT_ATTACK:
        target = next_seat(st, R, seat, 1)
        all_out_attack(st, R, target)
        start_turn(st, target)
    elif k == _WILD_DISCARD_ALL:
        choose_color(st, seat, next_seat(st, R, seat, 1))


@jit
def go_out(st: I64, R: I64, seat: int, k: int, chosen: int) -> None:
    """``Game._go_out``: the last card's effect on the others, then the round ends (R-1.6, D-3)."""
    victim = next_seat(st, R, seat, 1)
    amount = draw_amount(k)
    if amount:
        total = amount + st[F_STACK]
        st[F_STACK] = 0
        draw_cards(st, R, victim, total)
    elif k in _DRAW_CARDS:
        wild_draw_penalty(st, R, victim, k, chosen, False)
    elif k in _HITS:
        penalty(st, R, victim, 5 if k == C.HIT_5X else 2)
    elif k == C.WILD_ALL_HIT:
        all_hit(st, R, seat)
    elif k == C.WILD_HIT_FIRE:
        press_until_fire(st, R, victim)
    elif k == C.WILD_ALL_OUT_ATTACK:
        all_out_attack(st, R, victim)
    elif k == C.FLIP:
        flip(st, R)
        top = st[R[C_S_DISC] + st[F_DISCLEN] - 1]
        st[F_COLOR] = R[TAB + (R_COLOR0 + st[F_SIDE]) * CAP + top]
    end_round(st, R, seat)


@jit
def wild_draw_penalty(st: I64, R: I64, victim: int, k: int, named: int, fair_challenged: bool) -> None:
    """``Game._wild_draw_penalty`` (R-2.3, R-3.5, R-3.6)."""
    if k == C.WILD_DRAW_FOUR:
        draw_cards(st, R, victim, 6 if fair_challenged else 4)
    elif k == C.WILD_DRAW_TWO:
        draw_cards(st, R, victim, 4 if fair_challenged else 2)
    else:
        draw_until_color(st, R, victim, named, 2 if fair_challenged else 0)


@jit
def answer_wild_draw(st: I64, R: I64, seat: int, challenged: bool) -> None:
    """``Game._answer_wild_draw``."""
    by = st[F_D0]
    k = st[F_D1]
    named = st[F_D2]
    if not challenged:
        wild_draw_penalty(st, R, seat, k, named, False)
        advance(st, R, seat, 1)
    elif st[F_D3] == 1:  # a fair play: the challenger draws more
        wild_draw_penalty(st, R, seat, k, named, True)
        advance(st, R, seat, 1)
    else:
        if k == C.WILD_DRAW_COLOR:
            draw_until_color(st, R, by, named, 0)
        else:
            draw_cards(st, R, by, 4 if k == C.WILD_DRAW_FOUR else 2)
        start_turn(st, seat)  # the challenger keeps the turn


@jit
def reverse(st: I64, start: int, length: int) -> None:
    """Reverse ``st[start:start + length]`` in place."""
    i = start
    j = start + length - 1
    while i < j:
        t = st[i]
        st[i] = st[j]
        st[j] = t
        i += 1
        j -= 1


@jit
def flip(st: I64, R: I64) -> None:
    """``Game._flip``: the other side up; the piles reverse order (R-3.7, R-5.3)."""
    st[F_SIDE] ^= 1
    reverse(st, R[C_S_DISC], st[F_DISCLEN])
    reverse(st, R[C_S_DRAW], st[F_DRAWLEN])
    st[F_STREAK] = 0


@jit
def after_flip(st: I64, R: I64, seat: int) -> None:
    """``Game._after_flip``: the new top card's action is ignored; a wild's colour is chosen."""
    side = st[F_SIDE]
    top = st[R[C_S_DISC] + st[F_DISCLEN] - 1]
    nxt = next_seat(st, R, seat, 1)
    if R[TAB + (R_KIND0 + side) * CAP + top] >= _WILD:
        choose_color(st, seat, nxt)
    else:
        st[F_COLOR] = R[TAB + (R_COLOR0 + side) * CAP + top]
        start_turn(st, nxt)


@jit
def all_hit(st: I64, R: I64, seat: int) -> None:
    """Every other player presses once, from the next player on (R-4.3)."""
    other = next_seat(st, R, seat, 1)
    while other != seat:
        press(st, R, other, other)
        other = next_seat(st, R, other, 1)


@jit
def all_out_attack(st: I64, R: I64, target: int) -> None:
    """From the target on, players press until it fires; the target takes all (R-5.6)."""
    presser = target
    while press(st, R, presser, target) == 0:
        if nothing_to_draw(st):
            break
        presser = next_seat(st, R, presser, 1)


@jit
def press_your_luck(st: I64, R: I64, seat: int) -> None:
    """``Game._press_your_luck`` (R-5.5)."""
    if press(st, R, seat, seat) == 0:
        st[F_DEC] = D_CHOOSE_DISCARD
        return
    discard = R[C_S_DISC]
    luck = R[C_S_LUCK]
    for i in range(st[F_LUCKLEN]):
        t = st[luck + i]
        length = st[F_DISCLEN]
        for j in range(length - 2, -1, -1):
            if st[discard + j] == t:
                for m in range(j, length - 1):
                    st[discard + m] = st[discard + m + 1]
                st[F_DISCLEN] = length - 1
                add_card(st, R, seat, t)
                break
    advance(st, R, seat, 1)


@jit
def luck_discard(st: I64, R: I64, seat: int, t: int, uno: bool) -> None:
    """``Game._luck_discard``: the card goes under the Wild Press Your Luck."""
    remove_card(st, R, seat, t)
    discard = R[C_S_DISC]
    length = st[F_DISCLEN]
    st[discard + length] = st[discard + length - 1]
    st[discard + length - 1] = t
    st[F_DISCLEN] = length + 1
    st[R[C_S_LUCK] + st[F_LUCKLEN]] = t
    st[F_LUCKLEN] += 1
    left = st[R[C_S_HLEN] + seat]
    if left == 0:
        end_round(st, R, seat)
        return
    if left == 1 and not uno:
        st[F_EXPOSED] = seat
    st[F_DEC] = D_PRESS_YOUR_LUCK


@jit
def end_round(st: I64, R: I64, winner: int) -> None:
    """``Game._end_round`` for a one-round game: score the hands, name the winner (R-1.7)."""
    n = R[C_PLAYERS]
    mode = R[C_SCORING]
    scores = R[C_S_SCORES]
    total = 0
    for seat in range(n):
        value = hand_value(st, R, seat)
        total += value
        if mode != SCORING_WINNER:
            st[scores + seat] += value
    if mode == SCORING_WINNER:
        st[scores + winner] += total - hand_value(st, R, winner)
    st[F_STACK] = 0
    st[F_EXPOSED] = -1
    st[F_ROUND_WINNER] = winner
    winners = 1 << winner  # a game of one hand is won by the player who went out (game_winners)
    st[F_WINNERS] = winners
    st[F_DEC] = D_OVER


# --------------------------------------------------------------------------- batched drivers


@entry
def deal_rows(S: I64, R: I64, rows: I64, seeds: I64) -> None:
    """Deal game ``rows[k]`` anew from ``seeds[k]`` (64-bit seeds as ``int64`` bits)."""
    for k in range(len(rows)):
        deal(S[rows[k]], R, seeds[k])


@entry
def step_all(S: I64, R: I64, actions: I64) -> None:
    """Apply ``actions[g]`` in every unfinished game (actions must be legal)."""
    for g in range(len(actions)):
        st = S[g]
        if st[F_DEC] != D_OVER:
            do(st, R, actions[g])
            st[F_STEPS] += 1


@entry
def masks(S: I64, R: I64, out: NDArray[np.bool_]) -> None:
    """``out[g, id]``: whether action id ``id`` is legal for game ``g``'s seat to act (the
    environments' ids: the late UNO call and the catch are left out)."""
    buf = np.empty(LEGAL_CAP, np.int64)
    n_actions = R[C_ACTIONS]
    out[:, :] = False
    for g in range(out.shape[0]):
        count = legal(S[g], R, buf)
        for i in range(count):
            code = buf[i]
            if code < n_actions:
                out[g, code] = True


@entry
def random_games(st: I64, R: I64, games: int, first_seed: int, wins: I64) -> int:
    """Play ``games`` games (seeds ``first_seed + i``) in the row ``st``, every decision
    uniform over ``Game.legal_actions`` with a chooser generator per game (state ``~seed``);
    add each winner's share (in 1/2520ths) to ``wins[seat]``; return the number of decisions."""
    n = R[C_PLAYERS]
    chooser = np.zeros(1, np.int64)
    buf = np.empty(LEGAL_CAP, np.int64)
    decisions = 0
    for i in range(games):
        seed = first_seed + i
        deal(st, R, seed)
        chooser[0] = ~seed
        while st[F_DEC] != D_OVER:
            count = legal(st, R, buf)
            do(st, R, buf[below_at(chooser, 0, count)])
            decisions += 1
        winners = st[F_WINNERS]
        shared = 0
        for seat in range(n):
            if winners >> seat & 1:
                shared += 1
        for seat in range(n):
            if winners >> seat & 1:
                wins[seat] += 2520 // shared
    return decisions


# --------------------------------------------------------------------------- observations (unokit.encoding)


@jit
def observe(st: I64, R: I64, seat: int, obs: NDArray[np.float32]) -> None:
    """Write ``seat``'s observation vector into ``obs`` (``Encoding.observe``)."""
    n = R[C_PLAYERS]
    types = R[C_TYPES]
    for i in range(len(obs)):
        obs[i] = 0.0
    cnt = R[C_S_CNT] + seat * CAP
    for t in range(types):  # the hand block starts at 0
        obs[t] = st[cnt + t]
    side = st[F_SIDE]
    obs[R[C_O_TOP] + st[R[C_S_DISC] + st[F_DISCLEN] - 1]] = 1.0
    dec = st[F_DEC]
    mine = False
    draw_pile = not R[C_LAUNCHER]
    if dec != D_OVER:
        to_act = st[F_SEAT]
        obs[R[C_O_DECISION] + dec] = 1.0
        obs[R[C_O_TO_ACT] + (to_act - seat) % n] = 1.0
        if to_act == seat:
            mine = True
            if dec == D_PLAY_OR_KEEP:
                obs[R[C_O_DRAWN] + st[F_D0]] = 1.0
        if dec == D_CHALLENGE and draw_pile and st[F_D4] >= 0:
            obs[R[C_O_PREV] + st[F_D4]] = 1.0
    if st[F_COLOR] >= 0:
        obs[R[C_O_COLOR] + st[F_COLOR]] = 1.0
    k = R[C_HISTORY]
    for rel in range(n):
        base = R[C_O_HIST] + rel * k * types
        played = R[C_S_HIST] + ((seat + rel) % n) * k
        for j in range(k):
            if st[played + j] < 0:
                break
            obs[base + j * types + st[played + j]] = 1.0
    hlen = R[C_S_HLEN]
    if R[C_DOUBLE]:
        row = TAB + (R_SLOT0 + 1 - side) * CAP
        faces = R[C_O_FACES]
        base = R[C_O_BACKS]
        for rel in range(1, n):
            other = (seat + rel) % n
            hand = R[C_S_HAND] + other * CAP
            for i in range(hand, hand + st[hlen + other]):
                obs[base + R[row + st[i]]] += 1.0
            base += faces
        if draw_pile and st[F_DRAWLEN] > 0:
            obs[R[C_O_DRAW_BACK] + R[row + st[R[C_S_DRAW] + st[F_DRAWLEN] - 1]]] = 1.0
    at = R[C_O_SIZES]
    for rel in range(n):
        obs[at + rel] = st[hlen + (seat + rel) % n]
    at += n
    obs[at] = st[F_DRAWLEN]
    obs[at + 1] = st[F_DISCLEN]
    obs[at + 2] = st[F_STACK]
    obs[at + 3] = side
    obs[at + 4] = 1.0 if st[F_DIR] == 1 else 0.0
    obs[at + 5] = 1.0 if mine else 0.0
    target = float(R[C_TARGET])
    for rel in range(n):
        obs[R[C_O_SCORES] + rel] = min(1.0, st[R[C_S_SCORES] + (seat + rel) % n] / target)


@entry
def observe_one(st: I64, R: I64, seat: int, obs: NDArray[np.float32]) -> None:
    """:func:`observe`, called from Python."""
    observe(st, R, seat, obs)


@entry
def legal_of(st: I64, R: I64, out: I64) -> int:
    """:func:`legal`, called from Python."""
    return legal(st, R, out)


@entry
def hand_values(st: I64, R: I64, out: I64) -> None:
    """``out[seat]``: :func:`hand_value` of every seat."""
    for seat in range(R[C_PLAYERS]):
        out[seat] = hand_value(st, R, seat)


@entry
def observe_all(S: I64, R: I64, seats: I64, out: NDArray[np.float32]) -> None:
    """``out[g]``: the observation of ``seats[g]`` in game ``g``."""
    for g in range(len(seats)):
        observe(S[g], R, seats[g], out[g])


# --------------------------------------------------------------------------- checking against the reference engine

#: Fields of :func:`digest`, before one hand size per seat.
DIGEST_FIELDS = (
    "rng_high",
    "rng_low",
    "to_act",
    "decision",
    "turn",
    "color",
    "side",
    "direction",
    "uno_exposed",
    "stack",
    "passes",
    "draw_size",
    "discard_size",
    "top",
    "launcher_streak",
)


@jit
def digest(st: I64, R: I64, out: I64) -> None:
    """A cheap summary of a game (:data:`DIGEST_FIELDS`, then each hand's size) that the
    differential check computes from the reference game too."""
    x = st[F_RNG]
    out[0] = (x >> 32) & 0xFFFFFFFF
    out[1] = x & 0xFFFFFFFF
    out[2] = -1 if st[F_DEC] == D_OVER else st[F_SEAT]
    out[3] = st[F_DEC]
    out[4] = st[F_TURN]
    out[5] = st[F_COLOR]
    out[6] = st[F_SIDE]
    out[7] = st[F_DIR]
    out[8] = st[F_EXPOSED]
    out[9] = st[F_STACK]
    out[10] = st[F_PASSES]
    out[11] = st[F_DRAWLEN]
    out[12] = st[F_DISCLEN]
    out[13] = st[R[C_S_DISC] + st[F_DISCLEN] - 1]
    out[14] = st[F_STREAK]
    for seat in range(R[C_PLAYERS]):
        out[15 + seat] = st[R[C_S_HLEN] + seat]


@jit
def legal_hash(codes: I64, count: int) -> int:
    """An order-sensitive hash of a list of action codes."""
    h = 0
    for j in range(count):
        h = (h * 1000003 + codes[j] + 1) & 0xFFFFFFFFFFFF
    return h


@entry
def replay(st: I64, R: I64, moves: I64, digests: I64, start: int, stop: int) -> int:
    """Apply the actions ``moves[j, 0]`` for ``j`` in ``start..stop-1``, checking before each
    that the legal actions number ``moves[j, 2]``, hash to ``moves[j, 3]`` (:func:`legal_hash`)
    and list the action at ``moves[j, 1]``, and after each that the digest equals
    ``digests[j]``. Returns the first ``j`` where something differs, or -1."""
    buf = np.empty(LEGAL_CAP, np.int64)
    mine = np.empty(digests.shape[1], np.int64)
    for j in range(start, stop):
        count = legal(st, R, buf)
        code = moves[j, 0]
        if count != moves[j, 2] or legal_hash(buf, count) != moves[j, 3] or buf[moves[j, 1]] != code:
            return j
        do(st, R, code)
        digest(st, R, mine)
        for f in range(len(mine)):
            if mine[f] != digests[j, f]:
                return j
    return -1


# --------------------------------------------------------------------------- compiled bots (unokit.bots)

#: Policies the kernel can play for a seat: ``random`` and ``rlcard_rule``.
POLICY_RANDOM = 0
POLICY_RLCARD_RULE = 1


@jit
def action_color(st: I64, R: I64, code: int) -> int:
    """The colour an action names (a wild play, a drawn wild, a colour choice), else -1."""
    kind = R[ACT + A_KIND * ACT_CAP + code]
    slot = R[ACT + A_SLOT * ACT_CAP + code]
    if slot < 0 or kind not in (K_PLAY, K_DRAWN, K_COLOR):
        return -1
    return int(st[F_SIDE] * 4 + slot)


@jit
def uno_twin(R: I64, code: int) -> int:
    """The id of the same play, drawn play or discard with the UNO call (-1: none)."""
    kind = R[ACT + A_KIND * ACT_CAP + code]
    if R[ACT + A_UNO * ACT_CAP + code] == 1:
        return -1
    if kind == K_PLAY:
        if R[ACT + A_SLOT * ACT_CAP + code] < 0:
            return int(code + R[C_PLAY_UNO] - R[C_PLAY])
        return int(code + R[C_WILD_UNO] - R[C_WILD])
    if kind == K_DRAWN:
        return int(code + (1 if code == R[C_DRAWN] else 4))
    if kind == K_DISCARD:
        return int(code + R[C_DISCARD_UNO] - R[C_DISCARD])
    return -1


@jit
def prefer_uno(R: I64, codes: I64, count: int, kind: int, out: I64) -> int:
    """``rule_bots._prefer_uno`` of ``codes[:count]`` restricted to actions of ``kind``: drop an
    action whose form with the UNO call is also listed. Writes ``out``; returns its length."""
    kept = 0
    for j in range(count):
        code = codes[j]
        if code >= R[C_ACTIONS] or R[ACT + A_KIND * ACT_CAP + code] != kind:
            continue
        twin = uno_twin(R, code)
        listed = False
        if twin >= 0:
            for m in range(count):
                if codes[m] == twin:
                    listed = True
                    break
        if not listed:
            out[kept] = code
            kept += 1
    return kept


@jit
def most_held_color(st: I64, R: I64, seat: int, codes: I64, start: int, count: int) -> int:
    """``RlcardRuleBot._most_held_color``: of ``codes[start:start + count]``, the first naming
    the colour the hand holds most, or the first action when none names a colour."""
    best = -1
    choice = -1
    for j in range(start, start + count):
        c = action_color(st, R, codes[j])
        if c >= 0:
            held = count_color(st, R, seat, c)
            if held > best:
                best = held
                choice = codes[j]
    return int(codes[start] if choice < 0 else choice)


@jit
def rlcard_rule(st: I64, R: I64, rng: I64, at: int, codes: I64, count: int, work: I64) -> int:
    """``RlcardRuleBot.act`` over the legal actions ``codes[:count]`` (in the engine's order),
    drawing from the bot's generator ``rng[at]`` exactly as the Python bot does; ``work`` is
    scratch room for four lists as long as ``codes``."""
    n_actions = R[C_ACTIONS]
    for j in range(count):
        if codes[j] >= n_actions:
            return int(codes[j])  # catch, or the late UNO call
    dec = st[F_DEC]
    seat = st[F_SEAT]
    kinds = TAB + (R_KIND0 + st[F_SIDE]) * CAP
    cards = ACT + A_CARD * ACT_CAP
    if dec in (D_TURN, D_STACK):
        plays = prefer_uno(R, codes, count, K_PLAY, work)
        if plays == 0:
            return int(R[C_DRAW])
        picked = plays  # work[picked:]: the plays chosen from, in order
        draws = 0
        for j in range(plays):
            if R[kinds + R[cards + work[j]]] in _DRAW_CARDS:
                work[picked + draws] = work[j]
                draws += 1
        if draws and count_color(st, R, seat, st[F_COLOR]) == 0:  # a fair Wild Draw
            return most_held_color(st, R, seat, work, picked, draws)
        others = 0
        for j in range(plays):
            if R[kinds + R[cards + work[j]]] < _WILD:
                work[picked + others] = work[j]
                others += 1
        if others:
            return int(work[picked + below_at(rng, at, others)])
        plain = 0
        for j in range(plays):
            if R[kinds + R[cards + work[j]]] not in _DRAW_CARDS:
                work[picked + plain] = work[j]
                plain += 1
        if plain == 0:
            for j in range(plays):
                work[picked + j] = work[j]
            plain = plays
        distinct_at = 2 * plays  # the distinct cards (plays come in type order)
        distinct = 0
        for j in range(plain):
            card = R[cards + work[picked + j]]
            if distinct == 0 or work[distinct_at + distinct - 1] != card:
                work[distinct_at + distinct] = card
                distinct += 1
        card = work[distinct_at + below_at(rng, at, distinct)]
        same_at = 3 * plays
        same = 0
        for j in range(plain):
            if R[cards + work[picked + j]] == card:
                work[same_at + same] = work[picked + j]
                same += 1
        return most_held_color(st, R, seat, work, same_at, same)
    if dec == D_PLAY_OR_KEEP:
        drawn = prefer_uno(R, codes, count, K_DRAWN, work)
        if drawn:
            return most_held_color(st, R, seat, work, 0, drawn)
        return int(R[C_KEEP])
    if dec == D_CHALLENGE:
        return int(R[C_CHALLENGE] + 1)  # accept
    if dec == D_CHOOSE_COLOR:
        return most_held_color(st, R, seat, codes, 0, count)
    if dec == D_CHOOSE_PLAYER:
        n = R[C_PLAYERS]
        best = -1
        choice = -1
        for j in range(count):
            other = (seat + R[ACT + A_SLOT * ACT_CAP + codes[j]]) % n
            key = st[R[C_S_HLEN] + other] * n + other
            if best < 0 or key < best:
                best = key
                choice = codes[j]
        return int(choice)
    if dec == D_PRESS_YOUR_LUCK:
        return int(R[C_PYL] + 1)  # stop
    discards = prefer_uno(R, codes, count, K_DISCARD, work)
    return int(work[below_at(rng, at, discards)])


@jit
def policy_action(st: I64, R: I64, policy: int, rng: I64, at: int, codes: I64, count: int, work: I64) -> int:
    """The action ``policy`` takes among ``codes[:count]`` with its generator ``rng[at]``."""
    if policy == POLICY_RLCARD_RULE:
        return rlcard_rule(st, R, rng, at, codes, count, work)
    return int(codes[below_at(rng, at, count)])


@entry
def policy_of(st: I64, R: I64, policy: int, rng: I64, at: int) -> int:
    """:func:`policy_action` for the seat to act, called from Python (for tests)."""
    codes = np.empty(LEGAL_CAP, np.int64)
    work = np.empty(4 * LEGAL_CAP, np.int64)
    count = legal(st, R, codes)
    return policy_action(st, R, policy, rng, at, codes, count, work)


# --------------------------------------------------------------------------- environments (unokit.envs.vector)

#: How many deals a reset tries before giving up on reaching the agent's first decision.
MAX_DEALS = 1000
#: A table's generators, gens[g, G_*]: the seeds of later hands (``Session._seeds``) and the
#: session's own generator (``Session.rng``, which seeds the bots).
G_SEEDS = 0
G_SESSION = 1


@jit
def play_bots(st: I64, R: I64, agent: int, policies: I64, bots: I64, codes: I64, work: I64, limit: int) -> None:
    """Let the bots decide until the ``agent`` seat must, the hand ends or ``limit`` decisions
    are taken (``UnoEnv._play_bots``); the environments' catch rule applies to every play."""
    while st[F_DEC] != D_OVER and st[F_SEAT] != agent and st[F_STEPS] < limit:
        seat = st[F_SEAT]
        count = legal(st, R, codes)
        do(st, R, policy_action(st, R, policies[seat], bots, seat, codes, count, work))
        st[F_STEPS] += 1


@jit
def env_deal(
    st: I64, R: I64, gens: I64, bots: I64, agent: int, policies: I64, codes: I64, work: I64, limit: int, seed: int
) -> None:
    """``Session.reset`` then, with an agent seat, ``UnoEnv.reset``: deal (from ``seed`` when
    ``seed >= 0`` is given, else from the table's seed generator), seed each bot from the
    session's generator, play the bots up to the agent's first decision, and deal again when
    the hand ends before it."""
    n = R[C_PLAYERS]
    for attempt in range(MAX_DEALS):
        if attempt == 0 and seed >= 0:
            gens[G_SEEDS] = seed
            game_seed = seed
        else:
            game_seed = int(np.int64(next64_at(gens, G_SEEDS)))
        gens[G_SESSION] = np.int64(next64_at(gens, G_SEEDS))
        deal(st, R, game_seed)
        if agent < 0:
            return
        for k in range(n - 1):
            bots[(agent + 1 + k) % n] = np.int64(next64_at(gens, G_SESSION))
        play_bots(st, R, agent, policies, bots, codes, work, limit)
        if st[F_DEC] != D_OVER and st[F_SEAT] == agent:
            return


@jit
def env_step_tables(
    S: I64,
    R: I64,
    actions: I64,
    resets: I64,
    agent: int,
    policies: I64,
    bots: I64,
    gens: I64,
    limit: int,
    obs: NDArray[np.float32],
    masks: NDArray[np.bool_],
    first: int,
    stride: int,
    codes: I64,
    work: I64,
) -> None:
    """:func:`env_step` of the tables ``first, first + stride, ...`` (one thread's share)."""
    n_actions = R[C_ACTIONS]
    for g in range(first, len(S), stride):
        st = S[g]
        if resets[g] != -1:
            env_deal(st, R, gens[g], bots[g], agent, policies, codes, work, limit, resets[g] if resets[g] >= 0 else -1)
        elif st[F_DEC] != D_OVER and st[F_STEPS] < limit:
            do(st, R, actions[g])
            st[F_STEPS] += 1
            if agent >= 0:
                play_bots(st, R, agent, policies, bots[g], codes, work, limit)
        seat = agent if agent >= 0 else (st[F_SEAT] if st[F_DEC] != D_OVER else 0)
        observe(st, R, seat, obs[g])
        row = masks[g]
        for i in range(n_actions):
            row[i] = False
        if st[F_DEC] != D_OVER and st[F_SEAT] == seat:
            count = legal(st, R, codes)
            for i in range(count):
                if codes[i] < n_actions:
                    row[codes[i]] = True


@parallel_entry
def env_step(
    S: I64,
    R: I64,
    actions: I64,
    resets: I64,
    agent: int,
    policies: I64,
    bots: I64,
    gens: I64,
    limit: int,
    obs: NDArray[np.float32],
    masks: NDArray[np.bool_],
    threads: int,
) -> None:
    """One step of every table: a table with ``resets[g] != -1`` is dealt anew (``resets[g]``:
    its seed, or -2 for the next one from its generator); any other unfinished table applies
    ``actions[g]`` for the seat to act, then (with an ``agent`` seat) the bots play up to the
    agent's next decision. Then ``obs[g]`` and ``masks[g]`` are those of the agent (or of the
    seat to act). Tables are shared out between ``threads`` threads (see
    :func:`env_step_serial` for one)."""
    chunks = max(1, min(len(S), threads))
    for chunk in numba.prange(chunks):
        codes = np.empty(LEGAL_CAP, np.int64)
        work = np.empty(4 * LEGAL_CAP, np.int64)
        env_step_tables(
            S, R, actions, resets, agent, policies, bots, gens, limit, obs, masks, chunk, chunks, codes, work
        )


@entry
def env_step_serial(
    S: I64,
    R: I64,
    actions: I64,
    resets: I64,
    agent: int,
    policies: I64,
    bots: I64,
    gens: I64,
    limit: int,
    obs: NDArray[np.float32],
    masks: NDArray[np.bool_],
) -> None:
    """:func:`env_step` in the calling thread (no parallel region to start and join)."""
    codes = np.empty(LEGAL_CAP, np.int64)
    work = np.empty(4 * LEGAL_CAP, np.int64)
    env_step_tables(S, R, actions, resets, agent, policies, bots, gens, limit, obs, masks, 0, 1, codes, work)


# --------------------------------------------------------------------------- the simulator (unokit.sim)

_POOL_LOW = np.uint64(1 << 32)


@jit
def splitmix_once(state: np.uint64) -> np.uint64:
    """The first ``Rng(state).next64()``."""
    z = state + _GOLDEN
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@jit
def derive_seed(seed: int, parts: I64, count: int) -> int:
    """``unokit.sim.runner.derive_seed(seed, *parts[:count])`` as the bits of an ``int64``."""
    value = splitmix_once(np.uint64(seed))
    for i in range(count):
        value = splitmix_once(value ^ (np.uint64(parts[i]) * _GOLDEN))
    return int(np.int64(value))


@entry
def sim_games(
    st: I64,
    R: I64,
    seed: int,
    start: int,
    policies: I64,
    turns: I64,
    decisions: I64,
    dealers: I64,
    winners: I64,
    scores: I64,
    round_winners: I64,
) -> None:
    """Play games ``start .. start + len(turns) - 1`` of a simulation exactly as
    ``unokit.sim.runner.play_games`` does with the bots ``policies`` (by entry): game seeds and
    bot seeds derived from ``(seed, index)``, entry ``e`` in seat ``(e + index) % players``,
    ``random`` seats choosing with digits of their generator's numbers, the other bots
    answering a missed UNO call out of turn. Writes each game's turns, decisions, dealer,
    winners (a bit set), final scores and the hand's winner."""
    n = R[C_PLAYERS]
    n_actions = R[C_ACTIONS]
    codes = np.empty(LEGAL_CAP, np.int64)
    work = np.empty(4 * LEGAL_CAP, np.int64)
    parts = np.empty(2, np.int64)
    rngs = np.empty(n, np.int64)
    pools = np.zeros(n, np.uint64)
    kinds = np.empty(n, np.int64)
    for k in range(len(turns)):
        index = start + k
        parts[0] = index
        deal(st, R, derive_seed(seed, parts, 1))
        for seat in range(n):
            entry_index = (seat - index) % n
            parts[1] = 1 + entry_index
            rngs[seat] = derive_seed(seed, parts, 2)
            pools[seat] = 0
            kinds[seat] = policies[entry_index]
        dealers[k] = st[F_DEALER]
        count_turns = 0
        count_decisions = 0
        while st[F_DEC] != D_OVER:
            count_decisions += 1
            if st[F_DEC] in (D_TURN, D_STACK):
                count_turns += 1
            actor = st[F_SEAT]
            count = legal(st, R, codes)
            if kinds[actor] == POLICY_RANDOM:
                pool = pools[actor]
                if pool < _POOL_LOW:
                    pool = next64_at(rngs, actor)
                code = codes[pool % np.uint64(count)]
                pools[actor] = pool // np.uint64(count)
            else:
                code = policy_action(st, R, kinds[actor], rngs, actor, codes, count, work)
            do(st, R, code)
            exposed = st[F_EXPOSED]
            if exposed >= 0 and st[F_DEC] != D_OVER and st[R[C_S_HLEN] + exposed] == 1:
                for j in range(n):  # react_all: the exposed seat first, then the others in turn
                    seat = (exposed + j) % n
                    if kinds[seat] != POLICY_RANDOM:
                        do(st, R, n_actions if seat == exposed else n_actions + 1)
                        break
        turns[k] = count_turns
        decisions[k] = count_decisions
        winners[k] = st[F_WINNERS]
        round_winners[k] = st[F_ROUND_WINNER]
        for seat in range(n):
            scores[k, seat] = st[R[C_S_SCORES] + seat]
