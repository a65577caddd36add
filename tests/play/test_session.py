"""The play session without a screen: prompts for every decision kind, the event log in
words, round summaries, forgetful bots and the command line's set-up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import pytest

import unokit
from unokit.bots import make_bot
from unokit.bots.habits import ForgetfulBot, Habits
from unokit.core.observation import redact
from unokit.core.rng import Rng
from unokit.i18n import LANGUAGES
from unokit.i18n.catalog import current, use
from unokit.narration import plain
from unokit.play import faces
from unokit.play.commands import BOT_NAME_COUNT, Setup, bot_names, default_bot, make_setup
from unokit.play.session import Player, Session, Teller, summarize
from unokit.record import RecordingGame, verify

from .support import CAREFUL, ScriptBot, session_from


def flip_position(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "variant": "flip",
        "players": 2,
        "turn": 0,
        "color": "red",
        "hands": [["red 7/orange 1", "wild/teal 3", "blue 5/pink 9"], ["yellow 3/purple 1", "green 7/teal 2"]],
        "discard": ["red 9/purple 5"],
        "seed": 1,
    }
    base.update(fields)
    return base


# ----------------------------------------------------------------------- prompts


def test_turn_prompt_marks_the_legal_cards_and_offers_the_draw() -> None:
    session = session_from(flip_position(), ["Ann", ScriptBot()])
    prompt = session.prompt(0)
    assert prompt.decision == "turn" and prompt.pick_from_hand
    assert [(c.face, c.legal) for c in prompt.hand] == [("red 7", True), ("blue 5", False), ("wild", True)]
    assert [c.label for c in prompt.choices] == ["Draw a card"]
    wild = prompt.hand[2].card
    assert [str(a) for a in session.card_actions(0, wild)] == [
        "play wild/teal 3 red",
        "play wild/teal 3 yellow",
        "play wild/teal 3 green",
        "play wild/teal 3 blue",
    ]
    assert "does not match" in session.explain(0, prompt.hand[1].card)


def test_the_turn_prompt_names_the_launcher_where_there_is_no_draw_pile() -> None:
    for variant, words, label in (
        ("classic", "Your turn: play a card or draw", "Draw a card"),
        ("attack", "Your turn: play a card or press the launcher", "Press the launcher"),
    ):
        position = {
            "variant": variant,
            "players": 2,
            "turn": 0,
            "color": "red",
            "hands": [["red 5", "blue 1"], ["red 7", "green 3"]],
            "discard": ["red 9"],
            "seed": 3,
        }
        prompt = session_from(position, ["Ann", ScriptBot()]).prompt(0)
        assert prompt.message == words and [c.label for c in prompt.choices] == [label]


def test_who_said_uno_is_known_to_the_table() -> None:
    """UNO! shows only for a player who called it; one who forgot is not shown as calling."""
    position = flip_position(hands=[["red 7/orange 1", "blue 5/pink 9"], ["yellow 3/purple 1", "green 7/teal 2"]])
    called = session_from(position, ["Ann", ScriptBot()])
    called.apply("play red 7/orange 1 uno", 0)
    assert called.said_uno(0) and not called.said_uno(1)
    forgot = session_from(position, ["Ann", ScriptBot()])
    forgot.apply("play red 7/orange 1", 0)
    assert not forgot.said_uno(0) and forgot.views[1].uno_exposed == 0
    forgot.apply("uno", 0)  # a late call
    assert forgot.said_uno(0)


def test_the_uno_call_is_added_only_where_it_is_open() -> None:
    position = flip_position(hands=[["red 7/orange 1", "blue 5/pink 9"], ["yellow 3/purple 1", "green 7/teal 2"]])
    session = session_from(position, ["Ann", ScriptBot()])
    red = next(c.card for c in session.prompt(0).hand if c.face == "red 7")
    (play,) = session.card_actions(0, red)
    assert str(session.with_uno(0, play, True)) == "play red 7/orange 1 uno"
    assert session.with_uno(0, play, False) is play


def test_play_or_keep_prompt() -> None:
    session = session_from(flip_position(draw=["red 2/orange reverse"]), ["Ann", ScriptBot()])
    session.apply("draw", 0)
    prompt = session.prompt(0)
    assert prompt.decision == "play_or_keep" and not prompt.pick_from_hand
    assert prompt.message == "You drew ● Red 2: play it or keep it?"
    assert [c.label for c in prompt.choices] == ["Play the Red 2", "Keep it"]


def test_challenge_prompt_names_the_card_and_both_answers() -> None:
    position = flip_position(
        turn=1,
        hands=[
            ["red 7/orange 1", "blue 5/pink 9"],
            ["wild_draw_two/orange 4", "red 2/orange reverse", "green 7/teal 2"],
        ],
    )
    session = session_from(position, ["Ann", ScriptBot()])
    session.apply("play wild_draw_two/orange 4 blue", 1)
    prompt = session.prompt(0)
    assert prompt.decision == "challenge"
    assert prompt.message == (  # what each answer costs, before the choice (R: the challenge)
        "Bot1 played Wild Draw Two naming blue ■ square. Accept: you draw 2 cards."
        " Challenge: if it was a bluff, Bot1 draws them and you play; if not, you draw 4 cards."
    )
    assert [c.label for c in prompt.choices] == ["Challenge: did Bot1 hold a red ● card?", "Accept: draw 2"]
    # The wording asks; it is the same whether the hand held red (above) or not (below).
    fair = flip_position(turn=1, hands=[position["hands"][0], ["wild_draw_two/orange 4", "green 7/teal 2"]])
    other = session_from(fair, ["Ann", ScriptBot()])
    other.apply("play wild_draw_two/orange 4 blue", 1)
    assert [c.label for c in other.prompt(0).choices] == [c.label for c in prompt.choices]


def test_choose_color_prompt_shows_the_symbols_of_the_active_side() -> None:
    position = flip_position(
        hands=[["red flip/pink 8", "green 3/pink flip"], ["yellow 3/purple 1", "green 7/teal 2"]],
        discard=["yellow 1/wild", "red 9/teal reverse"],
    )
    session = session_from(position, ["Ann", ScriptBot()])
    outcome = session.apply("play red flip/pink 8", 0)
    assert outcome.flipped_to == "dark"
    prompt = session.prompt(0)
    assert prompt.decision == "choose_color"
    assert [c.label for c in prompt.choices] == [
        "pink ● circle",
        "teal ▲ triangle",
        "orange ◆ diamond",
        "purple ■ square",
    ]


def test_classic_cards_carry_classic_printed_marks_and_flip_cards_flip_attacks() -> None:
    """Classic UNO's colour-blind marks are its printed ones (yellow a star, a wild all four);
    a Flip table after it goes back to Flip Attack's (yellow a diamond, a wild a star)."""
    classic = {
        "variant": "classic",
        "players": 2,
        "turn": 0,
        "color": "red",
        "hands": [["wild", "red 5", "green 1"], ["yellow 2", "blue 3"]],
        "discard": ["red 9"],
        "seed": 1,
    }
    session = session_from(classic, ["Ann", ScriptBot()])
    assert session.prompt(0).hand[-1].face == "wild"
    assert [faces.color_label(color) for color in ("red", "yellow", "green", "blue")] == [
        "red ● circle",
        "yellow ★ star",
        "green ▲ triangle",
        "blue ■ square",
    ]
    assert faces.glyph(None) == "❖"
    session_from(flip_position(), ["Ann", ScriptBot()])
    assert faces.color_label("yellow") == "yellow ◆ diamond"
    assert faces.glyph(None) == "★"


