"""``llm:URL[:MODEL]`` in ``unokit eval`` against a fake chat-completions endpoint on loopback:
scripted moves, JSON answers, malformed and illegal text, errors, a slow model stopped at the
budget; the same JSON twice for the same suite."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.llm.fake_endpoint import fake_endpoint
from unokit import Game
from unokit.cli import main
from unokit.core.observation import View
from unokit.eval.protocol import EvalConfig, EvalError, load_suite, run_eval, stable_part
from unokit.llm.bot import RETRIES, LLMBot
from unokit.llm.chat import Endpoint


def _run(spec: str, budget_ms: float = 20_000.0, deals: int = 1) -> dict[str, object]:
    suite = load_suite("classic-2").first(deals)
    return run_eval(EvalConfig(suite, spec, ("random",), budget_ms))


def _match(result: dict[str, object]) -> dict[str, object]:
    matches = result["matches"]
    assert isinstance(matches, list)
    match: dict[str, object] = matches[0]
    return match


def test_a_scripted_model_plays_and_gives_the_same_json_twice() -> None:
    with fake_endpoint() as fake:
        first = _run(fake.spec("scripted"))
        second = _run(fake.spec("scripted"))
        asked = fake.requests["scripted"]
    assert stable_part(first) == stable_part(second)
    m = _match(first)
    assert m["hands"] == 2 and m["forfeits"] == 0 and m["decision_forfeits"] == 0
    assert asked > 0 and asked <= 2 * m["time"]["decisions"]  # type: ignore[index]
    assert first["protocol"] == "unokit-eval/1"


def test_a_json_answer_is_read() -> None:
    with fake_endpoint() as fake:
        m = _match(_run(fake.spec("json")))
        body = fake.bodies[0]
    assert m["forfeits"] == 0 and m["decision_forfeits"] == 0
    assert body["model"] == "json" and body["temperature"] == 0
    assert "Your legal moves: [" in body["messages"][0]["content"]


def test_an_answer_refused_once_is_asked_again_with_the_reason() -> None:
    with fake_endpoint() as fake:
        m = _match(_run(fake.spec("flaky")))
        retries = [b for b in fake.bodies if "Your previous answer was" in b["messages"][0]["content"]]
    assert m["decision_forfeits"] == 0 and m["forfeits"] == 0
    assert retries and "It was not accepted: The answer named no move" in retries[0]["messages"][0]["content"]


def _decision() -> View:
    """A view of the seat to act with more than one legal move."""
    game, _ = Game.new("classic", 2, 5)
    while len(game.legal_actions()) == 1:  # a forced move asks no model
        game.apply(game.legal_actions()[0])
    seat = game.to_act
    assert seat is not None
    return View(game, seat)


@pytest.mark.parametrize("model", ["malformed", "illegal", "error", "garbage"])
def test_invalid_answers_after_the_retries_make_a_random_move_counted_as_forfeited(model: str) -> None:
    view = _decision()
    with fake_endpoint() as fake:
        bot = LLMBot.from_spec(fake.spec(model), seed=3, budget_s=20.0)
        action = bot.act(view)
        asked = fake.requests[model]
    assert action in view.legal_actions()
    assert asked == 1 + RETRIES
    assert bot.decision_forfeits == 1
    reason = {"malformed": "no_move", "illegal": "not_legal"}.get(model, "endpoint_error")
    assert bot.invalid_answers == {reason: 1 + RETRIES}


def test_eval_counts_the_forfeited_decisions() -> None:
    with fake_endpoint() as fake:
        m = _match(_run(fake.spec("stubborn")))
    assert m["decision_forfeits"] == 1  # its first decision; the hands are played to their end
    assert m["forfeits"] == 0


def test_a_slow_model_is_stopped_at_the_budget_and_forfeits_the_hand() -> None:
    with fake_endpoint() as fake:
        m = _match(_run(fake.spec("slow"), budget_ms=300.0))
    assert m["forfeits"] == m["hands"] == 2
    assert m["forfeit_reasons"] == ["llm"]


def test_an_unreachable_endpoint_is_an_endpoint_error_not_a_crash() -> None:
    view = _decision()
    bot = LLMBot.from_spec("llm:http://127.0.0.1:9/v1:none", seed=1, budget_s=2.0)
    assert bot.act(view) in view.legal_actions()
    assert bot.decision_forfeits == 1 and bot.invalid_answers["endpoint_error"] == 1 + RETRIES


def test_the_spec_is_url_and_model_and_a_bad_one_is_refused() -> None:
    assert Endpoint.parse("http://127.0.0.1:8000/v1:qwen2.5:7b") == Endpoint(
        "http://127.0.0.1:8000/v1/chat/completions", "qwen2.5:7b"
    )
    assert Endpoint.parse("https://api.example.org/v1/chat/completions").model == "default"
    with pytest.raises(EvalError, match="is not URL"):
        _run("llm:ftp://nowhere")


def test_one_command_measures_a_model(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    with fake_endpoint() as fake:
        result = CliRunner().invoke(
            main,
            [
                "eval",
                fake.spec("scripted"),
                "--against",
                "random",
                "--deals",
                "1",
                "--budget-ms",
                "20000",
                "--json",
                str(out),
                "--no-progress",
            ],
        )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["agent"] == fake.spec("scripted") and data["matches"][0]["decision_forfeits"] == 0
