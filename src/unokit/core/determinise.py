"""Determinisation: complete games sampled from what one seat knows, for search bots.

A seat at the table sees its own hand, the discard pile (every card in it was seen when
played), the size of every hand, on double-sided decks the back of every card in the other
hands and, in UNO Flip, of the draw pile's top card, and it remembers the cards it has seen go
into another hand (revealed by a challenge or a duel, or handed over in a trade:
:meth:`~unokit.core.observation.View.known`). Everything else is hidden: the rest of the other
hands and the order of the draw pile (or launcher), which together hold exactly the rest of the
deck; whether a Wild Draw card under challenge was fair; another seat's drawn card; a scripted
launcher's future. A :class:`Determiniser` deals the hidden cards at random but consistently
with all of that, and builds a whole :class:`~unokit.core.game.Game` from each sample, in which
every hidden fact follows from the sampled cards by the engine's own rules.

Within those constraints the sample is uniform: cards of each back class go to the slots that
show that back in a uniformly random order, and the draw pile below its top is in uniformly
random order. Optional *voids* (a search bot's reads of an opponent who drew instead of
playing) keep some cards out of some slots of a single-sided hand.
"""

from __future__ import annotations

import dataclasses
import hashlib
import struct
from collections import Counter
from collections.abc import Mapping, Sequence

from .decisions import Challenge, PlayOrKeep
from .game import Game
from .launcher import RandomLauncher
from .observation import View
from .rng import Rng
from .types import CardId, Seat

#: A read of one hand: the card types it holds none of, and how many of its cards the read covers.
Void = tuple[frozenset[CardId], int]


def key_order(seed: int, n: int) -> list[int]:
    """A pseudo-random permutation of ``range(n)`` derived from ``seed``.

    Sorting by hashed 64-bit keys runs in C, several times faster than a Python Fisher-Yates
    shuffle; ties (probability ~ n^2 / 2^65) keep index order.
    """
    if n <= 1:
        return list(range(n))
    keys = struct.unpack(f"<{n}Q", hashlib.shake_128(seed.to_bytes(8, "little")).digest(8 * n))
    return sorted(range(n), key=keys.__getitem__)


def slot_groups(reads: Sequence[Void], size: int) -> list[Void]:
    """Nest the reads of one hand: a read covering ``m`` cards applies to its ``m`` oldest cards,
    so the slots covered by every read come first, excluding the union of their cards."""
    ordered = sorted(((excluded, min(count, size)) for excluded, count in reads if count > 0), key=lambda r: -r[1])
    groups: list[Void] = []
    union: frozenset[CardId] = frozenset()
    unions = []
    for excluded, _ in ordered:
        union = union | excluded
        unions.append(union)
    for k in range(len(ordered) - 1, -1, -1):
        below = ordered[k + 1][1] if k + 1 < len(ordered) else 0
        count = ordered[k][1] - below
        if count > 0:
            groups.append((unions[k], count))
    return groups


