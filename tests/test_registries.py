"""The closed sets (decisions, events, actions, options, errors, cards, server errors) are declared
once with their parameters, and every table keyed by one of them, in any layer, covers all of it:
a new member without words, or without an entry in some table, fails here.

The tables are found by looking: every module of ``unokit`` is imported and each of its
module-level mappings whose keys all belong to one closed set must hold the whole set, unless it
is listed in :data:`PARTIAL` with the reason it covers only part of it.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import random
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import unokit
from unokit import Game
from unokit.core.codes import ACTIONS, DECISIONS, ERRORS, EVENTS, REASONS, Param
from unokit.core.errors import ErrorCode, UnokitError
from unokit.core.kinds import KIND_NAMES
from unokit.core.types import ActionKind, DecisionKind, EventType, WindowKind
from unokit.core.variants import OPTION_SPECS, VARIANT_NAMES, OptionKind, Options, option_specs
from unokit.i18n.lines import PARAM_TYPES
from unokit.i18n.prompts import PROMPTS, PromptFact, PromptValue, prompt_table
from unokit.server import words as server_words

from .rules.test_r1_common import blocked_game

#: The closed sets, as the text of their members.
CLOSED_SETS: dict[str, frozenset[str]] = {
    "decision kinds": frozenset(k.value for k in DecisionKind),
    "event types": frozenset(k.value for k in EventType),
    "action verbs": frozenset(k.value for k in ActionKind),
    "window kinds": frozenset(k.value for k in WindowKind),
    "error codes": frozenset(k.value for k in ErrorCode),
    "options": frozenset(o.name for o in OPTION_SPECS),
    "option kinds": frozenset(k.value for k in OptionKind),
    "prompt facts": frozenset(k.value for k in PromptFact),
    "prompt values": frozenset(k.value for k in PromptValue),
    "card kinds": frozenset(KIND_NAMES) - {str(n) for n in range(10)},
    "server error codes": frozenset(server_words.ERRORS),
}

#: Tables that cover part of a closed set on purpose, and why.
PARTIAL: dict[str, str] = {
    "unokit.core.notation._SEATED": "the verbs followed by a seat number",
    "unokit.core.notation._EXPECTED": "what a refusal asks for, for the decisions other than a turn and the end",
    "unokit.core.variants.OPTION_CHOICES": "the options whose values are a few words",
    "unokit.core.variants._NOT_APPLICABLE": "the options a variant refuses for a reason worth saying",
    "unokit.fast.tables._KIND_CODES": "the verbs of the compiled engine's actions (no catch, UNO call or target)",
    "unokit.narration._SEAT_ONLY": "the events that name only who did them",
    "unokit.server.features.reviews.desk._STATUS": "the review's refusals answered with another HTTP status than 400",
    "unokit.play.session._TERMINAL_SHOWN": "the values of a question the terminal shows with their glyphs",
}


def _modules() -> list[Any]:
    out = []
    for info in pkgutil.walk_packages(unokit.__path__, "unokit."):
        if info.name.endswith("__main__"):
            continue
        out.append(importlib.import_module(info.name))
    return out


def keyed_tables() -> list[tuple[str, str, frozenset[str]]]:
    """Every module-level mapping of unokit keyed by members of one closed set: its name, the
    set's name and its keys."""
    found = []
    for module in _modules():
        for name, value in vars(module).items():
            if not isinstance(value, Mapping) or len(value) < 2 or not all(isinstance(k, str) for k in value):
                continue
            keys = frozenset(str(k) for k in value)
            for set_name, members in CLOSED_SETS.items():
                if keys <= members:
                    found.append((f"{module.__name__}.{name}", set_name, keys))
    return found


def test_every_table_keyed_by_a_closed_set_is_complete() -> None:
    tables = keyed_tables()
    assert len(tables) >= 10  # the search finds the registries themselves
    incomplete = [
        f"{name}: {set_name} lacks {sorted(CLOSED_SETS[set_name] - keys)}"
        for name, set_name, keys in tables
        if keys != CLOSED_SETS[set_name] and name not in PARTIAL
    ]
    assert incomplete == []
    # Every declared exception is still a table (a stale entry would hide a new one).
    assert set(PARTIAL) <= {name for name, _set, _keys in tables}


#: The browser's scripts, whose tables keyed by a closed set are held to it like Python's.
SCRIPTS = Path(unokit.__file__).parent / "server" / "static" / "js"
#: A top-level ``const NAME = {`` table of a script, to its closing ``};`` line.
_JS_TABLE = re.compile(r"^(?:export )?const ([A-Z][A-Z0-9_]*) = \{\n(.*?)^\};", re.M | re.S)


