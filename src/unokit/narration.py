"""Events told in words, in any language ("Ann played Wild Draw Four — blue", "Ана → «Закажи цвет
и возьми четыре» — синий").

:class:`Narrator` decides which sentence an event is: :meth:`Narrator.line` turns one event into
a :class:`~unokit.i18n.lines.Line` (a catalogue key with its parameters), following the side in
play so that every card is named by the face that shows. This is the only place that does: the
terminal, ``demo``, ``replay`` and the server (which sends the lines to each browser to say in its
reader's language) all read events through it. :func:`describe` says one event in words at once.

Works on full or redacted events (see :func:`unokit.redact`); seats are named by ``names``
(``seat N``, numbered from 1, without). Nothing internal reaches the reader: why cards were drawn
is told in words, scores go with names, and :func:`plain` takes the rule ids out of the
engine's English messages.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from .core.colors import COLOR_NAMES
from .core.decisions import PlayOrKeep
from .core.game import Game
from .core.types import ActionKind
from .core.types import EventType as E
from .i18n import DEFAULT, N_
from .i18n.lines import Line, words_for

#: Events that are not worth a line (the cut for the dealer, each deal).
SILENT: frozenset[E] = frozenset({E.CUT, E.DEAL})

#: The events that say only who did them.
_SEAT_ONLY: dict[E, str] = {
    E.KEEP: N_("event.keep"),
    E.SKIP: N_("event.skip"),
    E.SKIP_EVERYONE: N_("event.skip_everyone"),
    E.ACCEPT: N_("event.accept"),
    E.STOP: N_("event.stop"),
}

_RULE_IDS = re.compile(r"\s*\((?:[RDH]-[\d.]+(?:, )?)+\)")


def plain(message: str) -> str:
    """An engine message for a player: without the rule ids it cites (``(R-1.4)``)."""
    return _RULE_IDS.sub("", message)


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 game``, ``2 games``, ``1,000 games`` (English, for the simulator's reports);
    ``many`` for an irregular plural."""
    return f"{count:,} {word if count == 1 else many or word + 's'}"


def _face(text: str, side: int) -> str:
    """The face of a card's whole text on ``side`` (``red 5/pink 2`` → ``pink 2`` on side 1)."""
    faces = text.split("/")
    return faces[side] if len(faces) == 2 else faces[0]


