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
:mod:`unokit.envs.encoding`. Actions are those ids (``UNO_CODE`` and ``CATCH_CODE`` follow them
for the out-of-turn late UNO call and catch, which the environments leave out).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, cast

import numba
import numpy as np
from numpy.typing import NDArray

from ..core import cards as C
from ..core.game import (
    D_CHALLENGE,
    D_CHOOSE_COLOR,
    D_CHOOSE_DISCARD,
    D_CHOOSE_PLAYER,
    D_OVER,
    D_PLAY_OR_KEEP,
    D_PRESS_YOUR_LUCK,
    D_STACK,
    D_TURN,
    HAND_SIZE,
    UNO_PENALTY,
)
from ..core.launcher import CARDS_PER_FIRE_WEIGHTS, FIRE_HAZARD

F = TypeVar("F", bound=Callable[..., Any])


def jit(function: F) -> F:
    """Compile ``function`` with numba in nopython mode, cached on disk next to this file."""
    return cast(F, numba.njit(cache=True, nogil=True)(function))


# --------------------------------------------------------------------------- layout constants

#: Room for every card of the largest deck in one hand or pile.
CAP = 112

# Scalar fields sc[g, F_*].
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
F_LAST_ACTOR = 22
F_STEPS = 23  # decisions taken through step_all
N_FIELDS = 24

# Piles pile[g, P_*].
P_DRAW = 0
P_DISCARD = 1
P_LUCK = 2

# Per-type tables tab[R_*, t].
R_KIND0 = 0
R_KIND1 = 1
R_COLOR0 = 2
R_COLOR1 = 3
R_POINTS0 = 4
R_POINTS1 = 5
R_COUNT = 6
R_WILD_INDEX = 7  # index among the wild types (encoding.wild_types), -1 for the others
R_SLOT0 = 8  # observation face slot of the type's light face (its back seen from the dark side)
R_SLOT1 = 9
N_ROWS = 10

# Configuration cfg[C_*].
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
N_CONFIG = 40

# What an action id does, act[A_*, id].
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

SCORING_WINNER = 0
SCORING_OWN_HAND = 1
SCORING_LOSER = 2

_WILD = C.WILD
_WILD_DISCARD_ALL = C.WILD_DISCARD_ALL
_WILD_DRAW_FOUR = C.WILD_DRAW_FOUR
_WILD_DRAW_TWO = C.WILD_DRAW_TWO
_WILD_DRAW_COLOR = C.WILD_DRAW_COLOR
_HAZARD = tuple(float(x) for x in FIRE_HAZARD)
_WEIGHTS = tuple(int(x) for x in CARDS_PER_FIRE_WEIGHTS)
_WEIGHT_TOTAL = sum(CARDS_PER_FIRE_WEIGHTS)

_U0 = np.uint64(0)
_U1 = np.uint64(1)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_S58 = np.uint64(58)
_S63 = np.uint64(63)
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

I64 = NDArray[np.int64]
U64 = NDArray[np.uint64]
U8 = NDArray[np.uint8]


class State(NamedTuple):
    """The arrays of ``G`` games (see the module docstring)."""

    sc: I64
    rng: U64
    hand: U8
    hlen: I64
    cnt: U8
    bits: U64
    pile: U8
    scores: I64
    hist: NDArray[np.int16]


class Rules(NamedTuple):
    """The constant tables of one variant with its options (see :mod:`unokit.fast.tables`)."""

    cfg: I64
    tab: I64
    act: I64
    match: U64  # match[side, colour + 1, top kind, word]: playable types as a bit set
    cards: U8  # every physical card by type id, in type order (deck.cards())


def new_state(games: int, players: int, history: int) -> State:
    """Zeroed arrays for ``games`` games of ``players`` seats."""
    return State(
        sc=np.zeros((games, N_FIELDS), np.int64),
        rng=np.zeros(games, np.uint64),
        hand=np.zeros((games, players, CAP), np.uint8),
        hlen=np.zeros((games, players), np.int64),
        cnt=np.zeros((games, players, CAP), np.uint8),
        bits=np.zeros((games, players, 2), np.uint64),
        pile=np.zeros((games, 3, CAP), np.uint8),
        scores=np.zeros((games, players), np.int64),
        hist=np.full((games, players, max(history, 1)), -1, np.int16),
    )


# --------------------------------------------------------------------------- the generator (core/rng.py)


@jit
def mix64(z: np.uint64) -> np.uint64:
    """SplitMix64's output function of an advanced state."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@jit
def next64(rng: U64, g: int) -> np.uint64:
    """``Rng.next64`` of game ``g``'s generator."""
    s = rng[g] + _GOLDEN
    rng[g] = s
    return mix64(s)


@jit
def below(rng: U64, g: int, n: int) -> int:
    """``Rng.below(n)``: uniform in ``[0, n)`` by rejection, drawing as the reference does."""
    un = np.uint64(n)
    rem = (_U0 - un) % un  # 2**64 mod n
    limit = _U0 - rem  # accept x < 2**64 - rem (every x when rem is 0)
    while True:
        x = next64(rng, g)
        if rem == _U0 or x < limit:
            return int(x % un)


@jit
def uniform(rng: U64, g: int) -> float:
    """``Rng.random()``: 53 random bits as a float in ``[0, 1)``."""
    return float(next64(rng, g) >> _S11) * _INV53


