"""Write the golden playthroughs: ``tests/golden/<variant>.jsonl``, one game per variant.

Each game is built with seed 1, 3 players and ``rounds=1``, and is played to the end by a
chooser seeded with ``Rng(1)`` that picks uniformly among the legal actions of the seat to act.
The first line holds the set-up (options, the events of the deal and the position); then one
line per decision: the step number, the seat, the decision kind, the legal actions, the action
taken, every event it produced (unredacted) and the position afterwards. If a file would grow
past 2 MB the position is stored only every 10th step (and always after the last).

``tests/test_golden.py`` regenerates the lines in memory with :func:`golden_lines` and diffs
them against the files, so any change in the engine's behaviour shows up there. When a change
is intended, run ``make golden`` (or ``python scripts/make_golden.py``) and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from unokit import VARIANT_NAMES, Game
from unokit.core.rng import Rng

SEED = 1
PLAYERS = 3
OPTIONS: dict[str, object] = {"rounds": 1}
CHOOSER_SEED = 1
MAX_BYTES = 2_000_000
SPARSE_EVERY = 10
MAX_DECISIONS = 20_000
GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"


def golden_path(variant: str) -> Path:
    """Where the golden playthrough of ``variant`` is stored."""
    return GOLDEN_DIR / f"{variant}.jsonl"


def _dump(obj: dict[str, Any]) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _playthrough(variant: str, position_every: int) -> list[str]:
    game, events = Game.new(variant, PLAYERS, SEED, **OPTIONS)
    lines = [
        _dump(
            {
                "variant": variant,
                "players": PLAYERS,
                "seed": SEED,
                "options": OPTIONS,
                "chooser_seed": CHOOSER_SEED,
                "position_every": position_every,
                "events": events,
                "position": game.to_position(),
            }
        )
    ]
    chooser = Rng(CHOOSER_SEED)
    step = 0
    while not game.is_over:
        step += 1
        if step > MAX_DECISIONS:
            raise RuntimeError(f"{variant}: no end after {MAX_DECISIONS} decisions")
        seat = game.to_act
        decision = game.decision
        legal = game.legal_actions()
        action = chooser.choice(legal)
        events = game.apply(action)
        line: dict[str, Any] = {
            "step": step,
            "seat": seat,
            "decision": decision,
            "legal": [str(a) for a in legal],
            "action": str(action),
            "events": events,
        }
        if step % position_every == 0 or game.is_over:
            line["position"] = game.to_position()
        lines.append(_dump(line))
    return lines


def golden_lines(variant: str) -> list[str]:
    """The golden playthrough of ``variant`` as JSON lines (without newlines).

    The position goes on every line unless that makes the file larger than ``MAX_BYTES``;
    then only on every ``SPARSE_EVERY``-th line and the last.
    """
    lines = _playthrough(variant, 1)
    if sum(len(line.encode()) + 1 for line in lines) > MAX_BYTES:
        lines = _playthrough(variant, SPARSE_EVERY)
    return lines


def main() -> None:
    """Rewrite every golden file."""
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for variant in VARIANT_NAMES:
        path = golden_path(variant)
        text = "".join(line + "\n" for line in golden_lines(variant))
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({text.count(chr(10))} lines, {len(text.encode())} bytes)")


if __name__ == "__main__":
    main()
