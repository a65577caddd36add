"""Each decision's question, worded once for every surface: the terminal game and the browser
ask the player the same question with the same catalogue key.

:data:`PROMPTS` gives each decision kind its wordings, in order: the first whose facts all
hold for the seat's observation (:func:`~unokit.core.observation.observe`, the ``view`` the
server sends) is asked, with its parameters taken from the observation. A fact
(:class:`PromptFact`) and a value (:class:`PromptValue`) are each read once here
(:data:`FACTS`, :data:`VALUES`) and once in the browser (``static/js/prompt.js``, which reads
the wordings themselves from ``GET /api/catalog``, ``"prompts"``); the registry test checks
both tables cover both closed sets. A new wording is an entry here and its message in the
catalogues; a new fact or value is a member, its reading here and its reading in
``prompt.js``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..core.kinds import FAIR_CHALLENGE_EXTRA, KIND_BY_NAME, KINDS
from ..core.types import DecisionKind, TextKind
from ..core.variants import get_rules
from .catalog import N_
from .lines import Line

Observation = Mapping[str, Any]


class PromptFact(TextKind):
    """Something about the seat's observation that changes how its question is worded."""

    LAUNCHER = "launcher"  # the game has a launcher in place of a draw pile
    FORCE_PLAY = "force_play"  # a drawn card that can be played must be (H-5)
    SEVEN = "seven"  # the top card is a Seven: the hand to take is a swap (H-2)
    DISCARDED = "discarded"  # Wild Press Your Luck has discarded cards already


class PromptValue(TextKind):
    """A parameter a question shows, read from the observation (its name is its
    :data:`~unokit.i18n.lines.PARAM_TYPES` entry: how it is shown)."""

    TOTAL = "total"  # the cards (or presses) a stacked draw adds up to
    CARD = "card"  # the drawn card's face on the side in play
    BY = "by"  # the seat whose Wild Draw card may be challenged
    KIND = "kind"  # the kind of card that asks (the challenged, targeting or discarding card)
    COLOR = "color"  # the colour the challenged card named
    COUNT = "count"  # the cards to discard
    CARDS = "cards"  # the cards Wild Press Your Luck discarded, faces on the side in play
    DRAWS = "draws"  # what the challenged card's draw is (accepted, or a bluff found): a line
    PENALTY = "penalty"  # what a failed challenge costs the challenger: a line


@dataclass(frozen=True)
class Wording:
    """One way of asking a decision: its catalogue ``key``, the facts under which it is asked
    (``when``, all of them) and the values it shows (``params``)."""

    key: str
    when: tuple[PromptFact, ...] = ()
    params: tuple[PromptValue, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "when": [f.value for f in self.when], "params": [p.value for p in self.params]}


F, V = PromptFact, PromptValue

# fmt: off
#: Every decision's question: its wordings, the first that fits first; the last of each asks
#: under any facts.
PROMPTS: Mapping[DecisionKind, tuple[Wording, ...]] = MappingProxyType({
    DecisionKind.TURN: (
        Wording(N_("decision.turn.launcher"), (F.LAUNCHER,)),
        Wording(N_("decision.turn")),
    ),
    DecisionKind.STACK: (
        Wording(N_("decision.stack.launcher"), (F.LAUNCHER,), (V.TOTAL,)),
        Wording(N_("decision.stack"), (), (V.TOTAL,)),
    ),
    DecisionKind.PLAY_OR_KEEP: (
        Wording(N_("decision.play_or_keep.force"), (F.FORCE_PLAY,), (V.CARD,)),
        Wording(N_("decision.play_or_keep.card"), (), (V.CARD,)),
    ),
    DecisionKind.CHALLENGE: (Wording(N_("decision.challenge"), (), (V.BY, V.KIND, V.COLOR, V.DRAWS, V.PENALTY)),),
    DecisionKind.CHOOSE_COLOR: (Wording(N_("decision.choose_color")),),
    DecisionKind.CHOOSE_PLAYER: (
        Wording(N_("decision.choose_player.seven"), (F.SEVEN,)),
        Wording(N_("decision.choose_player")),
    ),
    DecisionKind.PRESS_YOUR_LUCK: (
        Wording(N_("decision.press_your_luck.discarded"), (F.DISCARDED,), (V.CARDS,)),
        Wording(N_("decision.press_your_luck")),
    ),
    DecisionKind.CHOOSE_DISCARD: (Wording(N_("decision.choose_discard")),),
    DecisionKind.CHOOSE_TARGET: (Wording(N_("decision.choose_target"), (), (V.KIND,)),),
    DecisionKind.DISCARD_CARDS: (Wording(N_("n.decision.discard_cards"), (), (V.KIND, V.COUNT)),),
    DecisionKind.OVER: (Wording(N_("decision.over")),),
})
# fmt: on