def test_trade_hands_prompt_lists_the_other_players() -> None:
    position = {
        "variant": "attack",
        "players": 3,
        "turn": 0,
        "color": "red",
        "hands": [["red trade_hands", "red 1", "blue 2"], ["yellow 3"] * 2, ["green 4", "green 5", "blue 6", "blue 7"]],
        "discard": ["red 9"],
        "seed": 1,
    }
    session = session_from(position, ["Ann", ScriptBot(), ScriptBot()])
    session.apply("play red trade_hands", 0)
    prompt = session.prompt(0)
    assert prompt.decision == "choose_player"
    assert [c.label for c in prompt.choices] == ["Trade hands with Bot1 (2 cards)", "Trade hands with Bot2 (4 cards)"]


def test_press_your_luck_and_discard_prompts() -> None:
    position = {
        "variant": "flip_attack",
        "players": 2,
        "turn": 0,
        "color": "red",
        "options": {"launcher": "scripted", "launcher_script": [0, 0]},
        "hands": [
            ["wild_press_your_luck/teal 3", "red 1/teal reverse", "red 3/pink 7"],
            ["red 4/pink 5", "red 2/pink flip"],
        ],
        "discard": ["red 4/teal 8"],
        "seed": 1,
    }
    session = session_from(position, ["Ann", ScriptBot()])
    session.apply("play wild_press_your_luck/teal 3 blue", 0)
    prompt = session.prompt(0)
    assert prompt.decision == "press_your_luck"
    assert [c.label for c in prompt.choices] == ["Press the launcher", "Stop here"]  # no press yet
    assert prompt.message == "Wild Press Your Luck: press the launcher, or stop now?"
    session.apply(prompt.choices[0].action, 0)
    prompt = session.prompt(0)
    assert prompt.decision == "choose_discard" and prompt.pick_from_hand
    assert all(card.legal for card in prompt.hand) and prompt.choices == []
    (discard,) = session.card_actions(0, prompt.hand[0].card)
    assert str(discard) == "discard red 1/teal reverse"
    session.apply(discard, 0)
    prompt = session.prompt(0)
    assert prompt.message == "Wild Press Your Luck: press the launcher again? (discarded so far: Red 1)"
    assert [c.label for c in prompt.choices] == ["Press again", "Stop here"]