def browser_tables(sources: Mapping[str, str]) -> list[tuple[str, str, frozenset[str]]]:
    """Every table of the browser's scripts (``sources``: text by file name) keyed by members
    of one closed set: ``file.NAME``, the set's name and its keys (one a line, as written)."""
    found = []
    for file, source in sorted(sources.items()):
        for match in _JS_TABLE.finditer(source):
            keys = frozenset(re.findall(r"^  ([a-z_0-9]+):", match.group(2), re.M))
            for set_name, members in CLOSED_SETS.items():
                if len(keys) >= 2 and keys <= members:
                    found.append((f"{file}.{match.group(1)}", set_name, keys))
    return found


def _scripts() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(SCRIPTS.glob("*.js"))}


def test_every_table_of_the_browser_keyed_by_a_closed_set_is_complete() -> None:
    """The browser's own tables (each card kind's face mark and legend line, the facts and
    values a question's wording reads) cover their whole set: a new card kind without its face
    or legend, or a new fact of a wording without its reading in the browser, fails here."""
    tables = browser_tables(_scripts())
    assert {name for name, _set, _keys in tables} >= {
        "cards.js.FACE_MARKS",
        "help.js.LEGEND",
        "prompt.js.PROMPT_FACTS",
        "prompt.js.PROMPT_VALUES",
    }
    incomplete = [
        f"{name}: {set_name} lacks {sorted(CLOSED_SETS[set_name] - keys)}"
        for name, set_name, keys in tables
        if keys != CLOSED_SETS[set_name]
    ]
    assert incomplete == []


def test_the_browser_check_catches_a_card_kind_without_its_face_or_legend() -> None:
    scripts = _scripts()
    for file, line in (("cards.js", "  wild_megatron: {"), ("help.js", "  wild_megatron: N_(")):
        kept = [row for row in scripts[file].splitlines() if not row.startswith(line)]
        assert len(kept) == len(scripts[file].splitlines()) - 1
        broken = browser_tables({**scripts, file: "\n".join(kept) + "\n"})
        lacking = [(name, sorted(CLOSED_SETS[s] - keys)) for name, s, keys in broken if keys != CLOSED_SETS[s]]
        assert [missing for _name, missing in lacking] == [["wild_megatron"]], file


def test_the_browser_check_catches_a_fact_of_a_wording_it_cannot_read() -> None:
    scripts = _scripts()
    kept = "\n".join(row for row in scripts["prompt.js"].splitlines() if not row.startswith("  seven: "))
    broken = browser_tables({**scripts, "prompt.js": kept + "\n"})
    assert [(n, sorted(CLOSED_SETS[s] - k)) for n, s, k in broken if k != CLOSED_SETS[s]] == [
        ("prompt.js.PROMPT_FACTS", ["seven"])
    ]


def test_every_wording_of_a_question_is_in_the_catalogue_the_browser_reads() -> None:
    # The browser asks what the server's catalogue lists (GET /api/catalog, "prompts"): every
    # decision, each with a last wording that fits under any facts.
    table = prompt_table()
    assert set(table) == {kind.value for kind in DecisionKind} == {kind.value for kind in PROMPTS}
    assert all(wordings[-1]["when"] == [] for wordings in table.values())
    used = {fact for wordings in table.values() for w in wordings for fact in w["when"]}
    shown = {value for wordings in table.values() for w in wordings for value in w["params"]}
    assert used == CLOSED_SETS["prompt facts"] and shown == CLOSED_SETS["prompt values"]
    assert all(PARAM_TYPES.get(value) is not None for value in shown)  # each is shown by its type


def test_the_completeness_check_catches_a_table_without_a_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    # The defect this suite guards against: a words table made before a decision kind was added.
    from unokit import narration

    words = {kind.value: "words" for kind in DecisionKind if kind != DecisionKind.DISCARD_CARDS}
    monkeypatch.setattr(narration, "DECISION_WORDS", words, raising=False)
    missing = [n for n, s, keys in keyed_tables() if n == "unokit.narration.DECISION_WORDS" and keys != CLOSED_SETS[s]]
    assert missing == ["unokit.narration.DECISION_WORDS"]


def test_the_completeness_check_catches_an_option_kind_without_its_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    # make_options reads every option through its kind's reader: one kind left out would leave
    # its options unread.
    from unokit.core import variants

    readers = {kind: reader for kind, reader in variants.READERS.items() if kind != OptionKind.NUMBERS}
    monkeypatch.setattr(variants, "READERS", readers)
    missing = [n for n, s, keys in keyed_tables() if n == "unokit.core.variants.READERS" and keys != CLOSED_SETS[s]]
    assert missing == ["unokit.core.variants.READERS"]


