"""Many games at once: :class:`Batch` (step, legal masks, observations, positions) and
:func:`random_playout`."""

from __future__ import annotations

import operator
import time
from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..core import cards as C
from ..core.decks import standard_deck
from ..core.errors import IllegalActionError, InvalidActionError, OptionError, quote
from ..core.launcher import RandomLauncher
from ..core.position import FORMAT, from_position
from ..core.rng import MASK64
from ..core.variants import get_rules
from ..encoding import Encoding
from . import kernel as K
from .kernel import (
    D_CHALLENGE,
    D_CHOOSE_COLOR,
    D_CHOOSE_DISCARD,
    D_OVER,
    D_PLAY_OR_KEEP,
    D_PRESS_YOUR_LUCK,
    D_STACK,
    DECISION_KINDS,
)
from .load import load_game
from .tables import playout_rules, resolve_options, rules_for

#: A shared win counts ``1/k`` for each of its ``k`` winners; wins are tallied in these units.
WIN_DENOM = 2520
#: The most games one :class:`Batch` holds side by side (the batched environments' tables):
#: a bound on its memory (a game's row is some 7 KB, its observation up to 450 KB).
MAX_BATCH = 1 << 18


def _whole(value: object, what: str, low: int, high: int | None = None) -> int:
    """``value`` as a whole number from ``low`` (to ``high``); raise :class:`OptionError`
    naming ``what`` for anything else (a float, a string, ``True``)."""
    try:
        if isinstance(value, bool):
            raise TypeError
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise OptionError(f"{what} must be a whole number, not {quote(value)}") from None
    if number < low:
        raise OptionError(f"{what} must be at least {low}, not {quote(number)}")
    if high is not None and number > high:
        raise OptionError(f"{what} must be at most {high:,}, not {quote(number)}")
    return int(number)


def whole_seeds(seeds: object, count: int, high: int = MASK64, each: str = "game") -> NDArray[np.uint64]:
    """``count`` seeds, one per ``each``, each a whole number from 0 to ``high`` (an array of
    NumPy integers too), as ``uint64``; raise :class:`OptionError` for anything else
    (``[1.5, 1.7]`` is not read as ``[1, 1]``)."""
    if isinstance(seeds, np.ndarray) and seeds.dtype.kind in "iu" and seeds.ndim == 1:
        if seeds.size and (int(seeds.min()) < 0 or int(seeds.max()) > high):
            raise OptionError(f"seeds are whole numbers from 0 to {high}")
        out = seeds.astype(np.uint64)
    elif isinstance(seeds, (str, bytes, dict)) or not isinstance(seeds, Iterable):
        raise OptionError(f"give one whole-number seed per {each} ({count}), not {quote(seeds)}")
    else:
        out = np.array([_whole(s, "a seed", 0, high) for s in seeds], np.uint64)
    if out.size != count:
        raise OptionError(f"give one seed per {each} ({count}), not {out.size}")
    return out


