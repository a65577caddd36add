"""The routes the browser client uses besides the game protocol, against the real server: the
catalogue read from the engine, the score sheet and the virtual launcher (the score keeper and
the engine's launcher models answer), and the replay of finished games."""

from __future__ import annotations

import json
import math
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from unokit.core.cards import KIND_NAMES
from unokit.core.decks import standard_deck
from unokit.core.errors import OptionError
from unokit.core.launcher import make_launcher
from unokit.core.rng import Rng
from unokit.core.variants import OPTION_SPEC, VARIANTS, get_rules, make_options
from unokit.i18n import LANGUAGES
from unokit.i18n.prompts import prompt_table
from unokit.server.client import RoomClient, create_room
from unokit.server.realtable import launcher_statistics

from ..server.support import FAST, ServerProcess, choose, run


def call(server: ServerProcess, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """``GET`` (no body) or ``POST`` JSON; the status and the JSON answer, refusals included."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{server.url}{path}", data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_the_catalogue_lists_every_card_kind_and_option_from_the_engine(web_server: ServerProcess) -> None:
    status, catalog = call(web_server, "/api/catalog")
    assert status == 200
    assert [k["name"] for k in catalog["kinds"]] == list(KIND_NAMES)
    assert catalog["languages"] == LANGUAGES
    symbols = {c["name"]: c["symbol"] for c in catalog["colors"]}
    assert symbols["red"] == symbols["pink"] == "circle" and symbols["blue"] == symbols["purple"] == "square"
    for name, rules in VARIANTS.items():
        entry = catalog["variants"][name]
        deck = standard_deck(name)
        assert set(entry["kinds"][0]) == {KIND_NAMES[k] for k in deck.kind[0]}
        assert len(entry["side_names"]) == (2 if rules.double_sided else 1)
        assert entry["marks"] == rules.marks  # the deck's colour-blind marks, drawn by the browser
        assert {o["name"] for o in entry["options"]} == set(rules.accepted_options)
        for option in entry["options"]:  # each served from its one declaration
            spec = OPTION_SPEC[option["name"]]
            assert (option["kind"], option["label"], option["help"]) == (spec.kind, spec.label_key, spec.help_key)
            assert option.get("choices", list(spec.values)) == list(spec.values)
            assert option.get("minimum", spec.minimum) == spec.minimum
        defaults = make_options(rules, {}).as_dict(rules)
        for option in entry["options"]:
            if option["name"] in defaults:
                assert option["default"] == defaults[option["name"]], option
            for choice in option.get("choices", []):
                if choice != "scripted":  # needs a script as well
                    make_options(rules, {option["name"]: choice})
    assert catalog["variants"]["classic"]["marks"]["yellow"] == "star"  # Classic's printed marks
    assert catalog["variants"]["flip"]["marks"]["yellow"] == "diamond"  # Flip Attack's, R-5.1
    assert catalog["prompts"] == prompt_table()  # each decision's wordings, the terminal's too
    target = next(o for o in catalog["variants"]["classic"]["options"] if o["name"] == "target")
    loser_target = make_options(get_rules("classic"), {"scoring": "loser"}).target
    assert target["defaults_by"] == {"scoring": {"loser": loser_target}}


def test_a_choice_outside_the_catalogue_is_refused_by_the_engine(web_server: ServerProcess) -> None:
    _status, catalog = call(web_server, "/api/catalog")
    rules = get_rules("flip")
    for option in catalog["variants"]["flip"]["options"]:
        if option["kind"] == "choice":
            try:
                make_options(rules, {option["name"]: "no-such-choice"})
            except OptionError as exc:
                assert option["name"] in str(exc)
            else:
                raise AssertionError(f"{option['name']} accepted a value outside its choices")


def test_the_rules_are_said_in_the_readers_language(web_server: ServerProcess) -> None:
    """The help's rules (``POST /api/rules``) come in the ``lang`` the page asks for: every line
    of a Russian reader's Flip summary is Russian (they were English on Russian pages), and
    where the terminal's help names the whole rules' file the page has none of its own."""
    asked = {"variant": "flip", "players": 3, "options": {"stacking": "true"}}
    _status, english = call(web_server, "/api/rules", asked)
    status, russian = call(web_server, "/api/rules", {**asked, "lang": "ru"})
    assert status == 200 and len(russian["lines"]) == len(english["lines"]) > 5
    for line in filter(str.strip, russian["lines"]):
        assert re.search("[\\u0430-\\u044f\\u0451]{3}", line, re.I), line
        assert not re.search(r"\b(the|and|or|side|cards?)\b", line), line
    assert not any("docs/rules" in line for line in english["lines"])
    status, refused = call(web_server, "/api/rules", {**asked, "lang": "xx"})
    assert status == 400 and refused["error"] == "bad_request"


def test_the_launcher_statistics_match_the_models_when_pressed() -> None:
    stats = launcher_statistics()
    rng = Rng(2024)
    presses = 60_000
    for model in ("random", "pattern", "one_card"):
        launcher = make_launcher(model)
        outcomes = [launcher.press(rng) for _ in range(presses)]
        mean = sum(outcomes) / presses
        sd = math.sqrt(sum((x - mean) ** 2 for x in outcomes) / presses)
        fired = sum(1 for x in outcomes if x) / presses
        expected = stats[model]
        tolerance = 4 * expected["cards_per_press_sd"] / math.sqrt(presses) + 1e-9
        assert abs(mean - expected["cards_per_press_mean"]) <= tolerance, (model, mean, expected)
        assert abs(sd - expected["cards_per_press_sd"]) <= 0.05, (model, sd, expected)
        assert abs(fired - expected["fire_rate"]) <= 0.01, (model, fired, expected)
    assert stats["one_card"] == {
        "fire_rate": 1.0,
        "presses_to_first_fire": 1.0,
        "cards_per_fire_mean": 1.0,
        "cards_per_fire_sd": 0.0,
        "cards_per_press_mean": 1.0,
        "cards_per_press_sd": 0.0,
    }


def test_the_documented_launcher_figures_are_the_computed_ones() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8")
    for model, s in launcher_statistics().items():
        row = next(line for line in docs.splitlines() if line.startswith(f"| {model.replace('_', ' ')} |"))
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[1].startswith(f"{100 * s['fire_rate']:.1f} %")
        assert cells[2] == f"{s['presses_to_first_fire']:.2f}"
        assert cells[3] == f"{s['cards_per_fire_mean']:.2f} ± {s['cards_per_fire_sd']:.2f}"
        assert cells[4] == f"{s['cards_per_press_mean']:.2f} ± {s['cards_per_press_sd']:.2f}"


def test_the_virtual_launcher_presses_with_the_engine_models(web_server: ServerProcess) -> None:
    state: dict[str, Any] = {"model": "pattern"}
    outcomes = []
    for _ in range(6):
        status, reply = call(web_server, "/api/launcher/press", {"state": state})
        assert status == 200
        state = reply["state"]
        outcomes.append(reply["cards"])
    assert state == {"model": "pattern", "index": 6}
    # The original pattern fires on presses 2 and 6 of its cycle.
    assert [bool(x) for x in outcomes] == [False, True, False, False, False, True]
    assert all(1 <= x <= 12 for x in outcomes if x)
    status, reply = call(web_server, "/api/launcher/restart", {"state": state})
    assert (status, reply["state"]) == (200, {"model": "pattern", "index": 0})
    status, reply = call(web_server, "/api/launcher/press", {"state": {"model": "scripted", "script": [1]}})
    assert status == 400 and "random, pattern, one_card" in reply["message"]
    status, reply = call(web_server, "/api/launcher/press", {"state": {"model": "pattern", "index": 500}})
    assert status == 400 and "index" in reply["message"]


def test_the_score_sheet_scores_rounds_with_the_score_keeper(web_server: ServerProcess) -> None:
    status, reply = call(
        web_server, "/api/sheet/new", {"variant": "flip", "players": ["Ana", "Bo", "Cy"], "scoring": "winner"}
    )
    assert status == 200 and reply["totals"] == [0, 0, 0]
    sheet = reply["sheet"]
    status, reply = call(
        web_server,
        "/api/sheet/round",
        {"sheet": sheet, "winner": "Ana", "side": "dark", "hands": {"Bo": "pink 5 skip_everyone"}, "points": {"Cy": 7}},
    )
    assert status == 200
    # Dark side: 5 + Skip Everyone 30, and Cy's 7 counted by hand; the winner takes all.
    assert reply["row"]["hand_points"] == [0, 35, 7]
    assert reply["totals"] == [42, 0, 0]
    after_round = reply["sheet"]
    status, reply = call(web_server, "/api/sheet/round", {"sheet": after_round, "winner": "Bo", "hands": {"Ana": "5"}})
    assert status == 400 and "Cy" in reply["message"]
    status, reply = call(
        web_server, "/api/sheet/round", {"sheet": after_round, "winner": "Bo", "hands": {"Ana": "draw_four", "Cy": "1"}}
    )
    assert status == 400 and "draw four" in reply["message"]  # the word that is not a card, in words
    status, reply = call(web_server, "/api/sheet/undo", {"sheet": after_round})
    assert status == 200 and reply["sheet"]["rounds_played"] == [] and reply["totals"] == [0, 0, 0]
    status, reply = call(web_server, "/api/sheet/undo", {"sheet": reply["sheet"]})
    assert status == 400 and "no round" in reply["message"]
    status, reply = call(web_server, "/api/sheet/new", {"variant": "flip_attack", "players": ["A"] * 7})
    assert status == 400 and "2 to 6 players" in reply["message"]
    status, reply = call(web_server, "/api/sheet/round", {"sheet": {"format": "nope"}, "winner": "A"})
    assert status == 400 and "unokit-table/1" in reply["message"]


def test_one_hand_is_valued_card_by_card(web_server: ServerProcess) -> None:
    status, reply = call(web_server, "/api/score", {"variant": "classic", "cards": "red 5 wild_draw_four skip"})
    assert status == 200
    assert [(c["title"], c["points"]) for c in reply["cards"]] == [("Red 5", 5), ("Wild Draw Four", 50), ("Skip", 20)]
    assert reply["total"] == 75


def test_a_replay_of_a_game_that_does_not_exist_is_refused(web_server: ServerProcess) -> None:
    status, reply = call(web_server, "/api/rooms/ZZZZZZ/records/1/replay?step=0")
    assert status == 404 and reply["error"] == "no_record"
    status, reply = call(web_server, "/api/rooms/ZZZZZZ/records/x/replay")
    assert status == 404 and reply["error"] == "no_record"  # "x" names no game
    status, reply = call(web_server, "/api/rooms/ZZZZZZ/records/1/replay?step=-1")
    assert status == 400 and reply["error"] == "bad_step"


def test_a_replay_shows_one_seats_view_and_the_whole_log(web_server: ServerProcess) -> None:
    """A finished game replays as everyone saw it (every hand) or as one seat saw it (its own
    hand only, the others' drawn cards counted); ``log=1`` adds every step's lines for that view,
    the same as each step's own; a seat that is not at the table is refused."""
    room = create_room(web_server.url, "classic", 2, options={"rounds": 1}, settings=FAST, bots=["random"])

    async def body() -> None:
        ann = await RoomClient.join(web_server.url, room["room"], name="Ann")
        await ann.host("start", room["host_token"])
        while ann.phase == "playing":
            await ann.wait_for(lambda s: ann.my_turn or s["room"]["phase"] != "playing", timeout=60)
            if ann.my_turn:
                await ann.act(choose(ann.observation or {}))
        await ann.close()

    run(body)
    base = f"/api/rooms/{room['room']}/records/1/replay"
    status, everyone = call(web_server, f"{base}?step=1")
    assert status == 200 and len(everyone["observation"]["hands"]) == 2 and everyone["seat"] is None
    assert [seat["name"] for seat in everyone["seats"]] == everyone["names"]
    status, first = call(web_server, f"{base}?step=0&seat=1&log=1")
    assert status == 200 and "hands" not in first["observation"] and first["seat"] == 1
    status, mine = call(web_server, f"{base}?step=1&seat=1")
    assert mine["observation"]["hand"] == everyone["observation"]["hands"][1]
    log = first["log"]
    assert [entry["step"] for entry in log] == sorted({entry["step"] for entry in log}) and log[0]["step"] == 0
    for entry in log[:12]:
        status, step = call(web_server, f"{base}?step={entry['step']}&seat=1")
        assert step["lines"] == entry["lines"]
    # Seat 1 never sees what seat 0 drew; everyone's view does.
    draws = [line for entry in log for line in entry["lines"] if line["key"].startswith("event.draw")]
    assert all(isinstance(line["params"]["cards"], dict) for line in draws if line["params"]["player"] == 0)
    status, reply = call(web_server, f"{base}?step=0&seat=2")
    assert status == 400 and reply["error"] == "bad_seat"
    status, reply = call(web_server, f"{base}?step=0&seat=x")
    assert status == 400 and reply["error"] == "bad_seat"