def _pending(obs: Observation) -> Mapping[str, Any]:
    pending = obs.get("pending")
    return pending if isinstance(pending, Mapping) else {}


def _side(obs: Observation) -> int:
    """The index of the side in play (0: light or mild, 1: dark or wild)."""
    names = get_rules(str(obs["variant"])).side_names
    return names.index(obs["side"]) if obs.get("side") in names else 0


def _face(text: str, side: int) -> str:
    """The face of a card's text (``red 5/pink 2``) on ``side``."""
    faces = text.split("/")
    return faces[side] if len(faces) == 2 else faces[0]


def _top_kind(obs: Observation) -> str | None:
    top = obs.get("top")
    return str(top).split()[-1] if top else None


#: How each fact is read from an observation (``static/js/prompt.js`` reads them the same way).
FACTS: Mapping[PromptFact, Callable[[Observation], bool]] = MappingProxyType(
    {
        F.LAUNCHER: lambda obs: bool(obs.get("launcher")),
        F.FORCE_PLAY: lambda obs: bool(obs.get("options", {}).get("force_play")),
        F.SEVEN: lambda obs: _top_kind(obs) == "7",
        F.DISCARDED: lambda obs: bool(_pending(obs).get("discarded")),
    }
)


def _draws(obs: Observation, extra: int) -> Line:
    """What the challenged Wild Draw card makes a seat draw, as a line, with ``extra`` cards more
    (a failed challenge's :data:`~unokit.core.kinds.FAIR_CHALLENGE_EXTRA`): the stacked total
    or the card's own count (``6 cards``), or for a card that draws until its colour, that
    (``cards until a green one, then 2 more``)."""
    pending = _pending(obs)
    kind = KINDS[KIND_BY_NAME[str(pending["card"])]]
    if not obs.get("stack") and kind.until == "color":
        if extra:
            return Line(N_("n.challenge.until_color_and"), {"color": pending.get("color"), "count": extra})
        return Line(N_("challenge.until_color"), {"color": pending.get("color")})
    return Line(N_("n.cards"), {"count": (obs.get("stack") or kind.draws) + extra})


#: How each value is read from an observation (``static/js/prompt.js`` reads them the same way).
VALUES: Mapping[PromptValue, Callable[[Observation], Any]] = MappingProxyType(
    {
        V.TOTAL: lambda obs: obs.get("stack", 0),
        V.CARD: lambda obs: _face(str(_pending(obs)["card"]), _side(obs)),
        V.BY: lambda obs: _pending(obs)["by"],
        V.KIND: lambda obs: _pending(obs)["card"],
        V.COLOR: lambda obs: _pending(obs).get("color"),
        V.COUNT: lambda obs: _pending(obs).get("count", 1),
        V.CARDS: lambda obs: [_face(str(c), _side(obs)) for c in _pending(obs).get("discarded") or []],
        V.DRAWS: lambda obs: _draws(obs, 0).to_json(),
        V.PENALTY: lambda obs: _draws(obs, FAIR_CHALLENGE_EXTRA).to_json(),
    }
)


def wording(obs: Observation) -> Wording:
    """The wording of the question ``obs``'s seat is asked: the first of its decision's
    :data:`PROMPTS` whose facts all hold."""
    for candidate in PROMPTS[DecisionKind(obs["decision"])]:
        if all(FACTS[fact](obs) for fact in candidate.when):
            return candidate
    raise LookupError(f"no wording of {obs['decision']!r} fits")  # the last of each has no fact


def prompt_line(obs: Observation) -> Line:
    """The question of the decision open to ``obs``'s seat, as a :class:`Line` (its key and its
    parameters as plain values, said by :meth:`~unokit.i18n.lines.Words.say`)."""
    chosen = wording(obs)
    return Line(chosen.key, {value.value: VALUES[value](obs) for value in chosen.params})


def prompt_table() -> dict[str, list[dict[str, Any]]]:
    """:data:`PROMPTS` as JSON, for the browser (``GET /api/catalog``, ``"prompts"``)."""
    return {kind.value: [w.to_json() for w in wordings] for kind, wordings in PROMPTS.items()}


__all__ = [
    "FACTS",
    "PROMPTS",
    "VALUES",
    "PromptFact",
    "PromptValue",
    "Wording",
    "prompt_line",
    "prompt_table",
    "wording",
]
