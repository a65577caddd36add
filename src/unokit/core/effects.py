"""Playing a card and the building blocks of card effects.

:meth:`Effects._play` moves a card to the discard pile and dispatches through the card-kind
table (:mod:`unokit.core.kinds`): the kind's ``effect`` handler when the player still holds
cards, its ``last`` handler and the end of the round when the hand is empty (R-1.6). The
handlers are written with the methods below: skip, reverse, the Wild Draw challenge, flip,
the launcher attacks, Trade Hands, Wild Press Your Luck, naming a colour, and the themed
editions' discards and duels. The other actions of a turn (draw, press, keep, the catch) are
here too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from .colors import COLOR_NAMES, NO_COLOR
from .decisions import (
    STACKS,
    TURNS,
    Challenge,
    ChooseColor,
    ChooseDiscard,
    ChoosePlayer,
    ChooseTarget,
    DiscardCards,
    PressYourLuck,
    play_or_keep,
)
from .draws import Draws
from .kinds import FAIR_CHALLENGE_EXTRA, KINDS, CardKind, pass_turn
from .legal import stack_answers
from .state import Event
from .types import CardId, Color, Seat
from .windows import JumpIn, UnoCatch


class Effects(Draws):
    """Card effects and the other in-turn actions."""

    __slots__ = ()

    # ------------------------------------------------------------------ playing a card
    def _play(self, seat: Seat, t: CardId, chosen: Color, uno: bool) -> None:
        """Move card ``t`` from ``seat``'s hand to the pile and apply its effect."""
        deck = self.deck
        side = self.side
        kind = deck.kinds[side][t]
        hand = self.hands[seat]
        prev_color = self.color
        hand.remove(t)
        known = self.known
        if known and seat in known:
            self._forget(seat, t)
        discarded: Sequence[CardId] = ()
        if kind.discards:
            # Discard every card of the colour first; the Discard All goes on top.
            colors = deck.color[side]
            target_color = colors[t] if kind.discards == "own" else chosen
            discarded = [x for x in sorted(hand) if colors[x] == target_color]
            for x in discarded:
                hand.remove(x)
                if self.known:
                    self._forget(seat, x)
            self.discard.extend(discarded)
        self.discard.append(t)
        played = self.played
        played[seat] = (t, played[seat])
        self.passes = 0
        ev = self._ev
        if ev is not None:
            event: Event = {"type": "play", "seat": seat, "card": deck.text[t], "uno": uno}
            if chosen != NO_COLOR:
                event["color"] = COLOR_NAMES[chosen]
            if discarded:
                event["discarded"] = [deck.text[x] for x in discarded]
            ev.append(event)
        if kind.wild:
            self.color = NO_COLOR if kind.discards else chosen
        else:
            self.color = deck.color[side][t]
        left = len(hand)
        if left <= 1:
            if left == 1:
                if not uno:
                    self._open_window(UnoCatch(seat))  # catchable until the window closes (R-1.5, D-2)
            else:
                if kind.last is not None:
                    kind.last(self, seat, kind, chosen)
                self._end_round(seat)  # the round ends at once; a Wild Draw is not challenged (D-3)
                return
        effect = kind.effect
        if effect is pass_turn:  # the commonest effect, written out: the next player plays
            self.turn = nxt = (seat + self.direction) % self.n
            self._decision = (STACKS if self.stack_total else TURNS)[nxt]
        else:
            effect(self, seat, kind, chosen, prev_color)
        if self.options.jump_in and not kind.wild and self.side == side:
            self._open_window(JumpIn(seat))  # an identical card may jump in on it (H-1)

    def _skip_next(self, seat: Seat) -> None:
        """The next player loses the turn (R-3.4)."""
        if self._ev is not None:
            self._ev.append({"type": "skip", "seat": self.next_seat(seat)})
        self._advance(seat, 2)

    def _reverse(self, seat: Seat) -> None:
        """The direction changes; with two players the player plays again (R-1.10)."""
        self.direction = -self.direction
        if self._ev is not None:
            direction = "clockwise" if self.direction == 1 else "counterclockwise"
            self._ev.append({"type": "reverse", "direction": direction})
        if self.n == 2:
            self._start_turn(seat)
        else:
            self._advance(seat)

    def _choose_color(self, chooser: Seat, then: Seat) -> None:
        """Open a colour choice for ``chooser``; afterwards ``then`` takes a turn."""
        self.color = NO_COLOR
        self._set_decision(ChooseColor(chooser, then))

    # ------------------------------------------------------------------ Wild Draw cards
    def _wild_draw(self, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
        """The next player may challenge (with bluffing on), else draws and loses the turn.
        Where the card stacks (progressive or mixed stacking, H-3) its count joins the stacked
        total, and the next player may also pass the total on."""
        victim = self.next_seat(seat)
        stacks = self.options.stacking and stack_answers(self.options.stacking)[kind.id]
        if stacks:
            self.stack_total += kind.draws
        if self.options.bluffing:
            fair = self._fair_wild_draw(seat, previous)
            self._set_decision(Challenge(victim, seat, kind.id, chosen, fair, previous))
        elif stacks:
            self._advance(seat)  # a stack answer or the whole total (H-3)
        else:
            self._wild_draw_penalty(victim, kind, chosen, fair_challenged=False)
            self._advance(seat, 2)

    def _wild_draw_penalty(self, victim: Seat, kind: CardKind, named: Color, fair_challenged: bool) -> None:
        """``victim`` draws for a Wild Draw card; :data:`FAIR_CHALLENGE_EXTRA` more after
        challenging a fair play."""
        extra = FAIR_CHALLENGE_EXTRA if fair_challenged else 0
        if kind.until == "color":
            self._draw_until(victim, kind.name, color=named, extra=extra)
        else:
            self._draw(victim, kind.draws + extra, kind.name)

    def _answer_wild_draw(self, seat: Seat, challenged: bool) -> None:
        decision = self._decision
        assert isinstance(decision, Challenge)
        by = decision.by
        kind = KINDS[decision.card]
        if self.stack_total:
            self._answer_stacked_wild_draw(seat, decision, challenged)
            return
        if not challenged:
            self._emit({"type": "accept", "seat": seat})
            self._wild_draw_penalty(seat, kind, decision.color, fair_challenged=False)
            self._advance(seat)
            return
        self._reveal_for_challenge(seat, decision)
        if decision.fair:
            self._wild_draw_penalty(seat, kind, decision.color, fair_challenged=True)
            self._advance(seat)
        else:
            if kind.until == "color":
                self._draw_until(by, "challenge", color=decision.color)
            else:
                self._draw(by, kind.draws, "challenge")
            self._start_turn(seat)  # the challenger keeps the turn

    def _reveal_for_challenge(self, seat: Seat, decision: Challenge) -> None:
        """``seat`` challenges: it sees the hand of the card's player (R-2.3)."""
        by = decision.by
        self._learn(seat, by)
        self._emit(
            {
                "type": "challenge",
                "seat": seat,
                "target": by,
                "success": not decision.fair,
                "revealed": [self.deck.text[t] for t in sorted(self.hands[by])],
                "private": [seat, by],
            }
        )

    def _answer_stacked_wild_draw(self, seat: Seat, decision: Challenge, challenged: bool) -> None:
        """A Wild Draw card that stacked (H-3): the whole total replaces its count. Accepted,
        ``seat`` draws the total; challenged, a bluffer draws it and ``seat`` plays, a fair
        player makes ``seat`` draw it and two more."""
        total = self.stack_total
        self.stack_total = 0
        name = KINDS[decision.card].name
        if not challenged:
            self._emit({"type": "accept", "seat": seat})
            self._draw(seat, total, name)
            self._advance(seat)
            return
        self._reveal_for_challenge(seat, decision)
        if decision.fair:
            self._draw(seat, total + FAIR_CHALLENGE_EXTRA, name)
            self._advance(seat)
        else:
            self._draw(decision.by, total, "challenge")
            self._start_turn(seat)

    # ------------------------------------------------------------------ Flip
    def _flip(self) -> None:
        """Flip hands, discard pile and draw pile or launcher; piles reverse order (D-12)."""
        self.side ^= 1
        self.discard.reverse()
        self.draw.reverse()
        if self.launcher is not None:
            self.launcher.restart()
        self._emit(
            {
                "type": "flip",
                "side": self.rules.side_names[self.side],
                "top": self.deck.face_texts[self.side][self.discard[-1]],
            }
        )

    def _after_flip(self, seat: Seat) -> None:
        """The new top card's action is ignored; a wild's colour is chosen (R-3.7)."""
        top = self.discard[-1]
        nxt = self.next_seat(seat)
        if self.deck.kinds[self.side][top].wild:
            chooser = seat if self.options.flip_wild_chooser == "player" else nxt
            self._choose_color(chooser, nxt)
        else:
            self.color = self.deck.color[self.side][top]
            self._start_turn(nxt)

    # ------------------------------------------------------------------ the launcher's attacks
    def _all_hit(self, seat: Seat) -> None:
        """Every other player presses once, from the next player on (R-4.3)."""
        other = self.next_seat(seat)
        while other != seat:
            self._press(other, "wild_all_hit")
            other = self.next_seat(other)

    def _all_out_attack(self, target: Seat) -> None:
        """From the target on, players press in turn until it fires; the target takes all (R-5.6)."""
        presser = target
        while not self._press(presser, "wild_all_out_attack", receiver=target):
            if self._nothing_to_draw():
                break
            presser = self.next_seat(presser)

    # ------------------------------------------------------------------ Trade Hands
    def _choose_player(self, seat: Seat) -> None:
        self._set_decision(ChoosePlayer(seat))

    def _trade(self, seat: Seat, other: Seat) -> None:
        hands = self.hands
        hands[seat], hands[other] = hands[other], hands[seat]
        swap = {seat: other, other: seat}
        self._hands_moved(lambda h: swap.get(h, h))
        self._learn(seat, other)  # each saw the hand it gave away
        self._learn(other, seat)
        self._emit({"type": "trade", "seat": seat, "target": other})
        self._advance(seat)

    # ------------------------------------------------------------------ Seven-O (H-2)
    def _pass_hands(self) -> None:
        """Every hand passes one seat in the direction of play; each player saw the hand it
        passed on."""
        n = self.n
        step = self.direction
        passed: list[list[CardId]] = [[] for _ in range(n)]
        for s, hand in enumerate(self.hands):
            passed[(s + step) % n] = hand
        self.hands = passed
        self._hands_moved(lambda h: (h + step) % n)
        for s in range(n):
            self._learn(s, (s + step) % n)
        self._emit({"type": "pass_hands", "direction": "clockwise" if self.direction == 1 else "counterclockwise"})

    # ------------------------------------------------------------------ Wild Press Your Luck
    def _start_press_your_luck(self, seat: Seat) -> None:
        self._set_decision(PressYourLuck(seat, ()))

    def _press_again(self, seat: Seat) -> None:
        """One more press; cards out means take them and take back this turn's discards."""
        decision = self._decision
        assert isinstance(decision, PressYourLuck)
        discarded = decision.discarded
        ejected = self._press(seat, "wild_press_your_luck")
        if not ejected:
            self._set_decision(ChooseDiscard(seat, discarded))
            return
        taken: list[CardId] = []
        pile = self.discard
        for t in discarded:
            for i in range(len(pile) - 2, -1, -1):
                if pile[i] == t:
                    del pile[i]
                    taken.append(t)
                    break
        self.hands[seat].extend(taken)
        for viewer in range(self.n):
            if viewer != seat and taken:
                self._learn(viewer, seat, taken)  # the cards taken back were in plain view
        self._emit({"type": "take_back", "seat": seat, "cards": [self.deck.text[t] for t in taken]})
        self._advance(seat)

    def _luck_discard(self, seat: Seat, t: CardId, uno: bool) -> None:
        decision = self._decision
        assert isinstance(decision, ChooseDiscard)
        discarded = (*decision.discarded, t)
        if self._discard_one(seat, t, uno):
            self._set_decision(PressYourLuck(seat, discarded))

    def _discard_one(self, seat: Seat, t: CardId, uno: bool) -> bool:
        """``seat`` discards ``t`` under the top card (the card that asked for it stays on top);
        the round ends if the hand is now empty (R-5.5, D-20). Return whether it goes on."""
        hand = self.hands[seat]
        hand.remove(t)
        if self.known:
            self._forget(seat, t)
        self.discard.insert(len(self.discard) - 1, t)
        played = self.played
        played[seat] = (t, played[seat])
        self._emit({"type": "discard", "seat": seat, "cards": [self.deck.text[t]], "uno": uno})
        if not hand:
            self._end_round(seat)
            return False
        if len(hand) == 1 and not uno:
            self._open_window(UnoCatch(seat))  # a discard counts as a play for the UNO call (D-9)
        return True

    # ------------------------------------------------------------------ themed editions
    def _holding(self, seat: Seat, most: bool) -> Seat:
        """The seat holding the most (or fewest) cards; on a tie the first of them counting in
        turn order from ``seat``, the player of the card, who counts first (D-19)."""
        hands = self.hands
        best = seat
        best_size = len(hands[seat])
        for k in range(1, self.n):
            other = self.next_seat(seat, k)
            size = len(hands[other])
            if (size > best_size) if most else (size < best_size):
                best, best_size = other, size
        return best

    def _ask_discards(self, seat: Seat, count: int, kind: CardKind, then: Seat, names_color: bool) -> None:
        """``seat`` must discard ``count`` cards of its choice, one at a time; then it names the
        colour if ``names_color``, and ``then`` plays."""
        self._set_decision(DiscardCards(seat, kind.id, count, then, names_color))

    def _chosen_discard(self, seat: Seat, t: CardId, uno: bool) -> None:
        decision = self._decision
        assert isinstance(decision, DiscardCards)
        if not self._discard_one(seat, t, uno):
            return
        if decision.count > 1:
            self._set_decision(dataclasses.replace(decision, count=decision.count - 1))
        elif decision.names_color:
            self._choose_color(seat, decision.then)
        else:
            self._start_turn(decision.then)

    def _choose_target(self, seat: Seat, kind: CardKind) -> None:
        self._set_decision(ChooseTarget(seat, kind.id))

    def _target(self, seat: Seat, target: Seat) -> None:
        decision = self._decision
        assert isinstance(decision, ChooseTarget)
        kind = KINDS[decision.card]
        assert kind.target is not None
        kind.target(self, seat, target, kind)

    def _best_number(self, seat: Seat, highest: bool) -> int:
        """The highest (or lowest) number among ``seat``'s cards on the active side; -1 if none."""
        card = self._number_card(seat, highest)
        return self.deck.kinds[self.side][card].number if card >= 0 else -1

    def _duel(self, seat: Seat, target: Seat, kind: CardKind, winner: Seat, highest: bool) -> None:
        """Report a duel between ``seat`` and ``target`` for a card of ``kind``: each shows its
        highest (or lowest) number card, or has none, and ``winner`` won. With ``highest`` false
        the two hands are revealed to each other (Megatron, R-7)."""
        shown = [self._number_card(s, highest) for s in (seat, target)]
        for holder, card in zip((seat, target), shown, strict=True):
            if card >= 0:
                for viewer in range(self.n):
                    if viewer != holder:
                        self._learn(viewer, holder, [card])
        if not highest:
            self._learn(seat, target)
            self._learn(target, seat)
        if self._ev is None:
            return
        text = self.deck.face_texts[self.side]
        event: Event = {
            "type": "duel",
            "seat": seat,
            "target": target,
            "card": kind.name,
            "shown": [text[t] if t >= 0 else None for t in shown],
            "winner": winner,
        }
        if not highest:
            full = self.deck.text
            event["revealed"] = {str(s): [full[t] for t in sorted(self.hands[s])] for s in (seat, target)}
            event["private"] = [seat, target]
        self._ev.append(event)

    def _number_card(self, seat: Seat, highest: bool) -> CardId:
        """A card of ``seat`` showing its highest (or lowest) number on the active side; -1 if none."""
        kinds = self.deck.kinds[self.side]
        best = -1
        for t in sorted(self.hands[seat]):
            n = kinds[t].number
            if n >= 0 and (best < 0 or (n > kinds[best].number if highest else n < kinds[best].number)):
                best = t
        return best

    # ------------------------------------------------------------------ drawing or pressing as a turn
    def _turn_draw(self, seat: Seat) -> None:
        """Draw one card; it may be played at once if playable (R-2.2, R-3.3). With
        ``draw_until_playable``, draw until a playable card comes (H-4)."""
        draw = self.draw
        if not draw and not self._refill():
            self._pass_with_nothing(seat)
            return
        self.passes = 0
        if self.options.draw_until_playable:
            self._draw_until_playable(seat)
            return
        t = self.draw.pop()
        hand = self.hands[seat]
        hand.append(t)
        ev = self._ev
        if ev is not None:
            if self.deck.double_sided:
                self._cards_event("draw", seat, [t], "turn")
            else:  # _cards_event's event for one card of a one-sided deck, written out: the commonest draw
                ev.append(
                    {
                        "type": "draw",
                        "seat": seat,
                        "count": 1,
                        "reason": "turn",
                        "cards": [self.deck.text[t]],
                        "private": [seat],
                    }
                )
        side = self.side
        kind = self.deck.kinds[side][t]
        if kind.wild or not kind.may_go_out:
            playable = self._playable(seat, t, len(hand) - 1)
        else:  # a plain coloured card matches the colour in play or the top card's kind
            playable = self.deck.color[side][t] == self.color or kind.id == self.deck.kind[side][self.discard[-1]]
        if playable:
            self._decision = play_or_keep(seat, t)
        else:
            self.turn = seat = (seat + self.direction) % self.n
            self._decision = (STACKS if self.stack_total else TURNS)[seat]

    def _draw_until_playable(self, seat: Seat) -> None:
        """Draw one card at a time until one may be played now, then play it or keep it; stop
        when no card is left anywhere (R-1.8), and the turn passes (H-4)."""
        hand = self.hands[seat]
        drawn: list[CardId] = []
        playable = -1
        while True:
            if not self.draw and not self._refill():
                self._emit({"type": "draw_failed", "seat": seat, "reason": "turn"})
                break
            t = self.draw.pop()
            hand.append(t)
            drawn.append(t)
            if self._playable(seat, t, len(hand) - 1):
                playable = t
                break
        self._cards_event("draw", seat, drawn, "turn")
        if playable >= 0:
            self._decision = play_or_keep(seat, playable)
        else:
            self._advance(seat)

    def _take_stack(self, seat: Seat) -> None:
        """Decline to answer a stack: draw the whole total (press it, with Hit cards) and lose
        the turn (R-1.9, H-3)."""
        total = self.stack_total
        self.stack_total = 0
        self._penalty(seat, total, "stack")
        self._advance(seat)

    def _turn_press(self, seat: Seat) -> None:
        """Press the launcher; the turn ends whatever comes out (R-4.1)."""
        if self.stack_total:
            self._take_stack(seat)  # declining a stack of Hit cards (H-3)
            return
        if self._nothing_to_draw():
            self._pass_with_nothing(seat)
            return
        self.passes = 0
        self._press(seat, "turn")
        self._advance(seat)

    def _pass_with_nothing(self, seat: Seat) -> None:
        """No card is left to draw at all: the draw does not happen (R-1.8); a full circuit of
        such passes ends the round as blocked (D-4)."""
        self._emit({"type": "draw_failed", "seat": seat, "reason": "turn"})
        self.passes += 1
        if self.passes >= self.n:
            side = self.side
            values = [self._hand_value(h, side) for h in self.hands]
            order = [self.next_seat(seat, k) for k in range(1, self.n + 1)]
            winner = min(order, key=lambda s: values[s])
            self._emit({"type": "blocked", "winner": winner})
            self._end_round(winner, blocked=True)
        else:
            self._advance(seat)

    # ------------------------------------------------------------------ the UNO catch
    def _catch(self, catcher: Seat, target: Seat) -> None:
        """``catcher`` caught ``target`` without UNO: the variant's penalty (R-1.5)."""
        self._emit({"type": "catch", "seat": catcher, "target": target})
        self._penalty(target, self.rules.uno_penalty, "uno_penalty")
