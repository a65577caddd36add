"""A few seconds of the training example, to keep it working (its real run takes minutes)."""

from __future__ import annotations

import runpy
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_classic.py"


def test_training_example_runs() -> None:
    main = runpy.run_path(str(EXAMPLE), run_name="train_classic")["main"]
    results = main(["--minutes", "0.003", "--eval-hands", "4"])
    assert results["trained_hands"] >= 1
    for name in ("random", "play_first", "trained"):
        assert 0.0 <= results[name] <= 1.0
        assert results[name] * 4 == int(results[name] * 4)  # whole hands out of 4
