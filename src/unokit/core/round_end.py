"""The end of a round and of the game: scoring, the next deal, the winners (R-1.6, R-1.7, D-4,
D-10, D-11, D-15, D-16).

When a round ends, :meth:`RoundEnd._end_round` scores it, reports it as a ``round_end`` event
and as a :class:`RoundResult` (which :meth:`~unokit.core.game.Game.step` returns, so that a
simulator needs no events to know who won), then deals the next round or ends the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from .decisions import OVER
from .setup import Setup
from .state import Event
from .teams import team_members, team_of, team_totals
from .types import Seat


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended: ``winner`` went out (or won a blocked round, D-4), on ``side``;
    ``hand_points`` are the values of the hands left, ``points`` what each seat gained,
    ``scores`` the totals after it. ``winners`` is empty unless the round ended the game.
    With ``teams=true`` (H-6), ``team_scores`` are the teams' totals (else empty)."""

    round: int
    winner: Seat
    side: int
    blocked: bool
    hand_points: tuple[int, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[Seat, ...]
    team_scores: tuple[int, ...] = ()

    @property
    def game_over(self) -> bool:
        """True when this round ended the game."""
        return bool(self.winners)


class RoundEnd(Setup):
    """Scoring a round and ending the game."""

    __slots__ = ()

    def _end_round(self, winner: Seat, blocked: bool = False) -> None:
        side = self.side
        values = [self._hand_value(h, side) for h in self.hands]
        opts = self.options
        if opts.scoring == "winner":
            gained = [0] * self.n
            if opts.teams:  # the other teams' hands, not the partner's (H-6)
                gained[winner] = sum(v for s, v in enumerate(values) if team_of(s, self.n) != team_of(winner, self.n))
            else:
                gained[winner] = sum(values) - values[winner]  # the others' hands (R-1.7, D-16)
        else:
            gained = values
        for seat in range(self.n):
            self.scores[seat] += gained[seat]
        self.stack_total = 0
        self.windows = ()
        teams = team_totals(self.scores) if opts.teams else []
        event: Event = {
            "type": "round_end",
            "round": self.round_number,
            "winner": winner,
            "side": self.rules.side_names[side],
            "hands": [[self.deck.text[t] for t in hand] for hand in self.hands],  # shown for scoring
            "hand_points": values,
            "points": gained,
            "scores": list(self.scores),
        }
        if opts.teams:
            event["team_scores"] = teams
        self._emit(event)
        if opts.teams:  # the teams' totals decide, and a team wins with both its members (H-6)
            team = team_of(winner, self.n)
            won = game_winners(teams, team, opts.scoring, opts.target, opts.rounds, self.round_number)
            members = team_members(self.n)
            winners = None if won is None else sorted(s for k in won for s in members[k])
        else:
            winners = game_winners(self.scores, winner, opts.scoring, opts.target, opts.rounds, self.round_number)
        self.last_round = self._ended = RoundResult(
            self.round_number,
            winner,
            side,
            blocked,
            tuple(values),
            tuple(gained),
            tuple(self.scores),
            tuple(winners or ()),
            tuple(teams),
        )
        if winners is None:
            self.dealer = (self.dealer + 1) % self.n  # the deal passes to the left
            self._start_round()
            return
        self._winners = winners
        self._decision = OVER
        self.is_over = True
        end: Event = {"type": "game_end", "winners": winners, "scores": list(self.scores)}
        if opts.teams:
            end["team_scores"] = teams
        self._emit(end)


def game_winners(
    scores: list[int], round_winner: Seat, scoring: str, target: int, rounds: int | None, played: int
) -> list[Seat] | None:
    """The winners of a game whose round ``played`` (1 for the first) was just won by
    ``round_winner``, leaving ``scores``; ``None`` while the game goes on (R-1.7, D-11, D-15,
    D-16). A game of one hand (``rounds=1``) is won by the player who went out, whatever the
    scores. Otherwise, ``scoring`` is the option of that name: with ``winner`` the first to
    ``target`` wins; with ``own_hand`` and ``loser``, once anyone reaches ``target``, the lowest
    score wins (with ``loser``, everyone still under ``target``). After ``rounds`` rounds the best
    score wins, the round's winner first among equals."""
    n = len(scores)
    if rounds == 1:
        return [round_winner]
    if scoring == "winner" and scores[round_winner] >= target:
        return [round_winner]
    if scoring == "own_hand" and max(scores) >= target:
        low = min(scores)
        return [s for s in range(n) if scores[s] == low]
    if scoring == "loser" and max(scores) >= target:
        under = [s for s in range(n) if scores[s] < target]
        if under:
            return under
        low = min(scores)
        return [s for s in range(n) if scores[s] == low]
    if rounds is not None and played >= rounds:
        best = max(scores) if scoring == "winner" else min(scores)
        tied = [s for s in range(n) if scores[s] == best]
        return [round_winner] if round_winner in tied else tied
    return None
