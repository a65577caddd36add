"""Setting up: the dealer cut, the deal and the first card (R-1.2, R-1.3, R-2.4, R-3.8, R-4.4,
R-5.2, R-7).

What the first card does comes from the card-kind table (each kind's ``first`` handler and
``returned_first``); the variant says whether action cards count at all as the first card
(``first_card="number"``: they are ignored until a number shows, D-7).
"""

from __future__ import annotations

from .colors import NO_COLOR
from .effects import Effects
from .state import HAND_SIZE
from .types import CardId


class Setup(Effects):
    """Cut, deal and turn up the first card."""

    __slots__ = ()

    def _cut_for_dealer(self) -> None:
        """Each player cuts one card; highest number on the first side deals; ties cut again."""
        kinds = self.deck.kinds[0]
        candidates = list(range(self.n))
        while True:
            pile = self.deck.cards()
            self.rng.shuffle(pile)
            cut = {seat: pile.pop() for seat in candidates}
            values = {seat: max(kinds[t].number, 0) for seat, t in cut.items()}
            self._emit(
                {
                    "type": "cut",
                    "cards": {str(s): self.deck.face_texts[0][t] for s, t in cut.items()},
                }
            )
            best = max(values.values())
            candidates = [seat for seat in candidates if values[seat] == best]
            if len(candidates) == 1:
                self.dealer = candidates[0]
                self._emit({"type": "dealer", "seat": self.dealer})
                return

    def _start_round(self) -> None:
        """Shuffle every card, deal seven each from the dealer's left, turn up the first card."""
        self.round_number += 1
        self.side = 0
        self.direction = 1
        self.stack_total = 0
        self.windows = ()
        self.known = {}
        self.played = [None] * self.n
        self.passes = 0
        self.color = NO_COLOR
        pile = self.deck.cards()
        self.rng.shuffle(pile)
        hands: list[list[CardId]] = [[] for _ in range(self.n)]
        for _ in range(HAND_SIZE):
            for k in range(1, self.n + 1):
                hands[(self.dealer + k) % self.n].append(pile.pop())
        self.hands = hands
        self.draw = pile
        self.discard = []
        if self.launcher is not None:
            self.launcher.restart()
        self._emit({"type": "round_start", "round": self.round_number, "dealer": self.dealer})
        for seat in range(self.n):
            self._cards_event("deal", seat, hands[seat])
        self._turn_up_first_card()

    def _turn_up_first_card(self) -> None:
        """Start the discard pile and apply the first card's rule."""
        kinds = self.deck.kinds[0]
        faces = self.deck.face_texts[0]
        numbers_only = self.rules.first_card == "number"
        while True:
            t = self.draw.pop()
            kind = kinds[t]
            if kind.returned_first and not numbers_only:
                self.draw.append(t)
                self.rng.shuffle(self.draw)
                self._emit({"type": "first_card_returned", "card": faces[t]})
                continue
            self.discard.append(t)
            if numbers_only and not kind.is_number:
                self._emit({"type": "first_card_ignored", "card": faces[t]})  # it stays in the pile (D-7)
                continue
            break
        self._emit({"type": "first_card", "card": faces[t]})
        self.color = self.deck.color[0][t]
        first = (self.dealer + 1) % self.n
        if kind.first is None:  # pragma: no cover - every variant's deck is checked for this
            raise AssertionError(f"{kind.name} has no first-card rule")
        kind.first(self, first, kind)
