"""``unokit replay --print`` names every decision kind of every variant in words.

The defect: a record of UNO Flip Stranger Things or Transformers printed at a step where a
``discard_cards`` or ``choose_target`` decision was open died with a ``KeyError``, because the
replay's table of words for decisions lacked the kinds those editions added. Every variant is
played at random until its special decisions come up; the table is printed at the first step
each decision kind is open, as ``unokit replay --print --log --step N`` does.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from unokit.cli import main
from unokit.core.types import DecisionKind
from unokit.core.variants import VARIANT_NAMES
from unokit.i18n.lines import words
from unokit.record import RecordingGame, Replay, save_record
from unokit.record.render import render_log, render_step

#: Decision kinds each variant must reach in the games below (besides a turn).
MUST_REACH: dict[str, set[str]] = {
    "flip_stranger_things": {DecisionKind.DISCARD_CARDS},
    "flip_transformers": {DecisionKind.CHOOSE_TARGET, DecisionKind.DISCARD_CARDS},
    "flip_marvel": {DecisionKind.DISCARD_CARDS},
    "attack": {DecisionKind.CHOOSE_PLAYER},
    "flip_attack": {DecisionKind.PRESS_YOUR_LUCK},
}


def _first_steps(variant: str, games: int = 12) -> tuple[RecordingGame, dict[str, int]]:
    """Random 3-player games of ``variant`` until every kind of :data:`MUST_REACH` has been
    open: the last game and the first step of it at which each decision kind was open."""
    wanted = MUST_REACH.get(variant, set())
    game = None
    firsts: dict[str, int] = {}
    for seed in range(games):
        game, _events = RecordingGame.new(variant, 3, seed, rounds=1)
        rng = random.Random(seed)
        firsts = {}
        while not game.is_over:
            firsts.setdefault(game.decision, len(game.moves))
            game.apply(rng.choice(game.legal_actions()))
        firsts.setdefault(game.decision, len(game.moves))
        if wanted <= set(firsts):
            break
    assert game is not None
    assert wanted <= set(firsts), f"{variant}: no game reached {wanted - set(firsts)}"
    return game, firsts


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_replay_prints_every_decision_kind_in_words(variant: str, tmp_path: Path) -> None:
    game, firsts = _first_steps(variant)
    replay = Replay(game.to_record())
    for kind, step in firsts.items():
        lines = render_step(replay, step)
        text = "\n".join(lines)
        if kind == DecisionKind.OVER:
            assert "Game over" in text
        else:
            assert words().decision(kind) in text, (kind, text)
        assert f"decision.{kind}" not in text  # a key never shows: the words do
    assert render_log(replay, len(replay))
    # And through the command, at the step of the edition's own decision.
    special = sorted(MUST_REACH.get(variant, {DecisionKind.TURN}))[0]
    path = save_record(game.to_record(), tmp_path / "game.json")
    result = CliRunner().invoke(main, ["replay", str(path), "--print", "--log", "--step", str(firsts[special])])
    assert result.exit_code == 0, result.output
    assert words().decision(special) in result.output
