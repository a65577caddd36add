"""Every combination of the house rules (H-1 to H-6), in every variant, with the other options
covered pairwise: one random game each, played to the end and checked after every action
(card conservation, no stuck or endless round, observations that hide what they must,
positions and replays that reproduce the game). ``scripts/house_combinations.py`` runs more
games per combination, or every combination of every option (``--exhaustive``)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tests.helpers import load_script
from unokit import VARIANT_NAMES, Action, Game
from unokit.core.variants import HOUSE_RULES, VARIANTS

combos = load_script("house_combinations")


def test_the_table_names_every_house_rule_and_option() -> None:
    """A new house rule or option must be added to the script's tables, so the games cover it."""
    assert set(HOUSE_RULES) <= set(combos.HOUSE_VALUES)
    for variant in VARIANT_NAMES:
        covered = set(combos.house_factors(variant)) | set(combos.other_factors(variant))
        left = VARIANTS[variant].accepted_options - covered - {"target", "rounds", "launcher_script", "deck"}
        assert not left, f"{variant}: {sorted(left)} missing from scripts/house_combinations.py"


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_rows_hold_every_house_rule_combination_and_every_pair(variant: str) -> None:
    """Each combination of the variant's house-rule values is a row; every pair of
    values of two options (players included) that can be played together is in some row; every
    row is a game the engine accepts, partners only at 4 or 6 seats."""
    rows, uncovered = combos.covering_rows(variant)
    house = combos.house_factors(variant)
    assert uncovered == set()
    combinations = list(itertools.product(*house.values()))
    assert len(combinations) == (32 if VARIANTS[variant].uses_launcher else 128)
    first = [tuple(row[name] for name in house) for row in rows[: len(combinations)]]
    assert first == combinations  # then a few extra rows for pairs the greedy choice missed
    assert len(rows) < len(combinations) + 10
    for row in rows:
        assert row["players"] in (4, 6) or row.get("teams") is not True
        options = {k: v for k, v in row.items() if k != "players"}
        Game.new(variant, row["players"], 0, **options)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_house_rule_combination_plays_to_a_sound_end(variant: str) -> None:
    rows, _ = combos.covering_rows(variant)
    played, actions, failures = combos.run([variant], games=1, exhaustive=False, seed=11)
    assert failures == []
    assert played == len(rows)
    assert actions > played * 10  # whole rounds were played, not a move or two


def test_the_checks_catch_a_broken_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks can fail: a game that loses a card, or an observation showing another
    seat's hand, is reported with its step."""
    setup = combos.Setup("classic", {"players": 4, "jump_in": True}, 3)

    class LosesACard(Game):
        def apply(self, action: Action | str, seat: int | None = None) -> list[dict[str, Any]]:
            events = super().apply(action, seat)
            if len(self.draw) > 5:
                self.draw.pop()
            return events

    class ShowsHands(Game):
        def observe(self, seat: int | None) -> dict[str, Any]:
            obs = super().observe(seat)
            obs["peek"] = [list(hand) for hand in self.hands]
            return obs

    for broken, words in ((LosesACard, "not conserved"), (ShowsHands, "may not see")):
        with monkeypatch.context() as patch:
            patch.setattr(combos, "Game", broken)
            with pytest.raises(combos.CheckFailed, match=words):
                combos.check_game(setup)


def test_a_long_fair_round_is_not_called_endless() -> None:
    """The endless-round bound sits above the longest fair round met so far: a 6-player Marvel
    round with Seven-O, mixed stacking and draw-until-playable (from the exhaustive run) that
    ends with a winner after 4,238 actions, every check passing on the way."""
    row = {
        "players": 6,
        "jump_in": False,
        "seven_o": True,
        "stacking": "mixed",
        "draw_until_playable": True,
        "force_play": False,
        "teams": False,
        "bluffing": True,
        "wild_counts_as_color_match": False,
        "flip_wild_chooser": "player",
        "pairing": "physical",
        "scoring": "loser",
    }
    assert combos.check_game(combos.Setup("flip_marvel", row, 59970588)) == 4238
    assert combos.MAX_ACTIONS > 4238