#: The Python type each kind of option resolves to, as ``Options`` annotates it.
_OPTION_TYPES = {
    OptionKind.BOOL: {"bool"},
    OptionKind.INT: {"int"},
    OptionKind.INT_OR_NONE: {"int | None"},
    OptionKind.CHOICE: {"str", "bool | str"},
    OptionKind.NUMBERS: {"tuple[int, ...]"},
    OptionKind.LINES: {"tuple[str, ...]"},
}


def test_every_option_is_declared_once_with_its_kind_values_and_default() -> None:
    """Each field of Options is one option's whole declaration: its kind agrees with the
    field's type, its default reads back as itself, each of its words is a value it takes, and
    its keys are the ones the catalogue holds (tests/test_i18n.py checks every language)."""
    annotations = Options.__annotations__
    assert [spec.name for spec in OPTION_SPECS] == list(annotations)
    for spec in OPTION_SPECS:
        assert annotations[spec.name] in _OPTION_TYPES[spec.kind], spec.name
        assert getattr(Options(), spec.name) == spec.default
        if spec.kind not in (OptionKind.LINES, OptionKind.NUMBERS):  # an empty list is no value given
            assert spec.read(spec.default) == spec.default, spec.name
        for word in spec.values:
            spec.read(word)  # raises when a listed word is not a value
        assert (spec.label_key, spec.help_key) == (f"option.{spec.name}", f"option.{spec.name}.help")
    assert {spec.name for spec in OPTION_SPECS if spec.kind == OptionKind.BOOL} >= {"jump_in", "teams", "bluffing"}


def test_an_option_declared_without_its_kind_is_refused() -> None:
    import dataclasses

    @dataclasses.dataclass(frozen=True)
    class Undeclared(Options):
        new_rule: bool = False

    with pytest.raises(TypeError, match="new_rule is not declared with option"):
        option_specs(Undeclared)


def test_the_registries_declare_every_member_once() -> None:
    assert set(EVENTS) == set(EventType)
    assert set(DECISIONS) == set(DecisionKind)
    assert set(ACTIONS) == set(ActionKind)
    assert set(ERRORS) == set(ErrorCode)
    assert all(
        spec.code == kind.value for registry in (EVENTS, DECISIONS, ACTIONS, ERRORS) for kind, spec in registry.items()
    )


def test_error_parameters_are_named_by_their_type() -> None:
    # A line's parameter is shown by its name (PARAM_TYPES): an error's declared parameters must
    # be named for the type the registry gives them.
    wrong = [
        f"{code.value}.{name}: {kind} but named as {PARAM_TYPES.get(name)}"
        for code, spec in ERRORS.items()
        for name, kind in spec.params.items()
        if PARAM_TYPES.get(name, Param.TEXT) != kind
    ]
    assert wrong == []


_SHAPES: dict[Param, Any] = {
    Param.SEAT: int,
    Param.SEATS: list,
    Param.CARD: str,
    Param.CARDS: list,
    Param.KIND: str,
    Param.COLOR: str,
    Param.SIDE: str,
    Param.DIRECTION: str,
    Param.REASON: str,
    Param.NUMBER: int,
    Param.NUMBERS: list,
    Param.FLAG: bool,
}


def _random_events(variant: str, seed: int, options: dict[str, object]) -> tuple[list[dict[str, Any]], set[str]]:
    """The events of one random game (with out-of-turn actions too) and the decision kinds met."""
    game, events = Game.new(variant, 4, seed, **options)
    rng = random.Random(seed)
    kinds: set[str] = set()
    for _ in range(1500):
        if game.is_over:
            break
        kinds.add(game.decision)
        out_of_turn = [(a, s) for s in range(game.n) if s != game.to_act for a in game.legal_actions(s)]
        if out_of_turn and rng.random() < 0.3:
            action, seat = rng.choice(out_of_turn)
            events += game.apply(action, seat=seat)
        else:
            events += game.apply(rng.choice(game.legal_actions()))
    return events, kinds


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_event_carries_the_parameters_its_type_declares(variant: str) -> None:
    options: dict[str, object] = {"seven_o": True, "jump_in": True, "rounds": 2}
    if variant in ("classic", "flip"):
        options["stacking"] = "progressive"
    events, _kinds = _random_events(variant, 3, options)
    for event in events:
        spec = EVENTS[EventType(event["type"])]
        fields = set(event) - {"type"}
        assert fields <= set(spec.params), (event["type"], fields - set(spec.params))
        assert set(spec.params) - spec.optional <= fields, (event["type"], set(spec.params) - fields)
        for name in fields:
            shape = _SHAPES.get(spec.params[name])
            if shape is not None:
                assert isinstance(event[name], shape), (event["type"], name, event[name])
            if spec.params[name] == Param.REASON:
                assert event[name] in REASONS or event[name] in KIND_NAMES, event


