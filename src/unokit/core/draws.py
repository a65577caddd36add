"""Drawing, pressing the launcher, reshuffling and reloading (R-1.8, R-4.1, R-6).

Every card a player takes comes through these methods, so that an empty draw pile (or
launcher) is refilled from the discard pile the same way everywhere, and a draw that finds no
card anywhere is reported instead of failing.
"""

from __future__ import annotations

from .legal import Legal
from .types import CardId, Color, Seat


class Draws(Legal):
    """Taking cards from the draw pile or the launcher."""

    __slots__ = ()

    def _refill(self) -> bool:
        """Shuffle the discard pile but its top into the draw pile (or reload the launcher)."""
        if len(self.discard) <= 1:
            return False
        top = self.discard.pop()
        pile = self.discard
        self.rng.shuffle(pile)
        self.draw = pile + self.draw
        self.discard = [top]
        if self.launcher is not None:
            self.launcher.restart()
            self._emit({"type": "reload", "count": len(pile)})
        else:
            self._emit({"type": "reshuffle", "count": len(pile)})
        return True

    def _nothing_to_draw(self) -> bool:
        return not self.draw and len(self.discard) <= 1

    def _draw(self, seat: Seat, count: int, reason: str) -> list[CardId]:
        """``seat`` draws ``count`` cards from the draw pile (fewer if none are left at all)."""
        drawn: list[CardId] = []
        draw = self.draw
        for _ in range(count):
            if not draw:
                if not self._refill():
                    self._emit({"type": "draw_failed", "seat": seat, "reason": reason})
                    break
                draw = self.draw
            drawn.append(draw.pop())
        self.hands[seat].extend(drawn)
        self._cards_event("draw", seat, drawn, reason)
        return drawn

    def _draw_until(self, seat: Seat, reason: str, color: Color = -1, icon: str = "", extra: int = 0) -> None:
        """Draw until a card whose active face has ``color`` (wilds do not count, R-3.6), or
        that shows ``icon`` (D-21); stop when no card is left anywhere. Then ``extra`` more."""
        if icon:
            marked = self.deck.icons.get(icon, frozenset())
            wanted = [t in marked for t in range(len(self.deck.types))]
        else:
            colors = self.deck.color[self.side]
            wanted = [c == color for c in colors]
        drawn: list[CardId] = []
        while True:
            if not self.draw and not self._refill():
                self._emit({"type": "draw_failed", "seat": seat, "reason": reason})
                break
            t = self.draw.pop()
            drawn.append(t)
            if wanted[t]:
                break
        self.hands[seat].extend(drawn)
        self._cards_event("draw", seat, drawn, reason)
        if extra:
            self._draw(seat, extra, reason)

    def _press(self, seat: Seat, reason: str, receiver: Seat | None = None) -> list[CardId]:
        """``seat`` presses the launcher once; ejected cards go to ``receiver`` (default ``seat``)."""
        launcher = self.launcher
        assert launcher is not None
        if not self.draw and not self._refill():
            self._emit({"type": "press", "seat": seat, "fired": False, "empty": True, "reason": reason})
            return []
        fired = launcher.press(self.rng)
        ejected: list[CardId] = []
        draw = self.draw
        for _ in range(min(fired, len(draw))):
            ejected.append(draw.pop())
        target = seat if receiver is None else receiver
        self.hands[target].extend(ejected)
        event = self._cards_event("press", target, ejected, reason)
        if event is not None:
            event["fired"] = fired > 0
            event["presser"] = seat
        return ejected

    def _press_until_fire(self, seat: Seat, reason: str) -> None:
        """Press until the launcher ejects cards (or no card is left anywhere)."""
        while not self._press(seat, reason):
            if not self.draw and len(self.discard) <= 1:
                break

    def _penalty(self, seat: Seat, count: int, reason: str) -> None:
        """Draw ``count`` cards, or press the launcher ``count`` times (R-4.1)."""
        if self.launcher is None:
            self._draw(seat, count, reason)
        else:
            for _ in range(count):
                self._press(seat, reason)
