"""Bots only ever answer with a legal action, in every variant and option set.

Each bot is wrapped so that every answer is checked against the seat's legal actions (by
identity: the engine interns its actions) before the validating ``Game.apply`` of the match
runner sees it; illegal answers would fail both checks.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unokit import VARIANT_NAMES
from unokit.bots import Bot, make_bot
from unokit.bots.runner import play_game
from unokit.core.actions import Action
from unokit.core.game import Game
from unokit.core.observation import View


class Checked(Bot):
    """Wraps a bot and checks each of its answers; counts the decisions by kind."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(0)
        self.inner = inner
        self.name = inner.name  # type: ignore[misc]
        self.kinds: dict[str, int] = {}

    def reset(self, seat: int) -> None:
        self.inner.reset(seat)

    def act(self, view: View) -> Action:
        legal = view.legal_actions()
        action = self.inner.act(view)
        assert any(action is a for a in legal), f"{self.inner.name} chose {action} from {legal} ({view.decision})"
        self.kinds[view.decision] = self.kinds.get(view.decision, 0) + 1
        return action

    def react(self, view: View) -> Action | None:
        legal = view.legal_actions()
        action = self.inner.react(view)
        assert action is None or any(action is a for a in legal), f"{self.inner.name} reacted {action} from {legal}"
        return action


CASES: list[tuple[str, int, dict[str, object]]] = [
    ("classic", 2, {}),
    ("classic", 4, {"stacking": True}),
    ("classic", 3, {"bluffing": False}),
    ("classic", 3, {"wild_counts_as_color_match": True, "scoring": "own_hand"}),
    ("classic", 5, {"scoring": "loser", "stacking": True}),
    ("flip", 2, {}),
    ("flip", 4, {"stacking": True}),
    ("flip", 3, {"flip_wild_chooser": "next", "bluffing": False}),
    ("flip", 4, {"pairing": "random", "wild_counts_as_color_match": True}),
    ("attack", 2, {}),
    ("attack", 4, {"launcher": "pattern"}),
    ("attack", 3, {"launcher": "one_card", "scoring": "own_hand"}),
    ("flip_attack", 2, {}),
    ("flip_attack", 4, {"launcher": "pattern", "flip_wild_chooser": "next"}),
    ("flip_attack", 3, {"pairing": "random", "launcher": "one_card"}),
    ("flip_attack", 6, {}),
    ("classic", 4, {"jump_in": True, "seven_o": True, "teams": True}),
    ("classic", 3, {"stacking": "mixed", "draw_until_playable": True, "force_play": True}),
    ("flip", 4, {"jump_in": True, "stacking": "progressive", "bluffing": False}),
    ("flip", 6, {"teams": True, "seven_o": True, "draw_until_playable": True}),
    ("attack", 4, {"jump_in": True, "stacking": True, "teams": True}),
    ("flip_attack", 3, {"seven_o": True, "stacking": "mixed", "jump_in": True}),
]
BOTS = ["random", "rlcard_rule", "heuristic"]


@pytest.mark.parametrize(("variant", "players", "options"), CASES, ids=str)
def test_bots_answer_legally_in_single_hands(variant: str, players: int, options: dict[str, object]) -> None:
    kinds: dict[str, int] = {}
    for seed in range(10):
        game, _ = Game.new(variant, players, seed, rounds=1, **options)
        bots = [Checked(make_bot(BOTS[(seed + s) % len(BOTS)], seed * 10 + s)) for s in range(players)]
        play_game(game, bots)
        assert game.is_over
        for bot in bots:
            for kind, count in bot.kinds.items():
                kinds[kind] = kinds.get(kind, 0) + count
    assert kinds.get("turn", 0) > 0


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_heuristic_plays_whole_games_legally(variant: str) -> None:
    game, _ = Game.new(variant, 3, 7, target=200)
    bots = [Checked(make_bot(name, i)) for i, name in enumerate(["heuristic", "heuristic", "rlcard_rule"])]
    play_game(game, bots)
    assert game.is_over and game.round_number >= 1


def test_every_decision_kind_is_answered() -> None:
    """Over enough games every decision kind the variants have comes up for each bot."""
    expected = {
        "classic": {"turn", "play_or_keep", "challenge", "stack"},
        "flip": {"turn", "play_or_keep", "challenge", "choose_color"},
        "attack": {"turn", "choose_player"},
        "flip_attack": {"turn", "press_your_luck", "choose_discard", "choose_color"},
    }
    for name in BOTS:
        for variant, wanted in expected.items():
            # The rule bot always stops at once after a Wild Press Your Luck: it never discards.
            kinds = wanted - {"choose_discard"} if name == "rlcard_rule" else wanted
            seen: set[str] = set()
            for seed in range(40):
                options: dict[str, object] = {"stacking": True} if variant == "classic" else {}
                game, _ = Game.new(variant, 3, seed, rounds=1, **options)
                bots = [Checked(make_bot(name, seed * 3 + s)) for s in range(3)]
                play_game(game, bots)
                for bot in bots:
                    seen |= set(bot.kinds)
                if kinds <= seen:
                    break
            assert kinds <= seen, f"{name} in {variant}: never saw {kinds - seen}"


#: The house rules of every variant (H-1 to H-6).
HOUSE: dict[str, list[object]] = {
    "jump_in": [False, True],
    "seven_o": [False, True],
    "teams": [False, True],
    "stacking": [False, True, "progressive", "mixed"],
}
DRAWING: dict[str, list[object]] = {"draw_until_playable": [False, True], "force_play": [False, True]}
#: Every option value a variant accepts (launcher "scripted" needs a script and is left out).
OPTION_VALUES: dict[str, dict[str, list[object]]] = {
    "classic": {
        **HOUSE,
        **DRAWING,
        "bluffing": [True, False],
        "wild_counts_as_color_match": [False, True],
    },
    "flip": {
        **HOUSE,
        **DRAWING,
        "bluffing": [True, False],
        "wild_counts_as_color_match": [False, True],
        "flip_wild_chooser": ["player", "next"],
        "pairing": ["physical", "random"],
    },
    "attack": {**HOUSE, "launcher": ["random", "pattern", "one_card"]},
    "flip_attack": {
        **HOUSE,
        "launcher": ["random", "pattern", "one_card"],
        "flip_wild_chooser": ["player", "next"],
        "pairing": ["physical", "random"],
    },
}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_bots_answer_legally_under_random_options(data: st.DataObject) -> None:
    variant = data.draw(st.sampled_from(sorted(OPTION_VALUES)))
    options = {name: data.draw(st.sampled_from(values)) for name, values in OPTION_VALUES[variant].items()}
    players = data.draw(st.sampled_from([4, 6]) if options.get("teams") else st.integers(2, 6))
    options["scoring"] = data.draw(st.sampled_from(["winner", "own_hand", "loser"]))
    seed = data.draw(st.integers(0, 2**32))
    names = [data.draw(st.sampled_from(BOTS)) for _ in range(players)]
    game, _ = Game.new(variant, players, seed, rounds=1, **options)
    play_game(game, [Checked(make_bot(name, seed + s)) for s, name in enumerate(names)])
    assert game.is_over
