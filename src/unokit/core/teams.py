"""Partners: with ``teams=true`` (H-6) the seats facing each other play as one team.

At a table of 4 the teams are seats 0 and 2, and 1 and 3; at a table of 6, seats 0 and 3, 1
and 4, 2 and 5. Team ``k`` holds seats ``k`` and ``k + players / 2``, so a seat's team is its
number modulo ``players / 2``. Nothing else about the table changes: partners do not see each
other's hands; a team wins a round when one of its members goes out, and the game when its
total (the sum of its members' scores) wins under the game's scoring mode.
"""

from __future__ import annotations

from .types import Seat


def team_of(seat: Seat, players: int) -> int:
    """The team of ``seat`` at a table of ``players`` (4 or 6) seats."""
    return seat % (players // 2)


def partner(seat: Seat, players: int) -> Seat:
    """The seat facing ``seat``: its partner."""
    return (seat + players // 2) % players


def team_members(players: int) -> tuple[tuple[Seat, Seat], ...]:
    """Every team's seats, by team number: ``((0, 2), (1, 3))`` at a table of 4."""
    half = players // 2
    return tuple((k, k + half) for k in range(half))


def team_totals(scores: list[int] | tuple[int, ...]) -> list[int]:
    """Each team's total: the sum of its members' ``scores`` (one score per seat)."""
    return [sum(scores[s] for s in members) for members in team_members(len(scores))]
