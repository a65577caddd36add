"""What the commands players use print, for every variant, in English and in Russian: no engine
identifier (a card kind, option, decision or event name with an underscore, a catalogue key in
place of its words, a card in the engine's notation) and, in Russian, no word left in English.

``demo``, ``replay --print`` (with ``--log``, at the first step of each decision a game reached,
seen by everyone and by one seat), ``score`` (every card of every side) and ``table`` (new,
round, show, undo) run through the command line; ``serve``'s start-up lines come from a real
server. The terminal game itself is read back by ``tests/play/test_languages.py``.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from unokit.cli import main
from unokit.core.cards import COLOR_NAMES
from unokit.core.decks import standard_deck
from unokit.core.kinds import KIND_NAMES
from unokit.core.variants import VARIANT_NAMES, get_rules
from unokit.i18n import catalog
from unokit.i18n.lines import words
from unokit.record import RecordingGame, save_record

from .server.support import ServerProcess, free_port

#: An engine identifier: a word with an underscore (``wild_draw_four``, ``play_or_keep``).
ENGINE_ID = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
#: A card in the engine's notation (``red 5``, ``blue skip``) rather than by its title.
NOTATION = re.compile(rf"\b(?:{'|'.join(COLOR_NAMES)}) (?:\d|skip|reverse|draw|flip|hit|discard|trade)\b")
#: A catalogue key shown instead of its words (``direction.clockwise``).
KEY = re.compile(rf"\b(?:{'|'.join(sorted({key.split('.')[0] for key in catalog('en').keys}))})\.[a-z]")
#: English (or any Latin-script) words in Russian text, but for the names of the games
#: (``UNO Flip``), which stay as printed on the box.
LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_'.-]*")
GAME_NAMES = frozenset(word for v in VARIANT_NAMES for word in LATIN.findall(words("ru").variant(v)))
CYRILLIC = re.compile("[\\u0430-\\u044f\\u0451]{4,}", re.IGNORECASE)  # four Cyrillic letters in a row

#: A seed per variant whose random game reaches the variant's own decisions, and house rules
#: for Classic UNO (stacking, 7-0, jump-in), so that their decisions and events are printed too.
GAMES: dict[str, tuple[int, list[str]]] = {
    "classic": (0, ["stacking=progressive", "seven_o=true", "jump_in=true"]),
    "flip": (4, []),
    "attack": (4, []),
    "flip_attack": (1, []),
    "flip_marvel": (4, []),
    "flip_stranger_things": (0, []),
    "flip_transformers": (0, []),
}
NAMES = {"en": ["Ann", "Ben", "Cat"], "ru": ["Аня", "Боря", "Света"]}


def wrong_words(text: str, lang: str) -> list[str]:
    """What a player should not read in ``text``, written in ``lang``."""
    found = ENGINE_ID.findall(text) + KEY.findall(text) + NOTATION.findall(text)
    if lang == "ru":
        found += [word for word in LATIN.findall(text) if word not in GAME_NAMES]
    return sorted(set(found))


def run(lang: str, *args: str) -> str:
    result = CliRunner().invoke(
        main, [*args[:1], "--lang", lang, *args[1:]] if args[0] != "table" else [*args[:2], "--lang", lang, *args[2:]]
    )
    assert result.exit_code == 0, result.output
    return result.output


def random_record(variant: str, folder: Path) -> tuple[Path, list[int]]:
    """A random 3-player game of ``variant`` (one round), saved; and the first step at which
    each kind of decision was open."""
    seed, options = GAMES[variant]
    game, _ = RecordingGame.new(variant, 3, seed, rounds=1, **dict(o.split("=") for o in options))
    rng = random.Random(seed)
    firsts: dict[str, int] = {}
    while not game.is_over:
        firsts.setdefault(game.decision, len(game.moves))
        game.apply(rng.choice(game.legal_actions()))
    return save_record(game.to_record(), folder / "game.json"), sorted(firsts.values())


def hand_of_every_card(variant: str, side: int) -> str:
    """Every card kind of ``side`` of ``variant``, the coloured ones with a colour."""
    rules = get_rules(variant)
    deck = standard_deck(rules.name)
    kinds = sorted(set(deck.kind[side]))
    colour = COLOR_NAMES[min(set(deck.color[side]) - {-1})]
    return ", ".join(KIND_NAMES[k] if KIND_NAMES[k].startswith("wild") else f"{colour} {KIND_NAMES[k]}" for k in kinds)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_commands_speak_player_words(variant: str, lang: str, tmp_path: Path) -> None:
    seed, options = GAMES[variant]
    printed = {
        "demo": run(
            lang,
            "demo",
            "--variant",
            variant,
            "--players",
            "3",
            "--seed",
            str(seed),
            *(f"--option={o}" for o in options),
        )
    }
    path, steps = random_record(variant, tmp_path)
    printed["replay --log"] = run(lang, "replay", str(path), "--print", "--log")
    for step in steps:
        printed[f"replay --step {step}"] = run(lang, "replay", str(path), "--print", "--step", str(step))
        printed[f"replay --step {step} --seat 0"] = run(
            lang, "replay", str(path), "--print", "--step", str(step), "--seat", "0"
        )
    rules = get_rules(variant)
    sides = rules.side_names if rules.double_sided else rules.side_names[:1]
    for side, name in enumerate(sides):
        printed[f"score {name}"] = run(
            lang, "score", "--variant", variant, "--side", name, hand_of_every_card(variant, side)
        )
    sheet = str(tmp_path / "scores.json")
    ann, ben, cat = NAMES[lang]
    printed["table new"] = run(lang, "table", "new", sheet, "--variant", variant, "--players", f"{ann},{ben},{cat}")
    last = sides[-1]
    hand = f"{ben}={hand_of_every_card(variant, len(sides) - 1)}"
    printed["table round"] = run(
        lang, "table", "round", sheet, "--winner", ann, "--side", last, "--hand", hand, "--points", f"{cat}=7"
    )
    printed["table show"] = run(lang, "table", "show", sheet)
    printed["table undo"] = run(lang, "table", "undo", sheet)
    for command, text in printed.items():
        assert wrong_words(text, lang) == [], (command, wrong_words(text, lang), text[:3000])
        if lang == "ru":
            assert CYRILLIC.search(text), command
    # Seats nobody named are numbered from 1 in the reader's language.
    assert words(lang).seat(0) in printed["replay --log"]


def test_serve_says_its_start_up_lines_in_words(tmp_path: Path) -> None:
    """The ready line and the warning of a low open-file limit, in Russian (tests/server says
    them in English)."""
    lang = "ru"
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'server.db'}",
        free_port(),
        ["--lang", lang, "--max-connections", "1000"],
        log_path=tmp_path / "serve.log",
        open_files=256,
    ).start()
    server.stop()
    lines = [line for line in server.log().splitlines() if line.startswith("unokit serve:")]
    assert len(lines) == 2, server.log()
    text = re.sub(r"\S*/\S*", "", "\n".join(lines))  # addresses and paths are what they are
    assert ENGINE_ID.findall(text) == [] and KEY.findall(text) == []
    assert CYRILLIC.search(lines[0]) and CYRILLIC.search(lines[1])