def test_stack_prompt_offers_the_same_card_or_the_whole_draw() -> None:
    position = {
        "variant": "classic",
        "players": 2,
        "turn": 0,
        "color": "red",
        "options": {"stacking": True},
        "hands": [["red 5", "blue draw_two", "green 1"], ["yellow draw_two", "red draw_two", "yellow 2"]],
        "discard": ["red 9"],
        "seed": 1,
    }
    session = session_from(position, ["Ann", ScriptBot()])
    session.apply("play red 5", 0)
    session.apply("play red draw_two", 1)
    prompt = session.prompt(0)
    assert prompt.decision == "stack" and prompt.pick_from_hand
    assert [(c.face, c.legal) for c in prompt.hand] == [("green 1", False), ("blue draw_two", True)]
    assert [c.label for c in prompt.choices] == ["Take all 2 cards"]


# ----------------------------------------------------------------------- words


def test_the_log_tells_events_with_printed_names_and_symbols() -> None:
    teller = Teller(["Ann", "Bo"], side=1)
    play = {"type": "play", "seat": 0, "card": "yellow 6/wild_draw_color", "uno": False, "color": "teal"}
    assert teller.line(play) == "Ann played Wild Draw Color — teal ▲"
    draw = {"type": "draw", "seat": 1, "count": 6, "reason": "wild_draw_color", "backs": ["red 1"] * 6}
    assert teller.line(draw) == "Bo drew 6 cards (backs: Red 1, Red 1, Red 1, Red 1, Red 1, Red 1) (Wild Draw Color)"
    assert teller.line({"type": "flip", "side": "light", "top": "red 9"}) == (
        "Flip! The light side is up; top card: Red 9"
    )
    assert teller.side == 0


def test_the_log_never_shows_internal_names_or_lists() -> None:
    """Why cards were drawn, in words; scores with names; the side only where there are two."""
    classic = Teller(["You", "Bo"], double_sided=False)
    penalty = {"type": "draw", "seat": 0, "count": 2, "reason": "uno_penalty", "cards": ["red 2", "red 3"]}
    assert classic.line(penalty) == "You drew Red 2, Red 3 (penalty for not calling UNO)"
    stacked = {"type": "draw", "seat": 1, "count": 4, "reason": "stack"}
    assert classic.line(stacked) == "Bo drew 4 cards (the stacked draws)"
    end = {"type": "round_end", "round": 2, "winner": 1, "side": "light", "scores": [12, 80]}
    assert classic.line(end) == "Bo won round 2; scores: You 12, Bo 80"
    over = {"type": "game_end", "winners": [1], "scores": [12, 512]}
    assert classic.line(over) == "Game over: Bo won; scores: You 12, Bo 512"
    flip = Teller(["You", "Bo"], side=1, double_sided=True)
    assert flip.line({**end, "side": "dark"}) == "Bo won round 2 on the dark side; scores: You 12, Bo 80"
    assert plain("Red 5 does not match Blue 3 (colour in play: blue) (R-1.4)") == (
        "Red 5 does not match Blue 3 (colour in play: blue)"
    )