class Narrator:
    """Turns events into :class:`Line`\\ s, following the side in play (``side``: the side
    before the first event; ``double_sided=False`` leaves out the side a round ended on)."""

    def __init__(self, side: int = 0, double_sided: bool = True) -> None:
        self.side = side
        self.double_sided = double_sided

    def face(self, text: str) -> str:
        return _face(text, self.side)

    def cards(self, event: dict[str, Any], key: str = "cards") -> Any:
        """The cards an event moved: their faces when they are shown, else how many (with their
        backs on a double-sided deck), as a nested line."""
        if key in event:
            return [self.face(c) for c in event[key]]
        count = event.get("count", 0)
        backs = event.get("backs")
        if backs:
            return Line("n.cards.backs", {"count": count, "backs": list(backs)}).to_json()
        return Line("n.cards.hidden", {"count": count}).to_json()

    def line(self, event: dict[str, Any]) -> Line | None:
        """The sentence of ``event``, or ``None`` for the events in :data:`SILENT`."""
        kind = E(event["type"])
        if kind == E.ROUND_START:
            self.side = 0
        line = self._line(kind, event)
        if kind == E.FLIP:
            self.side = 1 - self.side
            assert line is not None
            line.params["top"] = str(event["top"])  # already the new side's face
        return line

    def lines(self, events: Iterable[dict[str, Any]]) -> list[Line]:
        return [line for line in (self.line(e) for e in events) if line is not None]

    def _line(self, kind: E, event: dict[str, Any]) -> Line | None:
        seat = event.get("seat")
        if kind in SILENT:
            return None
        if kind == E.DEALER:
            return Line("event.dealer", {"player": seat})
        if kind == E.ROUND_START:
            return Line("event.round_start", {"round": event["round"]})
        if kind in (E.FIRST_CARD, E.FIRST_CARD_RETURNED, E.FIRST_CARD_IGNORED):
            key = {
                E.FIRST_CARD: N_("event.first_card"),
                E.FIRST_CARD_RETURNED: N_("event.first_card_returned"),
                E.FIRST_CARD_IGNORED: N_("event.first_card_ignored"),
            }[kind]
            return Line(key, {"card": self.face(event["card"])})
        if kind == E.PLAY:
            params: dict[str, Any] = {"player": seat, "card": self.face(event["card"])}
            if "color" in event:
                params["color"] = event["color"]
            if event.get("discarded"):
                params["cards"] = [self.face(c) for c in event["discarded"]]
            key = {
                (False, False): N_("event.play"),
                (True, False): N_("event.play.color"),
                (False, True): N_("event.play.discarding"),
                (True, True): N_("event.play.color.discarding"),
            }[("color" in params, "cards" in params)]
            return _with_uno(Line(key, params), event)
        if kind == E.DRAW:
            params = {"player": seat, "cards": self.cards(event)}
            if event["reason"] == "turn":
                return Line("event.draw", params)
            return Line("event.draw.reason", {**params, "reason": event["reason"]})
        if kind == E.PRESS:
            presser = event.get("presser", seat)
            if event.get("empty"):
                return Line("event.press.empty", {"player": presser})
            if not event["fired"]:
                return Line("event.press.nothing", {"player": presser})
            if presser != seat:
                return Line("event.press.for", {"player": presser, "target": seat, "cards": self.cards(event)})
            return Line("event.press", {"player": presser, "cards": self.cards(event)})
        if kind == E.DRAW_FAILED:
            return Line("event.draw_failed", {"player": seat})
        if kind in (E.RESHUFFLE, E.RELOAD):
            key = N_("n.event.reshuffle") if kind == E.RESHUFFLE else N_("n.event.reload")
            return Line(key, {"count": event["count"]})
        if kind in _SEAT_ONLY:
            return Line(_SEAT_ONLY[kind], {"player": seat})
        if kind in (E.REVERSE, E.PASS_HANDS):
            key = N_("event.reverse") if kind == E.REVERSE else N_("event.pass_hands")
            return Line(key, {"direction": event["direction"]})
        if kind == E.FLIP:
            return Line("event.flip", {"side": event["side"], "top": str(event["top"])})
        if kind == E.COLOR:
            return Line("event.color", {"player": seat, "color": event["color"]})
        if kind == E.CHALLENGE:
            params = {"player": seat, "target": event["target"]}
            if "revealed" in event:  # only for the two players who see the hand
                params["cards"] = [self.face(c) for c in event["revealed"]]
            key = {
                (True, False): N_("event.challenge.succeeded"),
                (False, False): N_("event.challenge.failed"),
                (True, True): N_("event.challenge.succeeded.revealed"),
                (False, True): N_("event.challenge.failed.revealed"),
            }[(bool(event["success"]), "cards" in params)]
            return Line(key, params)
        if kind == E.UNO:
            return Line("event.uno", {"player": seat})
        if kind in (E.CATCH, E.TRADE):
            key = N_("event.catch") if kind == E.CATCH else N_("event.trade")
            return Line(key, {"player": seat, "target": event["target"]})
        if kind == E.JUMP_IN:
            return Line("event.jump_in", {"player": seat, "target": event["on"]})
        if kind == E.DISCARD:
            return _with_uno(Line("event.discard", {"player": seat, "cards": self.cards(event)}), event)
        if kind == E.TAKE_BACK:
            if not event["cards"]:  # a press fired before any discard: a sentence of its own in each language
                return Line("event.take_back.none", {"player": seat})
            return Line("event.take_back", {"player": seat, "cards": [self.face(c) for c in event["cards"]]})
        if kind == E.DUEL:
            mine, theirs = (
                self.face(face) if face is not None else Line("event.duel.no_number").to_json()
                for face in event["shown"]
            )
            return Line(
                "event.duel",
                {
                    "player": seat,
                    "target": event["target"],
                    "kind": event["card"],
                    "mine": mine,
                    "theirs": theirs,
                    "winner": event["winner"],
                },
            )
        if kind == E.BLOCKED:
            return Line("event.blocked", {"winner": event["winner"]})
        if kind == E.ROUND_END:
            params = {"winner": event["winner"], "round": event["round"], "scores": list(event["scores"])}
            if self.double_sided:
                return Line("event.round_end", {**params, "side": event["side"]})
            return Line("event.round_end.one_side", params)
        if kind == E.GAME_END:
            return Line("event.game_end", {"winners": list(event["winners"]), "scores": list(event["scores"])})
        raise AssertionError(f"no words for the event {kind!r}")  # the tests cover every event type


