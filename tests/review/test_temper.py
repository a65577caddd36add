"""The temperature on the review's chances (``docs/review.md``, "Calibration"): what it keeps
(certainties, the equal share, the order of chances), its two-player form, the refusal of what is
not a chance, and that a review of a tempered table says its power and shows the searched
chances under it, decision by decision."""

from __future__ import annotations

import pytest

from unokit.bots import make_bot, temper
from unokit.bots.runner import play_game
from unokit.bots.temper import tempered
from unokit.record import RecordingGame
from unokit.review import Review, review_record
from unokit.review.analysis import DIGITS, estimate_steps, review_steps


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("power", [0.3, 0.55, 1.7])
def test_a_temperature_keeps_certainties_the_equal_share_and_the_order(players: int, power: float) -> None:
    assert tempered(0.0, players, power) == 0.0 and tempered(1.0, players, power) == 1.0
    assert tempered(1 / players, players, power) == pytest.approx(1 / players)
    chances = [0.01 * i for i in range(1, 100)]
    moved = [tempered(p, players, power) for p in chances]
    assert moved == sorted(moved) and len(set(moved)) == len(moved)
    if power < 1:  # less sure: every chance nearer the equal share
        assert all(abs(q - 1 / players) <= abs(p - 1 / players) + 1e-12 for p, q in zip(chances, moved, strict=True))


def test_with_two_players_it_scales_the_log_odds() -> None:
    for p in (0.1, 0.35, 0.8):
        assert tempered(p, 2, 0.55) == pytest.approx(1 / (1 + ((1 - p) / p) ** 0.55))


@pytest.mark.parametrize(("chance", "players", "power"), [(1.2, 2, 0.5), (-0.1, 2, 0.5), (0.5, 1, 0.5), (0.5, 2, 0.0)])
def test_what_is_not_a_chance_a_table_or_a_power_is_refused(chance: float, players: int, power: float) -> None:
    with pytest.raises(ValueError):
        tempered(chance, players, power)


def test_a_review_of_a_tempered_table_shows_the_searched_chances_under_its_power() -> None:
    game, _ = RecordingGame.new("classic", 2, seed=11, rounds=1)
    play_game(game, [make_bot("normal", 3), make_bot("normal", 4)])
    record = game.to_record()
    power = temper.temperature("classic", 2)
    assert power < 1.0  # 2-player Classic is tempered
    review = review_record(record, 0, "low", seed=2)
    assert review.power == power and Review.from_json(review.to_json()).power == power
    searched = {e.step: e for e in estimate_steps(record, 0, "low", 2, review_steps(record))}
    assert review.decisions
    for decision in review.decisions:
        raw = searched[decision.step].choices
        assert [c.chance for c in decision.choices] == [round(tempered(c[2], 2, power), DIGITS) for c in raw]
    points = {p.step: p.chance for p in review.points}
    for step, estimate in searched.items():
        if not estimate.decision:
            assert points[step] == round(tempered(estimate.chances[0], 2, power), DIGITS)
