"""Write the fixed suites of ``unokit eval`` (src/unokit/eval/suites/*.json).

The deal seeds of each suite come from one SplitMix64 stream per suite, seeded by the suite's
name, so that this script writes the same files again; the files, shipped with unokit, are what
the protocol ``unokit-eval/1`` fixes (their SHA-256 is each result's ``suite.hash``)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from unokit import VARIANT_NAMES
from unokit.core.rng import Rng
from unokit.core.variants import get_rules

OUT = Path(__file__).resolve().parent.parent / "src" / "unokit" / "eval" / "suites"
#: Deals per suite by table size: 2,000 deals of 2 seats are 4,000 hands with the seats rotated.
DEALS = {2: 2000, 4: 1000}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for variant in VARIANT_NAMES:
        rules = get_rules(variant)
        for players, deals in DEALS.items():
            if not rules.min_players <= players <= rules.max_players:
                continue
            name = f"{variant}-{players}"
            rng = Rng(int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "little"))
            suite = {
                "format": "unokit-suite/1",
                "name": name,
                "variant": variant,
                "players": players,
                "options": {},
                "rotation": "every seat",
                "deals": [rng.next64() for _ in range(deals)],
            }
            (OUT / f"{name}.json").write_text(json.dumps(suite, separators=(",", ":")) + "\n", encoding="utf-8")
            print(name, deals)


if __name__ == "__main__":
    main()