def action_line(game: Game, text: str, seat: int, named: bool = False) -> Line:
    """An action of ``seat`` in ``game`` (before it was taken) as a line: ``Play Red 5``,
    ``Trade hands with Bo``; with the UNO call, said after it. ``named``: the card just drawn,
    played, is named (``Play Red 4``, not the prompt's ``Play it``), for a line read away from
    the prompt that offered it (a review)."""
    action = game.parse_action(text, seat)
    params: dict[str, Any] = {}
    decision = game.open_decision
    if named and action.kind == ActionKind.PLAY_DRAWN and isinstance(decision, PlayOrKeep):
        params["card"] = game.face_text(decision.card)
        if action.color >= 0:
            params["color"] = COLOR_NAMES[action.color]
        line = Line(N_("action.play.color") if action.color >= 0 else "action.play", params)
        return Line("action.with_uno", {"line": line.to_json()}) if action.uno else line
    if action.card >= 0:
        params["card"] = game.face_text(action.card)
    if action.color >= 0:
        params["color"] = COLOR_NAMES[action.color]
    if action.seat >= 0:
        params["target"] = action.seat
    key = f"action.{action.kind.value}"
    if action.color >= 0 and action.kind == ActionKind.PLAY:
        key = N_("action.play.color")
    elif action.color >= 0 and action.kind == ActionKind.PLAY_DRAWN:
        key = N_("action.play_drawn.color")
    line = Line(key, params)
    if action.uno and action.kind != ActionKind.UNO:
        return Line("action.with_uno", {"line": line.to_json()})
    return line


def side_before(events: Sequence[dict[str, Any]], side_after: int, side_names: Sequence[str]) -> int:
    """The side in play before ``events`` of a game whose side is ``side_after`` after them:
    the one from which their flips, round starts (light side up) and round ends (which name
    their side) lead to ``side_after``."""
    for start in (side_after, 1 - side_after):
        side, fits = start, True
        for event in events:
            kind = event["type"]
            if kind == E.ROUND_START:
                side = 0
            elif kind == E.FLIP:
                side = 1 - side
            elif kind == E.ROUND_END and event["side"] != side_names[side]:
                fits = False
        if fits and side == side_after:
            return start
    return side_after


def _with_uno(line: Line, event: dict[str, Any]) -> Line:
    """A play or discard that called UNO: the line, then the call."""
    if not event.get("uno"):
        return line
    return Line("event.with_uno", {"line": line.to_json()})


def describe(
    event: dict[str, Any],
    names: Sequence[str] | None = None,
    *,
    double_sided: bool = True,
    side: int = 0,
    lang: str = DEFAULT,
) -> str | None:
    """One line for ``event`` in ``lang`` (English by default), or ``None`` for events not worth
    a line (deals, cuts). ``double_sided=False`` (Classic, Attack) leaves out the side a round
    ended on; ``side`` is the side in play, to name double-sided cards by their face."""
    line = Narrator(side, double_sided).line(event)
    return None if line is None else words_for(lang, names).say(line)


__all__ = ["SILENT", "Narrator", "action_line", "describe", "plain", "plural", "side_before"]