def test_the_challenger_is_told_the_hand_the_challenge_revealed() -> None:
    """The engine shows the challenged hand to both players (the challenge event); the log says it."""
    position = flip_position(
        turn=1,
        hands=[["red 7/orange 1", "blue 5/pink 9"], ["wild_draw_two/orange 4", "red 2/orange reverse"]],
    )
    session = session_from(position, ["You", ScriptBot()])
    session.apply("play wild_draw_two/orange 4 blue", 1)
    outcome = session.apply("challenge", 0)
    lines = session.teller().lines(redact(outcome.events, 0))
    assert "You challenged Bot1: the challenge succeeded; Bot1's hand: Red 2" in lines
    hidden = session.teller().lines(redact(outcome.events, None))
    assert "You challenged Bot1: the challenge succeeded" in hidden and not any("hand:" in line for line in hidden)


def test_you_reads_as_a_person() -> None:
    """The messages are written so that a player called "You" needs no grammar of its own."""
    teller = Teller(["You", "Bo"])
    assert teller.line({"type": "dealer", "seat": 0}) == "Dealer: You"
    assert teller.line({"type": "skip", "seat": 0}) == "Skipped: You"
    assert teller.line({"type": "keep", "seat": 0}) == "You kept the card"
    assert teller.line({"type": "skip_everyone", "seat": 0}) == "Everyone is skipped; the turn stays with You"


# ----------------------------------------------------------------------- summaries


def test_round_summaries_list_every_card_with_its_points() -> None:
    for variant in unokit.VARIANT_NAMES:
        game, setup = RecordingGame.new(variant, 3, 7, rounds=2, target=10_000)
        players = [Player(f"p{i}", ForgetfulBot(make_bot("random", i), Habits())) for i in range(3)]
        session = Session(game, players, setup)
        summaries = []
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            outcome = session.apply(session.bot_act(seat), seat)
            for reaction in session.reactions()[:1]:
                session.apply(reaction.action, reaction.seat)
            if outcome.summary is not None:
                summaries.append(outcome.summary)
        assert len(summaries) == 2
        for summary in summaries:
            for line in summary.lines:
                assert sum(points for _, points in line.cards) == line.hand_points
                assert (line.hand_points == 0) == (not line.cards)
        assert summaries[-1].over and summaries[-1].winners == game.winners
        assert [line.total for line in summaries[-1].lines] == game.scores


def test_no_summary_before_the_round_ends() -> None:
    events: list[dict[str, Any]] = [
        {"type": "play", "seat": 0, "card": "red 5", "uno": False},
        {"type": "draw", "seat": 1, "count": 2, "reason": "draw_two", "cards": ["red 1", "red 2"]},
    ]
    assert summarize("classic", ["a", "b"], events) is None


# ----------------------------------------------------------------------- bots


def test_a_forgetful_bot_leaves_out_the_call_as_often_as_told() -> None:
    position = flip_position(
        hands=[["red 7/orange 1", "red 2/orange reverse"], ["yellow 3/purple 1", "green 7/teal 2"]]
    )
    always = ForgetfulBot(ScriptBot(["play red 7/orange 1 uno"]), Habits(forget=1.0))
    never = ForgetfulBot(ScriptBot(["play red 7/orange 1 uno"]), Habits(forget=0.0))
    for bot, expected in ((always, "play red 7/orange 1"), (never, "play red 7/orange 1 uno")):
        session = session_from(position, [bot, ScriptBot()])
        assert str(session.bot_act(0)) == expected


