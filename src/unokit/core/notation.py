"""The text notation of actions for one game: reading ``play red 5 uno`` against a seat's hand,
and explaining in a player's words why an action is refused.

The syntax itself (verbs, colours, ``uno``) is read by :func:`unokit.core.actions.parse_syntax`;
here a short card name (``play red 5``) is resolved against the seat's hand, where it must name
one card (:class:`~unokit.core.errors.AmbiguousActionError` otherwise).
"""

from __future__ import annotations

from . import cards as C
from .actions import Action, parse_syntax
from .colors import COLOR_NAMES, NO_COLOR, SIDE_COLORS
from .decisions import PlayOrKeep
from .errors import AmbiguousActionError, ErrorCode, IllegalActionError, InvalidActionError, quote
from .round_end import RoundEnd
from .types import ActionKind, CardId, DecisionKind, Seat

_PLAY = ActionKind.PLAY
_CATCH = ActionKind.CATCH
_UNO = ActionKind.UNO
_SEATED = {ActionKind.TRADE: "trade", ActionKind.CATCH: "catch", ActionKind.TARGET: "target"}
#: What each decision asks for, in the words of its refusals.
_EXPECTED = {
    DecisionKind.PLAY_OR_KEEP: "play_drawn or keep",
    DecisionKind.CHALLENGE: "challenge or accept",
    DecisionKind.CHOOSE_COLOR: "color <colour>",
    DecisionKind.CHOOSE_PLAYER: "trade <seat>",
    DecisionKind.PRESS_YOUR_LUCK: "press_again or stop",
    DecisionKind.CHOOSE_DISCARD: "discard <card>",
    DecisionKind.STACK: "play a matching draw card or draw",
    DecisionKind.CHOOSE_TARGET: "target <seat>",
    DecisionKind.DISCARD_CARDS: "discard <card>",
}