def test_every_declared_event_type_is_emitted_by_some_scenario() -> None:
    """No event type is declared (with its words and narration) that the engine never emits:
    the random games of every variant above, a Classic deal whose first card goes back (seed
    8: a Wild Draw Four) and a blocked round (D-4) emit every one."""
    emitted: set[str] = set()
    for variant in VARIANT_NAMES:
        options: dict[str, object] = {"seven_o": True, "jump_in": True, "rounds": 2}
        if variant in ("classic", "flip"):
            options["stacking"] = "progressive"
        events, _kinds = _random_events(variant, 3, options)
        emitted |= {event["type"] for event in events}
    _game, dealt = Game.new("classic", 3, 8, rounds=1)
    emitted |= {event["type"] for event in dealt}
    blocked = blocked_game([["red 1", "red 3"], [], ["blue 1"]], turn=0, options={"rounds": 1})
    for _ in range(3):
        emitted |= {event["type"] for event in blocked.apply("draw")}
    assert {kind.value for kind in EventType} - emitted == set()


def _error_classes() -> list[type[UnokitError]]:
    """:class:`UnokitError` and every subclass of it."""
    out: list[type[UnokitError]] = [UnokitError]
    for cls in out:
        out += cls.__subclasses__()
    return out


def _raises_without_a_code(path: Path) -> list[str]:
    """The calls building an engine error in ``path`` that give no code, or a general one."""
    classes = {cls.__name__: cls for cls in _error_classes()}
    # A class's own code, when none is given, is general unless it declares parameters.
    general = {cls.default_code.name for cls in classes.values() if not ERRORS[cls.default_code].params}
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in classes):
            continue
        code = next((k.value for k in node.keywords if k.arg == "code"), node.args[1] if len(node.args) > 1 else None)
        name = classes[node.func.id].default_code.name if code is None else getattr(code, "attr", "")
        if name in general:
            found.append(f"{path.name}:{node.lineno} {node.func.id}")
    return found


def test_every_error_of_the_engine_a_player_can_meet_has_a_code_of_its_own() -> None:
    """Each error the engine raises on what a player types, picks or loads (an action, a card,
    a colour, rule options, a deck file, a launcher's script) names a code of its own with its
    parameters, so every language says it whole: no general code ("That is not an action")
    followed by the engine's English. Positions are a program's input, read in English."""
    core = Path(unokit.__file__).parent / "core"
    found = [where for path in sorted(core.glob("*.py")) for where in _raises_without_a_code(path)]
    assert [where for where in found if "PositionError" not in where] == []


def test_an_illegal_action_carries_its_code_and_parameters() -> None:
    game = Game.from_position(
        {
            "variant": "classic",
            "players": 2,
            "seed": 1,
            "turn": 0,
            "color": "red",
            "hands": [["blue 7", "green 2"], ["yellow 1"]],
            "discard": ["red 5"],
        }
    )
    with pytest.raises(UnokitError) as caught:
        game.apply("play blue 7")
    assert caught.value.code == ErrorCode.NO_MATCH
    assert caught.value.params == {"card": "blue 7", "top": "red 5", "color": "red"}
    assert "does not match" in str(caught.value)  # the English message stays
    with pytest.raises(UnokitError) as caught:
        game.apply("draw", seat=1)
    assert caught.value.code == ErrorCode.NOT_YOUR_TURN and caught.value.params == {"seat": 0, "decision": "turn"}
    with pytest.raises(UnokitError) as caught:
        Game.new("classic", 11, 1)
    assert caught.value.code == ErrorCode.PLAYERS_RANGE
    assert caught.value.params == {"variant": "classic", "low": 2, "high": 10, "given": "11"}


def test_the_browser_draws_every_chat_reaction() -> None:
    # The one table of the pages keyed by a closed set (their words are the catalogue's).
    from pathlib import Path

    from unokit.server.chat import REACTIONS

    source = (Path(unokit.__file__).parent / "server" / "static" / "js" / "chat.js").read_text(encoding="utf-8")
    table = source.split("export const REACTIONS = {", 1)[1].split("};", 1)[0]
    keys = [line.strip().split(":", 1)[0] for line in table.strip().splitlines()]
    assert keys == list(REACTIONS)
