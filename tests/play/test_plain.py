"""``unokit play --plain``: the terminal game in lines, played through a pipe."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from unokit.bots.habits import Habits
from unokit.core.actions import CATCH, UNO
from unokit.i18n import catalog
from unokit.play.commands import make_setup
from unokit.play.plain import COMMANDS, Lines, PlainGame, Quit, command_of
from unokit.play.session import Session
from unokit.record import load_record, verify

from .support import CAREFUL

UNOKIT = str(Path(sys.executable).with_name("unokit"))
#: A catalogue key or an engine identifier that leaked into what a player reads.
LEAK = re.compile(r"\b(?:play|plain|read|face|text|table|n)\.[a-z_]+|wild_draw|play_or_keep")
#: Anything but printable text and line ends: escape codes, cursor movement, carriage returns.
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def play_through_pipe(
    tmp_path: Path, lang: str, script: str, *extra: str
) -> tuple[subprocess.CompletedProcess[str], Path]:
    record = tmp_path / f"game-{lang}.json"
    result = subprocess.run(
        [UNOKIT, "play", "--plain", "--lang", lang, "--seed", "7", "--delay", "0", "--record", str(record), *extra],
        input=script,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return result, record


@pytest.mark.parametrize(
    ("lang", "variant"), [("en", "classic"), ("ru", "flip"), ("zh-Hans", "attack"), ("tr", "flip")]
)
def test_a_whole_game_through_a_pipe(tmp_path: Path, lang: str, variant: str) -> None:
    # reading commands first, a bad line, then always the first answer, until the game ends
    script = "hand\ntable\nmoves\nhelp\nnonsense\n" + "1\n" * 2000
    result, record = play_through_pipe(tmp_path, lang, script, "--variant", variant)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert not CONTROL.search(out), repr(CONTROL.search(out))
    assert not LEAK.search(out), LEAK.search(out)
    cat = catalog(lang)
    assert cat.t("plain.commands") in out
    assert cat.t("text.unknown", text="nonsense", moves="").split("nonsense")[0] in out
    game_over = cat.text("play.game_over").split("{")[0][:8]
    assert game_over in out
    if lang == "ru":
        assert "Your turn" not in out and "Ваш ход" in out
    if lang != "en":  # the whole game in the language (Chinese through a pipe: UTF-8 as it is)
        assert "Your turn" not in out and (cat.t("decision.turn") in out or cat.t("decision.turn.launcher") in out)
        said = out.replace(cat.t("plain.commands"), "")  # the commands' notation is English in every language
        assert not re.search(r"\b(?:played|drew|draw|press|round|cards?|turn|side|won)\b", said), said[-2000:]
    if lang == "zh-Hans":
        assert re.search("[\u4e00-\u9fff]{4}", out)
    assert verify(load_record(record)).ok
    check = subprocess.run([UNOKIT, "verify", str(record)], check=False, capture_output=True, text=True, timeout=120)
    assert check.returncode == 0 and "reproduces" in check.stdout, check.stdout + check.stderr
    assert "won by" in check.stdout  # the game ended


def session(tmp_path: Path, variant: str = "classic", seed: int = 7, *options: str) -> Session:
    setup = make_setup(variant, 4, None, seed, list(options), ["Ann"], CAREFUL, tmp_path / "g.json")
    return setup.session()


def plain_game(s: Session, lines: str) -> tuple[PlainGame, io.StringIO]:
    out = io.StringIO()
    return PlainGame(s, io.StringIO(lines), out, think=0, catch_window=0), out


def test_a_bad_line_gets_a_clear_answer_and_the_question_again(tmp_path: Path) -> None:
    s = session(tmp_path)
    game = s.game
    plain, out = plain_game(s, "")
    # let the bots play up to Ann's first decision, without reading a line
    while (seat := game.to_act) != 0:
        assert seat is not None
        plain.perform(s.bot_act(seat), seat)
    before = len(game.moves)
    prompt = s.prompt(0)
    choices = plain.choices(prompt)
    plain.lines = Lines(io.StringIO(f"hello there\n{len(choices) + 1}\n"))
    out.seek(0)
    out.truncate()
    with pytest.raises(Quit):  # the input ends after the two bad lines
        plain.ask(0)
    text = out.getvalue()
    w = s.words
    answers = catalog().join(f"{k} ({c.label})" for k, c in enumerate(choices, 1))
    assert w.t("text.unknown", text="hello there", moves=answers) in text
    assert w.t("plain.no_choice", text=str(len(choices) + 1), high=len(choices)) in text
    assert text.count(prompt.message) == 3  # asked, then asked again after each bad line
    assert len(game.moves) == before  # nothing was played


def test_a_beginning_that_fits_several_moves_says_which(tmp_path: Path) -> None:
    s = session(tmp_path)
    game = s.game
    plain, out = plain_game(s, "")
    while game.to_act != 0 or len([a for a in game.legal_actions(0) if a.text.startswith("play ")]) < 2:
        seat = game.to_act
        assert seat is not None
        action = s.bot_act(seat) if seat else next(a for a in game.legal_actions(0) if a.kind not in (CATCH, UNO))
        plain.perform(action, seat)
    choices = plain.choices(s.prompt(0))
    plays = [(k, c) for k, c in enumerate(choices, 1) if c.action.kind == "play"]
    assert plain.answer("play", 0, choices, "?") is None
    listed = catalog().join(f"{k} ({c.label})" for k, c in plays)
    assert s.words.t("text.which", text="play", moves=listed) in out.getvalue()
    # the whole notation of a move, or the words of its answer, play it
    first = plays[0][1]
    assert plain.answer(first.action.text, 0, choices, "?") == first.action
    if not first.colors:
        assert plain.answer(first.label.lower(), 0, choices, "?") == first.action


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", ()),
        ("flip", ()),
        ("attack", ()),
        ("classic", ("stacking=true", "seven_o=true")),
        ("flip_attack", ()),
    ],
)
def test_numbered_choices_are_the_legal_moves(tmp_path: Path, variant: str, options: tuple[str, ...]) -> None:
    """At every decision of a person, the numbered answers (with the colours a wild asks
    next) are exactly the legal moves, without the UNO call and the catch."""
    s = session(tmp_path, variant, 11, *options)
    game = s.game
    plain, _ = plain_game(s, "\n" * 100)  # Enter at each round's end
    decisions = 0
    while not game.is_over and decisions < 150:
        seat = game.to_act
        assert seat is not None
        if seat != 0:
            plain.perform(s.bot_act(seat), seat, reactions=False)
            continue
        choices = plain.choices(s.prompt(0))
        offered = [c.action.key for c in choices if not c.colors]
        offered += [color.action.key for c in choices for color in c.colors]
        legal = [a.key for a in game.legal_actions(0) if a.kind not in (CATCH, UNO) and not a.uno]
        assert sorted(offered) == sorted(legal), (
            game.decision,
            [a.text for a in game.legal_actions(0)],
            [c.label for c in choices],
        )
        assert len(set(offered)) == len(offered)
        pick = choices[decisions % len(choices)]
        plain.perform(pick.colors[0].action if pick.colors else pick.action, 0, reactions=False)
        decisions += 1
    assert decisions > 10


def test_every_command_has_its_words() -> None:
    for command, names in COMMANDS.items():
        for name in names:
            assert command_of(name) == command
            assert command_of(f"  {name.upper()} ") == command
    assert command_of("play red 5") is None


@pytest.mark.parametrize("typed", ["c", "1"])
def test_a_catch_typed_in_its_window_catches_and_another_line_waits(tmp_path: Path, typed: str) -> None:
    forgetful = Habits(forget=1.0, late_uno=0.0, catch=0.0, reaction=(0.0, 0.0))
    s = make_setup("classic", 3, "normal,normal", 3, [], ["Ann"], forgetful, tmp_path / "g.json").session()
    game = s.game
    plain, out = plain_game(s, "\n" * 50)
    plain.catch_window = 5.0
    while True:  # Ann always draws; the bots play until one of them forgets UNO
        seat = game.to_act
        assert seat is not None
        action = s.bot_act(seat) if seat else next(a for a in game.legal_actions(0) if a.kind in ("draw", "keep"))
        exposed = plain.session.apply(action, seat).exposed
        if exposed is not None and exposed != 0:
            break
        if game.is_over or game.round_number > 1:
            pytest.fail("no bot forgot UNO in the first round")
    plain.lines = Lines(io.StringIO(f"{typed}\n"))
    plain.uno_window(exposed)
    assert s.words.t("read.may_catch", player=exposed) in out.getvalue()
    if typed == "c":
        assert len(game.hands[exposed]) == 3  # one card and the penalty of two
        assert plain.lines.read() is None  # the line was taken
    else:
        assert len(game.hands[exposed]) == 1  # nobody caught: the bots never do
        assert plain.lines.read() == "1"  # kept for the next question