class Notation(RoundEnd):
    """Reading and explaining actions."""

    __slots__ = ()

    def _check_seat(self, seat: object) -> Seat:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalActionError(
                f"there is no seat {quote(seat)}; seats are 0 to {self.n - 1}",
                ErrorCode.NO_SEAT,
                given=quote(seat),
                count=self.n,
            )
        return seat

    def parse_action(self, text: str, seat: Seat | None = None) -> Action:
        """Read an action in the text notation for ``seat`` (default: the seat to act).

        A card may be named by its active face alone (``play red 5``) when that names one card
        in the hand; otherwise :class:`AmbiguousActionError` lists the full names. A wild whose
        play names a colour needs one (``play wild red``, ``play_drawn red``). The result is not
        checked for legality here; :meth:`apply` does that. A ``seat`` that does not exist
        raises :class:`IllegalActionError`.
        """
        if seat is None:
            seat = self._decision.seat if self._decision.seat >= 0 else 0
        else:
            self._check_seat(seat)
        parsed = parse_syntax(text, self.rules.colors)
        table = self.actions
        kind = parsed.kind
        if kind in table.simple:
            return table.simple[kind]
        if kind in _SEATED:
            if not 0 <= parsed.seat < self.n:
                raise InvalidActionError(
                    f"there is no seat {parsed.seat}; seats are 0 to {self.n - 1}",
                    ErrorCode.NO_SEAT,
                    given=str(parsed.seat),
                    count=self.n,
                )
            row = table.trade if kind == ActionKind.TRADE else table.catch if kind == _CATCH else table.target
            return row[parsed.seat]
        if kind == ActionKind.COLOR:
            return table.color[parsed.color]
        if kind == ActionKind.PLAY_DRAWN:
            decision = self._decision
            if isinstance(decision, PlayOrKeep) and decision.seat == seat:
                self._check_wild_color(decision.card, parsed.color, "play_drawn")
            return table.drawn_action(parsed.color, parsed.uno)
        assert parsed.card is not None
        t = self._resolve_card(parsed.card, seat)
        if kind == ActionKind.DISCARD:
            if parsed.color != NO_COLOR:
                raise InvalidActionError("'discard' takes a card and 'uno', not a colour", ErrorCode.DISCARD_NO_COLOR)
            return (table.discard_uno if parsed.uno else table.discard)[t]
        self._check_wild_color(t, parsed.color, f"play {self.face_text(t)}")
        return table.play_action(t, parsed.color, parsed.uno)

    def _check_wild_color(self, t: CardId, color: int, verb: str) -> None:
        """A wild whose play names a colour needs one; any other card takes none."""
        kind = self.deck.kinds[self.side][t]
        if color != NO_COLOR and not kind.color_with_play:
            what = "is not a wild card" if not kind.wild else "names no colour when played"
            face = self.face_text(t)
            raise InvalidActionError(f"{face} {what}; it takes no colour", ErrorCode.NO_COLOR_TAKEN, card=face)
        if kind.color_with_play and color == NO_COLOR:
            raise self._name_a_color(t, verb)

    def _resolve_card(self, text: str, seat: Seat) -> CardId:
        deck = self.deck
        if "/" in text:
            light_text, _, dark_text = text.partition("/")
            light, dark = C.parse_face(light_text, self.rules.colors), C.parse_face(dark_text, self.rules.colors)
            t = deck.type_id(f"{C.face_text(light)}/{C.face_text(dark)}")
            if t is None:
                raise InvalidActionError(
                    f"there is no card {quote(text)} in {self.rules.title}",
                    ErrorCode.NO_SUCH_CARD,
                    given=quote(text),
                    variant=self.rules.name,
                )
            if t not in self.hands[seat]:
                raise IllegalActionError(
                    f"seat {seat} does not hold {deck.text[t]}", ErrorCode.CARD_NOT_HELD, card=deck.text[t]
                )
            return t
        face = C.face_text(C.parse_face(text, self.rules.colors))
        in_deck = [t for t in range(len(deck.types)) if face in (deck.face_texts[0][t], deck.face_texts[1][t])]
        if not in_deck:
            raise InvalidActionError(
                f"there is no card {face!r} in {self.rules.title}",
                ErrorCode.NO_SUCH_CARD,
                given=repr(face),
                variant=self.rules.name,
            )
        active = deck.face_texts[self.side]
        matches = sorted({t for t in self.hands[seat] if active[t] == face})
        if not matches:
            raise IllegalActionError(f"seat {seat} holds no {face}", ErrorCode.CARD_NOT_HELD, card=face)
        if len(matches) > 1:
            names = ", ".join(deck.text[t] for t in matches)
            raise AmbiguousActionError(
                f"{face!r} could be any of {names}; name the card in full",
                card=face,
                cards=[deck.text[t] for t in matches],
            )
        return matches[0]

    def _explain(self, action: Action, seat: Seat) -> IllegalActionError:
        """Why ``action`` is not legal for ``seat`` now: an error with a code, its parameters and
        an English message."""
        E = ErrorCode
        name = str(action)
        decision = self._decision
        to_act = decision.seat
        if seat != to_act and action.kind not in (_CATCH, _UNO):
            if action.kind == _PLAY and self.options.jump_in:
                return IllegalActionError(
                    f"{name!r}: it is seat {to_act}'s decision ({decision.kind}); out of turn seat {seat} may "
                    "only jump in with a card identical to the top card, before the next player acts (H-1)",
                    E.JUMP_IN_ONLY,
                    seat=to_act,
                    decision=decision.kind.value,
                )
            return IllegalActionError(
                f"{name!r}: it is seat {to_act}'s decision ({decision.kind}), not seat {seat}'s",
                E.NOT_YOUR_TURN,
                seat=to_act,
                decision=decision.kind.value,
            )
        if action.kind == _CATCH:
            target = action.seat
            if target == seat:
                return IllegalActionError("you cannot catch yourself; declare with 'uno'", E.CATCH_YOURSELF)
            return IllegalActionError(f"seat {target} cannot be caught now (R-1.5)", E.CANNOT_CATCH, target=target)
        if action.kind == _UNO:
            return IllegalActionError("there is no UNO call for you to make now", E.NO_UNO_CALL)
        if action.card >= 0 and action.card >= len(self.deck.types):
            return IllegalActionError(f"{name!r} is not an action of this game", E.NOT_AN_ACTION)
        kind = decision.kind
        if kind == DecisionKind.TURN:
            expected = "play a card or " + ("press" if self.launcher else "draw")
        else:
            expected = _EXPECTED.get(kind, "nothing")
        uno_error = IllegalActionError(
            "'uno' goes with a play that leaves you exactly one card (R-1.5)", E.UNO_NEEDS_ONE_CARD
        )
        if action.kind == _PLAY and kind in (DecisionKind.TURN, DecisionKind.STACK):
            t = action.card
            if t not in self.hands[seat]:
                return IllegalActionError(
                    f"seat {seat} does not hold {self.card_text(t)}", E.CARD_NOT_HELD, card=self.deck.text[t]
                )
            face, top = self.face_text(t), self.face_text(self.discard[-1])
            color = COLOR_NAMES[self.color] if self.color >= 0 else "none"
            if kind == DecisionKind.STACK:
                return IllegalActionError(
                    f"{face} cannot answer the stacked {top}; "
                    "play a card that stacks on it, or take the total (R-1.9, H-3)",
                    E.CANNOT_STACK,
                    card=face,
                    top=top,
                )
            if action.uno:
                return uno_error
            card = self.deck.kinds[self.side][t]
            if card.challengeable and not self.options.bluffing:
                return IllegalActionError(
                    f"{face} may only be played when you hold no {color} card (bluffing is off)",
                    E.BLUFFING_OFF,
                    card=face,
                    color=color,
                )
            if not card.may_go_out:
                return IllegalActionError(
                    f"you may not go out on {card.title} ({card.rule})", E.MAY_NOT_GO_OUT, kind=card.name
                )
            if action.color >= 0 and action.color not in SIDE_COLORS[self.side]:
                return self._off_side(action.color)
            params = {"color": color} if self.color >= 0 else {}
            return IllegalActionError(
                f"{face} does not match {top} (colour in play: {color}) (R-1.4)",
                E.NO_MATCH,
                card=face,
                top=top,
                **params,
            )
        if (
            action.kind in (ActionKind.COLOR, ActionKind.PLAY_DRAWN)
            and action.color >= 0
            and action.color not in SIDE_COLORS[self.side]
        ):
            return self._off_side(action.color)
        if action.kind == ActionKind.TRADE and action.seat == seat:
            return IllegalActionError("trade hands with another player, not yourself", E.TRADE_YOURSELF)
        if action.kind == ActionKind.TARGET and action.seat == seat:
            return IllegalActionError("challenge another player, not yourself", E.TARGET_YOURSELF)
        if action.kind == ActionKind.PLAY_DRAWN and isinstance(decision, PlayOrKeep) and action.color < 0:
            drawn = self.deck.kinds[self.side][decision.card]
            if drawn.color_with_play:
                return self._name_a_color(decision.card, "play_drawn")
        if action.kind == ActionKind.KEEP and kind == DecisionKind.PLAY_OR_KEEP and self.options.force_play:
            return IllegalActionError(
                "the card just drawn can be played, and with force_play it must be (H-5): play_drawn",
                E.MUST_PLAY_DRAWN,
            )
        if action.uno:
            return uno_error
        return IllegalActionError(
            f"{name!r} is not possible now: seat {seat} must {expected}", E.WRONG_DECISION, decision=kind.value
        )

    def _off_side(self, color: int) -> IllegalActionError:
        """A colour that is not on the side in play."""
        name = COLOR_NAMES[color]
        return IllegalActionError(
            f"{name} is not a colour of {self.colours_in_play_name}", ErrorCode.COLOR_NOT_ON_SIDE, color=name
        )

    def _name_a_color(self, t: CardId, verb: str) -> IllegalActionError:
        """A wild whose play names a colour, played without one."""
        face = self.face_text(t)
        return IllegalActionError(f"name a colour for {face}, e.g. '{verb} red'", ErrorCode.NAME_A_COLOR, card=face)
