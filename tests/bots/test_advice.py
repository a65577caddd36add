"""The search as an estimator (``IsmctsBot.evaluate``, on the Python engine and the kernel) and the
advisor that follows a seat through a game (``unokit.bots.advice``)."""

from __future__ import annotations

import pytest

from unokit import Game, View
from unokit.bots.advice import EFFORTS, Advisor, effort_named, stream
from unokit.bots.ismcts import IsmctsBot, searched_actions
from unokit.bots.ismcts_fast import FastIsmctsBot

from ..helpers import game as position_game

HANDS = [["red 5", "red 8", "blue 2", "wild"], ["blue 1", "green 3", "yellow 4"]]


@pytest.mark.parametrize("bot", [IsmctsBot(3), FastIsmctsBot(3)], ids=["python", "kernel"])
def test_every_choice_gets_an_equal_share_and_the_chances_add_up(bot: IsmctsBot) -> None:
    game = position_game(hands=HANDS, discard=["red 3"], color="red")
    view = View(game, 0)
    choices = searched_actions(view.legal_actions())
    evaluation = bot.evaluate(view, 40 * len(choices))
    assert evaluation.engine == ("kernel" if isinstance(bot, FastIsmctsBot) else "python")
    assert [c.action for c in evaluation.choices] == choices
    visits = [c.visits for c in evaluation.choices]
    assert sum(visits) == evaluation.iterations == 40 * len(choices) and max(visits) - min(visits) <= 1
    assert sum(evaluation.chances) == pytest.approx(1.0)
    assert all(0.0 <= c.chance <= 1.0 for c in evaluation.choices)


@pytest.mark.parametrize("bot", [IsmctsBot(3), FastIsmctsBot(3)], ids=["python", "kernel"])
def test_where_another_seat_acts_only_the_chances_are_given(bot: IsmctsBot) -> None:
    game = position_game(hands=HANDS, discard=["red 3"], color="red", turn=1)
    evaluation = bot.evaluate(View(game, 0), 200)
    assert evaluation.choices == () and evaluation.iterations == 200
    assert sum(evaluation.chances) == pytest.approx(1.0)


def test_the_advisor_is_reproducible_by_key_and_follows_the_seats_decisions() -> None:
    game, _ = Game.new("classic", 2, seed=4, rounds=1)
    moves: list[tuple[int, str]] = []
    for _ in range(12):
        action = game.legal_actions()[0]
        actor = game.to_act
        assert actor is not None
        moves.append((actor, action.text))
        game.apply(action)
    start, _ = Game.new("classic", 2, seed=4, rounds=1)
    advisor = Advisor(0, EFFORTS["low"], seed=8)
    stops = list(advisor.walk(start, moves))
    assert [s.index for s in stops] == list(range(13))
    assert [s.decision for s in stops[:-1]] == [actor == 0 for actor, _ in moves]
    first = advisor.evaluate(stops[-1].view, 12)
    again = Advisor(0, EFFORTS["low"], seed=8)
    last = list(again.walk(start, moves))[-1]
    assert again.evaluate(last.view, 12) == first
    assert stream(8, 12) != stream(8, 13) != stream(9, 12)
    with pytest.raises(ValueError, match="unknown effort 'max'; efforts are low, normal, high"):
        effort_named("max")
