"""The ladder of levels: what each level is, that each plays every variant and house-rule
combination legally and finishes games, and that its human habits are kept apart from its play
(people's games only). How strong the levels are is measured by ``scripts/bench_ladder.py``,
not asserted here.

The searching levels play here with a budget of one or two iterations a decision: legality and
the end of the game do not depend on the budget, and the full budget would take minutes."""

from __future__ import annotations

import itertools

import pytest

from tests.bots.test_legal import Checked
from tests.helpers import load_script, position
from unokit import VARIANT_NAMES, Game, View
from unokit.bots import BOT_CLASSES, Bot, level_names, make_bot
from unokit.bots.belief import BeliefIsmctsBot
from unokit.bots.habits import ForgetfulBot, Habits
from unokit.bots.heuristic import HeuristicBot
from unokit.bots.ismcts import IsmctsBot
from unokit.bots.ismcts_fast import FastIsmctsBot
from unokit.bots.levels import LEVELS, for_people, habits_for, make_level_bot
from unokit.bots.runner import play_decision, play_game
from unokit.core.actions import PLAY

combos = load_script("house_combinations")

#: Decisions of each game of the house-rule covering set (a short game).
SHORT = 40


def level_bot(name: str, seed: int, iterations: int = 1) -> Checked:
    """The bot of level ``name`` (a search with ``iterations`` a decision), checked."""
    bot = make_bot(name, seed)
    if isinstance(bot, IsmctsBot):
        bot.iterations = iterations
    return Checked(bot)


def test_the_levels_in_order_and_what_each_is() -> None:
    assert level_names() == ["beginner", "easy", "normal", "hard", "expert"]
    slips = []
    for name in ("beginner", "easy", "normal"):
        bot = make_bot(name, 1)
        assert type(bot) is HeuristicBot
        slips.append(bot.slips)
    assert slips[0] > slips[1] > slips[2] == 0.0
    hard = make_bot("hard", 1)
    assert isinstance(hard, FastIsmctsBot) and type(hard) is FastIsmctsBot and hard.iterations == 200
    assert type(make_bot("expert", 1)) is BeliefIsmctsBot
    # a level's bot is the engine's bot alone: no habits outside people's games
    assert not any(isinstance(make_bot(name, 1), ForgetfulBot) for name in level_names())


def test_a_level_whose_bot_is_not_installed_plays_its_fallback() -> None:
    missing = {
        **BOT_CLASSES,
        "ismcts_fast": "no_such_module:FastIsmctsBot",
        "ismcts_belief": "no_such_module:BeliefIsmctsBot",
    }
    for name in ("hard", "expert"):
        bot = make_level_bot(name, 3, missing)
        assert type(bot) is IsmctsBot
        assert LEVELS[name].fallback == "ismcts"
    with pytest.raises(ValueError, match="not installed"):
        make_level_bot("normal", 3, {**BOT_CLASSES, "heuristic": "no_such_module:HeuristicBot"})


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_each_level_plays_every_house_rule_combination_legally(variant: str) -> None:
    """Every row of the house-rule covering set (every combination of the house rules, the
    other options pairwise, 2 to 10 seats) is played by every level: a row of ``p`` seats gets
    ``ceil(5 / p)`` games, the levels seated in turn so that each level sits at each row. Each
    game is short (its first :data:`SHORT` decisions); every answer is checked legal."""
    rows, _ = combos.covering_rows(variant)
    levels = level_names()
    seated: dict[str, int] = dict.fromkeys(levels, 0)
    for i, row in enumerate(rows):
        players = row["players"]
        options = {k: v for k, v in row.items() if k != "players"}
        at_row: set[str] = set()
        for g in range(-(-len(levels) // players)):
            game, _ = Game.new(variant, players, 1000 + 7 * i + g, rounds=1, **options)
            names = [levels[(i + g * players + s) % len(levels)] for s in range(players)]
            bots: list[Bot] = [level_bot(name, 100 * i + s) for s, name in enumerate(names)]
            for s, bot in enumerate(bots):
                bot.reset(s)
            views = [View(game, s) for s in range(players)]
            for _ in range(SHORT):
                if game.is_over:
                    break
                play_decision(game, bots, views)
            at_row |= set(names)
            for name in names:
                seated[name] += 1
        assert at_row == set(levels), f"row {i}: {row}"
    assert min(seated.values()) >= len(rows)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_each_level_finishes_games(variant: str) -> None:
    """Whole single hands: every pair of neighbouring levels at two seats, then all five
    levels at one table (with a house rule or two)."""
    levels = level_names()
    tables: list[tuple[list[str], dict[str, object]]] = [([low, high], {}) for low, high in itertools.pairwise(levels)]
    tables.append((levels, {"stacking": True, "seven_o": True}))
    for k, (names, options) in enumerate(tables):
        game, _ = Game.new(variant, len(names), 50 + k, rounds=1, **options)
        bots = [level_bot(name, 10 * k + s, iterations=2) for s, name in enumerate(names)]
        play_game(game, bots)
        assert game.is_over and game.winners
        assert all(sum(bot.kinds.values()) > 0 for bot in bots)


def test_habits_are_for_people_and_weaker_at_the_lower_levels() -> None:
    habits = [LEVELS[name].habits for name in level_names()]
    for low, high in itertools.pairwise(habits):
        assert low.forget >= high.forget and low.catch <= high.catch and low.late_uno <= high.late_uno
        assert low.reaction >= high.reaction and low.think >= high.think
    assert habits[0].forget > 0 and habits[0].catch < 1.0
    assert habits[-1].forget == 0.0 and habits[-1].catch == habits[-1].late_uno == 1.0
    assert habits_for("heuristic") == Habits()  # engine names keep the table's defaults
    people = for_people(make_bot("easy", 4), "easy")
    assert people.habits == LEVELS["easy"].habits and isinstance(people.inner, HeuristicBot)
    assert for_people(make_bot("easy", 4), "easy", Habits(forget=1.0)).habits.forget == 1.0


def test_think_time_is_drawn_within_the_level_range() -> None:
    bot = for_people(make_bot("beginner", 9), "beginner")
    low, high = LEVELS["beginner"].habits.think
    times = [bot.think_time() for _ in range(50)]
    assert all(low <= t <= high for t in times) and len(set(times)) > 40
    fixed = ForgetfulBot(make_bot("random", 1), Habits(think=(0.7, 0.7)))
    state = fixed.rng.state
    assert fixed.think_time() == 0.7 and fixed.rng.state == state  # one value: no draw


def test_slips_answer_some_decisions_at_random_and_never_drop_the_uno_call() -> None:
    """Two cards: the red 5 fits (with or without UNO), the wild fits in four colours, or draw.
    A slipping bot spreads its answers over them and always keeps the UNO call; without slips
    the answer is the same from every seed."""
    game = Game.from_position(
        position(hands=[["red 5", "wild"], ["blue 1", "green 2", "yellow 3"]], discard=["red 9"], color="red")
    )
    view = View(game, 0)
    steady = {make_bot("normal", seed).act(view).text for seed in range(20)}
    assert len(steady) == 1
    answers = [HeuristicBot(seed, slips=1.0).act(view) for seed in range(60)]
    assert len({a.text for a in answers}) >= 4
    assert all(a.uno for a in answers if a.kind == PLAY)
    with pytest.raises(ValueError, match="slips"):
        HeuristicBot(1, slips=1.5)