@jit
def shuffle(rng: U64, g: int, items: U8, length: int) -> None:
    """``Rng.shuffle`` of ``items[:length]`` (Fisher-Yates from the end)."""
    for i in range(length - 1, 0, -1):
        j = below(rng, g, i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t


# --------------------------------------------------------------------------- hands


@jit
def add_card(s: State, g: int, seat: int, t: int) -> None:
    """Append card ``t`` to ``seat``'s hand."""
    n = s.hlen[g, seat]
    s.hand[g, seat, n] = t
    s.hlen[g, seat] = n + 1
    s.cnt[g, seat, t] += 1
    s.bits[g, seat, t >> 6] |= _U1 << np.uint64(t & 63)


@jit
def remove_card(s: State, g: int, seat: int, t: int) -> None:
    """Remove the first copy of ``t`` from ``seat``'s hand (``list.remove``)."""
    n = s.hlen[g, seat]
    hand = s.hand[g, seat]
    i = 0
    while hand[i] != t:
        i += 1
    for j in range(i, n - 1):
        hand[j] = hand[j + 1]
    s.hlen[g, seat] = n - 1
    left = s.cnt[g, seat, t] - 1
    s.cnt[g, seat, t] = left
    if left == 0:
        s.bits[g, seat, t >> 6] &= ~(_U1 << np.uint64(t & 63))


@jit
def lowest_bit(x: np.uint64) -> int:
    """Index of the lowest set bit of a non-zero word."""
    low = x & (~x + _U1)
    return int(_DEBRUIJN_INDEX[(low * _DEBRUIJN) >> _S58])


@jit
def count_color(s: State, r: Rules, g: int, seat: int, color: int) -> int:
    """Cards of ``color`` (on the active side) in ``seat``'s hand."""
    row = R_COLOR0 + s.sc[g, F_SIDE]
    total = 0
    for i in range(s.hlen[g, seat]):
        if r.tab[row, s.hand[g, seat, i]] == color:
            total += 1
    return total


@jit
def hand_value(s: State, r: Rules, g: int, seat: int) -> int:
    """Points of ``seat``'s hand on the active side (R-1.7)."""
    row = R_POINTS0 + s.sc[g, F_SIDE]
    total = 0
    for i in range(s.hlen[g, seat]):
        total += r.tab[row, s.hand[g, seat, i]]
    return total


@jit
def swap_hands(s: State, g: int, a: int, b: int) -> None:
    """Trade Hands: ``a`` and ``b`` exchange every card."""
    for i in range(CAP):
        x = s.hand[g, a, i]
        s.hand[g, a, i] = s.hand[g, b, i]
        s.hand[g, b, i] = x
        y = s.cnt[g, a, i]
        s.cnt[g, a, i] = s.cnt[g, b, i]
        s.cnt[g, b, i] = y
    for w in range(2):
        z = s.bits[g, a, w]
        s.bits[g, a, w] = s.bits[g, b, w]
        s.bits[g, b, w] = z
    n = s.hlen[g, a]
    s.hlen[g, a] = s.hlen[g, b]
    s.hlen[g, b] = n


# --------------------------------------------------------------------------- set-up


@jit
def start_turn(s: State, g: int, seat: int) -> None:
    """``Game._start_turn``."""
    sc = s.sc
    sc[g, F_TURN] = seat
    sc[g, F_DEC] = D_STACK if sc[g, F_STACK] else D_TURN
    sc[g, F_SEAT] = seat


@jit
def next_seat(s: State, r: Rules, g: int, seat: int, steps: int) -> int:
    """The seat ``steps`` places after ``seat`` in the current direction."""
    n = r.cfg[C_PLAYERS]
    return int((seat + s.sc[g, F_DIR] * steps) % n)


@jit
def advance(s: State, r: Rules, g: int, seat: int, steps: int) -> None:
    """``Game._advance``."""
    start_turn(s, g, next_seat(s, r, g, seat, steps))


@jit
def choose_color(s: State, g: int, chooser: int, then: int) -> None:
    """``Game._choose_color``."""
    sc = s.sc
    sc[g, F_COLOR] = -1
    sc[g, F_DEC] = D_CHOOSE_COLOR
    sc[g, F_SEAT] = chooser
    sc[g, F_TURN] = chooser
    sc[g, F_D0] = then


@jit
def deal(s: State, r: Rules, g: int, seed: np.uint64) -> None:
    """``Game.new`` with the standard deck and ``rounds=1``: cut for the dealer, deal, turn up."""
    cfg = r.cfg
    n = cfg[C_PLAYERS]
    size = cfg[C_DECK]
    sc = s.sc
    sc[g, :] = 0
    s.rng[g] = seed
    for seat in range(n):
        s.hlen[g, seat] = 0
        s.scores[g, seat] = 0
        s.cnt[g, seat, :] = 0
        s.bits[g, seat, 0] = _U0
        s.bits[g, seat, 1] = _U0
        s.hist[g, seat, :] = -1
    draw = s.pile[g, P_DRAW]
    # Cut for the dealer: highest number on the first side deals; ties cut again.
    candidates = np.empty(n, np.int64)
    values = np.empty(n, np.int64)
    count = n
    for seat in range(n):
        candidates[seat] = seat
    while True:
        draw[:size] = r.cards[:size]
        shuffle(s.rng, g, draw, size)
        top = size
        best = -1
        for i in range(count):
            top -= 1
            k = r.tab[R_KIND0, draw[top]]
            values[i] = k if k < 10 else 0
            best = max(best, values[i])
        kept = 0
        for i in range(count):
            if values[i] == best:
                candidates[kept] = candidates[i]
                kept += 1
        count = kept
        if count == 1:
            break
    dealer = candidates[0]
    sc[g, F_DEALER] = dealer
    sc[g, F_ROUND] = 1
    sc[g, F_DIR] = 1
    sc[g, F_COLOR] = -1
    sc[g, F_EXPOSED] = -1
    sc[g, F_ROUND_WINNER] = -1
    sc[g, F_LAST_ACTOR] = -1
    # Shuffle every card and deal seven each from the dealer's left.
    draw[:size] = r.cards[:size]
    shuffle(s.rng, g, draw, size)
    top = size
    for _ in range(HAND_SIZE):
        for k in range(1, n + 1):
            top -= 1
            add_card(s, g, (dealer + k) % n, int(draw[top]))
    sc[g, F_DRAWLEN] = top
    sc[g, F_DISCLEN] = 0
    turn_up_first_card(s, r, g)


@jit
def turn_up_first_card(s: State, r: Rules, g: int) -> None:
    """``Game._turn_up_first_card`` (R-2.4, R-3.8, R-4.4, R-5.2)."""
    sc = s.sc
    cfg = r.cfg
    n = cfg[C_PLAYERS]
    draw = s.pile[g, P_DRAW]
    discard = s.pile[g, P_DISCARD]
    dealer = sc[g, F_DEALER]
    first = (dealer + 1) % n
    while True:
        length = sc[g, F_DRAWLEN] - 1
        t = draw[length]
        k = r.tab[R_KIND0, t]
        if k == cfg[C_SENT_BACK]:
            shuffle(s.rng, g, draw, length + 1)
            continue
        sc[g, F_DRAWLEN] = length
        discard[sc[g, F_DISCLEN]] = t
        sc[g, F_DISCLEN] += 1
        if cfg[C_IGNORE_ACTIONS] and k >= 10:
            continue
        break
    sc[g, F_COLOR] = r.tab[R_COLOR0, t]
    if k < 10 or k == C.DISCARD_ALL:
        start_turn(s, g, first)
    elif k == C.SKIP:
        start_turn(s, g, next_seat(s, r, g, first, 1))
    elif k == C.REVERSE:
        sc[g, F_DIR] = -1
        start_turn(s, g, dealer)
    elif k == C.DRAW_TWO or k == C.DRAW_ONE:
        draw_cards(s, r, g, first, 2 if k == C.DRAW_TWO else 1)
        start_turn(s, g, next_seat(s, r, g, first, 1))
    elif k == _WILD:
        choose_color(s, g, first, first)
    elif k == C.FLIP:
        flip(s, g)
        top = discard[sc[g, F_DISCLEN] - 1]
        if r.tab[R_KIND1, top] >= _WILD:
            choose_color(s, g, first, first)
        else:
            sc[g, F_COLOR] = r.tab[R_COLOR1, top]
            start_turn(s, g, first)
    elif k == C.HIT_2:
        penalty(s, r, g, first, 2)
        start_turn(s, g, next_seat(s, r, g, first, 1))
    elif k == C.WILD_ALL_HIT:
        seat = first
        while seat != dealer:
            press(s, r, g, seat)
            seat = next_seat(s, r, g, seat, 1)
        choose_color(s, g, first, first)
    elif k == C.WILD_HIT_FIRE:
        press_until_fire(s, r, g, first)
        second = next_seat(s, r, g, first, 1)
        choose_color(s, g, second, second)


# --------------------------------------------------------------------------- drawing


@jit
def refill(s: State, g: int) -> bool:
    """``Game._refill``: the discard pile but its top, shuffled, goes under the draw pile."""
    sc = s.sc
    length = sc[g, F_DISCLEN]
    if length <= 1:
        return False
    discard = s.pile[g, P_DISCARD]
    draw = s.pile[g, P_DRAW]
    top = discard[length - 1]
    moved = length - 1
    shuffle(s.rng, g, discard, moved)
    old = sc[g, F_DRAWLEN]
    for i in range(old - 1, -1, -1):
        draw[i + moved] = draw[i]
    draw[:moved] = discard[:moved]
    sc[g, F_DRAWLEN] = old + moved
    discard[0] = top
    sc[g, F_DISCLEN] = 1
    sc[g, F_STREAK] = 0  # the launcher is reloaded
    return True


@jit
def pop_draw(s: State, g: int) -> int:
    """Take the draw pile's top card (the pile must not be empty)."""
    length = s.sc[g, F_DRAWLEN] - 1
    s.sc[g, F_DRAWLEN] = length
    return int(s.pile[g, P_DRAW, length])


@jit
def draw_cards(s: State, r: Rules, g: int, seat: int, count: int) -> int:
    """``Game._draw``: ``seat`` draws ``count`` cards (fewer when none are left); returns the last."""
    last = -1
    for _ in range(count):
        if s.sc[g, F_DRAWLEN] == 0 and not refill(s, g):
            break
        last = pop_draw(s, g)
        add_card(s, g, seat, last)
    return last


@jit
def draw_until_color(s: State, r: Rules, g: int, seat: int, color: int, extra: int) -> None:
    """``Game._draw_until_color`` (R-3.6)."""
    row = R_COLOR0 + s.sc[g, F_SIDE]
    while True:
        if s.sc[g, F_DRAWLEN] == 0 and not refill(s, g):
            break
        t = pop_draw(s, g)
        add_card(s, g, seat, t)
        if r.tab[row, t] == color:
            break
    if extra:
        draw_cards(s, r, g, seat, extra)


@jit
def press(s: State, r: Rules, g: int, seat: int) -> int:
    """``Game._press`` with the random launcher; returns how many cards came out."""
    return press_for(s, r, g, seat, seat)


@jit
def press_for(s: State, r: Rules, g: int, seat: int, receiver: int) -> int:
    """``seat`` presses once; ejected cards go to ``receiver`` (R-6)."""
    sc = s.sc
    if sc[g, F_DRAWLEN] == 0 and not refill(s, g):
        return 0
    streak = sc[g, F_STREAK]
    fired = 0
    if uniform(s.rng, g) < _HAZARD[min(streak, 3)]:
        sc[g, F_STREAK] = 0
        x = below(s.rng, g, _WEIGHT_TOTAL)
        for i in range(len(_WEIGHTS)):
            if x < _WEIGHTS[i]:
                fired = i + 1
                break
            x -= _WEIGHTS[i]
    else:
        sc[g, F_STREAK] = streak + 1
    ejected = min(fired, sc[g, F_DRAWLEN])
    for _ in range(ejected):
        add_card(s, g, receiver, pop_draw(s, g))
    return int(ejected)


@jit
def nothing_to_draw(s: State, g: int) -> bool:
    """No card in the draw pile and none to reshuffle."""
    return bool(s.sc[g, F_DRAWLEN] == 0 and s.sc[g, F_DISCLEN] <= 1)


@jit
def press_until_fire(s: State, r: Rules, g: int, seat: int) -> None:
    """``Game._press_until_fire``."""
    while press(s, r, g, seat) == 0:
        if nothing_to_draw(s, g):
            break


@jit
def penalty(s: State, r: Rules, g: int, seat: int, count: int) -> None:
    """Draw ``count`` cards, or press the launcher ``count`` times (R-4.1)."""
    if r.cfg[C_LAUNCHER]:
        for _ in range(count):
            press(s, r, g, seat)
    else:
        draw_cards(s, r, g, seat, count)


# --------------------------------------------------------------------------- legal actions


@jit
def fair_wild_draw(s: State, r: Rules, g: int, seat: int, color: int) -> bool:
    """A Wild Draw card is fair when the hand holds no card of ``color`` (R-2.3, R-3.5)."""
    return count_color(s, r, g, seat, color) == 0


@jit
def wild_plays(r: Rules, t: int, uno: bool, out: I64, count: int) -> int:
    """The plays of wild type ``t`` naming each colour slot (each followed by its UNO form)."""
    base = r.cfg[C_WILD] + 4 * r.tab[R_WILD_INDEX, t]
    base_uno = r.cfg[C_WILD_UNO] + 4 * r.tab[R_WILD_INDEX, t]
    for slot in range(4):
        out[count] = base + slot
        count += 1
        if uno:
            out[count] = base_uno + slot
            count += 1
    return count


@jit
def legal(s: State, r: Rules, g: int, out: I64) -> int:
    """Write the legal actions of the seat to act into ``out`` in ``Game.legal_actions``'s
    order (``UNO_CODE`` / ``CATCH_CODE`` for the out-of-turn ones); return how many."""
    sc = s.sc
    cfg = r.cfg
    tab = r.tab
    dec = sc[g, F_DEC]
    seat = sc[g, F_SEAT]
    side = sc[g, F_SIDE]
    size = s.hlen[g, seat]
    count = 0
    if dec in (D_TURN, D_STACK):
        top_kind = tab[R_KIND0 + side, s.pile[g, P_DISCARD, sc[g, F_DISCLEN] - 1]]
        color = sc[g, F_COLOR]
        after = size - 1
        for w in range(2):
            x = s.bits[g, seat, w]
            if dec == D_TURN:
                x &= r.match[side, color + 1, top_kind, w]
            while x != _U0:
                t = w * 64 + lowest_bit(x)
                x &= x - _U1
                k = tab[R_KIND0 + side, t]
                if dec == D_STACK:
                    if k == top_kind:
                        out[count] = cfg[C_PLAY] + t
                        count += 1
                        if size == 2:
                            out[count] = cfg[C_PLAY_UNO] + t
                            count += 1
                elif k >= _WILD:
                    if k == _WILD_DISCARD_ALL:
                        base = cfg[C_WILD] + 4 * tab[R_WILD_INDEX, t]
                        base_uno = cfg[C_WILD_UNO] + 4 * tab[R_WILD_INDEX, t]
                        for slot in range(4):
                            out[count] = base + slot
                            count += 1
                            if after - count_color(s, r, g, seat, side * 4 + slot) == 1:
                                out[count] = base_uno + slot
                                count += 1
                    elif (
                        cfg[C_BLUFFING]
                        or (k != _WILD_DRAW_FOUR and k != _WILD_DRAW_TWO and k != _WILD_DRAW_COLOR)
                        or fair_wild_draw(s, r, g, seat, color)
                    ):
                        count = wild_plays(r, t, after == 1, out, count)
                elif k == C.DISCARD_ALL:
                    left = after - (count_color(s, r, g, seat, tab[R_COLOR0 + side, t]) - 1)
                    out[count] = cfg[C_PLAY] + t
                    count += 1
                    if left == 1:
                        out[count] = cfg[C_PLAY_UNO] + t
                        count += 1
                elif k != C.TRADE_HANDS or after > 0:
                    out[count] = cfg[C_PLAY] + t
                    count += 1
                    if after == 1:
                        out[count] = cfg[C_PLAY_UNO] + t
                        count += 1
        out[count] = cfg[C_DRAW]
        count += 1
    elif dec == D_PLAY_OR_KEEP:
        t = sc[g, F_D0]
        uno = size == 2
        base = cfg[C_DRAWN]
        if tab[R_KIND0 + side, t] >= _WILD:
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
        out[count] = cfg[C_KEEP]
        count += 1
    elif dec == D_CHALLENGE:
        out[0] = cfg[C_CHALLENGE]
        out[1] = cfg[C_CHALLENGE] + 1
        count = 2
    elif dec == D_CHOOSE_COLOR:
        for slot in range(4):
            out[slot] = cfg[C_COLOR] + slot
        count = 4
    elif dec == D_CHOOSE_PLAYER:
        n = cfg[C_PLAYERS]
        for other in range(n):
            if other != seat:
                out[count] = cfg[C_TRADE] + (other - seat) % n - 1
                count += 1
    elif dec == D_PRESS_YOUR_LUCK:
        out[0] = cfg[C_PYL]
        out[1] = cfg[C_PYL] + 1
        count = 2
    elif dec == D_CHOOSE_DISCARD:
        for w in range(2):
            x = s.bits[g, seat, w]
            while x != _U0:
                t = w * 64 + lowest_bit(x)
                x &= x - _U1
                out[count] = cfg[C_DISCARD] + t
                count += 1
                if size == 2:
                    out[count] = cfg[C_DISCARD_UNO] + t
                    count += 1
    else:
        return 0
    exposed = sc[g, F_EXPOSED]
    if exposed >= 0 and s.hlen[g, exposed] == 1:
        out[count] = cfg[C_ACTIONS] + (0 if seat == exposed else 1)
        count += 1
    return count


@jit
def playable(s: State, r: Rules, g: int, seat: int, t: int, cards_after: int) -> bool:
    """``Game._playable``: may ``seat`` play the card ``t`` just drawn."""
    side = s.sc[g, F_SIDE]
    k = r.tab[R_KIND0 + side, t]
    color = s.sc[g, F_COLOR]
    if k >= _WILD:
        if not r.cfg[C_BLUFFING] and (k in (_WILD_DRAW_FOUR, _WILD_DRAW_TWO, _WILD_DRAW_COLOR)):
            return fair_wild_draw(s, r, g, seat, color)
        return True
    if k == C.TRADE_HANDS and cards_after == 0:
        return False
    top = s.pile[g, P_DISCARD, s.sc[g, F_DISCLEN] - 1]
    return bool(r.tab[R_COLOR0 + side, t] == color or k == r.tab[R_KIND0 + side, top])


# --------------------------------------------------------------------------- applying actions


@jit
def do(s: State, r: Rules, g: int, code: int) -> None:
    """``Game._do`` of the action ``code`` (a legal one) by the seat to act; then the
    environments' catch rule when ``cfg[C_CATCH]`` asks for it."""
    sc = s.sc
    cfg = r.cfg
    act = r.act
    seat = sc[g, F_SEAT]
    kind = act[A_KIND, code]
    sc[g, F_LAST_ACTOR] = seat
    if kind == K_CATCH:
        target = sc[g, F_EXPOSED]
        sc[g, F_EXPOSED] = -1
        penalty(s, r, g, target, UNO_PENALTY)
        return
    if kind == K_UNO:
        sc[g, F_EXPOSED] = -1
        return
    exposed = sc[g, F_EXPOSED]
    dec = sc[g, F_DEC]
    if exposed >= 0 and (seat != exposed or dec == D_TURN):
        sc[g, F_EXPOSED] = -1  # the catch window closes (D-2)
    side = sc[g, F_SIDE]
    uno = act[A_UNO, code] == 1
    played = -1
    if kind == K_PLAY:
        played = act[A_CARD, code]
        slot = act[A_SLOT, code]
        play(s, r, g, seat, played, -1 if slot < 0 else side * 4 + slot, uno)
    elif kind == K_DRAW:
        if r.cfg[C_LAUNCHER]:
            turn_press(s, r, g, seat)
        elif dec == D_STACK:
            total = sc[g, F_STACK]
            sc[g, F_STACK] = 0
            draw_cards(s, r, g, seat, total)
            advance(s, r, g, seat, 1)
        else:
            turn_draw(s, r, g, seat)
    elif kind == K_DRAWN:
        played = sc[g, F_D0]
        slot = act[A_SLOT, code]
        play(s, r, g, seat, played, -1 if slot < 0 else side * 4 + slot, uno)
    elif kind in (K_KEEP, K_STOP):
        advance(s, r, g, seat, 1)
    elif kind in (K_CHALLENGE, K_ACCEPT):
        answer_wild_draw(s, r, g, seat, kind == K_CHALLENGE)
    elif kind == K_COLOR:
        sc[g, F_COLOR] = side * 4 + act[A_SLOT, code]
        start_turn(s, g, sc[g, F_D0])
    elif kind == K_TRADE:
        swap_hands(s, g, seat, (seat + act[A_SLOT, code]) % cfg[C_PLAYERS])
        advance(s, r, g, seat, 1)
    elif kind == K_PRESS_AGAIN:
        press_your_luck(s, r, g, seat)
    elif kind == K_DISCARD:
        played = act[A_CARD, code]
        luck_discard(s, r, g, seat, played, uno)
    if played >= 0:
        k = cfg[C_HISTORY]
        if k > 0:
            h = s.hist[g, seat]
            for j in range(k - 1, 0, -1):
                h[j] = h[j - 1]
            h[0] = played
        if cfg[C_CATCH] and not uno and sc[g, F_EXPOSED] == seat and sc[g, F_DEC] != D_OVER and s.hlen[g, seat] == 1:
            sc[g, F_EXPOSED] = -1  # the next seat catches the missed UNO call
            penalty(s, r, g, seat, UNO_PENALTY)


@jit
def turn_draw(s: State, r: Rules, g: int, seat: int) -> None:
    """``Game._turn_draw``: draw one; a playable card may be played at once (R-2.2)."""
    if nothing_to_draw(s, g):
        pass_with_nothing(s, r, g, seat)
        return
    s.sc[g, F_PASSES] = 0
    t = draw_cards(s, r, g, seat, 1)
    if playable(s, r, g, seat, t, s.hlen[g, seat] - 1):
        s.sc[g, F_DEC] = D_PLAY_OR_KEEP
        s.sc[g, F_D0] = t
    else:
        advance(s, r, g, seat, 1)


@jit
def turn_press(s: State, r: Rules, g: int, seat: int) -> None:
    """``Game._turn_press``: press once; the turn ends whatever comes out (R-4.1)."""
    if nothing_to_draw(s, g):
        pass_with_nothing(s, r, g, seat)
        return
    s.sc[g, F_PASSES] = 0
    press(s, r, g, seat)
    advance(s, r, g, seat, 1)


@jit
def pass_with_nothing(s: State, r: Rules, g: int, seat: int) -> None:
    """``Game._pass_with_nothing``: a full circuit of such passes blocks the round (D-4)."""
    sc = s.sc
    n = r.cfg[C_PLAYERS]
    sc[g, F_PASSES] += 1
    if sc[g, F_PASSES] >= n:
        winner = -1
        best = 0
        for k in range(1, n + 1):
            other = next_seat(s, r, g, seat, k)
            value = hand_value(s, r, g, other)
            if winner < 0 or value < best:
                winner = other
                best = value
        end_round(s, r, g, winner)
    else:
        advance(s, r, g, seat, 1)


@jit
def play(s: State, r: Rules, g: int, seat: int, t: int, chosen: int, uno: bool) -> None:
    """``Game._play``: card ``t`` goes from ``seat``'s hand to the pile; its effect follows."""
    sc = s.sc
    tab = r.tab
    side = sc[g, F_SIDE]
    k = tab[R_KIND0 + side, t]
    prev_color = sc[g, F_COLOR]
    remove_card(s, g, seat, t)
    discard = s.pile[g, P_DISCARD]
    if k == C.DISCARD_ALL or k == _WILD_DISCARD_ALL:
        # Every card of the colour goes first, in type order; the Discard All on top.
        target = tab[R_COLOR0 + side, t] if k == C.DISCARD_ALL else chosen
        for w in range(2):
            x = s.bits[g, seat, w]
            while x != _U0:
                x_t = w * 64 + lowest_bit(x)
                x &= x - _U1
                if tab[R_COLOR0 + side, x_t] == target:
                    for _ in range(s.cnt[g, seat, x_t]):
                        discard[sc[g, F_DISCLEN]] = x_t
                        sc[g, F_DISCLEN] += 1
                        remove_card(s, g, seat, x_t)
    discard[sc[g, F_DISCLEN]] = t
    sc[g, F_DISCLEN] += 1
    sc[g, F_PASSES] = 0
    if k >= _WILD:
        sc[g, F_COLOR] = -1 if k == _WILD_DISCARD_ALL else chosen
    else:
        sc[g, F_COLOR] = tab[R_COLOR0 + side, t]
    left = s.hlen[g, seat]
    if left == 1 and not uno:
        sc[g, F_EXPOSED] = seat  # catchable until the window closes (R-1.5, D-2)
    if left == 0:
        go_out(s, r, g, seat, k, chosen)
    else:
        effect(s, r, g, seat, k, chosen, prev_color)


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
def effect(s: State, r: Rules, g: int, seat: int, k: int, chosen: int, prev_color: int) -> None:
    """``Game._effect`` of a card of kind ``k`` just played by ``seat``."""
    sc = s.sc
    cfg = r.cfg
    amount = draw_amount(k)
    if k < 10 or k == _WILD or k == C.DISCARD_ALL:
        advance(s, r, g, seat, 1)
    elif k == C.SKIP:
        advance(s, r, g, seat, 2)
    elif k == C.REVERSE:
        sc[g, F_DIR] = -sc[g, F_DIR]
        if cfg[C_PLAYERS] == 2:
            start_turn(s, g, seat)  # with two players a Reverse acts as a Skip
        else:
            advance(s, r, g, seat, 1)
    elif amount:
        if cfg[C_STACKING]:
            sc[g, F_STACK] += amount
            advance(s, r, g, seat, 1)
        else:
            draw_cards(s, r, g, next_seat(s, r, g, seat, 1), amount)
            advance(s, r, g, seat, 2)
    elif k == C.SKIP_EVERYONE:
        start_turn(s, g, seat)
    elif k == C.FLIP:
        flip(s, g)
        after_flip(s, r, g, seat)
    elif k in (_WILD_DRAW_FOUR, _WILD_DRAW_TWO, _WILD_DRAW_COLOR):
        victim = next_seat(s, r, g, seat, 1)
        if cfg[C_BLUFFING]:
            fair = fair_wild_draw(s, r, g, seat, prev_color)
            sc[g, F_TURN] = victim
            sc[g, F_DEC] = D_CHALLENGE
            sc[g, F_SEAT] = victim
            sc[g, F_D0] = seat
            sc[g, F_D1] = k
            sc[g, F_D2] = chosen
            sc[g, F_D3] = 1 if fair else 0
            sc[g, F_D4] = prev_color
        else:
            wild_draw_penalty(s, r, g, victim, k, chosen, False)
            advance(s, r, g, seat, 2)
    elif k == C.HIT_2 or k == C.HIT_2X or k == C.HIT_5X:
        penalty(s, r, g, next_seat(s, r, g, seat, 1), 5 if k == C.HIT_5X else 2)
        advance(s, r, g, seat, 2)
    elif k == C.TRADE_HANDS:
        sc[g, F_DEC] = D_CHOOSE_PLAYER
    elif k == C.WILD_ALL_HIT:
        all_hit(s, r, g, seat)
        advance(s, r, g, seat, 1)
    elif k == C.WILD_HIT_FIRE:
        press_until_fire(s, r, g, next_seat(s, r, g, seat, 1))
        advance(s, r, g, seat, 2)
    elif k == C.WILD_PRESS_YOUR_LUCK:
        sc[g, F_DEC] = D_PRESS_YOUR_LUCK
        sc[g, F_LUCKLEN] = 0
    elif k == C.WILD_ALL_OUT_ATTACK:
        target = next_seat(s, r, g, seat, 1)
        all_out_attack(s, r, g, target)
        start_turn(s, g, target)
    elif k == _WILD_DISCARD_ALL:
        choose_color(s, g, seat, next_seat(s, r, g, seat, 1))


@jit
def go_out(s: State, r: Rules, g: int, seat: int, k: int, chosen: int) -> None:
    """``Game._go_out``: the last card's effect on the others, then the round ends (R-1.6, D-3)."""
    sc = s.sc
    victim = next_seat(s, r, g, seat, 1)
    amount = draw_amount(k)
    if amount:
        total = amount + sc[g, F_STACK]
        sc[g, F_STACK] = 0
        draw_cards(s, r, g, victim, total)
    elif k in (_WILD_DRAW_FOUR, _WILD_DRAW_TWO, _WILD_DRAW_COLOR):
        wild_draw_penalty(s, r, g, victim, k, chosen, False)
    elif k == C.HIT_2 or k == C.HIT_2X or k == C.HIT_5X:
        penalty(s, r, g, victim, 5 if k == C.HIT_5X else 2)
    elif k == C.WILD_ALL_HIT:
        all_hit(s, r, g, seat)
    elif k == C.WILD_HIT_FIRE:
        press_until_fire(s, r, g, victim)
    elif k == C.WILD_ALL_OUT_ATTACK:
        all_out_attack(s, r, g, victim)
    elif k == C.FLIP:
        flip(s, g)
        top = s.pile[g, P_DISCARD, sc[g, F_DISCLEN] - 1]
        sc[g, F_COLOR] = r.tab[R_COLOR0 + sc[g, F_SIDE], top]
    end_round(s, r, g, seat)


@jit
def wild_draw_penalty(s: State, r: Rules, g: int, victim: int, k: int, named: int, fair_challenged: bool) -> None:
    """``Game._wild_draw_penalty`` (R-2.3, R-3.5, R-3.6)."""
    if k == _WILD_DRAW_FOUR:
        draw_cards(s, r, g, victim, 6 if fair_challenged else 4)
    elif k == _WILD_DRAW_TWO:
        draw_cards(s, r, g, victim, 4 if fair_challenged else 2)
    else:
        draw_until_color(s, r, g, victim, named, 2 if fair_challenged else 0)


@jit
def answer_wild_draw(s: State, r: Rules, g: int, seat: int, challenged: bool) -> None:
    """``Game._answer_wild_draw``."""
    sc = s.sc
    by = sc[g, F_D0]
    k = sc[g, F_D1]
    named = sc[g, F_D2]
    fair = sc[g, F_D3] == 1
    if not challenged:
        wild_draw_penalty(s, r, g, seat, k, named, False)
        advance(s, r, g, seat, 1)
    elif fair:
        wild_draw_penalty(s, r, g, seat, k, named, True)
        advance(s, r, g, seat, 1)
    else:
        if k == _WILD_DRAW_COLOR:
            draw_until_color(s, r, g, by, named, 0)
        else:
            draw_cards(s, r, g, by, 4 if k == _WILD_DRAW_FOUR else 2)
        start_turn(s, g, seat)  # the challenger keeps the turn


@jit
def reverse(items: U8, length: int) -> None:
    """Reverse ``items[:length]`` in place."""
    i = 0
    j = length - 1
    while i < j:
        t = items[i]
        items[i] = items[j]
        items[j] = t
        i += 1
        j -= 1


@jit
def flip(s: State, g: int) -> None:
    """``Game._flip``: the other side up; the piles reverse order (R-3.7, R-5.3)."""
    sc = s.sc
    sc[g, F_SIDE] ^= 1
    reverse(s.pile[g, P_DISCARD], sc[g, F_DISCLEN])
    reverse(s.pile[g, P_DRAW], sc[g, F_DRAWLEN])
    sc[g, F_STREAK] = 0


@jit
def after_flip(s: State, r: Rules, g: int, seat: int) -> None:
    """``Game._after_flip``: the new top card's action is ignored; a wild's colour is chosen."""
    sc = s.sc
    side = sc[g, F_SIDE]
    top = s.pile[g, P_DISCARD, sc[g, F_DISCLEN] - 1]
    nxt = next_seat(s, r, g, seat, 1)
    if r.tab[R_KIND0 + side, top] >= _WILD:
        choose_color(s, g, seat, nxt)
    else:
        sc[g, F_COLOR] = r.tab[R_COLOR0 + side, top]
        start_turn(s, g, nxt)


@jit
def all_hit(s: State, r: Rules, g: int, seat: int) -> None:
    """Every other player presses once, from the next player on (R-4.3)."""
    other = next_seat(s, r, g, seat, 1)
    while other != seat:
        press(s, r, g, other)
        other = next_seat(s, r, g, other, 1)


@jit
def all_out_attack(s: State, r: Rules, g: int, target: int) -> None:
    """From the target on, players press until it fires; the target takes all (R-5.6)."""
    presser = target
    while press_for(s, r, g, presser, target) == 0:
        if nothing_to_draw(s, g):
            break
        presser = next_seat(s, r, g, presser, 1)


@jit
def press_your_luck(s: State, r: Rules, g: int, seat: int) -> None:
    """``Game._press_your_luck`` (R-5.5)."""
    sc = s.sc
    if press(s, r, g, seat) == 0:
        sc[g, F_DEC] = D_CHOOSE_DISCARD
        return
    discard = s.pile[g, P_DISCARD]
    luck = s.pile[g, P_LUCK]
    for i in range(sc[g, F_LUCKLEN]):
        t = int(luck[i])
        length = sc[g, F_DISCLEN]
        for j in range(length - 2, -1, -1):
            if discard[j] == t:
                for m in range(j, length - 1):
                    discard[m] = discard[m + 1]
                sc[g, F_DISCLEN] = length - 1
                add_card(s, g, seat, t)
                break
    advance(s, r, g, seat, 1)


@jit
def luck_discard(s: State, r: Rules, g: int, seat: int, t: int, uno: bool) -> None:
    """``Game._luck_discard``: the card goes under the Wild Press Your Luck."""
    sc = s.sc
    remove_card(s, g, seat, t)
    discard = s.pile[g, P_DISCARD]
    length = sc[g, F_DISCLEN]
    discard[length] = discard[length - 1]
    discard[length - 1] = t
    sc[g, F_DISCLEN] = length + 1
    s.pile[g, P_LUCK, sc[g, F_LUCKLEN]] = t
    sc[g, F_LUCKLEN] += 1
    left = s.hlen[g, seat]
    if left == 0:
        end_round(s, r, g, seat)
        return
    if left == 1 and not uno:
        sc[g, F_EXPOSED] = seat
    sc[g, F_DEC] = D_PRESS_YOUR_LUCK


@jit
def end_round(s: State, r: Rules, g: int, winner: int) -> None:
    """``Game._end_round`` for a one-round game: score the hands, name the winners (R-1.7)."""
    sc = s.sc
    cfg = r.cfg
    n = cfg[C_PLAYERS]
    mode = cfg[C_SCORING]
    target = cfg[C_TARGET]
    total = 0
    for seat in range(n):
        value = hand_value(s, r, g, seat)
        total += value
        if mode != SCORING_WINNER:
            s.scores[g, seat] += value
    if mode == SCORING_WINNER:
        s.scores[g, winner] += total - hand_value(s, r, g, winner)
    sc[g, F_STACK] = 0
    sc[g, F_EXPOSED] = -1
    sc[g, F_ROUND_WINNER] = winner
    scores = s.scores[g]
    high = scores[:n].max()
    low = scores[:n].min()
    winners = 0
    if mode == SCORING_WINNER and scores[winner] >= target:
        winners = 1 << winner
    elif mode == SCORING_OWN_HAND and high >= target:
        for seat in range(n):
            if scores[seat] == low:
                winners |= 1 << seat
    elif mode == SCORING_LOSER and high >= target:
        for seat in range(n):
            if scores[seat] < target:
                winners |= 1 << seat
        if winners == 0:
            for seat in range(n):
                if scores[seat] == low:
                    winners |= 1 << seat
    else:  # the last round is played (rounds=1): the best score wins, the round's winner first
        best = high if mode == SCORING_WINNER else low
        if scores[winner] == best:
            winners = 1 << winner
        else:
            for seat in range(n):
                if scores[seat] == best:
                    winners |= 1 << seat
    sc[g, F_WINNERS] = winners
    sc[g, F_DEC] = D_OVER


# --------------------------------------------------------------------------- batched drivers


@jit
def deal_all(s: State, r: Rules, seeds: U64) -> None:
    """Deal game ``g`` of the batch from ``seeds[g]``."""
    for g in range(len(seeds)):
        deal(s, r, g, seeds[g])


@jit
def step_all(s: State, r: Rules, actions: I64) -> None:
    """Apply ``actions[g]`` in every unfinished game (actions must be legal)."""
    for g in range(len(actions)):
        if s.sc[g, F_DEC] != D_OVER:
            do(s, r, g, actions[g])
            s.sc[g, F_STEPS] += 1


@jit
def masks(s: State, r: Rules, out: NDArray[np.bool_]) -> None:
    """``out[g, id]``: whether action id ``id`` is legal for game ``g``'s seat to act (the
    environments' ids: the late UNO call and the catch are left out)."""
    buf = np.empty(4 * CAP + 64, np.int64)
    n_actions = r.cfg[C_ACTIONS]
    out[:, :] = False
    for g in range(out.shape[0]):
        count = legal(s, r, g, buf)
        for i in range(count):
            code = buf[i]
            if code < n_actions:
                out[g, code] = True


@jit
def random_games(s: State, r: Rules, games: int, first_seed: np.uint64, wins: I64) -> int:
    """Play ``games`` games (seeds ``first_seed + i``) in row 0 of ``s``, every decision uniform
    over ``Game.legal_actions`` with a chooser generator per game (state ``~seed``); add each
    winner's share (in 1/2520ths) to ``wins[seat]``; return the number of decisions."""
    n = r.cfg[C_PLAYERS]
    chooser = np.zeros(1, np.uint64)
    buf = np.empty(4 * CAP + 64, np.int64)
    decisions = 0
    for i in range(games):
        seed = first_seed + np.uint64(i)
        deal(s, r, 0, seed)
        chooser[0] = ~seed
        while s.sc[0, F_DEC] != D_OVER:
            count = legal(s, r, 0, buf)
            do(s, r, 0, buf[below(chooser, 0, count)])
            decisions += 1
        winners = s.sc[0, F_WINNERS]
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
def observe(s: State, r: Rules, g: int, seat: int, obs: NDArray[np.float32]) -> None:
    """Write ``seat``'s observation vector of game ``g`` into ``obs`` (``Encoding.observe``)."""
    sc = s.sc
    cfg = r.cfg
    tab = r.tab
    n = cfg[C_PLAYERS]
    types = cfg[C_TYPES]
    obs[:] = 0.0
    for t in range(types):  # the hand block starts at 0
        obs[t] = s.cnt[g, seat, t]
    side = sc[g, F_SIDE]
    obs[cfg[C_O_TOP] + s.pile[g, P_DISCARD, sc[g, F_DISCLEN] - 1]] = 1.0
    dec = sc[g, F_DEC]
    mine = False
    draw_pile = not cfg[C_LAUNCHER]
    if dec != D_OVER:
        to_act = sc[g, F_SEAT]
        obs[cfg[C_O_DECISION] + dec] = 1.0
        obs[cfg[C_O_TO_ACT] + (to_act - seat) % n] = 1.0
        if to_act == seat:
            mine = True
            if dec == D_PLAY_OR_KEEP:
                obs[cfg[C_O_DRAWN] + sc[g, F_D0]] = 1.0
        if dec == D_CHALLENGE and draw_pile and sc[g, F_D4] >= 0:
            obs[cfg[C_O_PREV] + sc[g, F_D4]] = 1.0
    if sc[g, F_COLOR] >= 0:
        obs[cfg[C_O_COLOR] + sc[g, F_COLOR]] = 1.0
    k = cfg[C_HISTORY]
    for rel in range(n):
        base = cfg[C_O_HIST] + rel * k * types
        played = s.hist[g, (seat + rel) % n]
        for j in range(k):
            if played[j] < 0:
                break
            obs[base + j * types + played[j]] = 1.0
    if cfg[C_DOUBLE]:
        row = R_SLOT0 + 1 - side
        faces = cfg[C_O_FACES]
        base = cfg[C_O_BACKS]
        for rel in range(1, n):
            other = (seat + rel) % n
            for i in range(s.hlen[g, other]):
                obs[base + tab[row, s.hand[g, other, i]]] += 1.0
            base += faces
        if draw_pile and sc[g, F_DRAWLEN] > 0:
            obs[cfg[C_O_DRAW_BACK] + tab[row, s.pile[g, P_DRAW, sc[g, F_DRAWLEN] - 1]]] = 1.0
    at = cfg[C_O_SIZES]
    for rel in range(n):
        obs[at + rel] = s.hlen[g, (seat + rel) % n]
    at += n
    obs[at] = sc[g, F_DRAWLEN]
    obs[at + 1] = sc[g, F_DISCLEN]
    obs[at + 2] = sc[g, F_STACK]
    obs[at + 3] = side
    obs[at + 4] = 1.0 if sc[g, F_DIR] == 1 else 0.0
    obs[at + 5] = 1.0 if mine else 0.0
    target = float(cfg[C_TARGET])
    for rel in range(n):
        obs[cfg[C_O_SCORES] + rel] = min(1.0, s.scores[g, (seat + rel) % n] / target)


@jit
def observe_all(s: State, r: Rules, seats: I64, out: NDArray[np.float32]) -> None:
    """``out[g]``: the observation of ``seats[g]`` in game ``g``."""
    for g in range(len(seats)):
        observe(s, r, g, seats[g], out[g])


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
_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)


