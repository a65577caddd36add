"""A replay file in the browser (``/#/replay``, ``docs/formats.md`` "Replay files"): a
Kaggle-style episode played through the package writes its file; files that are no record,
dropped on the page, are refused in words (by the page, and by the server); the episode's file,
opened, replays on the table with the room replay's controls to the record's final state, and
the agent's answers behind a move are shown with why one was refused."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pyspiel
from playwright.sync_api import Browser

import unokit.openspiel  # noqa: F401 - registers the games
from unokit.kaggle.uno.replay import play_episode
from unokit.record import Replay

from ..server.support import ServerProcess
from .axe import violations
from .player import layout_problems, new_page, wait_for, wait_until

#: A hand that a scripted agent wins in 20 actions against a random one (2-player Classic,
#: sampled chance, deal seed 2 of the game's seed).
GAME = "uno_classic(players=2,chance=sampled,seed=2,max_decisions=120)"
#: What the scripted agent says before its move at every fourth decision: no move at all.
MUDDLE = "Let me think... I pass."

DROP = """async (text) => {
  const data = new DataTransfer();
  data.items.add(new File([text], "notes.json", { type: "application/json" }));
  document.querySelector("[data-region=replay-file]")
    .dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
}"""


def _episode_file(folder: Path) -> tuple[Path, Any]:
    calls = {"n": 0}

    def scripted(observation: dict[str, Any]) -> str:
        """A stand-in for a model: its first move (the UNO call with it), nonsense at times."""
        calls["n"] += 1
        if observation.get("previousRefusal") is None and calls["n"] % 4 == 0:
            return MUDDLE
        moves = observation["legalActionStrings"]
        return f"I play [{([m for m in moves if m.endswith(' uno')] or moves)[0]}]"

    chooser = random.Random(2)
    episode = play_episode(
        pyspiel.load_game(GAME),
        [scripted, lambda o: int(chooser.choice(o["legalActions"]))],
        names=["Scripted", "Random"],
    )
    return episode.write(folder / "episode.json"), episode


def test_a_kaggle_episodes_replay_file_plays_on_the_table(
    browser: Browser, web_server: ServerProcess, tmp_path: Path
) -> None:
    path, episode = _episode_file(tmp_path)
    record = episode.record()
    final = Replay(record).final
    assert final.is_over and final.winners == [0]  # the hand this test is about
    steps = len(record.actions)
    muddled = next(d for d in episode.decisions if d.answers and d.answers[0].text == MUDDLE)
    page = new_page(browser, "laptop", reduced_motion="reduce")
    try:
        page.goto(f"{web_server.url}/#/replay")
        wait_for(page, "[data-region=replay-file] input[type=file]")
        error = "document.querySelector('[data-region=replay-file] .error').textContent"
        page.evaluate(DROP, "notes, no game here")  # not JSON: the page says so itself
        wait_until(page, f"{error} === 'This file is not a game record.'")
        page.evaluate(DROP, json.dumps({"notes": "no game here"}))  # JSON, no record: the server refuses it
        wait_until(page, f"{error} === 'The record of this game cannot be replayed.'")
        assert violations(page, "the file page") == []
        page.set_input_files("#replay-file-input", str(path))
        wait_for(page, ".replay-root .table")
        assert "episode.json" in page.locator("h1").inner_text()
        assert page.locator("[data-region=self] .me-name").inner_text() == "Scripted"
        assert page.locator("#replay-step").inner_text() == f"Step 0 of {steps}"
        # The agent's answers behind the move its muddled decision made: the nonsense, and why.
        for _ in range(muddled.step + 1):
            page.click("#replay-next")
        wait_until(page, f"document.querySelector('#replay-step').textContent.startsWith('Step {muddled.step + 1} ')")
        page.click(".replay-answers summary")
        texts = page.locator(".replay-answers .answer-text").all_inner_texts()
        assert texts[0] == MUDDLE and texts[-1].startswith("I play [")
        assert page.locator(".answer-refused").first.inner_text() == "The answer named no move."
        assert violations(page, "the answers") == []
        # To the end: the record's final state on the table.
        page.click("#replay-last")
        wait_until(page, f"document.querySelector('#replay-step').textContent === 'Step {steps} of {steps}'")
        assert page.locator("#replay-next").is_disabled()
        assert page.locator("[data-region=hand] .hand-card").count() == 0  # the winner holds nothing
        loser = page.locator(".seat[data-seat='1']")
        assert loser.locator(".count").inner_text() == str(len(final.hands[1]))
        assert "Random" in loser.inner_text()
        assert str(final.scores[0]) in page.locator("[data-region=self]").inner_text()
        assert layout_problems(page) == []
    finally:
        page.context.close()
