"""The chance to win the game where rounds are scored, from the chance to win the hand.

The search estimates who wins the hand being played; whether that wins the game depends on the
scores, the points the hand brings and the hands still to come. :class:`GameModel` puts them
together:

* **this hand**: if seat ``w`` goes out, every other seat is left with about the points its
  hand holds now: the reviewed seat's own cards exactly, another seat's cards (which the
  reviewed seat does not see) each at the mean value of the cards it cannot see. The round is
  scored by the engine's rule (:func:`unokit.core.round_end.game_winners` and the scoring
  option), which may end the game;
* **the hands after it**, played between equals: :data:`FUTURES` futures drawn once per game
  (the same for every state, so that the estimates move only with the game), each
  a series of hands won by a seat drawn uniformly, every other seat left with a few cards
  (:data:`LOSER_CARDS`, uniformly: the light side's values of cards drawn from the deck).

The reviewed seat's chance to win the game is then the mean over ``w`` (weighted by the chance
that ``w`` wins this hand) of its share of the game's wins over the futures. It is a model,
not a search: its calibration is not measured (``docs/review.md``). Games with ``teams=true``
are not modelled (their reviews give the hand's chance only).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from ..core.game import Game
from ..core.observation import View
from ..core.rng import MASK64, Rng
from ..core.round_end import game_winners

#: Futures drawn per round (fewer for the scoring modes other than the first to the target,
#: whose futures are played hand by hand), and the most hands a future plays before it is
#: called a draw.
FUTURES = 400
GENERAL_FUTURES = 60
MAX_HANDS = 40
#: The cards a seat holds when a later hand ends without it, uniformly between two bounds, by
#: whether two or more seats play: a mean of 6 cards with two (hands between ``expert`` bots left
#: the loser 6.1 cards on average in 2-player Classic), 4 with more (3.3 in 4-player UNO Flip),
#: measured by ``scripts/calibrate_review.py``.
LOSER_CARDS = {2: (1, 11), 3: (1, 7)}


def loser_cards(players: int) -> tuple[int, int]:
    """The bounds of :data:`LOSER_CARDS` for a table of ``players``."""
    return LOSER_CARDS[min(players, 3)]


def scored(game: Game) -> bool:
    """Whether ``game``'s rounds are scored: more than one round, and no teams."""
    return game.options.rounds != 1 and not game.options.teams