@jit
def digest(s: State, r: Rules, g: int, out: I64) -> None:
    """A cheap summary of game ``g`` (:data:`DIGEST_FIELDS`, then each hand's size) that the
    differential check computes from the reference game too."""
    sc = s.sc
    x = s.rng[g]
    out[0] = int(x >> _S32)
    out[1] = int(x & _LOW32)
    over = sc[g, F_DEC] == D_OVER
    out[2] = -1 if over else sc[g, F_SEAT]
    out[3] = sc[g, F_DEC]
    out[4] = sc[g, F_TURN]
    out[5] = sc[g, F_COLOR]
    out[6] = sc[g, F_SIDE]
    out[7] = sc[g, F_DIR]
    out[8] = sc[g, F_EXPOSED]
    out[9] = sc[g, F_STACK]
    out[10] = sc[g, F_PASSES]
    out[11] = sc[g, F_DRAWLEN]
    out[12] = sc[g, F_DISCLEN]
    out[13] = s.pile[g, P_DISCARD, sc[g, F_DISCLEN] - 1]
    out[14] = sc[g, F_STREAK]
    for seat in range(r.cfg[C_PLAYERS]):
        out[15 + seat] = s.hlen[g, seat]


@jit
def replay(
    s: State, r: Rules, g: int, codes: I64, chosen: I64, counts: I64, hashes: I64, digests: I64, start: int, stop: int
) -> int:
    """Apply ``codes[start:stop]`` to game ``g``, checking before each that the legal actions
    number ``counts[j]``, hash to ``hashes[j]`` (:func:`legal_hash`) and list ``codes[j]`` at
    ``chosen[j]``, and after each that the digest equals ``digests[j]``. Returns the first
    ``j`` where something differs, or -1."""
    buf = np.empty(4 * CAP + 64, np.int64)
    mine = np.empty(digests.shape[1], np.int64)
    for j in range(start, stop):
        count = legal(s, r, g, buf)
        if count != counts[j] or legal_hash(buf, count) != hashes[j] or buf[chosen[j]] != codes[j]:
            return j
        do(s, r, g, codes[j])
        digest(s, r, g, mine)
        for f in range(len(mine)):
            if mine[f] != digests[j, f]:
                return j
    return -1


@jit
def legal_hash(codes: I64, count: int) -> int:
    """An order-sensitive hash of a list of action codes."""
    h = 0
    for j in range(count):
        h = (h * 1000003 + codes[j] + 1) & 0xFFFFFFFFFFFF
    return h
