"""A temperature on the search's chances to win the hand (``docs/review.md``, "Calibration").

The search's chances are too sure of themselves (measured against the outcomes of games between
``expert`` bots): a temperature pulls them toward an equal share. A seat's chance ``p`` at a table
of ``n`` is raised to a power ``a`` against the others' chances, these taken as sharing the rest
equally, and the two renormalised::

    p' = p^a / (p^a + (n - 1)^(1 - a) * (1 - p)^a)

With two players this is ``1 / (1 + ((1 - p) / p)^a)``, a scaling of the chance's log-odds by
``a``; with any number it keeps 0, 1 and the equal share ``1/n`` where they are and the order of
any two chances. ``a`` below 1 makes the chances less sure; 1 leaves them as they are.
"""

from __future__ import annotations

#: The fitted powers by (variant, players) (``scripts/calibrate_review.py fit``, by maximum
#: likelihood on the positions of games between ``expert`` bots; ``docs/review.md`` gives the
#: figures); a table not named here keeps the search's chances (power 1). 2-player Classic:
#: fitted on all 70 hands (2,523 positions); fitted on half of them (0.62) it lowered the other
#: half's Brier score from 0.2404 to 0.2338. 4-player UNO Flip is not tempered: its hands are
#: too few to fix a power (its two halves fit 0.05 and 0.59).
TEMPERATURES: dict[tuple[str, int], float] = {("classic", 2): 0.55}


def tempered(chance: float, players: int, power: float) -> float:
    """``chance`` (a seat's chance to win the hand at a table of ``players``) under ``power``
    (the module docstring). Raises ``ValueError`` for a chance outside 0..1, fewer than two
    players or a power that is not above 0."""
    if not 0.0 <= chance <= 1.0:
        raise ValueError(f"a chance is from 0 to 1, not {chance}")
    if players < 2:
        raise ValueError(f"a table has at least two players, not {players}")
    if power <= 0.0:
        raise ValueError(f"the power must be above 0, not {power}")
    if chance in (0.0, 1.0) or power == 1.0:
        return chance
    mine: float = chance**power
    theirs: float = (players - 1) ** (1.0 - power) * (1.0 - chance) ** power
    return mine / (mine + theirs)


def temperature(variant: str, players: int) -> float:
    """The power applied to the chances of a review of ``variant`` with ``players``."""
    return TEMPERATURES.get((variant, players), 1.0)


__all__ = ["TEMPERATURES", "temperature", "tempered"]