class Determiniser:
    """Samples the hidden cards of a game as ``view``'s seat knows it.

    ``sample(seed)`` returns ``(hands, draw)``: every hand (the own hand as it is, the cards
    known to be in another hand first) and the draw pile bottom first, as ``Game.draw`` stores
    it (its last card is the top). ``game(deal_seed, game_seed)`` returns a whole game for that
    sample, ready to search. ``voids`` (single-sided decks only) are reads of other hands.
    """

    def __init__(self, view: View, voids: Mapping[Seat, Sequence[Void]] | None = None) -> None:
        deck = view.deck
        self.view = view
        self.seat = view.seat
        self.players = view.players
        self.hand = view.hand
        sizes = view.hand_sizes
        others = [s for s in range(self.players) if s != self.seat]
        #: Cards known to be in each other hand (revealed, or handed over in a trade).
        self.known: dict[Seat, list[CardId]] = {s: view.known(s) for s in others}
        seen: Counter[CardId] = Counter(self.hand)
        seen.update(view.discard)
        for cards in self.known.values():
            seen.update(cards)
        pool: list[CardId] = []
        for t, count in enumerate(deck.counts):
            pool.extend([t] * (count - seen.get(t, 0)))
        self.free = {s: sizes[s] - len(self.known[s]) for s in others}
        self.draw_size = view.draw_size
        if len(pool) != self.draw_size + sum(self.free.values()):
            raise ValueError("the view's card counts do not add up to the deck")  # pragma: no cover
        self.pool = pool
        self.sizes = sizes
        self.others = others
        self.double_sided: bool = deck.double_sided
        #: Per seat, groups of its free card slots (cards to exclude, how many slots), most
        #: constrained first; only single-sided decks (backs say more on the others).
        self.groups: dict[Seat, list[Void]] = {}
        self._game: Game | None = None
        if not self.double_sided:
            for s, reads in (voids or {}).items():
                if s in self.free:
                    groups = slot_groups(reads, self.free[s])
                    if groups:
                        self.groups[s] = groups
            return
        back = deck.back_class[1 - view.side]
        self.back_of = [back[t] for t in pool]
        # Demand slots: (seat, or -1 for the draw pile's top, back class), seat by seat.
        slots: list[tuple[Seat, int]] = []
        for s in others:
            backs = Counter(view.backs(s))
            backs.subtract(back[t] for t in self.known[s])
            slots += [(s, b) for b in sorted(backs.elements())]
        top_back = view.draw_top_back
        if top_back is not None:
            slots.append((-1, top_back))
        self.slots = slots
        need: Counter[int] = Counter(b for _, b in slots)
        have = Counter(self.back_of)
        if any(have[b] < n for b, n in need.items()):
            raise ValueError("the visible backs do not fit the unseen cards")  # pragma: no cover

    def sample(self, seed: int) -> tuple[list[list[CardId]], list[CardId]]:
        """One determinisation of the hidden cards, a function of ``seed``."""
        pool = self.pool
        order = key_order(seed, len(pool))
        hands: list[list[CardId]] = [list(self.known.get(s, ())) for s in range(self.players)]
        hands[self.seat] = list(self.hand)
        if self.groups:
            return self._constrained(seed, order, hands)
        if not self.double_sided:
            cards = [pool[i] for i in order]
            k = 0
            for s in self.others:
                n = self.free[s]
                hands[s] += cards[k : k + n]
                k += n
            return hands, cards[k:]
        # By back class, the cards in random order; each slot takes the next card of its class.
        by_back: dict[int, list[CardId]] = {}
        back_of = self.back_of
        for i in order:
            by_back.setdefault(back_of[i], []).append(pool[i])
        taken = dict.fromkeys(by_back, 0)
        top = -1
        for s, b in self.slots:
            j = taken[b]
            taken[b] = j + 1
            if s < 0:
                top = by_back[b][j]
            else:
                hands[s].append(by_back[b][j])
        rest: list[CardId] = []
        for b, cards in by_back.items():
            rest += cards[taken[b] :]
        draw = [rest[i] for i in key_order(seed ^ 0x5DEECE66D, len(rest))]
        if top >= 0:
            draw.append(top)
        return hands, draw

    def _constrained(
        self, seed: int, order: list[int], hands: list[list[CardId]]
    ) -> tuple[list[list[CardId]], list[CardId]]:
        """A sample of a single-sided deck where some slots of some hands exclude some cards:
        each group of slots takes the first cards of the random order that it allows (any
        card when too few are left, as a read can be wrong), the rest of the draw pile is
        shuffled again."""
        pool = self.pool
        used = [False] * len(pool)
        for s in self.others:
            hand = hands[s]
            for excluded, count in self.groups.get(s, ()):
                got = 0
                for i in order:
                    if got == count:
                        break
                    if not used[i] and pool[i] not in excluded:
                        used[i] = True
                        hand.append(pool[i])
                        got += 1
            need = self.sizes[s] - len(hand)
            for i in order:
                if need == 0:
                    break
                if not used[i]:
                    used[i] = True
                    hand.append(pool[i])
                    need -= 1
        rest = [pool[i] for i in order if not used[i]]
        return hands, [rest[i] for i in key_order(seed ^ 0x5DEECE66D, len(rest))]

    def game(self, deal_seed: int, game_seed: int) -> Game:
        """A determinised game of the current hand: the hidden cards dealt by
        ``sample(deal_seed)``, the engine's RNG (future shuffles, the launcher) seeded with
        ``game_seed``. It plays this hand only (``rounds=1``), so its ``winners`` are the hand's
        winners; a scripted launcher, whose future is hidden, becomes the random model; a Wild
        Draw card under challenge is fair exactly when the sampled hand of its player holds no
        card of the previous colour (R-2.3); another seat's drawn card is one of its sampled
        cards that can be played."""
        template = self._game
        if template is None:
            template = self._game = self._template()
        hands, draw = self.sample(deal_seed)
        game = template.clone()
        game.hands = hands
        game.draw = draw
        game.rng = Rng(game_seed)
        decision = game.open_decision
        if isinstance(decision, Challenge):
            fair = game._fair_wild_draw(decision.by, decision.previous_color)
            game._decision = dataclasses.replace(decision, fair=fair)
        elif isinstance(decision, PlayOrKeep) and decision.seat != self.seat:
            hand = hands[decision.seat]
            playable = [t for t in hand if game._playable(decision.seat, t, len(hand) - 1)]
            game._decision = PlayOrKeep(decision.seat, (playable or hand)[-1])
        return game

    def _template(self) -> Game:
        """The live game with what the seat may not know made harmless: one hand only, no
        scripted launcher, no memory of other seats."""
        live = self.view._game
        template = live.clone()
        template.options = dataclasses.replace(live.options, rounds=1)
        if template.launcher is not None and template.launcher.model == "scripted":
            template.options = dataclasses.replace(template.options, launcher="random", launcher_script=())
            template.launcher = RandomLauncher()
            template._atomic = False
        template.known = {}
        return template