class GameModel:
    """The game chances of ``seat`` in ``game`` (see the module docstring); ``seed`` draws the
    futures, once for the whole game."""

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        self.seat = seat
        self.n = game.n
        options = game.options
        self.scoring = options.scoring
        self.target = options.target
        self.rounds = options.rounds
        rules = game.rules
        values = [rules.card_points(kind) for kind in game.deck.kind[0]]
        rng = Rng((seed * 0x9E3779B97F4A7C15 + 0x5EED) & MASK64)
        low, high = loser_cards(self.n)
        #: The first to the target wins: each future as, per seat, the hands it wins (their
        #: numbers) and its points after each, so that who gets there first is a search.
        self.race = self.scoring == "winner" and self.rounds is None
        count = FUTURES if self.race else GENERAL_FUTURES
        self.futures: list[list[tuple[int, tuple[int, ...]]]] = []
        self.tracks: list[list[tuple[list[int], list[int]]]] = []
        while len(self.futures) < count:
            drawn = []
            for _ in range(MAX_HANDS):
                winner = rng.below(self.n)
                points = tuple(
                    0
                    if s == winner
                    else sum(values[rng.below(len(values))] for _ in range(low + rng.below(high - low + 1)))
                    for s in range(self.n)
                )
                drawn.append((winner, points))
            # Each future comes with its copies for the seats turned round the table, so that no
            # seat is luckier than another in the futures: equal seats get equal chances.
            for turn in range(self.n):
                self.futures.append(
                    [((w + turn) % self.n, tuple(p[(s - turn) % self.n] for s in range(self.n))) for w, p in drawn]
                )
        for hands in self.futures:
            if self.race:
                track: list[tuple[list[int], list[int]]] = [([], []) for _ in range(self.n)]
                for k, (w, points) in enumerate(hands, start=1):
                    won, totals = track[w]
                    won.append(k)
                    totals.append((totals[-1] if totals else 0) + sum(points))
                self.tracks.append(track)

    def by_winner(self, scores: Sequence[int], round_number: int, hand_points: Sequence[float]) -> list[float]:
        """For each seat ``w``: the reviewed seat's chance to win the game if ``w`` goes out in
        the hand being played (round ``round_number``, ``scores`` before it), every other seat
        left with ``hand_points``."""
        return [self._after(scores, round_number, w, hand_points) for w in range(self.n)]

    def _after(self, scores: Sequence[int], played: int, winner: int, hand_points: Sequence[float]) -> float:
        now = self._scored(scores, winner, [0.0 if s == winner else hand_points[s] for s in range(self.n)])
        ended = game_winners([round(x) for x in now], winner, self.scoring, self.target, self.rounds, played)
        if ended is not None:
            return self._share(ended)
        if self.race:
            return self._race(now)
        total = 0.0
        for future in self.futures:
            running = list(now)
            result = None
            for k, (w, points) in enumerate(future, start=1):
                running = self._scored(running, w, points)
                rounded = [round(x) for x in running]
                result = game_winners(rounded, w, self.scoring, self.target, self.rounds, played + k)
                if result is not None:
                    break
            total += self._share(result) if result is not None else 1.0 / self.n
        return total / len(self.futures)

    def _race(self, now: Sequence[float]) -> float:
        """The share of futures in which the reviewed seat is the first to reach the target from
        the scores ``now`` (the engine's rule with ``scoring=winner`` and no limit of rounds)."""
        wins = 0.0
        for track in self.tracks:
            first, who = MAX_HANDS + 1, -1
            for s, (won, totals) in enumerate(track):
                i = bisect_left(totals, round(self.target - now[s]))
                if i < len(totals) and won[i] < first:
                    first, who = won[i], s
            wins += (1.0 if who == self.seat else 0.0) if who >= 0 else 1.0 / self.n
        return wins / len(self.tracks)

    def _scored(self, scores: Sequence[float], winner: int, points: Sequence[float]) -> list[float]:
        """The scores after a hand that ``winner`` won, the others holding ``points``."""
        if self.scoring == "winner":
            gained = sum(points) - points[winner]
            return [score + (gained if s == winner else 0.0) for s, score in enumerate(scores)]
        return [score + points[s] for s, score in enumerate(scores)]

    def _share(self, winners: Sequence[int]) -> float:
        return 1.0 / len(winners) if self.seat in winners else 0.0


def hand_points(view: View, unseen: Sequence[int]) -> list[float]:
    """What each hand is worth now as ``view``'s seat sees it: its own exactly, another's at the
    mean value of the ``unseen`` cards (on the side in play) per card."""
    rules = view.rules
    kinds = view.deck.kind[view.side]
    mean = sum(rules.card_points(kinds[t]) for t in unseen) / len(unseen) if unseen else 0.0
    own = float(sum(rules.card_points(kinds[t]) for t in view.hand))
    return [own if s == view.seat else mean * size for s, size in enumerate(view.hand_sizes)]


def game_chance(chance: float, chances: Sequence[float], seat: int, by_winner: Sequence[float]) -> float:
    """The game chance of a choice whose chance to win the hand is ``chance``: the other seats
    share the rest as they share it in ``chances`` (each seat's chance at the position)."""
    others = sum(c for s, c in enumerate(chances) if s != seat)
    total = chance * by_winner[seat]
    for s, c in enumerate(chances):
        if s != seat:
            share = c / others if others > 0 else 1.0 / (len(chances) - 1)
            total += (1.0 - chance) * share * by_winner[s]
    return total


__all__ = ["FUTURES", "LOSER_CARDS", "GameModel", "game_chance", "hand_points", "loser_cards", "scored"]
