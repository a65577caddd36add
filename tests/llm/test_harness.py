"""The text harness (unokit.llm.harness): every legal move of every variant's hands is read back
from its own text, in brackets, as JSON and bare; nonsense is refused with a typed reason."""

from __future__ import annotations

import json

import pytest

from unokit import VARIANT_NAMES, Game
from unokit.core.rng import Rng
from unokit.llm.harness import MAX_ANSWER_CHARS, PASS, Refusal, parse_move, prompt, proxy


def _positions(variant: str, decisions: int = 60) -> list[dict[str, object]]:
    """The observations of the seats to act over random play of one hand."""
    game, _ = Game.new(variant, 3, 7, rounds=1)
    rng = Rng(1)
    seen: list[dict[str, object]] = []
    while not game.is_over and len(seen) < decisions:
        seat = game.to_act
        assert seat is not None
        seen.append(game.observe(seat))
        actions = game.legal_actions()
        game.apply(actions[rng.below(len(actions))])
    return seen


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_legal_move_is_read_back(variant: str) -> None:
    for observation in _positions(variant):
        legal = list(observation["legal_actions"])  # type: ignore[call-overload]
        for move in legal:
            for answer in (f"I choose [{move}]", json.dumps({"move": move}), move.upper(), f"  {move}.  "):
                parsed = parse_move(answer, legal)
                assert parsed.move == move, (answer, legal, parsed)


@pytest.mark.parametrize(
    ("answer", "refusal"),
    [
        ("", Refusal.EMPTY),
        ("   \n", Refusal.EMPTY),
        ("x" * (MAX_ANSWER_CHARS + 1), Refusal.TOO_LONG),
        ("I like turtles", Refusal.NO_MOVE),
        ("[fold]", Refusal.NO_MOVE),
        ('{"move": 5}', Refusal.NO_MOVE),
        ("[play purple 12]", Refusal.NOT_LEGAL),
        ("[pass]", Refusal.NOT_LEGAL),
        ("[challenge]", Refusal.NOT_LEGAL),
    ],
)
def test_nonsense_is_refused_with_a_typed_reason(answer: str, refusal: Refusal) -> None:
    parsed = parse_move(answer, ["play red 5", "draw"])
    assert parsed.move is None and parsed.refusal is refusal
    assert parsed.detail


def test_the_last_legal_move_named_counts() -> None:
    assert parse_move("Not [play red 5] but [draw]", ["play red 5", "draw"]).move == "draw"
    assert parse_move("[draw], no wait, [play red 9]", ["play red 5", "draw"]).move == "draw"
    assert parse_move("[pass]", ["play red 5", PASS]).move == PASS


def test_the_proxy_and_the_prompt_show_what_the_seat_sees() -> None:
    game, _ = Game.new("flip", 2, 3)
    seat = game.to_act
    assert seat is not None
    p = proxy(game.observe(seat), [(1 - seat, "draw")])
    assert json.loads(json.dumps(p)) == p  # JSON as it is
    assert p["phase"] == "turn" and p["side"] == "light" and p["hand"] == game.observe(seat)["hand"]
    assert p["recent"] == [{"seat": 1 - seat, "move": "draw"}]
    assert set(p) >= {"top", "color", "hand_sizes", "draw_size", "legal_moves", "stack", "direction"}
    text = prompt(p)
    assert all(f"[{m}]" in text for m in p["legal_moves"])
    assert f"Player {1 - seat}: draw" in text
    retry = prompt(p, "hmm", parse_move("hmm", p["legal_moves"]))
    assert "Your previous answer was: 'hmm'" in retry and "It was not accepted" in retry
    assert proxy(Game.new("classic", 2, 3)[0].observe(0))["side"] is None
