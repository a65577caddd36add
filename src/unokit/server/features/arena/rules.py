"""An arena's rules as pure functions (``docs/arena.md``): points by finishing place, the streak
bonus, the standings' order and the pairing of free players into tables. Standard library only,
no clock: every time is passed in, so the same inputs always give the same answer.

* **Points** (:func:`place_points`): at a table of ``n`` seats the winner scores ``n``, the
  player in place ``p`` after the winner ``n - p`` (two seats: 2 and 0, as lichess's win and
  loss; four seats: 4, 2, 1, 0). Players who share a place share its points. A leaver scores 0.
* **Streak** (:func:`scored`): after two wins in a row a player is *on fire*: each game they
  play on fire is worth double, whatever its result; the first game that is not a win (a leaver's
  included) ends the fire after it is counted.
* **Standings** (:func:`standings`): the most points first; then the most wins; then the fewer
  games (the same points from fewer games); then who reached their points first; then the name.
* **Pairing** (:func:`pair`): the free players, leaders first, are seated greedily at tables of
  ``n`` with the ones next to them in the standings that they may sit with (never two seats of
  one identity or one address: a table never seats only one person's identities or addresses);
  a player who has waited :attr:`Free.since` ``bot_wait`` seconds or more without a full table
  is seated with the compatible free players who remain and bots fill the other seats.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

#: The table sizes an arena takes.
MIN_SEATS, MAX_SEATS = 2, 10
#: Wins in a row after which games are worth double.
FIRE_AFTER = 2


def place_points(place: int, seats: int) -> int:
    """The points of finishing in ``place`` (1 is the winner) at a table of ``seats``."""
    if not MIN_SEATS <= seats <= MAX_SEATS or not 1 <= place <= seats:
        raise ValueError(f"no place {place} at a table of {seats}")
    return seats if place == 1 else seats - place


@dataclass(frozen=True)
class Standing:
    """One player's line of an arena's standings."""

    player: str
    name: str
    points: int = 0
    wins: int = 0
    games: int = 0
    #: Wins in a row up to now (the fire is on from :data:`FIRE_AFTER`).
    streak: int = 0
    #: When the player's points last changed (or they joined): the earlier ranks first on a tie.
    since: float = 0.0

    @property
    def on_fire(self) -> bool:
        """Whether the player's next game is worth double."""
        return self.streak >= FIRE_AFTER


@dataclass(frozen=True)
class Scored:
    """What one finished game gave one player: its points and the player's line after it."""

    points: int
    doubled: bool
    standing: Standing


def scored(standing: Standing, place: int, seats: int, *, left: bool, at: float) -> Scored:
    """``standing`` after a game finished at ``at`` in ``place`` at a table of ``seats``
    (``left``: the player left the table, and loses it: no points, no win)."""
    won = place == 1 and not left
    base = 0 if left else place_points(place, seats)
    doubled = standing.on_fire
    points = 2 * base if doubled else base
    after = replace(
        standing,
        points=standing.points + points,
        wins=standing.wins + (1 if won else 0),
        games=standing.games + 1,
        streak=standing.streak + 1 if won else 0,
        since=at if points else standing.since,
    )
    return Scored(points, doubled, after)


def _order(line: Standing) -> tuple[int, int, int, float, str, str]:
    return (-line.points, -line.wins, line.games, line.since, line.name, line.player)


def standings(lines: Iterable[Standing]) -> list[Standing]:
    """The standings' order (see the module docstring)."""
    return sorted(lines, key=_order)


@dataclass(frozen=True)
class Free:
    """A player free to be seated: in the arena, at no table."""

    player: str
    #: The address the player is playing from (or a mark of it): two seats never share one.
    address: str
    #: When the player became free (joined, or their last table finished).
    since: float
    #: Their place in the standings (1 the leader).
    rank: int


@dataclass(frozen=True)
class Table:
    """A table to seat: its players, leaders first, and how many bots fill it."""

    players: tuple[str, ...]
    bots: int


def _fits(group: list[Free], player: Free) -> bool:
    return all(other.player != player.player and other.address != player.address for other in group)


def _greedy(ordered: list[Free], seats: int, full: bool) -> tuple[list[list[Free]], list[Free]]:
    """Groups of ``ordered`` players seated greedily from the first: full tables only when
    ``full``, else every group, full or not. Returns the groups and who is left."""
    left = list(ordered)
    groups: list[list[Free]] = []
    skipped: list[Free] = []
    while left:
        head = left.pop(0)
        group = [head]
        rest = []
        for other in left:
            if len(group) < seats and _fits(group, other):
                group.append(other)
            else:
                rest.append(other)
        if len(group) == seats or not full:
            groups.append(group)
            left = rest
        else:
            skipped.append(head)
    return groups, skipped


def pair(free: Iterable[Free], seats: int, now: float, bot_wait: float) -> list[Table]:
    """The tables to seat now from the ``free`` players (see the module docstring): full tables
    of people, leaders first; then, among those left, a table with bots for each player who has
    waited ``bot_wait`` seconds or more (the longest waiting first, with the compatible players
    left next to them in the standings). A player is at one table at most; those left wait."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"an arena's tables have {MIN_SEATS} to {MAX_SEATS} seats, not {seats}")
    by_rank = sorted(free, key=lambda f: (f.rank, f.since, f.player))
    unique: list[Free] = []
    for f in by_rank:  # each player once, at their best line
        if all(f.player != u.player for u in unique):
            unique.append(f)
    groups, left = _greedy(unique, seats, full=True)
    tables = [Table(tuple(f.player for f in group), 0) for group in groups]
    waited = sorted((f for f in left if now - f.since >= bot_wait), key=lambda f: (f.since, f.rank, f.player))
    taken: set[str] = set()
    for head in waited:
        if head.player in taken:
            continue
        group = [head]
        for other in left:
            if other.player not in taken and other is not head and len(group) < seats and _fits(group, other):
                group.append(other)
        taken.update(f.player for f in group)
        group.sort(key=lambda f: (f.rank, f.since, f.player))
        tables.append(Table(tuple(f.player for f in group), seats - len(group)))
    return tables


__all__ = [
    "FIRE_AFTER",
    "MAX_SEATS",
    "MIN_SEATS",
    "Free",
    "Scored",
    "Standing",
    "Table",
    "pair",
    "place_points",
    "scored",
    "standings",
]
