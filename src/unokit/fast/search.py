"""Information-set Monte Carlo tree search on the kernel (the engine of the ``ismcts_fast`` bot).

This is the search of :mod:`unokit.bots.ismcts` (single-observer ISMCTS, Cowling, Powley and
Whitehouse, IEEE TCIAIG 4(2), 2012) compiled, with every game it imagines held in a kernel row:

* **determinisation** (:func:`deal_hidden`): the compiled form of
  :meth:`unokit.core.determinise.Determiniser.sample`. Given the same two random orders it deals
  exactly the same hands and draw pile (tested); the Python side describes, from the
  determiniser, which cards are unseen and where they may go (:class:`Hidden`);
* **the tree** (arrays of nodes): children keyed by the seat that acts and the action id,
  statistics pooled over determinisations, UCB1 corrected for availability, one node expanded
  per iteration; optionally the other seats play a policy with their determinised hands there
  instead, at chosen kinds of decision;
* **rollouts** on the kernel with a compiled policy (:data:`POLICIES`), cut after ``depth``
  decisions and scored by a linear hand-strength model (Bradley-Terry over the seats), or
  played to the end of the hand (``depth < 0``).

Everything random comes from one SplitMix64 generator (the bot's), so a search is a function of
the generator's state, the position and the budget.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..core.determinise import Determiniser
from ..core.kinds import KINDS
from .kernel import (
    A_CARD,
    A_KIND,
    A_SLOT,
    A_UNO,
    ACT,
    ACT_CAP,
    C_ACTIONS,
    C_COLOR,
    C_PLAYERS,
    C_PYL,
    C_S_BITS,
    C_S_CNT,
    C_S_DISC,
    C_S_DRAW,
    C_S_HAND,
    C_S_HLEN,
    CAP,
    D_CHALLENGE,
    D_CHOOSE_COLOR,
    D_CHOOSE_DISCARD,
    D_CHOOSE_PLAYER,
    D_OVER,
    D_PLAY_OR_KEEP,
    D_PRESS_YOUR_LUCK,
    D_STACK,
    D_TURN,
    F_COLOR,
    F_D0,
    F_D3,
    F_D4,
    F_DEC,
    F_DISCLEN,
    F_DRAWLEN,
    F_RNG,
    F_SEAT,
    F_SIDE,
    F_TURN,
    F_WINNERS,
    I64,
    K_DISCARD,
    K_DRAWN,
    K_PLAY,
    LEGAL_CAP,
    R_COLOR0,
    R_KIND0,
    TAB,
    below_at,
    count_color,
    do,
    entry,
    jit,
    legal,
    next64_at,
    playable,
    uniform_at,
)
from .load import as_int64

F64 = NDArray[np.float64]

#: Rollout policies, by code: ``greedy`` plays a card whenever it can (the policy of the Python
#: bot's rollouts), ``random`` picks uniformly among the searched actions, ``greedy_color`` is
#: ``greedy`` choosing among its coloured plays one of the colour its player holds most.
POLICIES = ("greedy", "random", "greedy_color")
POLICY_GREEDY = 0
POLICY_RANDOM = 1
POLICY_GREEDY_COLOR = 2

#: Ways of dealing the unseen cards (:class:`Hidden`).
DEAL_PLAIN = 0
DEAL_READS = 1
DEAL_BACKS = 2

# Node fields, nodes[k, N_*] (wins and rewards are kept apart, in floats).
N_CHILD = 0  # first child, -1: none
N_NEXT = 1  # next sibling, -1: none
N_ACTOR = 2  # the seat that chose the edge into this node
N_CODE = 3  # the action id of that edge
N_VISITS = 4
N_AVAIL = 5
N_FIELDS = 6

# The hand-strength features (unokit.bots.ismcts.FEATURES) per card type: tables[side, F, t].
T_WILD = 0
T_DRAW = 1
T_ACTION = 2
N_TYPE_FLAGS = 3


def type_flags(deck_kinds: tuple[tuple[int, ...], tuple[int, ...]]) -> I64:
    """``flags[side, T_*, t]``: whether card ``t`` shows a wild, a coloured draw card, or another
    coloured action card on ``side`` (from the card-kind table)."""
    flags = np.zeros((2, N_TYPE_FLAGS, CAP), np.int64)
    for side in (0, 1):
        for t, k in enumerate(deck_kinds[side]):
            kind = KINDS[k]
            if kind.wild:
                flags[side, T_WILD, t] = 1
            elif kind.draws > 0:
                flags[side, T_DRAW, t] = 1
            elif kind.number < 0:
                flags[side, T_ACTION, t] = 1
    return flags


@dataclass(frozen=True)
class Hidden:
    """Where the unseen cards may go, as :class:`~unokit.core.determinise.Determiniser` says.

    ``pool``: the unseen cards; ``seats[r] = (seat, known, free)`` for each other seat in the
    determiniser's order: its hand starts with ``known`` cards it is known to hold and takes
    ``free`` unseen ones; ``mode``: :data:`DEAL_PLAIN`, :data:`DEAL_READS` (``groups[g] = (seat,
    slots, excluded bits low, high)``: slots of that hand that take none of the excluded types)
    or :data:`DEAL_BACKS` (``back_of[i]``: the back class of ``pool[i]``; ``slots[j] = (seat or
    -1 for the draw pile's top, back class)``)."""

    pool: I64
    seats: I64
    mode: int
    groups: I64
    back_of: I64
    slots: I64

    @classmethod
    def of(cls, sampler: Determiniser) -> Hidden:
        """The unseen cards of ``sampler`` and where they may go."""
        seats = [(s, len(sampler.known[s]), sampler.free[s]) for s in sampler.others]
        groups = [
            (s, count, _word(excluded, 0), _word(excluded, 1))
            for s in sampler.others
            for excluded, count in sampler.groups.get(s, ())
        ]
        if groups:
            mode = DEAL_READS
        elif not sampler.double_sided:
            mode = DEAL_PLAIN
        else:
            mode = DEAL_BACKS
        double = mode == DEAL_BACKS
        return cls(
            pool=np.asarray(sampler.pool, np.int64),
            seats=np.asarray(seats, np.int64).reshape(-1, 3),
            mode=mode,
            groups=np.asarray(groups, np.int64).reshape(-1, 4),
            back_of=np.asarray(sampler.back_of if double else [], np.int64),
            slots=np.asarray(sampler.slots if double else [], np.int64).reshape(-1, 2),
        )


def _word(types: frozenset[int], half: int) -> int:
    """Bits ``64 * half ..`` of a set of card types, as an ``int64``."""
    word = 0
    for t in types:
        if t >> 6 == half:
            word |= 1 << (t & 63)
    return as_int64(word)


# --------------------------------------------------------------------------- determinisation


@jit
def shuffle_order(rng: I64, order: I64, n: int) -> None:
    """``order[:n]`` becomes a uniformly random permutation of ``0..n-1``."""
    for i in range(n):
        order[i] = i
    shuffle_from(rng, order, 0, n)


@jit
def shuffle_from(rng: I64, order: I64, lo: int, n: int) -> None:
    """Put ``order[lo:n]`` in uniformly random order, in place (Fisher-Yates, from the end)."""
    for i in range(n - 1, lo, -1):
        j = lo + below_at(rng, 0, i - lo + 1)
        t = order[i]
        order[i] = order[j]
        order[j] = t


@jit
def weighted_order(rng: I64, weights: F64, order: I64, n: int, k: int) -> None:
    """``order[:n]`` becomes a random permutation of ``0..n-1`` whose first ``k`` entries are a
    weighted sample without replacement (each next one drawn with chance proportional to
    ``weights[i]`` among those left), followed by the others in uniformly random order."""
    total = 0.0
    for i in range(n):
        order[i] = i
        total += weights[i]
    for j in range(min(k, n)):
        target = uniform_at(rng, 0) * total
        m = n - 1
        acc = 0.0
        for q in range(j, n):
            acc += weights[order[q]]
            if acc > target:
                m = q
                break
        t = order[j]
        order[j] = order[m]
        order[m] = t
        total -= weights[order[j]]
    shuffle_from(rng, order, k, n)


@jit
def deal_particle(
    rng: I64, particles: I64, cumulative: F64, first_of: I64, taken: I64, dealt: I64, order: I64, n: int, stamp: int
) -> None:
    """``order[:n]`` becomes an order of the pool that deals one row of ``particles`` first (the
    row drawn with chance proportional to its weight: ``cumulative`` holds the running sums of
    the weights), then the rest of the pool in uniformly random order. The pool is sorted by
    card type and ``first_of[t]`` is where type ``t`` starts; ``taken`` (``CAP``) and ``dealt``
    (``n``, marked with ``stamp``, a number new to each call) are scratch room."""
    count = len(cumulative)
    target = uniform_at(rng, 0) * cumulative[count - 1]
    lo = 0
    hi = count - 1
    while lo < hi:  # the first row whose running sum passes the target
        mid = (lo + hi) // 2
        if cumulative[mid] > target:
            hi = mid
        else:
            lo = mid + 1
    k = 0
    for j in range(particles.shape[1]):
        taken[particles[lo, j]] = 0
    for j in range(particles.shape[1]):
        t = particles[lo, j]
        i = first_of[t] + taken[t]
        taken[t] += 1
        order[k] = i
        dealt[i] = stamp
        k += 1
    for i in range(n):
        if dealt[i] != stamp:
            order[k] = i
            k += 1
    shuffle_from(rng, order, particles.shape[1], n)


@entry
def deal_particle_of(rng: I64, particles: I64, cumulative: F64, pool: I64) -> I64:
    """The order of ``pool`` (sorted by card type) that :func:`deal_particle` gives, called
    from Python (for tests)."""
    n = len(pool)
    first_of = np.zeros(CAP, np.int64)
    for i in range(n - 1, -1, -1):
        first_of[pool[i]] = i
    order = np.empty(n, np.int64)
    deal_particle(rng, particles, cumulative, first_of, np.zeros(CAP, np.int64), np.zeros(n, np.int64), order, n, 1)
    return order


@jit
def rebuild_hand(st: I64, R: I64, seat: int) -> None:
    """Recompute ``seat``'s counts per type and set of types from its list of cards."""
    count = R[C_S_CNT] + seat * CAP
    bits = R[C_S_BITS] + 2 * seat
    for t in range(CAP):
        st[count + t] = 0
    st[bits] = 0
    st[bits + 1] = 0
    hand = R[C_S_HAND] + seat * CAP
    for i in range(hand, hand + st[R[C_S_HLEN] + seat]):
        t = st[i]
        st[count + t] += 1
        st[bits + (t >> 6)] |= 1 << (t & 63)


@jit
def deal_hidden(
    st: I64,
    R: I64,
    pool: I64,
    seats: I64,
    mode: int,
    groups: I64,
    back_of: I64,
    slots: I64,
    order: I64,
    order2: I64,
    work: I64,
) -> int:
    """Deal the unseen cards ``pool`` of ``st`` to the other hands (after their known cards)
    and the draw pile, as ``Determiniser.sample`` does with the random orders ``order`` (of the
    pool) and ``order2`` (of the cards left for the draw pile below a seen top: used by
    :data:`DEAL_READS` and :data:`DEAL_BACKS`). ``work`` is scratch room (``4 * CAP``). Returns
    how many cards ``order2`` orders (0 when it is not used)."""
    n_pool = len(pool)
    hand0 = R[C_S_HAND]
    hlen0 = R[C_S_HLEN]
    draw = R[C_S_DRAW]
    used = work[0:CAP]
    rest = work[CAP : 2 * CAP]
    rest_len = 0
    for r in range(seats.shape[0]):
        st[hlen0 + seats[r, 0]] = seats[r, 1]
    if mode == DEAL_PLAIN:
        k = 0
        for r in range(seats.shape[0]):
            s = seats[r, 0]
            at = hand0 + s * CAP + seats[r, 1]
            for j in range(seats[r, 2]):
                st[at + j] = pool[order[k]]
                k += 1
            st[hlen0 + s] = seats[r, 1] + seats[r, 2]
        for j in range(n_pool - k):
            st[draw + j] = pool[order[k + j]]
        st[F_DRAWLEN] = n_pool - k
        for r in range(seats.shape[0]):
            rebuild_hand(st, R, seats[r, 0])
        return 0
    for i in range(n_pool):
        used[i] = 0
    top = -1
    if mode == DEAL_READS:
        for r in range(seats.shape[0]):
            s = seats[r, 0]
            at = hand0 + s * CAP
            size = seats[r, 1]
            for g in range(groups.shape[0]):
                if groups[g, 0] != s:
                    continue
                want = groups[g, 1]
                got = 0
                for m in range(n_pool):
                    if got == want:
                        break
                    i = order[m]
                    t = pool[i]
                    if used[i] == 0 and (groups[g, 2 + (t >> 6)] >> (t & 63)) & 1 == 0:
                        used[i] = 1
                        st[at + size] = t
                        size += 1
                        got += 1
            need = seats[r, 1] + seats[r, 2] - size
            for m in range(n_pool):
                if need == 0:
                    break
                i = order[m]
                if used[i] == 0:
                    used[i] = 1
                    st[at + size] = pool[i]
                    size += 1
                    need -= 1
            st[hlen0 + s] = size
        for m in range(n_pool):
            i = order[m]
            if used[i] == 0:
                rest[rest_len] = pool[i]
                rest_len += 1
    else:
        # By back class in the random order; each slot takes the next card of its class.
        first = work[2 * CAP : 3 * CAP]  # classes in order of first appearance
        taken = work[3 * CAP : 4 * CAP]
        classes = 0
        for b in range(CAP):
            taken[b] = -1
        for m in range(n_pool):
            b = back_of[order[m]]
            if taken[b] < 0:
                taken[b] = 0
                first[classes] = b
                classes += 1
        for r in range(seats.shape[0]):
            st[hlen0 + seats[r, 0]] = seats[r, 1]
        for j in range(slots.shape[0]):
            s = slots[j, 0]
            b = slots[j, 1]
            # the (taken[b])-th card of class b in the order
            seen = 0
            for m in range(n_pool):
                i = order[m]
                if back_of[i] == b:
                    if seen == taken[b]:
                        used[i] = 1
                        if s < 0:
                            top = pool[i]
                        else:
                            st[hand0 + s * CAP + st[hlen0 + s]] = pool[i]
                            st[hlen0 + s] += 1
                        break
                    seen += 1
            taken[b] += 1
        for c in range(classes):
            b = first[c]
            for m in range(n_pool):
                i = order[m]
                if back_of[i] == b and used[i] == 0:
                    rest[rest_len] = pool[i]
                    rest_len += 1
    for j in range(rest_len):
        st[draw + j] = rest[order2[j]]
    length = rest_len
    if top >= 0:
        st[draw + length] = top
        length += 1
    st[F_DRAWLEN] = length
    for r in range(seats.shape[0]):
        rebuild_hand(st, R, seats[r, 0])
    return rest_len


@jit
def settle_hidden_facts(st: I64, R: I64, me: int) -> None:
    """What the open decision hides follows from the dealt hands, as in
    ``Determiniser.game``: a challenged Wild Draw card was fair when its player holds no card
    of the previous colour; another seat's drawn card is the last card of its hand that can be
    played (or its last card)."""
    dec = st[F_DEC]
    if dec == D_CHALLENGE:
        st[F_D3] = 1 if count_color(st, R, st[F_D0], st[F_D4]) == 0 else 0
    elif dec == D_PLAY_OR_KEEP and st[F_SEAT] != me:
        seat = st[F_SEAT]
        hand = R[C_S_HAND] + seat * CAP
        size = st[R[C_S_HLEN] + seat]
        card = st[hand + size - 1]
        for i in range(size - 1, -1, -1):
            if playable(st, R, seat, st[hand + i], size - 1):
                card = st[hand + i]
                break
        st[F_D0] = card


@entry
def deal_with_orders(
    st: I64,
    R: I64,
    pool: I64,
    seats: I64,
    mode: int,
    groups: I64,
    back_of: I64,
    slots: I64,
    order: I64,
    order2: I64,
    me: int,
) -> None:
    """:func:`deal_hidden` then :func:`settle_hidden_facts`, called from Python (for tests)."""
    work = np.empty(4 * CAP, np.int64)
    deal_hidden(st, R, pool, seats, mode, groups, back_of, slots, order, order2, work)
    settle_hidden_facts(st, R, me)


# --------------------------------------------------------------------------- actions searched


@jit
def prune(R: I64, codes: I64, count: int) -> int:
    """``ismcts.searched_actions`` in place: drop the out-of-turn late UNO call and catch, and a play (or
    drawn play, or discard) whose form with the UNO call is listed (the kernel lists that form
    right after it). Returns the new count."""
    n_actions = R[C_ACTIONS]
    kept = 0
    for j in range(count):
        code = codes[j]
        if code >= n_actions:
            continue
        if j + 1 < count and R[ACT + A_UNO * ACT_CAP + codes[j + 1]] == 1 and R[ACT + A_UNO * ACT_CAP + code] == 0:
            kind = R[ACT + A_KIND * ACT_CAP + code]
            if kind == R[ACT + A_KIND * ACT_CAP + codes[j + 1]] and (kind in (K_PLAY, K_DRAWN, K_DISCARD)):
                continue
        codes[kept] = code
        kept += 1
    return kept


@entry
def prune_legal(st: I64, R: I64, out: I64) -> int:
    """The searched actions of ``st`` (:func:`legal` then :func:`prune`), called from Python."""
    return prune(R, out, legal(st, R, out))


# --------------------------------------------------------------------------- rollouts


@jit
def most_held(st: I64, R: I64, seat: int) -> int:
    """``bots.base.most_held_color``: the colour of the active side that most of ``seat``'s cards
    show (the first of the side's colours on a tie)."""
    side = st[F_SIDE]
    best = -1
    color = side * 4
    for c in range(side * 4, side * 4 + 4):
        held = count_color(st, R, seat, c)
        if held > best:
            best = held
            color = c
    return int(color)


#: Ranks of :func:`greedy_action` are multiples of this, leaving room for the colour held.
_RANK = 1024


@jit
def greedy_action(st: I64, R: I64, rng: I64, codes: I64, count: int, work: I64, by_color: bool) -> int:
    """The Python bot's rollout policy (``ismcts._rollout``) over the legal actions
    ``codes[:count]``: play a card whenever one is playable (a play that leaves one card with
    UNO first, then coloured cards, wilds last naming the colour held most; catch when possible),
    play a drawn card, accept Wild Draws, stop pressing, trade with the smallest hand, discard at
    random (with UNO when possible). Equal choices are drawn uniformly; with ``by_color``
    (:data:`POLICY_GREEDY_COLOR`) a coloured card from the hand ranks above another of the same
    rank when its player holds more cards of its colour (the colour then in play is one it can
    follow), so the draw is among the plays of the colours held most."""
    dec = st[F_DEC]
    seat = st[F_SEAT]
    n_actions = R[C_ACTIONS]
    if dec in (D_TURN, D_STACK, D_PLAY_OR_KEEP):
        rank = 0
        best = 0
        wild_color = -2
        colors = TAB + (R_COLOR0 + st[F_SIDE]) * CAP
        for j in range(count):
            code = codes[j]
            if code >= n_actions:
                r = 5 * _RANK if code == n_actions + 1 else 0
            else:
                kind = R[ACT + A_KIND * ACT_CAP + code]
                if kind != K_PLAY and kind != K_DRAWN:
                    continue
                slot = R[ACT + A_SLOT * ACT_CAP + code]
                uno = R[ACT + A_UNO * ACT_CAP + code] == 1
                if slot >= 0:
                    if wild_color == -2:
                        wild_color = most_held(st, R, seat)
                    if st[F_SIDE] * 4 + slot != wild_color:
                        continue
                    r = (3 if uno else 1) * _RANK
                else:
                    r = (4 if uno else 2) * _RANK
                    if by_color and kind == K_PLAY:
                        r += min(count_color(st, R, seat, R[colors + R[ACT + A_CARD * ACT_CAP + code]]), _RANK - 1)
            if r == 0:
                continue
            if r > rank:
                rank = r
                best = 0
            if r == rank:
                work[best] = code
                best += 1
        if best == 0:
            last = codes[count - 1]
            return int(codes[count - 2] if last == n_actions + 1 else last)
        return int(work[below_at(rng, 0, best)] if best > 1 else work[0])
    if dec == D_CHOOSE_COLOR:
        return int(R[C_COLOR] + most_held(st, R, seat) - st[F_SIDE] * 4)
    if dec == D_CHOOSE_PLAYER:
        n = R[C_PLAYERS]
        choice = -1
        smallest = 1 << 30
        for j in range(count):
            code = codes[j]
            if code >= n_actions:
                continue
            other = (seat + R[ACT + A_SLOT * ACT_CAP + code]) % n
            size = st[R[C_S_HLEN] + other]
            if size < smallest:
                smallest = size
                choice = code
        return int(choice)
    if dec == D_CHOOSE_DISCARD:
        unos = 0
        for j in range(count):
            code = codes[j]
            if code < n_actions and R[ACT + A_UNO * ACT_CAP + code] == 1:
                work[unos] = code
                unos += 1
        if unos == 0:
            for j in range(count):
                if codes[j] < n_actions:
                    work[unos] = codes[j]
                    unos += 1
        return int(work[below_at(rng, 0, unos)])
    if dec == D_PRESS_YOUR_LUCK:
        return int(R[C_PYL] + 1)  # stop
    return int(codes[1])  # challenge: accept


@jit
def rollout(st: I64, R: I64, rng: I64, policy: int, depth: int, codes: I64, work: I64) -> None:
    """Play on with ``policy`` for ``depth`` decisions (to the end of the hand when negative)."""
    left = depth
    while st[F_DEC] != D_OVER and left != 0:
        left -= 1
        count = legal(st, R, codes)
        if policy == POLICY_RANDOM:
            count = prune(R, codes, count)
        do(st, R, policy_action(st, R, rng, policy, codes, count, work))


@jit
def policy_action(st: I64, R: I64, rng: I64, policy: int, codes: I64, count: int, work: I64) -> int:
    """The action of the rollout ``policy`` among ``codes[:count]`` (the legal actions for
    :data:`POLICY_GREEDY` and :data:`POLICY_GREEDY_COLOR`, the searched ones for
    :data:`POLICY_RANDOM`)."""
    if policy == POLICY_RANDOM:
        return int(codes[below_at(rng, 0, count)] if count > 1 else codes[0])
    return greedy_action(st, R, rng, codes, count, work, policy == POLICY_GREEDY_COLOR)


@jit
def index_of(codes: I64, count: int, code: int) -> int:
    """Where ``code`` is in ``codes[:count]`` (it is there)."""
    for j in range(count):
        if codes[j] == code:
            return j
    return 0


@entry
def rollout_of(st: I64, R: I64, rng: I64, policy: int, depth: int) -> None:
    """:func:`rollout`, called from Python (for tests)."""
    codes = np.empty(LEGAL_CAP, np.int64)
    work = np.empty(4 * LEGAL_CAP, np.int64)
    rollout(st, R, rng, policy, depth, codes, work)


# --------------------------------------------------------------------------- the hand-strength model


@jit
def log_strength(st: I64, R: I64, seat: int, flags: I64, size_terms: F64, extra_card: float, terms: F64) -> float:
    """``ismcts.log_strength`` of ``seat``: the size term plus the feature terms (wilds, draw
    cards, other actions, to act, matching, colours)."""
    side = st[F_SIDE]
    kinds = TAB + (R_KIND0 + side) * CAP
    colors = TAB + (R_COLOR0 + side) * CAP
    color = st[F_COLOR]
    top_kind = R[kinds + st[R[C_S_DISC] + st[F_DISCLEN] - 1]]
    hand = R[C_S_HAND] + seat * CAP
    size = st[R[C_S_HLEN] + seat]
    wilds = 0
    draws = 0
    actions = 0
    matching = 0
    held = 0
    for i in range(hand, hand + size):
        t = st[i]
        if flags[side, T_WILD, t]:
            wilds += 1
            continue
        draws += flags[side, T_DRAW, t]
        actions += flags[side, T_ACTION, t]
        c = R[colors + t]
        held |= 1 << c
        if c == color or R[kinds + t] == top_kind:
            matching += 1
    spread = 0
    while held:
        spread += held & 1
        held >>= 1
    n_sizes = len(size_terms)
    value = size_terms[size] if size < n_sizes else size_terms[n_sizes - 1] + extra_card * (size - n_sizes + 1)
    return float(
        value
        + terms[0] * wilds
        + terms[1] * draws
        + terms[2] * actions
        + terms[3] * (1 if st[F_TURN] == seat else 0)
        + terms[4] * matching
        + terms[5] * spread
    )


@jit
def rewards(st: I64, R: I64, out: F64, flags: I64, size_terms: F64, extra_card: float, terms: F64) -> None:
    """``ismcts._rewards``: 1 shared among the winners of a finished hand, else each seat's
    chance to win by the hand-strength model."""
    n = R[C_PLAYERS]
    if st[F_DEC] == D_OVER:
        winners = st[F_WINNERS]
        shared = 0
        for s in range(n):
            shared += (winners >> s) & 1
        for s in range(n):
            out[s] = (1.0 / shared) if (winners >> s) & 1 else 0.0
        return
    top = -1e300
    for s in range(n):
        out[s] = log_strength(st, R, s, flags, size_terms, extra_card, terms)
        top = max(top, out[s])
    total = 0.0
    for s in range(n):
        out[s] = np.exp(out[s] - top)
        total += out[s]
    for s in range(n):
        out[s] /= total


@entry
def rewards_of(st: I64, R: I64, out: F64, flags: I64, size_terms: F64, extra_card: float, terms: F64) -> None:
    """:func:`rewards`, called from Python (for tests)."""
    rewards(st, R, out, flags, size_terms, extra_card, terms)


# --------------------------------------------------------------------------- the search


@jit
def find_child(nodes: I64, node: int, actor: int, code: int) -> int:
    """The child of ``node`` for ``actor`` taking ``code``, or -1."""
    child = nodes[node, N_CHILD]
    while child >= 0:
        if nodes[child, N_CODE] == code and nodes[child, N_ACTOR] == actor:
            return int(child)
        child = nodes[child, N_NEXT]
    return -1


@jit
def children_of(nodes: I64, node: int, actor: int, codes: I64, count: int, kids: I64, where: I64) -> None:
    """``kids[j]``: the child of ``node`` for ``actor`` taking ``codes[j]`` (-1: none), for the
    ``count`` distinct codes, in one pass over the children (``where`` is scratch room indexed by
    action id, its content is never trusted)."""
    for j in range(count):
        kids[j] = -1
        where[codes[j]] = j
    child = nodes[node, N_CHILD]
    while child >= 0:
        if nodes[child, N_ACTOR] == actor:
            code = nodes[child, N_CODE]
            j = where[code]
            if j < count and codes[j] == code:
                kids[j] = child
        child = nodes[child, N_NEXT]


@jit
def add_child(nodes: I64, wins: F64, used: I64, node: int, actor: int, code: int) -> int:
    """A new child of ``node`` for ``actor`` taking ``code`` (the tree has room for it)."""
    new = used[0]
    used[0] = new + 1
    nodes[new, N_CHILD] = -1
    nodes[new, N_NEXT] = nodes[node, N_CHILD]
    nodes[new, N_ACTOR] = actor
    nodes[new, N_CODE] = code
    nodes[new, N_VISITS] = 0
    nodes[new, N_AVAIL] = 1
    wins[new] = 0.0
    nodes[node, N_CHILD] = new
    return int(new)


@entry
def run(
    base: I64,
    R: I64,
    hidden_pool: I64,
    hidden_seats: I64,
    mode: int,
    groups: I64,
    back_of: I64,
    slots: I64,
    me: int,
    rng: I64,
    nodes: I64,
    wins: F64,
    used: I64,
    iterations: int,
    exploration: float,
    policy: int,
    depth: int,
    flags: I64,
    size_terms: F64,
    extra_card: float,
    terms: F64,
    expand: int,
    opponents: int,
    opponent_decisions: int,
    weights: F64,
    particles: I64,
    cumulative: F64,
) -> int:
    """Run ``iterations`` more iterations of the search from the position ``base`` (a kernel
    row whose hidden cards :func:`deal_hidden` deals anew each time) for seat ``me``, growing
    the tree in ``nodes``/``wins`` (``used[0]`` nodes so far; node 0 is the root). Stops early
    when the tree is full. The other seats choose in the tree as ``me`` does (UCB1 over
    statistics pooled across determinisations), except at the decisions ``D_*`` whose bit is
    set in ``opponent_decisions``, where they play the policy ``opponents`` (:data:`POLICIES`)
    with their determinised hands. ``weights`` (one per card of ``hidden_pool``, or none for a
    uniform deal) makes the deal weighted: the other hands take their unseen cards in the order
    of :func:`weighted_order` (a weighted sample for their free slots, then uniformly random),
    the draw pile the rest in uniformly random order. ``particles`` and ``cumulative`` (a belief
    over the hand of the only other seat, :mod:`unokit.fast.belief`; none for the deal above):
    each iteration deals that seat's unseen cards as one row of ``particles`` (card types),
    drawn with chance proportional to its weight (``cumulative`` holds the running sums), and
    the draw pile the rest in uniformly random order. Returns the iterations run."""
    return grow(
        base, R, hidden_pool, hidden_seats, mode, groups, back_of, slots, me, rng, nodes, wins, used, iterations,
        exploration, policy, depth, flags, size_terms, extra_card, terms, expand, opponents, opponent_decisions,
        weights, particles, cumulative, False, np.zeros(0, np.float64),
    )  # fmt: skip


@entry
def grow(
    base: I64,
    R: I64,
    hidden_pool: I64,
    hidden_seats: I64,
    mode: int,
    groups: I64,
    back_of: I64,
    slots: I64,
    me: int,
    rng: I64,
    nodes: I64,
    wins: F64,
    used: I64,
    iterations: int,
    exploration: float,
    policy: int,
    depth: int,
    flags: I64,
    size_terms: F64,
    extra_card: float,
    terms: F64,
    expand: int,
    opponents: int,
    opponent_decisions: int,
    weights: F64,
    particles: I64,
    cumulative: F64,
    uniform_root: bool,
    totals: F64,
) -> int:
    """:func:`run`, and two more things a review of a game asks for. With ``uniform_root``,
    ``me``'s choices at the root share the iterations equally (each iteration takes the root
    choice of fewest visits, the first on a tie) instead of by UCB1, so that every choice is
    searched as deeply as the others and their values compare fairly. ``totals`` (one entry per
    seat, or none) adds up each seat's reward over the iterations: divided by the iterations
    run, the chance of each seat to win the hand from the position, whoever is to act. The other
    arguments are :func:`run`'s. Returns the iterations run."""
    st = np.empty_like(base)
    codes = np.empty(LEGAL_CAP, np.int64)
    kids = np.empty(LEGAL_CAP, np.int64)
    where = np.zeros(R[C_ACTIONS] + 2, np.int64)
    work = np.empty(4 * LEGAL_CAP, np.int64)
    spare = np.empty(4 * LEGAL_CAP, np.int64)
    scratch = np.empty(4 * CAP, np.int64)
    order = np.empty(max(len(hidden_pool), 1), np.int64)
    order2 = np.empty(max(len(hidden_pool), 1), np.int64)
    path = np.empty(4096, np.int64)
    reward = np.empty(R[C_PLAYERS], np.float64)
    capacity = nodes.shape[0]
    n_pool = len(hidden_pool)
    rest = n_pool  # the cards left for the draw pile below a seen top
    for r in range(hidden_seats.shape[0]):
        rest -= hidden_seats[r, 2]
    if mode == DEAL_BACKS:
        for j in range(slots.shape[0]):
            if slots[j, 0] < 0:
                rest -= 1
    width = len(base)
    weighted = len(weights) > 0
    # A weighted order must not order the draw pile too: the plain deal's draw pile is the rest
    # of the order, the others' is the rest shuffled again (an ungrouped read deal does that).
    deal_mode = DEAL_READS if weighted and mode == DEAL_PLAIN else mode
    n_particles = len(cumulative)
    first_of = np.zeros(CAP, np.int64)  # where each card type starts in the pool (sorted by type)
    taken = np.zeros(CAP, np.int64)
    dealt = np.zeros(max(n_pool, 1), np.int64)
    if n_particles:
        deal_mode = DEAL_PLAIN
        for i in range(n_pool - 1, -1, -1):
            first_of[hidden_pool[i]] = i
    done = 0
    for _ in range(iterations):
        if used[0] + 1 > capacity:
            break
        done += 1
        for i in range(width):
            st[i] = base[i]
        if n_particles:
            deal_particle(rng, particles, cumulative, first_of, taken, dealt, order, n_pool, done)
        elif weighted:
            weighted_order(rng, weights, order, n_pool, n_pool - rest)
        else:
            shuffle_order(rng, order, n_pool)
        if deal_mode != DEAL_PLAIN:
            shuffle_order(rng, order2, rest)
        deal_hidden(st, R, hidden_pool, hidden_seats, deal_mode, groups, back_of, slots, order, order2, scratch)
        settle_hidden_facts(st, R, me)
        st[F_RNG] = np.int64(next64_at(rng, 0))
        node = 0
        length = 0
        while st[F_DEC] != D_OVER and length < len(path):
            actor = st[F_SEAT]
            count = prune(R, codes, legal(st, R, codes))
            children_of(nodes, node, actor, codes, count, kids, where)
            if actor != me and (opponent_decisions >> st[F_DEC]) & 1:
                code = policy_action(st, R, rng, opponents, codes, count, spare) if count > 1 else codes[0]
                child = kids[index_of(codes, count, code)]
                expanded = child < 0
                if expanded:
                    child = add_child(nodes, wins, used, node, actor, code)
                path[length] = child
                length += 1
                node = child
                do(st, R, code)
                if expanded:
                    break
                continue
            untried = 0
            for j in range(count):
                if kids[j] < 0:
                    work[untried] = codes[j]
                    untried += 1
            if untried:
                for j in range(count):
                    if kids[j] >= 0:
                        nodes[kids[j], N_AVAIL] += 1
                code = -1
                if expand >= 0 and untried > 1:
                    code = policy_action(st, R, rng, expand, codes, count, spare)
                    if kids[index_of(codes, count, code)] >= 0:
                        code = -1  # the policy's action is in the tree: one of the others
                if code < 0:
                    code = work[below_at(rng, 0, untried)] if untried > 1 else work[0]
                new = add_child(nodes, wins, used, node, actor, code)
                path[length] = new
                length += 1
                do(st, R, code)
                break
            best = -1.0
            chosen = kids[0]
            if uniform_root and node == 0 and actor == me:
                fewest = -1
                for j in range(count):
                    child = kids[j]
                    nodes[child, N_AVAIL] += 1
                    if fewest < 0 or nodes[child, N_VISITS] < fewest:
                        fewest = nodes[child, N_VISITS]
                        chosen = child
                path[length] = chosen
                length += 1
                node = chosen
                do(st, R, nodes[chosen, N_CODE])
                continue
            for j in range(count):
                child = kids[j]
                nodes[child, N_AVAIL] += 1
                visits = nodes[child, N_VISITS]
                score = wins[child] / visits + exploration * np.sqrt(np.log(nodes[child, N_AVAIL]) / visits)
                if score > best:
                    best = score
                    chosen = child
            path[length] = chosen
            length += 1
            node = chosen
            do(st, R, nodes[chosen, N_CODE])
        if depth != 0:
            rollout(st, R, rng, policy, depth, codes, work)
        rewards(st, R, reward, flags, size_terms, extra_card, terms)
        for s in range(len(totals)):
            totals[s] += reward[s]
        for j in range(length):
            child = path[j]
            nodes[child, N_VISITS] += 1
            wins[child] += reward[nodes[child, N_ACTOR]]
    return done


@entry
def best_root_action(nodes: I64, wins: F64, me: int) -> int:
    """The action id of the root's most visited child for seat ``me`` (more wins on a tie;
    -1 when there is none)."""
    child = nodes[0, N_CHILD]
    best = -1
    best_visits = -1
    best_wins = -1.0
    while child >= 0:
        if nodes[child, N_ACTOR] == me:
            visits = nodes[child, N_VISITS]
            if visits > best_visits or (visits == best_visits and wins[child] > best_wins):
                best = nodes[child, N_CODE]
                best_visits = visits
                best_wins = wins[child]
        child = nodes[child, N_NEXT]
    return int(best)


def root_visits(nodes: I64, me: int) -> dict[int, int]:
    """The visits of the root's children for seat ``me``, by action id (the search's visit
    distribution, which ``unokit dataset`` writes as the target of imitation)."""
    out: dict[int, int] = {}
    child = int(nodes[0, N_CHILD])
    while child >= 0:
        if nodes[child, N_ACTOR] == me:
            out[int(nodes[child, N_CODE])] = int(nodes[child, N_VISITS])
        child = int(nodes[child, N_NEXT])
    return out


def new_tree(capacity: int) -> tuple[I64, F64, I64]:
    """Empty node arrays for a search of at most ``capacity - 1`` iterations: the root only."""
    nodes = np.zeros((capacity, N_FIELDS), np.int64)
    nodes[0, N_CHILD] = -1
    nodes[0, N_NEXT] = -1
    wins = np.zeros(capacity, np.float64)
    used = np.ones(1, np.int64)
    return nodes, wins, used
