"""Helpers for scenario tests: build a game from a small position; load a script as a module."""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

from unokit import VARIANTS, Game
from unokit.core.rng import MASK64

#: ``make test-all`` sets ``UNOKIT_TEST_ALL=1``: the exhaustive sizes of the tests that have
#: them; ``make test`` runs a share of each, so that it stays within its time on 2 cores.
TEST_ALL = bool(os.environ.get("UNOKIT_TEST_ALL"))


def sized(full: int, share: int) -> int:
    """``full`` under ``make test-all``, else ``share`` (the size ``make test`` runs)."""
    return full if TEST_ALL else share


def position(
    variant: str = "classic",
    *,
    hands: list[list[str]],
    discard: list[str],
    color: str | None,
    turn: int = 0,
    draw: list[str] | None = None,
    seed: int = 1,
    **fields: Any,
) -> dict[str, Any]:
    """A position object with the given fields; unnamed deck cards go under ``draw``.

    ``players`` defaults to ``len(hands)``, ``side`` to the variant's first side.
    """
    obj: dict[str, Any] = {
        "variant": variant,
        "players": len(hands),
        "side": VARIANTS[variant].side_names[0],
        "turn": turn,
        "color": color,
        "hands": hands,
        "discard": discard,
        "draw": draw or [],
        "seed": seed,
    }
    obj.update(fields)
    return obj


def game(variant: str = "classic", **kwargs: Any) -> Game:
    """``Game.from_position(position(variant, **kwargs))``."""
    return Game.from_position(position(variant, **kwargs))


def event_types(events: list[dict[str, Any]]) -> list[str]:
    """The ``type`` of each event, in order."""
    return [e["type"] for e in events]


def hand(g: Game, seat: int) -> list[str]:
    """The full texts of a hand, sorted (a multiset)."""
    return sorted(g.card_text(t) for t in g.hands[seat])


def pile(g: Game, cards: list[int]) -> list[str]:
    """Full texts of a pile in its stored order."""
    return [g.card_text(t) for t in cards]


def legal(g: Game, seat: int | None = None) -> set[str]:
    """The texts of ``seat``'s legal actions."""
    return {str(a) for a in g.legal_actions(seat)}


def all_cards(g: Game) -> list[str]:
    """Every physical card of the game, wherever it is."""
    return [g.card_text(t) for h in g.hands for t in h] + pile(g, g.discard) + pile(g, g.draw)


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events of one ``type``."""
    return [e for e in events if e["type"] == kind]


def classic_points(card: str) -> int:
    """R-2.5: numbers face value, coloured actions 20, wilds 50."""
    kind = card.rsplit(maxsplit=1)[-1]
    if kind.isdigit():
        return int(kind)
    return 50 if kind.startswith("wild") else 20


def attack_deck() -> Counter[str]:
    """The 112 cards of UNO Attack as written in R-4.2."""
    deck: Counter[str] = Counter()
    for color in ("red", "yellow", "green", "blue"):
        for kind in (*(str(n) for n in range(1, 10)), "hit_2", "reverse", "skip"):
            deck[f"{color} {kind}"] += 2
        deck[f"{color} discard_all"] += 1
        deck[f"{color} trade_hands"] += 1
    deck["wild"] += 4
    deck["wild_all_hit"] += 2
    deck["wild_hit_fire"] += 2
    return deck


def classic_deck() -> list[str]:
    """The 108 Classic cards as R-2.1 lists them."""
    cards: list[str] = []
    for c in ("red", "yellow", "green", "blue"):
        cards.append(f"{c} 0")
        for n in range(1, 10):
            cards += [f"{c} {n}"] * 2
        for kind in ("skip", "reverse", "draw_two"):
            cards += [f"{c} {kind}"] * 2
    return cards + ["wild"] * 4 + ["wild_draw_four"] * 4


SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def load_script(name: str) -> ModuleType:
    """The module ``scripts/<name>.py``, loaded from its file (scripts are not a package)."""
    path = SCRIPTS / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, f"cannot load {path}"
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


_GOLDEN = 0x9E3779B97F4A7C15


def _unshift(y: int, shift: int) -> int:
    """The ``z`` with ``z ^ (z >> shift) == y``."""
    z = y
    for _ in range(64 // shift + 1):
        z = y ^ (z >> shift)
    return z


def state_giving(x: int, draws_before: int = 0) -> int:
    """A SplitMix64 state whose generator outputs ``x`` after ``draws_before`` other draws
    (the output function is a bijection of the stepped state)."""
    z = _unshift(x, 31)
    z = _unshift(z * pow(0x94D049BB133111EB, -1, 1 << 64) & MASK64, 27)
    z = _unshift(z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & MASK64, 30)
    return (z - (draws_before + 1) * _GOLDEN) & MASK64


def write_policy(path: Path, variant: str, players: int, history: int = 2, seed: int = 0, hidden: int = 16) -> Path:
    """A small random two-layer policy for ``variant``."""
    import numpy as np

    from unokit.bots.policy import export_mlp
    from unokit.encoding import Encoding

    enc = Encoding(variant, players, history)
    rng = np.random.default_rng(seed)
    layers = [
        (rng.normal(0, 0.3, (hidden, enc.size)), rng.normal(0, 0.1, hidden)),
        (rng.normal(0, 0.3, (enc.num_actions, hidden)), rng.normal(0, 0.1, enc.num_actions)),
    ]
    export_mlp(path, layers, variant=variant, players=players, history=history, scale=1.0 / np.maximum(enc.high, 1))
    return path


#: The environment variable :func:`marked_processes` looks for.
PROCESS_MARK = "UNOKIT_TEST_PROCESS_MARK"


def marked_processes(mark: str) -> list[int]:
    """The processes still running whose environment holds ``PROCESS_MARK=mark``: every
    process a command started (and what those started, whoever their parent is now) inherits
    it, so a leftover is found even when it was reparented. Linux's ``/proc``."""
    found = []
    needle = f"{PROCESS_MARK}={mark}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if needle in environ.split(b"\0") and state != "Z":
            found.append(int(entry.name))
    return found


def processes_outliving(mark: str, within: float = 30.0) -> list[int]:
    """The marked processes (see :func:`marked_processes`) still running ``within`` seconds
    from now, or ``[]`` as soon as none is: a process sent SIGKILL is gone only once the
    kernel has torn it down, which on a loaded machine is not at once."""
    deadline = time.monotonic() + within
    while (found := marked_processes(mark)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found