def test_forgetting_and_catching_are_reproducible_from_the_bot_seed() -> None:
    position = flip_position(
        hands=[["red 7/orange 1", "red 2/orange reverse"], ["yellow 3/purple 1", "green 7/teal 2"]]
    )

    def reactions(seed: int) -> list[tuple[float, str]]:
        session = session_from(position, ["Ann", ScriptBot(seed=seed)], habits=Habits(catch=0.5, reaction=(0.5, 2.0)))
        session.apply("play red 7/orange 1", 0)
        return [(r.after, str(r.action)) for r in session.reactions()]

    assert reactions(3) == reactions(3)
    seen = {tuple(reactions(seed)) for seed in range(20)}
    assert () in seen and any(r and r[0][1] == "catch 0" and 0.5 <= r[0][0] <= 2.0 for r in seen)


def test_habits_are_checked() -> None:
    with pytest.raises(ValueError, match="probability"):
        Habits(forget=1.5)
    with pytest.raises(ValueError, match="reaction"):
        Habits(reaction=(2.0, 1.0))


# ----------------------------------------------------------------------- the command line's set-up


def test_the_default_table_is_flip_with_three_bots(tmp_path: Path) -> None:
    setup = make_setup("flip", 4, None, 5, [], [], CAREFUL, tmp_path / "g.json")
    assert default_bot() == "normal"
    assert setup.bots == ["normal"] * 3 and setup.humans == ["You"]
    session = setup.session()
    assert [p.human for p in session.players] == [True, False, False, False]
    assert session.game.seed == 5 and session.record_path == tmp_path / "g.json"
    assert setup.session(2).record_path == tmp_path / "g-2.json"


@pytest.mark.parametrize("code", LANGUAGES)
def test_bots_are_named_in_the_players_language(code: str, tmp_path: Path) -> None:
    """The terminal's bots take the names of the reader's catalogue (``play.bot_names``): ten
    different one-word names, enough for the largest table, skipping a name a person took."""
    before = current()
    try:
        use(code)
        names = bot_names()
        assert len(names) == len(set(names)) == BOT_NAME_COUNT
        assert all(name.isalpha() for name in names), names
        setup = make_setup("classic", 10, None, 5, [], [names[1]], CAREFUL, tmp_path / "g.json")
        session = setup.session()
        assert session.names == [names[1], names[0], *names[2:]]
    finally:
        use(before)


def test_hot_seat_set_up_and_its_errors(tmp_path: Path) -> None:
    setup = make_setup("classic", 3, "random", 1, ["stacking=true"], ["Ann", "Ben"], CAREFUL, tmp_path)
    session = setup.session()
    assert session.names[:2] == ["Ann", "Ben"] and session.humans == [0, 1]
    assert session.game.options.stacking
    assert session.record_path is not None and session.record_path.parent == tmp_path
    cases: list[tuple[str, int, str | None, list[str], list[str], str]] = [
        ("uno", 4, None, [], [], "There is no game called"),
        ("flip", 4, "random,nobody", [], [], "unknown bot"),
        ("flip", 2, "random,random,random", [], [], "do not fit"),
        ("flip", 3, "random,random", [], ["A", "B"], "2 names for 1 human seat"),
        ("flip", 3, "none", [], ["A", "a"], "same name"),
        ("flip", 3, "none", ["stacking"], [], "name=value"),
        ("attack", 3, "none", ["force_play=true"], [], "does not apply to UNO Attack"),
        ("classic", 3, "none", ["teams=true"], [], "4 or 6 players"),
    ]
    for variant, players, bots, options, names, message in cases:
        with pytest.raises(click.UsageError, match=message):
            make_setup(variant, players, bots, 1, options, names, CAREFUL, None)


def test_bot_seeds_are_recorded_and_the_record_verifies(tmp_path: Path) -> None:
    setup = Setup("flip", 3, ["You"], ["random", "random"], {"rounds": "1"}, Habits(), 9, tmp_path / "r.json")
    session = setup.session()
    chooser = Rng(1)
    while not session.game.is_over:
        seat = session.game.to_act
        assert seat is not None
        action = chooser.choice(session.game.legal_actions()) if seat == 0 else session.bot_act(seat)
        session.apply(action, seat)
    path = session.save()
    assert path == tmp_path / "r.json"
    record = session.record()
    assert [s.kind for s in record.seats] == ["human", "bot", "bot"]
    assert record.seats[1].bot == "random" and "seed" in record.seats[1].settings
    assert verify(record).ok
