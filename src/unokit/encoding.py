"""The observation and action encoding shared by the environments (:mod:`unokit.envs`) and
the compiled kernel (:mod:`unokit.fast`), which produces the same ids and vectors.

An :class:`Encoding` is made for one variant and one number of seats. It holds

* the **action table**: one fixed discrete space per variant (the same for every number of
  seats), with :meth:`Encoding.decode` (id → the engine's interned :class:`~unokit.Action`)
  and :meth:`Encoding.encode` (action → id). Wild cards take one id per (card type, colour
  slot): slot ``c`` names the ``c``-th colour of the active side (red/pink, yellow/teal,
  green/orange, blue/purple), so one id means the same slot on both sides of a Flip deck;
* the **observation layout**: a flat ``float32`` vector of fixed size built only from a
  :class:`~unokit.View` (what the seat knows) and the public history of plays, described
  block by block in :attr:`Encoding.blocks` and in ``docs/envs.md``.

Seats in an observation are relative: slot 0 is the observing seat, slot ``k`` the seat
``(seat + k) % players``. ``trade`` ids are relative the same way (``trade +k``).

The house rules (``docs/rules/house_rules.md``) only ever *append* to the action table and the
observation, so the ids and slices of the official rules never move: a ``trade`` group (the
Seven-O 7) at the end of a table that has none, then ``pass`` (decline a Jump-In offer); the
``jump_offer`` and ``team`` blocks at the end of the observation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
from numpy.typing import NDArray

from .core import cards as C
from .core.actions import CATCH, TARGET, TRADE, UNO, Action
from .core.decks import Deck
from .core.errors import InvalidActionError, OptionError, quote
from .core.game import action_table
from .core.observation import View
from .core.types import ActionKind
from .core.types import DecisionKind as D
from .core.variants import get_rules

#: Open decisions as one-hot slots, in this order, in every variant; a variant whose cards open
#: other decisions (the themed editions) has slots for those after these (``over`` has none).
DECISIONS: tuple[str, ...] = (
    D.TURN,
    D.PLAY_OR_KEEP,
    D.CHALLENGE,
    D.CHOOSE_COLOR,
    D.CHOOSE_PLAYER,
    D.PRESS_YOUR_LUCK,
    D.CHOOSE_DISCARD,
    D.STACK,
)

#: Wild plays and colour choices name a colour *slot*: the index of the colour on its side.
COLOR_SLOTS = 4
#: ``trade`` ids cover every other seat of the largest table (relative offsets 1 to 9).
TRADE_OFFSETS = 9
#: The most recent plays of each seat an observation may show (``history``): more than any hand
#: needs, and a bound on the observation's size (about 112,500 values at a table of 10).
MAX_HISTORY = 100

# NumPy parses keyword arguments slowly: the hot paths pass dtypes positionally.
_UINT8 = np.dtype(np.uint8)
_BOOL = np.dtype(np.bool_)
_FLOAT32 = np.dtype(np.float32)

Obs = NDArray[np.float32]
Mask = NDArray[np.bool_]


@dataclass(frozen=True)
class Block:
    """One block of the observation vector: ``obs[start:start + size]``."""

    name: str
    start: int
    size: int
    doc: str


@dataclass(frozen=True)
class ActionGroup:
    """A run of action ids: ``start`` to ``start + size - 1``."""

    name: str
    start: int
    size: int
    doc: str


def _face_order(deck: Deck, side: int, t: int) -> tuple[int, int]:
    color = deck.color[side][t]
    return (color if color >= 0 else 99, deck.kind[side][t])


def _wild(deck: Deck, t: int) -> bool:
    """Whether a play of card type ``t`` names a colour on one of its sides (one id per colour slot)."""
    return deck.kinds[0][t].color_with_play or deck.kinds[1][t].color_with_play


def _opens(deck: Deck, *decisions: D) -> bool:
    """Whether a card of ``deck`` may open one of ``decisions`` (the card-kind table says)."""
    return any(d in kind.opens for side in deck.kinds for kind in side for d in decisions)


class Encoding:
    """Action ids and observation vectors for ``variant`` with ``players`` seats.

    ``history`` is how many of each seat's most recent plays the observation shows.
    """

    def __init__(self, variant: str, players: int, history: int = 2) -> None:
        rules = get_rules(variant)
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(f"players must be a whole number, not {players!r}")
        if not rules.min_players <= players <= rules.max_players:
            raise OptionError(
                f"{rules.title} is for {rules.min_players} to {rules.max_players} players, not {players} (R-1.1)"
            )
        if isinstance(history, bool) or not isinstance(history, int) or not 0 <= history <= MAX_HISTORY:
            raise OptionError(f"history must be a whole number from 0 to {MAX_HISTORY}, not {quote(history)}")
        self.variant: str = rules.name
        self.players = players
        self.history = history
        deck = rules.standard_deck()
        self.deck = deck
        self.table = action_table(deck)
        self.types = len(deck.types)
        self.double_sided = deck.double_sided
        self.draw_pile = not rules.uses_launcher
        extra = [d for d in (D.CHOOSE_TARGET, D.DISCARD_CARDS) if _opens(deck, d)]
        #: The open decisions as one-hot slots: :data:`DECISIONS`, then those of this deck's cards.
        self.decisions: tuple[str, ...] = (*DECISIONS, *extra)
        self._decision_index = {name: i for i, name in enumerate(self.decisions)}
        self._build_actions()
        self._build_observation()

    # ------------------------------------------------------------------ actions
    def _build_actions(self) -> None:
        deck, table, n_types = self.deck, self.table, self.types
        # Colour slot c names SIDE_COLORS[side][c]; single-sided decks only have side 0.
        dark_colors = C.SIDE_COLORS[1] if self.double_sided else C.SIDE_COLORS[0]
        wilds = [t for t in range(n_types) if _wild(deck, t)]
        self.wild_types: tuple[int, ...] = tuple(wilds)
        groups: list[ActionGroup] = []
        labels: list[str] = []
        # decode[side][id]: the action of id on that side (None: trade, or never legal there).
        decode: tuple[list[Action | None], list[Action | None]] = ([], [])
        ids: dict[Action, int] = {}

        def group(name: str, doc: str, entries: list[tuple[str, Action | None, Action | None]]) -> int:
            start = len(labels)
            for label, light, dark in entries:
                i = len(labels)
                labels.append(label)
                decode[0].append(light)
                decode[1].append(dark)
                for action in (light, dark):
                    if action is not None:
                        ids[action] = i
            groups.append(ActionGroup(name, start, len(entries), doc))
            return start

        def same(action: Action) -> tuple[Action, Action]:
            return action, action

        text = deck.text
        self.play_start = group(
            "play",
            "play card type `t` (id = start + t); never legal for a wild that names a colour",
            [(f"play {text[t]}", *same(table.play[t])) for t in range(n_types)],
        )
        self.play_uno_start = group(
            "play_uno",
            "play card type `t` and call UNO (legal when it leaves one card)",
            [(f"play {text[t]} uno", *same(table.play_uno[t])) for t in range(n_types)],
        )

        def wild_entries(rows: list[list[Action]], suffix: str) -> list[tuple[str, Action | None, Action | None]]:
            out: list[tuple[str, Action | None, Action | None]] = []
            for t in wilds:
                for slot in range(COLOR_SLOTS):
                    light = rows[t][C.SIDE_COLORS[0][slot]]
                    dark = rows[t][dark_colors[slot]]
                    names = f"{C.COLOR_NAMES[C.SIDE_COLORS[0][slot]]}"
                    if self.double_sided:
                        names += f"/{C.COLOR_NAMES[C.SIDE_COLORS[1][slot]]}"
                    out.append((f"play {text[t]} {names}{suffix}", light, dark))
            return out

        group(
            "play_wild",
            "play wild type `w` (the w-th wild type) naming colour slot `c`: id = start + 4w + c",
            wild_entries(table.play_color, ""),
        )
        group("play_wild_uno", "the same with the UNO call", wild_entries(table.play_color_uno, " uno"))
        simple = table.simple
        if self.draw_pile:
            self.draw_start = group(
                "draw",
                "draw a card (in a `stack` decision: take the whole total)",
                [("draw", *same(simple[ActionKind.DRAW]))],
            )
            drawn: list[tuple[str, Action | None, Action | None]] = [
                ("play_drawn", *same(table.drawn)),
                ("play_drawn uno", *same(table.drawn_uno)),
            ]
            for uno in (False, True):
                for slot in range(COLOR_SLOTS):
                    light = table.drawn_action(C.SIDE_COLORS[0][slot], uno)
                    dark = table.drawn_action(dark_colors[slot], uno)
                    names = C.COLOR_NAMES[C.SIDE_COLORS[0][slot]]
                    if self.double_sided:
                        names += f"/{C.COLOR_NAMES[C.SIDE_COLORS[1][slot]]}"
                    drawn.append((f"play_drawn {names}{' uno' if uno else ''}", light, dark))
            group(
                "play_drawn",
                "play the card just drawn: plain, plain + UNO, then wild colour slots 0-3, then slots 0-3 + UNO",
                drawn,
            )
            group("keep", "keep the card just drawn", [("keep", *same(simple[ActionKind.KEEP]))])
            group(
                "challenge",
                "challenge, then accept, a Wild Draw card",
                [("challenge", *same(simple[ActionKind.CHALLENGE])), ("accept", *same(simple[ActionKind.ACCEPT]))],
            )
        else:
            self.draw_start = group("press", "press the launcher", [("press", *same(simple[ActionKind.PRESS]))])
        colors: list[tuple[str, Action | None, Action | None]] = []
        for slot in range(COLOR_SLOTS):
            names = C.COLOR_NAMES[C.SIDE_COLORS[0][slot]]
            if self.double_sided:
                names += f"/{C.COLOR_NAMES[C.SIDE_COLORS[1][slot]]}"
            colors.append((f"color {names}", table.color[C.SIDE_COLORS[0][slot]], table.color[dark_colors[slot]]))
        group("color", "name the colour of slot c (a choose_color decision)", colors)
        self.trade_start = -1
        self.target_start = -1
        if _opens(deck, D.CHOOSE_PLAYER):
            self.trade_start = group(
                "trade",
                "Trade Hands (with seven_o also a 7): swap hands with the seat k places after you "
                "(k = 1..9, by seat number)",
                [(f"trade +{k}", None, None) for k in range(1, TRADE_OFFSETS + 1)],
            )
        if _opens(deck, D.PRESS_YOUR_LUCK):
            group(
                "press_your_luck",
                "Wild Press Your Luck: press_again, then stop",
                [("press_again", *same(simple[ActionKind.PRESS_AGAIN])), ("stop", *same(simple[ActionKind.STOP]))],
            )
        if _opens(deck, D.CHOOSE_DISCARD, D.DISCARD_CARDS):
            group(
                "discard",
                "discard card type `t` (after an empty press of Wild Press Your Luck, or when a card asks "
                "for discards)",
                [(f"discard {text[t]}", *same(table.discard[t])) for t in range(n_types)],
            )
            group(
                "discard_uno",
                "discard card type `t` and call UNO",
                [(f"discard {text[t]} uno", *same(table.discard_uno[t])) for t in range(n_types)],
            )
        if _opens(deck, D.CHOOSE_TARGET):
            self.target_start = group(
                "target",
                "challenge the seat k places after you (k = 1..9, by seat number)",
                [(f"target +{k}", None, None) for k in range(1, TRADE_OFFSETS + 1)],
            )
        # House rules, appended: the ids above never move (docs/envs.md, "House rules").
        if self.trade_start < 0:
            self.trade_start = group(
                "trade",
                "with seven_o: after a 7, swap hands with the seat k places after you (k = 1..9, by seat number)",
                [(f"trade +{k}", None, None) for k in range(1, TRADE_OFFSETS + 1)],
            )
        #: The id that declines a Jump-In offer (``jump_in=true``); it decodes to no engine action.
        self.pass_id = group(
            "pass",
            "with jump_in: decline the offer to jump in out of turn (the offer's mask holds the jumps, as "
            "`play` ids, and this id)",
            [("pass", None, None)],
        )
        self.action_groups: tuple[ActionGroup, ...] = tuple(groups)
        self.action_labels: tuple[str, ...] = tuple(labels)
        self.num_actions = len(labels)
        self._decode = (tuple(decode[0]), tuple(decode[1]))
        self._ids = ids

    def encode(self, action: Action, seat: int) -> int | None:
        """The id of ``action`` (one of this deck's interned actions) for ``seat``; ``None``
        for ``catch`` and the late ``uno``, which the environments handle themselves."""
        i = self._ids.get(action)
        if i is not None:
            return i
        start = self._seated_start(action)
        if start >= 0 and action.seat != seat:
            return start + (action.seat - seat) % self.players - 1
        if action.kind in (CATCH, UNO):
            return None
        raise InvalidActionError(f"{action!r} is not an action of {self.variant}")

    def _seated_start(self, action: Action) -> int:
        """The first id of the group of ``action``'s kind when it names a seat (trade, target)."""
        if action.kind == TRADE:
            return self.trade_start
        if action.kind == TARGET:
            return self.target_start
        return -1

    def decode(self, action_id: int, side: int, seat: int) -> Action | None:
        """The engine action of ``action_id`` for ``seat`` with ``side`` active, or ``None``
        when the id names nothing there (a ``trade`` beyond the table). Raises
        :class:`InvalidActionError` for an id outside ``0..num_actions - 1``."""
        if not 0 <= action_id < self.num_actions:
            raise InvalidActionError(f"action id {action_id} is outside 0..{self.num_actions - 1} ({self.variant})")
        for start, row in ((self.trade_start, self.table.trade), (self.target_start, self.table.target)):
            if 0 <= start <= action_id < start + TRADE_OFFSETS:
                k = action_id - start + 1
                return row[(seat + k) % self.players] if k < self.players else None
        return self._decode[side][action_id]

    def legal_ids(self, view: View) -> list[int]:
        """The ids of ``view``'s legal actions, in the engine's order (catch/uno left out)."""
        return list(self.by_id(view.legal_actions(), view.seat))

    def by_id(self, actions: Sequence[Action], seat: int) -> dict[int, Action]:
        """``{id: action}`` of ``actions`` (legal actions of ``seat``, as the engine lists them),
        in their order, ``catch`` and the late ``uno`` left out: the ids of the actions and the
        decoding of each for the step that follows, in one pass."""
        ids = self._ids
        out: dict[int, Action] = {}
        for action in actions:
            i = ids.get(action)
            if i is None:
                start = self._seated_start(action)
                if start < 0:
                    continue  # catch / late uno: the environment's catch rule handles them
                i = start + (action.seat - seat) % self.players - 1
            out[i] = action
        return out

    def zero_mask(self) -> Mask:
        """A mask with no legal action (another seat's decision, or the game is over)."""
        return np.zeros(self.num_actions, dtype=_BOOL)

    def mask(self, view: View) -> Mask:
        """``bool`` mask over the action ids: ``True`` where the id is legal for ``view``'s seat now."""
        buf = bytearray(self.num_actions)
        for i in self.legal_ids(view):
            buf[i] = 1
        return np.frombuffer(buf, _BOOL)  # owns a fresh buffer: writable, not shared

    # ------------------------------------------------------------------ observation
    def _build_observation(self) -> None:
        deck, n, n_types, k = self.deck, self.players, self.types, self.history
        colors = 8 if self.double_sided else 4
        # Face classes of each side: what the others see of a card is its inactive face.
        # (each class is named by its smallest card type; slots follow colour, then kind).
        faces = [sorted(set(deck.back_class[side]), key=partial(_face_order, deck, side)) for side in (0, 1)]
        per_side = [len(f) for f in faces] if self.double_sided else [0, 0]
        face_slots = sum(per_side)
        # slot[side][t]: position, within a face block, of the class of type t on that side.
        slot: list[tuple[int, ...]] = []
        for side in (0, 1):
            rank = {cls: i + (per_side[0] if side else 0) for i, cls in enumerate(faces[side])}
            slot.append(tuple(rank.get(deck.back_class[side][t], 0) for t in range(n_types)))
        #: face_slot[side][t]: where, within a face block, the ``side`` face of type t is counted.
        self.face_slot = (slot[0], slot[1])
        #: The face shown by each slot of a face block (light/mild faces, then dark/wild).
        self.face_labels: tuple[str, ...] = (
            tuple(deck.face_texts[side][cls] for side in (0, 1) for cls in faces[side]) if self.double_sided else ()
        )
        self._face_size = face_slots
        face_counts = [0.0] * face_slots
        if self.double_sided:
            for side in (0, 1):
                for t in range(n_types):
                    face_counts[slot[side][t]] += deck.counts[t]
        blocks: list[Block] = []
        highs: list[NDArray[np.float32]] = []

        def block(name: str, size: int, high: float | Sequence[float], doc: str) -> int:
            start = sum(b.size for b in blocks)
            blocks.append(Block(name, start, size, doc))
            highs.append(np.broadcast_to(np.asarray(high, dtype=np.float32), (size,)).copy())
            return start

        counts = [float(c) for c in deck.counts]
        size = float(deck.size)
        block("hand", n_types, counts, "own cards: count of each card type")
        self._top = block("top", n_types, 1.0, "top card of the discard pile: one-hot card type")
        self._drawn = block(
            "drawn",
            n_types if self.draw_pile else 0,
            1.0,
            "Classic, Flip: the card just drawn, in this seat's own play_or_keep decision, one-hot card type",
        )
        self._hist = block(
            "history",
            n * k * n_types,
            1.0,
            f"last {k} cards played by each seat this hand (k = {k}), most recent first: "
            "card type t played by relative seat r, j plays ago, at start + (r*k + j)*types + t",
        )
        self._backs = block(
            "backs",
            (n - 1) * face_slots,
            face_counts * (n - 1),
            "double-sided decks: visible inactive faces of each opponent (relative seats 1..n-1): "
            "count per face (`face_labels`: light/mild faces, then dark/wild faces)",
        )
        self._draw_back = block(
            "draw_top_back",
            face_slots if self.double_sided and self.draw_pile else 0,
            1.0,
            "UNO Flip: inactive face of the draw pile's top card, one-hot face",
        )
        self._color = block(
            "color",
            colors,
            1.0,
            "colour in play, one-hot: red, yellow, green, blue (then pink, teal, orange, purple on double-sided "
            "decks); none while a colour is being chosen",
        )
        self._prev_color = block(
            "challenge_color",
            colors if self.draw_pile else 0,
            1.0,
            "Classic, Flip: in a challenge decision, the colour in play before the Wild Draw card, one-hot",
        )
        self._decision = block(
            "decision", len(self.decisions), 1.0, "open decision, one-hot: " + ", ".join(self.decisions)
        )
        self._to_act = block("to_act", n, 1.0, "relative seat that must decide now, one-hot (none when over)")
        self._sizes = block("hand_sizes", n, size, "cards in each hand, by relative seat")
        self._scalars = block(
            "piles",
            6,
            [size, size, size, 1.0, 1.0, 1.0],
            "draw pile (or launcher) size, discard pile size, stacked draw total, "
            "side (0 light/mild, 1 dark/wild), direction (1 clockwise, 0 counterclockwise), "
            "1 when it is this seat's decision",
        )
        self._scores = block("scores", n, 1.0, "running scores by relative seat, divided by the target (at most 1)")
        # House rules, appended: the slices above never move.
        self._offer = block(
            "jump_offer", 1, 1.0, "with jump_in: 1 while this seat is offered to jump in out of turn (H-1)"
        )
        self._team = block(
            "team", n, 1.0, "with teams: 1 for each relative seat of this seat's team (itself and its partner, H-6)"
        )
        self.blocks: tuple[Block, ...] = tuple(blocks)
        self.size = sum(b.size for b in blocks)
        self.high: NDArray[np.float32] = np.concatenate(highs).astype(np.float32)
        self._color_index = {name: i for i, name in enumerate(C.COLOR_NAMES)}

    def markdown(self) -> str:
        """The action table and the observation layout as Markdown tables (docs/envs.md)."""
        lines = [
            f"Actions of `{self.variant}` ({self.num_actions} ids, any number of seats):",
            "",
            "| ids | group | meaning |",
            "|---|---|---|",
        ]
        for g in self.action_groups:
            ids = str(g.start) if g.size == 1 else f"{g.start}-{g.start + g.size - 1}"
            lines.append(f"| {ids} | `{g.name}` | {g.doc} |")
        lines += [
            "",
            f"Observation of `{self.variant}` with {self.players} seats and history {self.history} "
            f"({self.size} values):",
            "",
            "| slice | block | content |",
            "|---|---|---|",
        ]
        for b in self.blocks:
            if b.size:
                lines.append(f"| {b.start}-{b.start + b.size - 1} | `{b.name}` | {b.doc} |")
        return "\n".join(lines) + "\n"

    def drawn_card(self, view: View) -> int:
        """The card type ``view``'s seat has just drawn, in its own ``play_or_keep`` decision."""
        t = self.deck.type_id(view.pending()["card"])
        assert t is not None
        return t

    def block(self, name: str) -> Block:
        """The block called ``name``."""
        for b in self.blocks:
            if b.name == name:
                return b
        raise KeyError(name)

    def observe(
        self, view: View, history: Sequence[Sequence[int]] | None = None, drawn: int = -1, offered: bool = False
    ) -> Obs:
        """The observation vector of ``view``'s seat: what the environments give and what a
        policy bot builds (:mod:`unokit.bots.policy`). The history block comes from the game's
        public record of plays (:meth:`View.played`) unless ``history`` is given: then
        ``history[s]`` lists the card types seat ``s`` played this hand, most recent first
        (only the first ``self.history`` are read).
        ``drawn`` may pass the card of the seat's own ``play_or_keep`` decision when the
        caller already knows it (it is read from ``view.pending()`` otherwise). ``offered``:
        the seat is being offered a jump (H-1)."""
        # Built in a bytearray (every value but the scores is a small whole number), then
        # converted once: much cheaper than several NumPy calls on short Python lists.
        seat = view.seat
        n = self.players
        n_types = self.types
        buf = bytearray(self.size)
        for t in view.hand:  # the hand block starts at 0
            buf[t] += 1
        buf[self._top + view.top] = 1
        kind = view.decision
        decision = self._decision_index.get(kind)
        to_act = view.to_act
        mine = 0
        if decision is not None and to_act is not None:
            buf[self._decision + decision] = 1
            buf[self._to_act + (to_act - seat) % n] = 1
            if to_act == seat:
                mine = 1
                if kind == D.PLAY_OR_KEEP:
                    if drawn < 0:
                        drawn = self.drawn_card(view)
                    buf[self._drawn + drawn] = 1
            if kind == D.CHALLENGE and self.draw_pile:
                previous = view.pending().get("previous_color")
                if previous is not None:
                    buf[self._prev_color + self._color_index[previous]] = 1
        color = view.color
        if color >= 0:
            buf[self._color + color] = 1
        k = self.history
        if k:
            stride = k * n_types
            for r in range(n):
                base = self._hist + r * stride
                s = (seat + r) % n
                for t in view.played(s, k) if history is None else history[s][:k]:
                    buf[base + t] = 1
                    base += n_types
        side = view.side
        if self.double_sided:
            face_slot = self.face_slot[1 - side]
            base = self._backs
            for r in range(1, n):
                for c in view.backs((seat + r) % n):
                    buf[base + face_slot[c]] += 1
                base += self._face_size
            top_back = view.draw_top_back
            if top_back is not None and self.draw_pile:
                buf[self._draw_back + face_slot[top_back]] = 1
        at = self._sizes
        sizes = view.hand_sizes
        for size in sizes[seat:] + sizes[:seat]:
            buf[at] = size
            at += 1
        # piles: draw size, discard size, stack total, side, direction, own decision
        buf[at] = view.draw_size
        buf[at + 1] = len(view.discard)
        stack = view.stack_total
        if stack:
            buf[at + 2] = stack
        if side:
            buf[at + 3] = 1
        if view.direction == 1:
            buf[at + 4] = 1
        if mine:
            buf[at + 5] = 1
        if offered:
            buf[self._offer] = 1
        if view.options.teams:
            buf[self._team] = 1
            buf[self._team + n // 2] = 1  # the partner faces this seat
        obs = np.frombuffer(buf, _UINT8).astype(_FLOAT32)
        scores = view.scores
        if any(scores):
            target = float(view.options.target)
            obs[self._scores : self._scores + n] = [min(1.0, s / target) for s in scores[seat:] + scores[:seat]]
        return obs
