"""The ``llm:URL[:MODEL]`` agent: a language model behind an OpenAI-compatible chat-completions
endpoint (:mod:`unokit.llm.chat`) plays a seat through the harness (:mod:`unokit.llm.harness`).

**A decision.** A seat with one legal move makes it without asking. Otherwise the model is
asked with the prompt of the seat's proxy, and its answer read into a legal move. An answer
that names none (a :class:`~unokit.llm.harness.Refusal`), and an endpoint that answers with an
error, are *invalid answers*: the model is asked again, told why, up to :data:`RETRIES` more
times. After that the bot makes a random legal move (from its seeded generator) and counts
the decision as forfeited (:attr:`LLMBot.decision_forfeits`; ``unokit eval`` reports them).

**Time.** Every request of a decision shares the decision's budget (``budget_s``): the last one
is stopped when it runs out, and the bot raises :class:`LLMTimeout`, which ``unokit eval``
counts as the protocol's decision over the budget (the hand is forfeited).

Out of turn (a catch, a late UNO call) the bot does what the base bot does; it never jumps in.
"""

from __future__ import annotations

import time
from collections import Counter

from ..bots.base import Bot
from ..core.actions import Action
from ..core.observation import View
from ..core.rng import Rng
from .chat import ChatError, ChatTimeout, Endpoint, complete
from .harness import Parsed, parse_move, prompt, proxy

#: The prefix of the agent's spec.
LLM_PREFIX = "llm:"
#: Invalid answers a decision may have before the random move: the model is asked at most
#: ``1 + RETRIES`` times.
RETRIES = 2
#: The refusal counted for an endpoint that answered with an error.
ENDPOINT_ERROR = "endpoint_error"


class LLMTimeout(Exception):
    """The model did not answer within the decision's budget."""


class LLMBot(Bot):
    """A seat played by a language model (see the module docstring)."""

    name = "llm"

    def __init__(self, endpoint: Endpoint, seed: int = 0, budget_s: float = 1.0) -> None:
        super().__init__(seed)
        self.endpoint = endpoint
        self.budget_s = budget_s
        self._seeds = Rng(seed ^ 0x11A)
        #: Decisions made by the random move after the retries (this hand).
        self.decision_forfeits = 0
        #: Invalid answers by reason (this hand): the refusals and ``endpoint_error``.
        self.invalid_answers: Counter[str] = Counter()

    @classmethod
    def from_spec(cls, spec: str, seed: int = 0, budget_s: float = 1.0) -> LLMBot:
        """The bot of ``llm:URL[:MODEL]``; raise :class:`ValueError` naming a bad spec."""
        if not spec.startswith(LLM_PREFIX):
            raise ValueError(f"an LLM agent is written {LLM_PREFIX}URL[:MODEL], not {spec!r}")
        return cls(Endpoint.parse(spec[len(LLM_PREFIX) :]), seed, budget_s)

    def reset(self, seat: int) -> None:
        self.decision_forfeits = 0
        self.invalid_answers.clear()

    def act(self, view: View) -> Action:
        actions = view.legal_actions()
        if len(actions) == 1:
            return actions[0]
        deadline = time.monotonic() + self.budget_s
        by_text = {a.text: a for a in actions}
        p = proxy(view.observe())
        p["legal_moves"] = list(by_text)
        answer: str | None = None
        parsed: Parsed | None = None
        for _ in range(1 + RETRIES):
            text = prompt(p, answer, parsed)
            try:
                answer = complete(self.endpoint, text, deadline, self._seeds.next64())
            except ChatTimeout as exc:
                raise LLMTimeout(f"{exc} (budget {self.budget_s * 1000:g} ms)") from None
            except ChatError:
                self.invalid_answers[ENDPOINT_ERROR] += 1
                answer, parsed = None, None  # the same question again
                continue
            parsed = parse_move(answer, list(by_text))
            if parsed.move is not None:
                return by_text[parsed.move]
            assert parsed.refusal is not None
            self.invalid_answers[parsed.refusal.value] += 1
        self.decision_forfeits += 1
        return actions[self.rng.below(len(actions))]


__all__ = ["ENDPOINT_ERROR", "LLM_PREFIX", "RETRIES", "LLMBot", "LLMTimeout"]
