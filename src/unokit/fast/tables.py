"""The constant tables the kernel reads, built from the core's decks and options and from the
action and observation layout of :mod:`unokit.encoding` (so the ids and vectors are the same).

:func:`rules_for` is also where unsupported games are refused: the kernel plays the four
variants with their default options, and ``stacking`` (off or ``true``), ``bluffing``,
``scoring``, ``target`` and ``rounds=1`` set as wished; no house rule. Anything else raises
:class:`~unokit.OptionError`.
"""

from __future__ import annotations

from dataclasses import fields
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..core import cards as C
from ..core.actions import (
    ACCEPT,
    CHALLENGE,
    COLOR,
    DISCARD,
    DRAW,
    KEEP,
    PLAY,
    PLAY_DRAWN,
    PRESS,
    PRESS_AGAIN,
    STOP,
)
from ..core.decks import standard_deck
from ..core.errors import OptionError
from ..core.variants import SCORING_MODES, Options, get_rules, make_options
from ..encoding import Encoding
from . import kernel as K

#: The variants the kernel plays.
VARIANTS = ("classic", "flip", "attack", "flip_attack")
#: The options it plays with any value (``rounds`` only as 1).
SUPPORTED_OPTIONS = ("stacking", "bluffing", "scoring", "target", "rounds")
#: The first card put back into the deck, by variant (R-2.4, R-3.8, R-4.4).
_SENT_BACK = {"classic": C.WILD_DRAW_FOUR, "flip": C.WILD_DRAW_TWO, "attack": C.TRADE_HANDS}
_KIND_CODES = {
    PLAY: K.K_PLAY,
    DRAW: K.K_DRAW,
    PRESS: K.K_DRAW,
    PLAY_DRAWN: K.K_DRAWN,
    KEEP: K.K_KEEP,
    CHALLENGE: K.K_CHALLENGE,
    ACCEPT: K.K_ACCEPT,
    COLOR: K.K_COLOR,
    PRESS_AGAIN: K.K_PRESS_AGAIN,
    STOP: K.K_STOP,
    DISCARD: K.K_DISCARD,
}


def resolve_options(variant: str, options: dict[str, Any]) -> tuple[str, Options]:
    """The variant's name and resolved options, or :class:`OptionError` when the kernel does not
    play them (another variant, an option other than those of :data:`SUPPORTED_OPTIONS` set to a
    value other than its default, or ``rounds`` other than 1)."""
    rules = get_rules(variant)
    if rules.name not in VARIANTS:
        raise OptionError(f"unokit.fast plays {', '.join(VARIANTS)}, not {rules.name}; use the reference engine")
    resolved = make_options(rules, {"rounds": 1, **options})
    if resolved.rounds != 1:
        raise OptionError(f"unokit.fast plays single hands (rounds=1), not rounds={resolved.rounds}")
    defaults = Options()
    for field in fields(Options):
        name = field.name
        if name in SUPPORTED_OPTIONS or name not in rules.accepted_options:
            continue
        if getattr(resolved, name) != getattr(defaults, name):
            raise OptionError(
                f"unokit.fast does not support the option {name}={getattr(resolved, name)!r} "
                f"(it plays {', '.join(SUPPORTED_OPTIONS[:-1])} and rounds=1); use the reference engine"
            )
    if resolved.stacking not in (False, True) or (resolved.stacking and rules.uses_launcher):
        raise OptionError(
            f"unokit.fast stacks only draw cards of the same kind (stacking=true, R-1.9), not "
            f"stacking={resolved.stacking!r} in {rules.name} (H-3); use the reference engine"
        )
    return rules.name, resolved


@lru_cache(maxsize=64)
def playout_rules(variant: str, players: int, options: Options) -> NDArray[np.int64]:
    """The rules vector of single hands of ``variant`` with ``players`` seats and resolved
    ``options``, without history or the environments' catch rule (random play and the
    simulator). Built once per configuration (building one takes milliseconds, as long as
    playing a few thousand decisions). The array is shared between calls: the kernel only
    reads it, and callers must not write to it (it stays writable because numba compiles a
    read-only array as another type)."""
    return rules_for(Encoding(variant, players, 0), options, catch=False)


