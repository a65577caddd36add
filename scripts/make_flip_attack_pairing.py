"""Regenerate the shipped UNO Flip Attack card pairing from its documented seed (R-5.1).

The physical pairing of the two sides is not published, so unokit ships one fixed pairing:
the mild faces in deck order, paired with the wild faces shuffled by ``Rng(20240726)``.
Run ``python scripts/make_flip_attack_pairing.py`` to rewrite the data file; the test suite
checks that the shipped file equals this output.
"""

from __future__ import annotations

from pathlib import Path

from unokit.core.decks import flip_attack_generated_pairs, write_pairs_csv

TARGET = Path(__file__).resolve().parent.parent / "src/unokit/core/data/uno_flip_attack_card_pairs.csv"


def main() -> None:
    """Write the pairing CSV."""
    TARGET.write_text(write_pairs_csv(flip_attack_generated_pairs()), encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