class Batch:
    """``size`` games played side by side: game ``i`` is
    ``unokit.new_game(variant, players, seed=seed + i, rounds=1, **options)``, and from the same
    actions it passes through exactly the same positions.

    Actions are the ids of :mod:`unokit.encoding` (``encoding.num_actions`` of them). The
    keyword ``history`` is the encoding's (plays per seat in the observation); ``uno_catch``
    is ``"never"`` (plain games: nobody catches a missed UNO call, as in the reference engine
    when no one asks to) or ``"auto"`` (the environments' catch rule with probability 1: the next
    seat catches every missed call). Other keywords are rule options; the kernel plays those of
    :data:`unokit.fast.SUPPORTED_OPTIONS` and raises :class:`~unokit.OptionError` for any other.
    """

    def __init__(
        self,
        variant: str,
        players: int,
        size: int,
        seed: int,
        *,
        history: int = 2,
        uno_catch: str = "never",
        **options: object,
    ) -> None:
        name, resolved = resolve_options(variant, options)
        self.size = _whole(size, "size", 1, MAX_BATCH)
        if uno_catch not in ("auto", "never"):
            raise OptionError(f"uno_catch must be 'auto' or 'never', not {uno_catch!r}")
        self.encoding = Encoding(name, players, history)
        self.variant = name
        self.players = players
        self.options = resolved
        self.rules = get_rules(name)
        self.deck = standard_deck(name)
        self.num_actions = self.encoding.num_actions
        self.rules_vector = rules_for(self.encoding, resolved, catch=uno_catch == "auto")
        #: One row per game (see :mod:`unokit.fast.kernel` for its layout).
        self.state = np.zeros((self.size, int(self.rules_vector[K.C_S_WIDTH])), np.int64)
        self._buffer = np.empty(K.LEGAL_CAP, np.int64)
        self.seed = _whole(seed, "seed", 0) & MASK64
        self.deal(np.arange(self.size), self.seed + np.arange(self.size, dtype=np.uint64))

    # ------------------------------------------------------------------ dealing and acting
    def deal(self, games: Any, seeds: Any) -> None:
        """Deal game ``games[k]`` anew from seed ``seeds[k]`` (as ``new_game`` would)."""
        rows = np.asarray(games, np.int64)
        words = whole_seeds(seeds, rows.size).view(np.int64)
        if rows.shape != words.shape or (rows.size and (rows.min() < 0 or rows.max() >= self.size)):
            raise OptionError(f"deal takes games from 0 to {self.size - 1} and one seed for each")
        K.deal_rows(self.state, self.rules_vector, rows, words)

    def load(self, i: int, position: dict[str, Any]) -> None:
        """Set game ``i`` to ``position`` (the format of :mod:`unokit.core.position`), which must
        be a game of this batch's variant, seats and options; from there it plays exactly as
        ``Game.from_position(position)``. Raises :class:`~unokit.PositionError` for a bad position
        and :class:`~unokit.OptionError` for another game's, leaving the batch unchanged. The
        game's play history (the observation's ``history`` block) starts empty."""
        g = self._check_game(i)
        game = from_position(position)
        if game.variant != self.variant or game.n != self.players or game.options != self.options:
            theirs = game.options.as_dict(game.rules)
            mine = self.options.as_dict(self.rules)
            raise OptionError(
                f"the position is a game of {game.variant}, {game.n} players, options {theirs}; "
                f"this batch plays {self.variant}, {self.players} players, options {mine}"
            )
        row = np.zeros_like(self.state[g])
        load_game(self.rules_vector, row, game)
        self.state[g] = row

    def _field(self, field: int) -> NDArray[np.int64]:
        column: NDArray[np.int64] = self.state[:, field]
        return column

    @property
    def to_act(self) -> NDArray[np.int64]:
        """The seat to act in each game, -1 in a finished game."""
        seats: NDArray[np.int64] = np.where(self.done, -1, self._field(K.F_SEAT))
        return seats

    @property
    def done(self) -> NDArray[np.bool_]:
        """Whether each game is over."""
        over: NDArray[np.bool_] = self._field(K.F_DEC) == D_OVER
        return over

    @property
    def steps(self) -> NDArray[np.int64]:
        """Decisions taken through :meth:`step` in each game since it was dealt."""
        return self._field(K.F_STEPS)

    def legal_mask(self) -> NDArray[np.bool_]:
        """``mask[i, id]``: whether id is legal for game ``i``'s seat to act (all False once over)."""
        out: NDArray[np.bool_] = np.empty((self.size, self.num_actions), np.bool_)
        K.masks(self.state, self.rules_vector, out)
        return out

    def step(self, actions: Any, *, check: bool = True) -> None:
        """Apply one action id per game (``len(actions) == size``; the entries of finished games
        are ignored). With ``check`` (the default) every id is checked first, and an illegal one
        raises :class:`~unokit.IllegalActionError` naming the game, leaving every game unchanged;
        ``check=False`` trusts the caller (ids taken from :meth:`legal_mask`)."""
        ids = np.asarray(actions)
        if ids.shape != (self.size,) or not np.issubdtype(ids.dtype, np.integer):
            raise InvalidActionError(f"step takes {self.size} whole action ids, got {actions!r}")
        ids = ids.astype(np.int64)
        if check:
            mask = self.legal_mask()
            live = ~self.done
            inside = (ids >= 0) & (ids < self.num_actions)
            ok = ~live | (inside & mask[np.arange(self.size), np.clip(ids, 0, self.num_actions - 1)])
            if not ok.all():
                g = int(np.flatnonzero(~ok)[0])
                label = self.encoding.action_labels[ids[g]] if inside[g] else "outside the action ids"
                legal = np.flatnonzero(mask[g]).tolist()
                seat = self.to_act[g]
                raise IllegalActionError(
                    f"game {g}: action {ids[g]} ({label}) is not legal for seat {seat} now; legal ids: {legal}"
                )
        K.step_all(self.state, self.rules_vector, ids)

    def observations(self, seats: Any = None) -> NDArray[np.float32]:
        """``obs[i]``: the observation vector (:mod:`unokit.encoding`) of ``seats[i]`` in game
        ``i``; by default of the seat to act (seat 0 in a finished game)."""
        if seats is None:
            chosen = np.maximum(self.to_act, 0)
        else:
            chosen = np.asarray(seats, np.int64)
            if chosen.shape != (self.size,) or chosen.min() < 0 or chosen.max() >= self.players:
                raise OptionError(f"seats must list one seat from 0 to {self.players - 1} per game")
        out = np.empty((self.size, self.encoding.size), np.float32)
        K.observe_all(self.state, self.rules_vector, chosen, out)
        return out

    # ------------------------------------------------------------------ reading one game
    def _check_game(self, i: int) -> int:
        index = _whole(i, "game", 0)
        if index >= self.size:
            raise OptionError(f"there is no game {index}; games are 0 to {self.size - 1}")
        return index

    def legal_codes(self, i: int) -> list[int]:
        """Game ``i``'s legal actions in ``Game.legal_actions``'s order, as action ids, with
        ``num_actions`` for a late UNO call and ``num_actions + 1`` for catching the exposed seat."""
        g = self._check_game(i)
        count = K.legal_of(self.state[g], self.rules_vector, self._buffer)
        return [int(x) for x in self._buffer[:count]]

    def observation(self, i: int, seat: int) -> NDArray[np.float32]:
        """The observation vector of ``seat`` in game ``i``."""
        g = self._check_game(i)
        if not 0 <= seat < self.players:
            raise OptionError(f"there is no seat {seat}; seats are 0 to {self.players - 1}")
        out = np.empty(self.encoding.size, np.float32)
        K.observe_one(self.state[g], self.rules_vector, seat, out)
        return out

    def mask(self, i: int) -> NDArray[np.bool_]:
        """Game ``i``'s legal-action mask (a row of :meth:`legal_mask`)."""
        out = np.zeros(self.num_actions, np.bool_)
        codes = [c for c in self.legal_codes(i) if c < self.num_actions]
        out[codes] = True
        return out

    def winners(self, i: int) -> list[int]:
        """The seats that won game ``i`` (empty while it runs)."""
        bits = int(self.state[self._check_game(i), K.F_WINNERS])
        return [s for s in range(self.players) if bits >> s & 1]

    def round_winner(self, i: int) -> int | None:
        """The seat that won game ``i``'s hand (went out, or had the lowest hand when blocked)."""
        seat = int(self.state[self._check_game(i), K.F_ROUND_WINNER])
        return None if seat < 0 else seat

    def hand_points(self, i: int) -> list[int]:
        """The points of each hand of game ``i`` on its active side (R-1.7)."""
        g = self._check_game(i)
        values = np.zeros(self.players, np.int64)
        K.hand_values(self.state[g], self.rules_vector, values)
        return [int(v) for v in values]

    def position(self, i: int) -> dict[str, Any]:
        """Game ``i`` in the position format of :mod:`unokit.core.position`."""
        g = self._check_game(i)
        row = [int(x) for x in self.state[g]]
        R = self.rules_vector
        n = self.players

        def block(offset: int, length: int) -> list[int]:
            start = int(R[offset])
            return row[start : start + length]

        text = self.deck.text
        names = C.COLOR_NAMES
        sc = row
        every = block(K.C_S_HAND, n * K.CAP)
        hands = [every[s * K.CAP : s * K.CAP + row[int(R[K.C_S_HLEN]) + s]] for s in range(n)]
        draw = block(K.C_S_DRAW, sc[K.F_DRAWLEN])
        decision = sc[K.F_DEC]
        pending: dict[str, Any] = {"kind": str(DECISION_KINDS[decision])}
        if decision != D_OVER:
            pending["seat"] = sc[K.F_SEAT]
        if decision == D_PLAY_OR_KEEP:
            pending["card"] = text[sc[K.F_D0]]
        elif decision == D_CHALLENGE:
            previous = sc[K.F_D4]
            pending.update(
                by=sc[K.F_D0],
                card=C.KIND_NAMES[sc[K.F_D1]],
                color=names[sc[K.F_D2]],
                fair=sc[K.F_D3] == 1,
                previous_color=names[previous] if previous >= 0 else None,
            )
        elif decision == D_CHOOSE_COLOR:
            pending["then"] = sc[K.F_D0]
        elif decision in (D_PRESS_YOUR_LUCK, D_CHOOSE_DISCARD):
            pending["discarded"] = [text[t] for t in block(K.C_S_LUCK, sc[K.F_LUCKLEN])]
        elif decision == D_STACK:
            pending["total"] = sc[K.F_STACK]
        return {
            "format": FORMAT,
            "variant": self.variant,
            "options": self.options.as_dict(self.rules),
            "players": n,
            "dealer": sc[K.F_DEALER],
            "round": sc[K.F_ROUND],
            "scores": block(K.C_S_SCORES, n),
            "side": self.rules.side_names[sc[K.F_SIDE]],
            "direction": "clockwise" if sc[K.F_DIR] == 1 else "counterclockwise",
            "turn": sc[K.F_TURN],
            "color": names[sc[K.F_COLOR]] if sc[K.F_COLOR] >= 0 else None,
            "hands": [[text[t] for t in hand] for hand in hands],
            "discard": [text[t] for t in block(K.C_S_DISC, sc[K.F_DISCLEN])],
            "draw": [text[t] for t in draw[::-1]],
            "launcher": RandomLauncher(sc[K.F_STREAK]).state() if self.rules.uses_launcher else None,
            "seed": sc[K.F_RNG] & MASK64,
            "pending": pending,
            "uno_exposed": sc[K.F_EXPOSED] if sc[K.F_EXPOSED] >= 0 else None,
            "stack": sc[K.F_STACK],
            "passes": sc[K.F_PASSES],
            "winners": self.winners(g),
        }


def random_playout(variant: str, players: int, games: int, seed: int, **options: object) -> dict[str, Any]:
    """Play ``games`` games (game ``i`` as ``new_game(variant, players, seed=seed + i,
    rounds=1, **options)``) choosing every decision uniformly among ``Game.legal_actions()``
    (the late UNO call and a catch included), with a generator per game whose state starts at
    the bitwise complement of the game's seed. Returns ``games``, ``decisions``, ``wins`` (per
    seat; a shared win counts ``1/k`` to each of its ``k`` winners) and ``seconds``."""
    name, resolved = resolve_options(variant, options)
    count = _whole(games, "games", 1)
    rules = playout_rules(name, players, resolved)
    state = np.zeros(int(rules[K.C_S_WIDTH]), np.int64)
    wins = np.zeros(players, np.int64)
    first = np.array([_whole(seed, "seed", 0) & MASK64], np.uint64).view(np.int64)[0]
    start = time.perf_counter()
    decisions = K.random_games(state, rules, count, first, wins)
    seconds = time.perf_counter() - start
    return {
        "variant": name,
        "players": players,
        "games": count,
        "decisions": int(decisions),
        "wins": [int(w) / WIN_DENOM for w in wins],
        "seconds": seconds,
    }
