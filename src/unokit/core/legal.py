"""Legal actions: what the seat to act may do in each kind of decision (R-1.4, R-1.9, R-2.2,
R-2.3, R-3.5, R-4.3).

Each :class:`~unokit.core.decisions.Decision` lists its actions through these methods; the
per-card facts come from the card-kind table (:mod:`unokit.core.kinds`) through the action
table's :meth:`~unokit.core.actions.ActionTable.match`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .colors import NO_COLOR, SIDE_COLORS
from .kinds import KINDS
from .state import GameState
from .types import ActionKind, CardId, Color, KindId, Seat

if TYPE_CHECKING:
    from .actions import Action

_DRAW = ActionKind.DRAW
_KEEP = ActionKind.KEEP

_STACK_ANSWERS: dict[bool | str, tuple[frozenset[KindId], ...]] = {}


def stack_answers(reading: bool | str) -> tuple[frozenset[KindId], ...]:
    """What may answer a stacked draw under ``reading`` of the option ``stacking`` (R-1.9, H-3):
    by the kind of the card on top, the kinds that may be played on it; empty for a kind that
    does not stack. Read from the card-kind table:

    * ``False``: nothing stacks;
    * ``True`` (same): a coloured draw or Hit card (``stackable``) by the same kind;
    * ``"progressive"`` (Progressive UNO): that, and a Wild Draw card that makes its victim draw
      a fixed number of cards by the same kind (Wild Draw Four on Wild Draw Four, Wild Draw Two
      on Wild Draw Two);
    * ``"mixed"``: that, and such a Wild Draw card on any coloured draw card too (Wild Draw Four
      on Draw Two, Wild Draw Two on Draw One).
    """
    table = _STACK_ANSWERS.get(reading)
    if table is None:
        counted = {k.id for k in KINDS if k.challengeable and k.draws > 0 and not k.until}
        colored = {k.id for k in KINDS if k.stackable}
        answers: list[frozenset[KindId]] = []
        for kind in KINDS:
            ids: set[KindId] = set()
            if reading and kind.id in colored:
                ids.add(kind.id)
                if reading == "mixed" and kind.draws > 0:
                    ids |= counted
            elif reading in ("progressive", "mixed") and kind.id in counted:
                ids.add(kind.id)
            answers.append(frozenset(ids))
        table = _STACK_ANSWERS[reading] = tuple(answers)
    return table


class Legal(GameState):
    """The legal-action listings of the decisions."""

    __slots__ = ()

    def _fair_wild_draw(self, seat: Seat, color: Color) -> bool:
        """A Wild Draw card is fair when the player holds no card of ``color`` (R-2.3, R-3.5);
        with ``wild_counts_as_color_match`` a held wild that is not itself a Wild Draw card
        counts as that colour too (D-27), so the card being played, and any other Wild Draw
        card of the hand, never does."""
        side = self.side
        colors = self.deck.color[side]
        hand = self.hands[seat]
        if self.options.wild_counts_as_color_match:
            kinds = self.deck.kinds[side]
            if any(colors[t] == NO_COLOR and not kinds[t].challengeable for t in hand):
                return False
        return all(colors[t] != color for t in hand)

    def _playable(self, seat: Seat, t: CardId, cards_after: int) -> bool:
        """Whether card ``t`` may be played now by ``seat`` (R-1.4 and the card's own limits)."""
        side = self.side
        kind = self.deck.kinds[side][t]
        if kind.wild:
            if kind.challengeable and not self.options.bluffing:
                return self._fair_wild_draw(seat, self.color)
            return True
        if cards_after == 0 and not kind.may_go_out:
            return False  # a player may not go out on Trade Hands
        return self.deck.color[side][t] == self.color or kind.id == self.deck.kind[side][self.discard[-1]]

    def _turn_actions(self, seat: Seat) -> list[Action]:
        """Every playable card's plays (by card type; with the UNO forms when a play leaves one
        card), then ``draw`` or ``press`` (R-1.4)."""
        side = self.side
        top_kind = self.deck.kind[side][self.discard[-1]]
        match = self._matches[side][self.color + 1][top_kind]
        if match is None:
            match = self.actions.match(side, self.color, top_kind, self.options.bluffing)
        hand = self.hands[seat]
        plays = match[3] if len(hand) == 2 else match[2]
        out: list[Action] = []
        for t in sorted(match[1].intersection(hand)):
            listed = plays[t]
            if listed is None:
                self._special_plays(seat, t, out)
            else:
                out += listed
        out.append(self._pass_action)
        return out

    def _special_plays(self, seat: Seat, t: CardId, out: list[Action]) -> None:
        """Plays whose legality or UNO call depends on the rest of the hand."""
        side = self.side
        colors = self.deck.color[side]
        kind = self.deck.kinds[side][t]
        hand = self.hands[seat]
        table = self.actions
        after = len(hand) - 1
        if kind.discards == "named":  # Wild Discard All: the colour named goes too
            for c in SIDE_COLORS[side]:
                out.append(table.play_color[t][c])
                if after - sum(1 for x in hand if colors[x] == c) == 1:
                    out.append(table.play_color_uno[t][c])
        elif kind.challengeable:  # only reached with bluffing off
            if self._fair_wild_draw(seat, self.color):
                out += table.wild_plays_uno[side][t] if after == 1 else table.wild_plays[side][t]
        elif kind.discards == "own":  # Discard All: its colour goes too
            left = after - (sum(1 for x in hand if colors[x] == colors[t]) - 1)
            out.append(table.play[t])
            if left == 1:
                out.append(table.play_uno[t])
        elif after > 0:  # a card that may not be the last one (Trade Hands, R-4.3)
            out.append(table.play[t])
            if after == 1:
                out.append(table.play_uno[t])

    def _play_or_keep_actions(self, seat: Seat, t: CardId) -> list[Action]:
        """Play the drawn card (naming a colour if it is a wild that does; with the UNO form when
        it leaves one card) or keep it (R-2.2); with ``force_play`` no keeping (H-5). The list is
        shared: do not change it."""
        listings = self.actions.play_or_keep[self.side]
        listed = listings[2 * self.deck.kinds[self.side][t].color_with_play + (len(self.hands[seat]) == 2)]
        return listed[:-1] if self.options.force_play else listed  # ``keep`` is last

    def _stack_actions(self, seat: Seat) -> list[Action]:
        """Answer the stacked draw with a card that stacks on it, or take the total (R-1.9, H-3)."""
        out = self._stack_plays(seat)
        out.append(self._pass_action)  # draw, or press in the launcher games
        return out

    def _stack_plays(self, seat: Seat) -> list[Action]:
        """The plays that answer the stacked draw on top (``stack_answers``); a Wild Draw card
        names a colour, and with bluffing off it must be fair (R-2.3)."""
        side = self.side
        kinds = self.deck.kind[side]
        answers = stack_answers(self.options.stacking)[kinds[self.discard[-1]]]
        hand = self.hands[seat]
        table = self.actions
        uno = len(hand) == 2
        out: list[Action] = []
        for t in sorted(set(hand)):
            if kinds[t] not in answers:
                continue
            if self.deck.kinds[side][t].color_with_play:
                if self.options.bluffing or self._fair_wild_draw(seat, self.color):
                    out += table.wild_plays_uno[side][t] if uno else table.wild_plays[side][t]
            else:
                out.append(table.play[t])
                if uno:
                    out.append(table.play_uno[t])
        return out

    def _discard_actions(self, seat: Seat) -> list[Action]:
        """Discard any one card of the hand (with the UNO call when it leaves one card)."""
        hand = self.hands[seat]
        table = self.actions
        uno = len(hand) == 2
        actions: list[Action] = []
        for t in sorted(set(hand)):
            actions.append(table.discard[t])
            if uno:
                actions.append(table.discard_uno[t])
        return actions