def rules_for(encoding: Encoding, options: Options, catch: bool) -> NDArray[np.int64]:
    """The kernel's rules vector (see :mod:`unokit.fast.kernel`) for ``encoding``'s variant,
    seats and history with ``options``; ``catch`` turns on the environments' catch rule (the
    next seat catches every missed UNO call)."""
    variant = encoding.variant
    rules = get_rules(variant)
    deck = standard_deck(variant)
    types = len(deck.types)
    R = np.zeros(K.RULES_SIZE, np.int64)

    def tab(row: int, t: int) -> int:
        return K.TAB + row * K.CAP + t

    for side in (0, 1):
        for t in range(types):
            kind = deck.kind[side][t]
            R[tab(K.R_KIND0 + side, t)] = kind
            R[tab(K.R_COLOR0 + side, t)] = deck.color[side][t]
            R[tab(K.R_POINTS0 + side, t)] = rules.card_points(kind)
            R[tab(K.R_SLOT0 + side, t)] = encoding.face_slot[side][t]
    R[tab(K.R_WILD_INDEX, 0) : tab(K.R_WILD_INDEX, K.CAP)] = -1
    for w, t in enumerate(encoding.wild_types):
        R[tab(K.R_WILD_INDEX, t)] = w

    match = np.zeros((2, 9, K.N_KINDS, 2), np.uint64)
    for side in (0, 1):
        for color in range(-1, 8):
            for top_kind in range(K.N_KINDS):
                for t in range(types):
                    kind = deck.kind[side][t]
                    if kind >= C.WILD or deck.color[side][t] == color or kind == top_kind:
                        match[side, color + 1, top_kind, t >> 6] |= np.uint64(1 << (t & 63))
    R[K.MATCH : K.CARDS] = match.reshape(-1).view(np.int64)

    n_actions = encoding.num_actions
    act = np.full((K.N_ACT_ROWS, K.ACT_CAP), -1, np.int64)
    for i in range(n_actions):
        if i == encoding.pass_id:
            continue  # declining a Jump-In offer: the kernel plays no house rule
        if 0 <= encoding.trade_start <= i < encoding.trade_start + 9:
            act[K.A_KIND, i] = K.K_TRADE
            act[K.A_SLOT, i] = i - encoding.trade_start + 1
            act[K.A_UNO, i] = 0
            continue
        action = encoding.decode(i, 0, 0)
        assert action is not None
        act[K.A_KIND, i] = _KIND_CODES[action.kind]
        act[K.A_CARD, i] = action.card
        act[K.A_SLOT, i] = action.color  # side 0: colour c is slot c
        act[K.A_UNO, i] = int(action.uno)
    act[K.A_KIND, n_actions] = K.K_UNO
    act[K.A_KIND, n_actions + 1] = K.K_CATCH
    act[K.A_UNO, n_actions : n_actions + 2] = 0
    R[K.ACT : K.MATCH] = act.reshape(-1)

    groups = {g.name: g.start for g in encoding.action_groups}
    config = {
        K.C_PLAYERS: encoding.players,
        K.C_TYPES: types,
        K.C_DECK: deck.size,
        K.C_LAUNCHER: int(rules.uses_launcher),
        K.C_DOUBLE: int(rules.double_sided),
        K.C_SENT_BACK: _SENT_BACK.get(variant, -1),
        K.C_IGNORE_ACTIONS: int(variant == "flip_attack"),
        K.C_STACKING: int(options.stacking),
        K.C_BLUFFING: int(options.bluffing),
        K.C_SCORING: SCORING_MODES.index(options.scoring),
        K.C_TARGET: options.target,
        K.C_PLAY: groups["play"],
        K.C_PLAY_UNO: groups["play_uno"],
        K.C_WILD: groups["play_wild"],
        K.C_WILD_UNO: groups["play_wild_uno"],
        K.C_DRAW: encoding.draw_start,
        K.C_DRAWN: groups.get("play_drawn", -1),
        K.C_KEEP: groups.get("keep", -1),
        K.C_CHALLENGE: groups.get("challenge", -1),
        K.C_COLOR: groups["color"],
        K.C_TRADE: encoding.trade_start,
        K.C_PYL: groups.get("press_your_luck", -1),
        K.C_DISCARD: groups.get("discard", -1),
        K.C_DISCARD_UNO: groups.get("discard_uno", -1),
        K.C_ACTIONS: n_actions,
        K.C_HISTORY: encoding.history,
        K.C_O_TOP: encoding.block("top").start,
        K.C_O_DRAWN: encoding.block("drawn").start,
        K.C_O_HIST: encoding.block("history").start,
        K.C_O_BACKS: encoding.block("backs").start,
        K.C_O_DRAW_BACK: encoding.block("draw_top_back").start,
        K.C_O_COLOR: encoding.block("color").start,
        K.C_O_PREV: encoding.block("challenge_color").start,
        K.C_O_DECISION: encoding.block("decision").start,
        K.C_O_TO_ACT: encoding.block("to_act").start,
        K.C_O_SIZES: encoding.block("hand_sizes").start,
        K.C_O_SCORES: encoding.block("scores").start,
        K.C_O_FACES: len(encoding.face_labels),
        K.C_O_SIZE: encoding.size,
        K.C_CATCH: int(catch),
        K.C_UNO_PENALTY: rules.uno_penalty,
    }
    for key, value in config.items():
        R[key] = value
    R[K.C_S_SCORES : K.C_S_WIDTH + 1] = K.state_width(encoding.players, encoding.history)
    R[K.CARDS : K.CARDS + deck.size] = deck.cards()
    return R
