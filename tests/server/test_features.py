"""The seam of the server's features (``docs/architecture.md``, "Adding a server feature"):
one registry, ``--without`` turning a feature off (with those that need it), and the rows of a
feature that is off still forgotten and pruned."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import cast

import click
import pytest

from unokit.server.commands import feature_settings, serve
from unokit.server.config import ServerConfig
from unokit.server.features import FEATURES, NAMES, enabled, store_hooks
from unokit.server.features.daily.cli import DailySettings
from unokit.server.features.moderation import rows as moderation
from unokit.server.features.push.cli import PushSettings
from unokit.server.seam import FeatureServer
from unokit.server.storage import Store, migrate

from .inprocess import ADDRESS, Refused, in_process
from .support import FAST, UNOKIT, free_port

SERVER = Path(__file__).resolve().parents[2] / "src" / "unokit" / "server"
SHAPE = Path(__file__).resolve().parents[2] / "scripts" / "server_shape.py"


def _status(url: str) -> tuple[int, dict[str, object]]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"{}")


def test_each_feature_is_listed_once_under_its_own_name() -> None:
    assert len(NAMES) == len(set(NAMES)) and all(name.isascii() and name.islower() for name in NAMES)
    for feature in FEATURES:
        assert set(feature.needs) <= set(NAMES) - {feature.name}, feature.name
        assert feature.server is None or issubclass(feature.server, FeatureServer)  # type: ignore[arg-type]


def test_serve_help_names_every_feature() -> None:
    shown = subprocess.run([UNOKIT, "serve", "--help"], capture_output=True, text=True, check=True).stdout
    words = " ".join(shown.split())
    for name in NAMES:
        assert name in words.split("--without FEATURE", 1)[1].split(" --", 1)[0], name
    for feature in FEATURES:  # and each feature's own options, which the core does not declare
        for option in feature.commands.serve_options:
            assert f"{option.opts[0]} " in words, option.opts


def test_a_features_options_make_its_settings_or_a_clear_refusal() -> None:
    def values(*args: str) -> dict[str, object]:  # as `unokit serve ARGS` reads them
        return serve.make_context("serve", list(args)).params

    settings, off = feature_settings(values())
    assert settings["push"] == PushSettings() and settings["daily"] == DailySettings() and off == frozenset()
    config = ServerConfig(database="sqlite://", settings=settings)
    assert config.settings_of("push", PushSettings).contact_for(None) == "mailto:unokit@localhost"
    assert ServerConfig(database="sqlite://").settings_of("daily", DailySettings) == DailySettings()
    settings, off = feature_settings(values("--no-push", "--push-away", "2.5", "--daily", "flip:3:heuristic"))
    assert off == {"push"} and cast(PushSettings, settings["push"]).away == 2.5
    assert [deal.variant for deal in cast(DailySettings, settings["daily"]).deals] == ["flip"]
    with pytest.raises(click.BadParameter, match="'nope' is not a mailto: or https:// address"):
        feature_settings(values("--push-contact", "nope"))
    with pytest.raises(click.BadParameter, match="two deals are the same"):
        feature_settings(values("--daily", "flip:3:heuristic", "--daily", "flip:3:heuristic"))


def test_admin_offers_each_features_own_commands() -> None:
    shown = subprocess.run([UNOKIT, "admin", "--help"], capture_output=True, text=True, check=True).stdout
    for feature in FEATURES:
        for command in feature.commands.admin:
            assert f"  {command.name} " in shown, command.name


def test_a_feature_is_turned_off_with_those_that_need_it() -> None:
    assert [f.name for f in enabled()] == list(NAMES)
    left = [f.name for f in enabled(["ratings"])]
    assert "ratings" not in left and "ladder" not in left and "daily" in left
    with pytest.raises(ValueError, match="there is no feature nope; the features are push, moderation, daily"):
        enabled(["nope"])


def test_a_feature_that_is_off_still_forgets_and_prunes_its_rows_but_rates_nothing() -> None:
    hooks = dict(zip(NAMES, store_hooks(["ratings", "daily"]), strict=True))
    assert hooks["ratings"].forget_player is not None and hooks["ratings"].game_written is None
    assert hooks["ladder"].game_written is None  # it needs ratings
    assert hooks["daily"].prune is not None and hooks["daily"].game_written is None
    assert hooks["reviews"] == next(f.store for f in FEATURES if f.name == "reviews")


def test_a_server_without_a_feature_has_none_of_its_routes_and_says_push_is_off(tmp_path: Path) -> None:
    """In process: a server run without the deal of the day, ratings (and so the ladder), hints
    and moderation answers none of their routes and refuses their room messages by their codes;
    the others run. One without push still says that push is off."""
    # Loopback banned on the database before the server starts: a server with moderation reads
    # the bans as it starts, and would keep this address out of public rooms.
    store = Store(f"sqlite:///{tmp_path / 'server.db'}")
    try:
        migrate(store.engine)
        moderation.add_ban(store, "address", f"{ADDRESS}/32", None, "in the way")
    finally:
        store.close()
    off = frozenset(("daily", "ratings", "hints", "moderation"))
    with in_process(tmp_path, without=off) as server:
        # A room against bots, where a server with hints gives them, refuses a hint by its code;
        # a public room refuses a report by its code, and nobody is banned.
        made = server.room(variant="classic", players=2, settings=FAST, bots=["normal"])
        public = server.room(variant="classic", players=2, settings=FAST, public=True)
        with server.seat(made["room"], "Ann") as ann, pytest.raises(Refused) as hint:
            ann.request({"type": "hint", "token": ann.token})
        with server.seat(public["room"], "Ann") as ann, pytest.raises(Refused) as report:
            ann.request({"type": "report", "about": "conduct", "seat": 0, "token": ann.token})
        assert (hint.value.code, report.value.code) == ("no_hints", "no_reports")
        api = server.client
        assert api.get("/api/admin/bans").status_code == 404  # with moderation: 403, no admin token
        assert set(api.get("/api/features").json()["features"]) == set(NAMES) - {*off, "ladder"}
        assert api.get("/api/daily").status_code == 404
        assert api.get("/api/leaderboard?variant=classic&players=2").status_code == 404
        assert api.get("/api/ladder?variant=classic&players=2").status_code == 404  # it needs ratings
        assert api.get("/api/health").status_code == 200
        push = api.get("/api/push")
        assert push.status_code == 200 and push.json()["enabled"] is True  # the others run
    (tmp_path / "nopush").mkdir()
    with in_process(tmp_path / "nopush", without=frozenset({"push"})) as server:
        push = server.client.get("/api/push")
        assert (push.status_code, push.json()) == (200, {"enabled": False, "key": None, "kinds": [], "defaults": []})
        assert server.client.get("/api/daily").status_code == 200


def test_an_unknown_feature_is_refused_in_one_line(tmp_path: Path) -> None:
    ran = subprocess.run(
        [UNOKIT, "serve", "--database", f"sqlite:///{tmp_path / 'x.db'}", "--port", str(free_port()), "--without", "x"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert ran.returncode == 2 and "there is no feature x; the features are push" in ran.stderr, ran.stderr
    assert "Traceback" not in ran.stderr


def test_the_core_names_no_feature() -> None:
    """The core's modules reach the features only through the registry: none imports a
    feature's module (not even for a type), and no name of the hubs' (a variable, a field, an
    option) is a feature's."""
    for path in sorted(SERVER.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("features."):
                raise AssertionError(f"{path.name} imports {node.module}")
    for name in ("app.py", "hub.py", "storage.py", "config.py", "commands.py", "admin.py", "words.py"):
        tree = ast.parse((SERVER / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            named = node.id if isinstance(node, ast.Name) else node.arg if isinstance(node, ast.arg) else None
            named = node.attr if isinstance(node, ast.Attribute) else named
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("--"):
                named = node.value[2:].replace("-", "_")
            for feature in NAMES:
                assert not (named or "").startswith(f"{feature}_"), f"{name} names {named}"


def test_the_server_modules_import_in_no_circle() -> None:
    """Every import among the server's modules, at a module's top or inside a function, points
    down: none closes a circle (scripts/server_shape.py draws the graph)."""
    shown = subprocess.run([sys.executable, str(SHAPE), "--json"], capture_output=True, text=True, check=True)
    assert json.loads(shown.stdout)["circles"] == []
