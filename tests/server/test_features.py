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

from unokit.server.client import RoomClient, ServerError, create_room
from unokit.server.commands import feature_settings, serve
from unokit.server.config import ServerConfig
from unokit.server.features import FEATURES, NAMES, enabled, store_hooks
from unokit.server.features.daily.cli import DailySettings
from unokit.server.features.push.cli import PushSettings
from unokit.server.seam import FeatureServer

from .conftest import FAST_ARGS
from .support import FAST, UNOKIT, ServerProcess, free_port, run

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
    database = f"sqlite:///{tmp_path / 'without.db'}"
    # Loopback banned on the database before the server starts: a server with moderation reads
    # the bans as it starts, and would keep this address out of public rooms.
    banned = [UNOKIT, "admin", "--database", database, "--create", "ban", "--address", "127.0.0.1"]
    subprocess.run(banned, capture_output=True, text=True, timeout=60, check=True)
    off = ("daily", "ratings", "hints", "moderation")
    server = ServerProcess(database, free_port(), [*FAST_ARGS, *(arg for name in off for arg in ("--without", name))])
    server.start()
    try:
        # A room against bots, where a server with hints gives them, refuses a hint by its code;
        # a public room refuses a report by its code, and nobody is banned.
        made = create_room(server.url, "classic", 2, settings=FAST, bots=["normal"])
        public = create_room(server.url, "classic", 2, settings=FAST, public=True)

        async def ask(code: str, message: dict[str, object]) -> str:
            ann = await RoomClient.join(server.url, code, name="Ann")
            try:
                await ann.request({**message, "token": ann.token})
            except ServerError as refused:
                return refused.code
            finally:
                await ann.close()
            return "answered"

        assert run(lambda: ask(made["room"], {"type": "hint"})) == "no_hints"
        assert run(lambda: ask(public["room"], {"type": "report", "about": "conduct", "seat": 0})) == "no_reports"
        assert _status(f"{server.url}/api/admin/bans")[0] == 404  # with moderation: 403, no admin token
        assert set(cast(list[str], _status(f"{server.url}/api/features")[1]["features"])) == set(NAMES) - {
            "daily",
            "ratings",
            "ladder",
            "hints",
            "moderation",
        }
        assert _status(f"{server.url}/api/daily")[0] == 404
        assert _status(f"{server.url}/api/leaderboard?variant=classic&players=2")[0] == 404
        assert _status(f"{server.url}/api/ladder?variant=classic&players=2")[0] == 404  # it needs ratings
        assert _status(f"{server.url}/api/health") == (200, _status(f"{server.url}/api/health")[1])
        status, push = _status(f"{server.url}/api/push")
        assert status == 200 and push["enabled"] is True  # the others run
    finally:
        server.stop()
    server = ServerProcess(f"sqlite:///{tmp_path / 'nopush.db'}", free_port(), [*FAST_ARGS, "--without", "push"])
    server.start()
    try:
        assert _status(f"{server.url}/api/push") == (200, {"enabled": False, "key": None, "kinds": [], "defaults": []})
        assert _status(f"{server.url}/api/daily")[0] == 200
    finally:
        server.stop()


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
