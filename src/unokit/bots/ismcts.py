"""The ``ismcts`` bot: single-observer information-set Monte Carlo tree search (SO-ISMCTS).

Each iteration *determinises* the hidden cards: it deals the cards this seat cannot see to the
other hands and the draw pile (or launcher), at random but consistently with everything the
seat knows (the engine's :class:`~unokit.core.determinise.Determiniser`), then walks one shared
tree of actions with UCB1 corrected for availability, expands one node, plays a few decisions
with a cheap greedy policy and scores the result with a hand-strength model (or plays the hand
out, with ``rollout_depth=None``).
The tree's nodes are keyed by the seat that acts and the interned :class:`~unokit.Action`, so
the statistics of one information set are pooled over every determinisation. The action played
is the most visited one at the root. The method is Cowling, Powley and Whitehouse's SO-ISMCTS
(IEEE TCIAIG 4(2), 2012); details and measured strength are in ``docs/ismcts.md``.

House rules need nothing of their own in the search, which plays by the engine's rules: a
Seven-O victim, a stack answer, a forced play are ordinary decisions of the tree. Two get a
little more. With ``teams=true`` a seat's reward is its team's (both partners win a hand one of
them wins), so the search cooperates with the partner. With ``jump_in=true``, when the bot may
jump in out of turn (:meth:`IsmctsBot.react`), it searches a root whose choices are each jump
and waiting; inside the tree and the rollouts nobody jumps (the tree follows the seat to act).

The bot only reads its :class:`~unokit.View`: its own hand, the discard pile, hand sizes, the
backs of other hands and of the draw pile's top card on double-sided decks, and the public
facts of the open decision; in 2-player single-sided games it also remembers, from one of its
decisions to the next, when the opponent drew instead of playing, and what the opponent played
(:class:`Reads`). It never touches the game behind the view.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from ..core import cards as C
from ..core.actions import ACCEPT, CATCH, DRAW, KEEP, PLAY, PLAY_DRAWN, PRESS, STOP, TARGET, TRADE, UNO, Action
from ..core.determinise import Determiniser
from ..core.game import Game
from ..core.kinds import IS_WILD, KINDS
from ..core.observation import View
from ..core.rng import Rng
from ..core.teams import partner
from ..core.types import ActionKind
from ..core.types import DecisionKind as D
from .base import Bot, most_held_color

#: Iterations per decision by default, by variant (or by deck family, for the themed Flip
#: editions): on the 2-core development machine a 2-player
#: Classic decision that searches takes 0.12-0.14 s on average, the slowest 0.17 s at the
#: machine's usual speed (``docs/ismcts.md``).
DEFAULT_ITERATIONS = {"classic": 1600, "attack": 1400, "flip": 1100, "flip_attack": 800}
#: UCB1 exploration constant (rewards lie between 0 and 1).
DEFAULT_EXPLORATION = 0.7
#: Decisions played in a rollout before the hand-strength model scores it (None: to the end).
DEFAULT_ROLLOUT_DEPTH: int | None = 8
#: The hand-strength model that scores a rollout cut short (``rollout_depth``). A seat's chance
#: to win the hand is its strength over the sum of all seats' strengths (Bradley-Terry), and its
#: log-strength is ``HAND_SIZE_TERM[cards]`` plus ``FEATURE_TERMS`` times :func:`hand_features`
#: (:func:`log_strength`); beyond the table each card costs ``EXTRA_CARD_TERM`` more. A logistic
#: fit of who won, at the turn decisions of 2-player Classic hands between ``heuristic`` bots
#: (``scripts/fit_hand_model.py``).
HAND_SIZE_TERM = (
    0.0,
    0.0,
    -0.52,
    -0.783,
    -1.008,
    -1.213,
    -1.415,
    -1.609,
    -1.826,
    -2.03,
    -2.293,
    -2.485,
    -2.721,
    -2.9,
    -3.004,
    -3.295,
    -3.638,
)
EXTRA_CARD_TERM = -0.199
#: The features of :func:`hand_features`, in order.
FEATURES = ("wilds", "draw cards", "other actions", "to act", "matching", "colours")
FEATURE_TERMS = (0.843, 0.4, 0.208, 0.082, 0.111, -0.229)
#: Whether each kind is a coloured draw card (Draw One, Two, Five), from the card-kind table.
_DRAW_KIND = tuple(kind.draws > 0 and not kind.wild for kind in KINDS)
_KEEPING = frozenset({KEEP, STOP, ACCEPT, DRAW, PRESS})


#: Kinds of :attr:`Reads.events`, the opponent's round as this seat saw it, each a tuple of five
#: ints: ``(EV_TURN, top, color, card, named)`` a turn with ``top`` on the pile and ``color`` in
#: play, on which it played ``card`` (-1: it drew or pressed instead), naming ``named`` with a
#: wild (-1: none, or not seen); ``(EV_PLAY, card, 0, 0, 0)`` the card left its hand;
#: ``(EV_GAIN, cards, 0, 0, 0)`` it took that many unseen cards; ``(EV_KEEP, top, color, 0, 0)``
#: it kept the card it had just drawn (the last one it took) on that table.
EV_TURN = 0
EV_PLAY = 1
EV_GAIN = 2
EV_KEEP = 3
Event = tuple[int, int, int, int, int]


class Reads:
    """What a seat of a 2-player hand infers from its opponent's draws.

    Between two decisions of this seat, if its own action gave the opponent an ordinary turn
    (a number card, a plain Wild, a draw, keep or press) and the opponent then played nothing
    but drew a card (or pressed the launcher), the opponent most likely held no card of the
    colour in play or of the top card's kind (wilds aside): that hand is *void* of those cards.
    A read covers the cards held then (with the drawn card); each card the opponent plays
    afterwards may be one of them, so it covers one card fewer, and new cards are not covered.
    A new round, or a trade of hands, forgets everything.

    With ``named_colors``, an opponent whose last play was a wild and who still holds cards
    most likely holds a card of the colour it named (or another wild): that read covers one
    card, so it lasts until the opponent plays again. It is not made when an earlier read
    already says the opponent holds none of that colour (reads nest over the oldest cards,
    which could not express both), and a later read that the opponent holds none of the
    colour drops it.

    It also keeps the opponent's turns of the round as the discard pile shows them
    (:attr:`turns`), from which :func:`card_features` weighs each card type of its hand, and,
    for a model of the opponent's play (:mod:`unokit.bots.expert`), the opponent's round as a
    sequence of :attr:`events`: the turns whose table is clear (the card it played from its hand,
    or a draw, then a kept card), the cards it played and the unseen cards it took.
    """

    def __init__(self, named_colors: bool = False) -> None:
        #: By seat, the reads of its hand: (card types it holds none of, cards covered).
        self.voids: dict[int, list[tuple[frozenset[int], int]]] = {}
        #: Whether to read the colour an opponent names with a wild.
        self.named_colors = named_colors
        #: The opponent's turns this round as read from the discard pile, oldest first: a card it
        #: played (or -1 when it drew instead), the colour in play before (-1: not known) and
        #: the colour it named with a wild (-1: none or not known).
        self.turns: list[tuple[int, int, int]] = []
        #: The opponent's round, oldest first (``EV_*`` tuples; 2-player single-sided games).
        self.events: list[Event] = []
        #: Whether the opponent played a card since this seat's last decision (its last card is
        #: then the top of the pile).
        self.just_played = False
        self._last: tuple[list[int], int, int, bool, int] | None = None
        self._round = 0
        #: The read of the opponent's named colour among its voids: (the cards it excludes, the
        #: cards of the colour), or None.
        self._named: tuple[frozenset[int], frozenset[int]] | None = None

    def clear(self) -> None:
        """Forget everything (a new game)."""
        self.voids = {}
        self.turns = []
        self.events = []
        self.just_played = False
        self._last = None
        self._round = 0
        self._named = None

    def update(self, view: View) -> None:
        """Read what happened since this seat's last decision."""
        last = self._last
        self._last = None
        self.just_played = False
        if view.players != 2 or view.deck.double_sided:
            return
        if self._round != view.round_number:
            self._round = view.round_number
            self.voids = {}
            self.turns = []
            self.events = []
            self._named = None
            return
        if last is None:
            return
        opponent = 1 - view.seat
        size = view.hand_sizes[opponent]
        discard = view.discard
        before, my_cards, size_before, plain, color_after = last
        if discard[: len(before)] != before:
            self.events = []  # the history has a gap: what the opponent did is lost
            return  # the discard pile was reshuffled: nothing can be read
        played = len(discard) - len(before) - my_cards
        if played < 0:
            return
        deck = view.deck
        side = view.side
        kinds = deck.kind[side]
        if any(kinds[t] == C.TRADE_HANDS for t in discard[len(before) :]):
            self.voids = {}
            self.turns = []
            self.events = []
            self._named = None
            return
        cards = discard[len(before) + my_cards :]
        self._read_turns(view, cards, color_after, size > size_before)
        top = discard[len(before) + my_cards - 1] if len(before) + my_cards > 0 else -1
        self._read_events(view, cards, top, color_after, size - size_before + len(cards), plain)
        reads = self.voids.get(opponent, [])
        if played:
            reads = [(excluded, count - played) for excluded, count in reads if count > played]
        reads = [(excluded, min(count, size)) for excluded, count in reads]
        pressed = view.rules.uses_launcher
        if (
            plain
            and played == 0
            and view.decision != D.PLAY_OR_KEEP
            and (size >= size_before if pressed else size == size_before + 1)
        ):
            colors = deck.color[side]
            color = view.color
            top_kind = kinds[view.top]
            excluded = frozenset(
                t
                for t in range(len(deck.types))
                if not IS_WILD[kinds[t]] and (colors[t] == color or (not IS_WILD[top_kind] and kinds[t] == top_kind))
            )
            covered = size_before if pressed else size
            if covered > 0:
                reads.append((excluded, covered))
        if self.named_colors:
            reads = self._read_named_color(view, reads, played, size)
        self.voids[opponent] = reads

    def _read_turns(self, view: View, cards: list[int], color_before: int, grew: bool) -> None:
        """Add the opponent's turns since this seat's last decision to :attr:`turns`: each card
        it played, in order, or a draw when it played nothing and its hand grew."""
        colors = view.deck.color[view.side]
        if not cards:
            if grew:
                self.turns.append((-1, color_before, -1))
            return
        self.just_played = True
        for i, t in enumerate(cards):
            last = i == len(cards) - 1
            named = view.color if last and colors[t] == C.NO_COLOR else -1
            self.turns.append((t, color_before, named))
            color_before = colors[t] if colors[t] != C.NO_COLOR else named

    def _read_events(self, view: View, cards: list[int], top: int, color: int, gained: int, plain: bool) -> None:
        """Add to :attr:`events` what the opponent did since this seat's last decision: it played
        ``cards`` and took ``gained`` unseen cards, its turn starting on ``top`` with ``color`` in
        play. Where this seat's action gave it an ordinary turn (``plain``) and what happened is
        clear, its turns are events: plays from its hand (every card but the last one giving the
        turn back, as with two players a Skip does); or a draw (a launcher press) and the drawn
        card kept; or a draw, the drawn card played, then plays from its hand; or plays from its
        hand, then a draw kept. Anything else (a penalty, a challenge, several cards taken) is
        the cards taken, then the cards played, with no turn."""
        colors = view.deck.color[view.side]
        kinds = view.deck.kind[view.side]
        events = self.events
        again = [KINDS[kinds[t]].again_with_two for t in cards]
        turns_back = all(again[:-1])
        pressed = view.rules.uses_launcher
        if not (plain and top >= 0 and color >= 0 and turns_back):
            shape = ""
        elif not cards:
            shape = "draw" if gained == 1 or (pressed and gained >= 0) else ""
        elif gained == 0:
            shape = "plays"
        elif gained == 1 and not pressed and len(cards) == 1 and not again[0]:
            shape = "draw, play it"
        elif gained == 1 and not pressed and again[-1] and view.decision != D.CHALLENGE:
            shape = "plays, draw"
        else:
            shape = ""
        if not shape:
            if gained:
                events.append((EV_GAIN, gained, 0, 0, 0))
            events.extend((EV_PLAY, t, 0, 0, 0) for t in cards)
            return
        if shape == "draw, play it":  # the drawn card goes straight down: no change to the hand
            events.append((EV_TURN, top, color, -1, -1))
            return
        for i, t in enumerate(cards):
            if color >= 0:
                named = view.color if i == len(cards) - 1 and colors[t] == C.NO_COLOR else -1
                events.append((EV_TURN, top, color, t, named))
            events.append((EV_PLAY, t, 0, 0, 0))
            top = t
            if colors[t] != C.NO_COLOR:
                color = colors[t]
            else:  # a wild that gave the turn back: the colour it named shows in the next card
                following = cards[i + 1] if i + 1 < len(cards) else -1
                color = colors[following] if following >= 0 and colors[following] != C.NO_COLOR else -1
        if shape in ("draw", "plays, draw") and color >= 0:
            events.append((EV_TURN, top, color, -1, -1))
            if gained:
                events.append((EV_GAIN, gained, 0, 0, 0))
            if not pressed:
                events.append((EV_KEEP, top, color, 0, 0))
        elif gained:
            events.append((EV_GAIN, gained, 0, 0, 0))

    def _read_named_color(
        self, view: View, reads: list[tuple[frozenset[int], int]], played: int, size: int
    ) -> list[tuple[frozenset[int], int]]:
        """``reads`` of the opponent with the read of its named colour kept, dropped or added."""
        named = self._named
        if named is not None:
            excluded, of_color = named
            if any(read == excluded for read, _ in reads) and not any(of_color <= read for read, _ in reads):
                return reads  # still covers the card it had not played yet
            self._named = None
            reads = [(read, count) for read, count in reads if read != excluded]
        deck = view.deck
        kinds = deck.kind[view.side]
        if played == 0 or size == 0 or not IS_WILD[kinds[view.top]]:
            return reads
        colors = deck.color[view.side]
        color = view.color
        of_color = frozenset(t for t in range(len(deck.types)) if not IS_WILD[kinds[t]] and colors[t] == color)
        if any(of_color <= read for read, _ in reads):
            return reads
        excluded = frozenset(t for t in range(len(deck.types)) if not IS_WILD[kinds[t]] and colors[t] != color)
        self._named = (excluded, of_color)
        return [*reads, (excluded, 1)]

    def acted(self, view: View, action: Action) -> None:
        """Remember this seat's decision, to read the next one against."""
        if view.players != 2 or view.deck.double_sided:
            return
        kinds = view.deck.kind[view.side]
        mine = 0
        plain = action.kind in (DRAW, KEEP, PRESS)
        color_after = view.color
        if action.kind == PLAY or action.kind == PLAY_DRAWN:
            card = action.card if action.kind == PLAY else _drawn_card(view)
            kind = kinds[card] if card >= 0 else -1
            mine = 1
            plain = 0 <= kind < C.SKIP or kind == C.WILD
            if kind >= 0 and KINDS[kind].discards:
                mine = -1  # more cards go down with it: nothing to read next time
            color = view.deck.color[view.side][card] if card >= 0 else C.NO_COLOR
            color_after = color if color != C.NO_COLOR else action.color
        if mine < 0:
            return
        opponent = 1 - view.seat
        self._last = (view.discard, mine, view.hand_sizes[opponent], plain, color_after)


#: The features of :func:`card_features`, in order: what the opponent's turns this round say
#: about one card type in its hand. "last" is its last turn, "earlier" any turn before that.
CARD_FEATURES = (
    "named last",  # its last turn was a wild naming the card's colour
    "named earlier",
    "left last",  # its last turn left the card's colour for another with a coloured card
    "left earlier",
    "wild on last",  # its last turn was a wild played on the card's colour
    "wild on earlier",
    "stayed last",  # its last turn was a card of the card's colour on that colour
    "drew on last",  # its last turn was a draw on the card's colour
    "drew on earlier",
    "played colour",  # its plays of the card's colour this round (at most 3)
    "wild, kept",  # a wild, times its plays this round over 8 (at most 1): a wild kept so far
    "wild, drew last",  # a wild, and its last turn was a draw
    "action, kept",  # a coloured action card, times its plays over 8 (at most 1)
    "wild, small hand",  # a wild, and it holds 2 cards or fewer
    "fits, one card",  # its last turn set the table and its one card would fit it (a wild fits)
    "fits, two cards",  # the same with two cards
)


#: The column of each of :data:`CARD_FEATURES`.
_COLUMN = {name: i for i, name in enumerate(CARD_FEATURES)}
#: Facts that hold for the last turn and for an earlier one: (last, earlier) columns.
_LAST_AND_EARLIER = tuple(
    (_COLUMN[f"{fact} last"], _COLUMN[f"{fact} earlier"]) for fact in ("named", "left", "wild on", "drew on")
)


def card_features(view: View, reads: Reads) -> list[tuple[float, ...]]:
    """For each card type of ``view``'s deck, the :data:`CARD_FEATURES` of that card in the
    opponent's hand, from ``reads.turns`` (2-player games)."""
    deck = view.deck
    colors = deck.color[view.side]
    kinds = deck.kind[view.side]
    turns = reads.turns
    width = len(CARD_FEATURES)
    # The facts about each colour; a card of that colour starts from its colour's row.
    per_color = [[0.0] * width for _ in range(1 + max(colors))]
    plays = 0
    for i, (card, before, named) in enumerate(turns):
        when = "last" if i == len(turns) - 1 else "earlier"
        if card < 0:
            if before >= 0:
                per_color[before][_COLUMN[f"drew on {when}"]] = 1.0
            continue
        plays += 1
        color = colors[card]
        if color == C.NO_COLOR:
            if named >= 0:
                per_color[named][_COLUMN[f"named {when}"]] = 1.0
            if before >= 0:
                per_color[before][_COLUMN[f"wild on {when}"]] = 1.0
            continue
        row = per_color[color]
        row[_COLUMN["played colour"]] = min(3.0, row[_COLUMN["played colour"]] + 1.0)
        if before >= 0 and before != color:
            per_color[before][_COLUMN[f"left {when}"]] = 1.0
        elif before == color and when == "last":
            row[_COLUMN["stayed last"]] = 1.0
    for row in per_color:  # a "last" fact is not also an "earlier" one
        for last, earlier in _LAST_AND_EARLIER:
            if row[last]:
                row[earlier] = 0.0
    kept = min(1.0, plays / 8)
    size = view.hand_sizes[1 - view.seat]
    # Whether the opponent's last turn put the top card down, and with how many cards left.
    one = 1.0 if reads.just_played and size == 1 else 0.0
    two = 1.0 if reads.just_played and size == 2 else 0.0
    wild = [0.0] * width
    wild[_COLUMN["wild, kept"]] = kept
    wild[_COLUMN["wild, drew last"]] = 1.0 if turns and turns[-1][0] < 0 else 0.0
    wild[_COLUMN["wild, small hand"]] = 1.0 if size <= 2 else 0.0
    wild[_COLUMN["fits, one card"]] = one
    wild[_COLUMN["fits, two cards"]] = two
    color, top_kind = view.color, kinds[view.top]
    out: list[tuple[float, ...]] = []
    for t in range(len(deck.types)):
        if IS_WILD[kinds[t]]:
            out.append(tuple(wild))
            continue
        row = list(per_color[colors[t]])
        if KINDS[kinds[t]].number < 0:
            row[_COLUMN["action, kept"]] = kept
        if colors[t] == color or (not IS_WILD[top_kind] and kinds[t] == top_kind):
            row[_COLUMN["fits, one card"]] = one
            row[_COLUMN["fits, two cards"]] = two
        out.append(tuple(row))
    return out


#: The log-weight of a card in the opponent's hand per unit of each of :data:`CARD_FEATURES`:
#: a logistic fit of which unseen cards the opponent held, at the turn decisions of 2-player
#: Classic hands between two ``ismcts`` bots (``scripts/fit_card_weights.py``).
CARD_TERMS = (
    0.543,
    0.107,
    -0.612,
    -0.092,
    -0.531,
    0.0,
    -0.206,
    -0.605,
    -0.161,
    -0.045,
    0.041,
    -0.077,
    0.656,
    -0.416,
    0.377,
    0.19,
)


def card_weights(view: View, reads: Reads, terms: tuple[float, ...] = CARD_TERMS) -> list[float]:
    """For each card type of ``view``'s deck, its weight in a weighted deal of the opponent's
    hand: ``exp(terms . card_features)``."""
    return [math.exp(sum(a * x for a, x in zip(terms, row, strict=True))) for row in card_features(view, reads)]


def _drawn_card(view: View) -> int:
    """The card this seat just drew (its ``play_or_keep`` decision), or -1."""
    text = view.pending().get("card")
    if not isinstance(text, str):
        return -1
    t = view.deck.type_id(text)
    return -1 if t is None else int(t)


@dataclass(frozen=True)
class ChoiceValue:
    """One choice at the root of a search: the ``action``, the iterations that took it and the
    mean reward they brought its seat: the seat's estimated chance to win the hand after it."""

    action: Action
    visits: int
    chance: float


@dataclass(frozen=True)
class Evaluation:
    """What a search (:meth:`IsmctsBot.evaluate`) says of a position, searched from ``seat``'s
    view: ``chances``, each seat's chance to win the hand (its mean reward over the
    ``iterations``; with ``teams=true`` its team's); ``choices``, where ``seat`` is to act, each
    of its choices with its chance, in the order of the legal actions; ``engine``, ``"kernel"``
    or ``"python"``."""

    seat: int
    chances: tuple[float, ...]
    choices: tuple[ChoiceValue, ...]
    iterations: int
    engine: str


#: The root choice of an out-of-turn search that lets the seat to act go on (no jump).
_WAIT = Action(ActionKind.KEEP, "wait")


def _pick(root: _Node, seat: int, choices: list[Action], c: float, rng: Rng) -> tuple[Action, _Node]:
    """The root choice of ``seat`` to walk in this iteration and its node: an untried choice at
    random, else the best by UCB1 (every choice is always available at the root)."""
    kids = root.children.setdefault(seat, {})
    untried = [a for a in choices if a not in kids]
    if untried:
        action = untried[rng.below(len(untried))] if len(untried) > 1 else untried[0]
        kids[action] = _Node()
        return action, kids[action]
    log_total = math.log(sum(kids[a].visits for a in choices) or 1)
    best = max(choices, key=lambda a: kids[a].wins / kids[a].visits + c * math.sqrt(log_total / kids[a].visits))
    return best, kids[best]


class _Node:
    """Statistics of the edge into this node, and its children by acting seat and action."""

    __slots__ = ("avail", "children", "visits", "wins")

    def __init__(self) -> None:
        self.visits = 0
        self.wins = 0.0
        self.avail = 1
        self.children: dict[int, dict[Action, _Node]] = {}


def searched_actions(actions: list[Action]) -> list[Action]:
    """The actions worth searching: no out-of-turn ``catch``/``uno`` (handled apart), and a
    play that leaves one card only in its form that declares UNO."""
    last = actions[-1].kind
    has_uno = False
    for a in actions:
        if a.uno:
            has_uno = True
            break
    if not has_uno and last != CATCH and last != UNO:
        return actions
    declared = {(a.kind, a.card, a.color) for a in actions if a.uno}
    return [
        a for a in actions if a.kind != CATCH and a.kind != UNO and (a.uno or (a.kind, a.card, a.color) not in declared)
    ]


class IsmctsBot(Bot):
    """Information-set MCTS over determinisations of the hidden cards.

    ``iterations``: tree iterations per decision; with a seed and an iteration budget the bot
    is deterministic. ``time_limit``: seconds per decision (then not reproducible); with both,
    the search stops at whichever comes first; with neither, the variant's budget in
    :data:`DEFAULT_ITERATIONS`. ``exploration``: the UCB1 constant.
    ``rollout_depth``: greedy decisions after the tree before the hand-strength model scores
    the position (``None``: play the hand out). ``read_draws``: use :class:`Reads`.
    ``house_rules=False`` never jumps in and plays for itself alone with ``teams=true``: only
    to measure what its handling of the house rules is worth (``scripts/bench_house_bots.py``).

    A decision with one sensible action is answered without search: a ``catch`` (never of its
    partner) or late ``uno`` whenever listed, and a play that leaves one card always declares
    UNO. Out of turn it always declares its own UNO and catches (the default
    :meth:`Bot.react`); a jump (``jump_in=true``) is searched against waiting.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        time_limit: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        rollout_depth: int | None = DEFAULT_ROLLOUT_DEPTH,
        read_draws: bool = True,
        house_rules: bool = True,
    ) -> None:
        super().__init__(seed)
        self.house_rules = house_rules
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if time_limit is not None and time_limit <= 0:
            raise ValueError(f"time_limit must be positive, not {time_limit}")
        if rollout_depth is not None and rollout_depth < 0:
            raise ValueError(f"rollout_depth must be 0 or more, not {rollout_depth}")
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        #: What it reads from the opponent's draws (2-player single-sided games), or None.
        self.reads: Reads | None = Reads() if read_draws else None
        #: Iterations run by the last search (0 when the decision needed none).
        self.last_iterations = 0

    def reset(self, seat: int) -> None:
        if self.reads is not None:
            self.reads.clear()

    def act(self, view: View) -> Action:
        reads = self.reads
        if reads is not None:
            reads.update(view)
        action = self._choose(view)
        if reads is not None:
            reads.acted(view, action)
        return action

    def react(self, view: View) -> Action | None:
        """Out of turn: a late UNO call or a catch (the default), else a jump (H-1) when the
        search prefers it to waiting; None lets the game go on."""
        action = super().react(view)
        if action is not None:
            return action
        jumps = [a for a in searched_actions(view.legal_actions()) if a.kind == PLAY]
        if not jumps or view.to_act is None or not self.house_rules:
            return None
        best = self.search(view, jumps)
        return None if best is _WAIT else best

    def _choose(self, view: View) -> Action:
        actions = view.legal_actions()
        partner = view.partner()
        for action in actions:
            if action.kind == UNO or (action.kind == CATCH and action.seat != partner):
                return action  # catching and a late UNO call never hurt
        choices = searched_actions(actions)
        self.last_iterations = 0
        if len(choices) == 1:
            return choices[0]
        best = self.search(view)
        by_key = {a.key: a for a in choices}
        return by_key.get(best.key, choices[0])

    # ------------------------------------------------------------------ search
    def search(self, view: View, out_of_turn: list[Action] | None = None) -> Action:
        """Run the search for ``view``'s open decision and return the most visited action.

        With ``out_of_turn`` (the seat's jumps, when it is not to act) the root's choices are
        those actions applied out of turn, and :data:`_WAIT`, letting the seat to act go on; the
        most visited of them is returned."""
        budget = self.iterations
        if budget is None and self.time_limit is None:
            budget = DEFAULT_ITERATIONS.get(view.variant) or DEFAULT_ITERATIONS.get(
                view.rules.family, min(DEFAULT_ITERATIONS.values())
            )
        root = self._grow(view, budget, out_of_turn)
        mine = root.children.get(view.seat, {})
        return max(mine.items(), key=lambda item: (item[1].visits, item[1].wins))[0]

    def evaluate(self, view: View, iterations: int) -> Evaluation:
        """What ``iterations`` iterations of the search say of ``view``'s position, from its seat
        (:class:`Evaluation`): each seat's chance to win the hand, and where the seat is to act,
        the chance after each of its choices (:func:`searched_actions`), every choice searched
        with an equal share of the iterations (not by UCB1, so that their values compare
        fairly). Uses the bot's RNG and reads, like a decision; the time limit does not apply."""
        totals = [0.0] * view.players
        root = self._grow(view, iterations, None, uniform_root=True, totals=totals, timed=False)
        done = self.last_iterations
        mine = root.children.get(view.seat, {}) if view.to_act == view.seat else {}
        choices = tuple(
            ChoiceValue(action, node.visits, node.wins / node.visits)
            for action in (searched_actions(view.legal_actions()) if mine else ())
            if (node := mine.get(action)) is not None and node.visits > 0
        )
        return Evaluation(view.seat, tuple(t / max(done, 1) for t in totals), choices, done, "python")

    def _grow(
        self,
        view: View,
        budget: int | None,
        out_of_turn: list[Action] | None,
        *,
        uniform_root: bool = False,
        totals: list[float] | None = None,
        timed: bool = True,
    ) -> _Node:
        """Grow the search tree of ``view``'s open decision for ``budget`` iterations (and the
        bot's time limit, when ``timed``) and return its root. With ``uniform_root`` the seat's
        choices at the root share the iterations equally (the choice of fewest visits, the first
        on a tie); ``totals`` adds up each seat's reward over the iterations."""
        seat = view.seat
        sampler = Determiniser(view, self.reads.voids if self.reads is not None else None)
        rng = self.rng
        root = _Node()
        c = self.exploration
        log = math.log
        sqrt = math.sqrt
        depth = self.rollout_depth
        deadline = None if self.time_limit is None or not timed else time.perf_counter() + self.time_limit
        done = 0
        while (budget is None or done < budget) and (deadline is None or done == 0 or time.perf_counter() < deadline):
            done += 1
            game = sampler.game(rng.next64(), rng.next64())
            node = root
            path: list[tuple[_Node, int]] = []
            if out_of_turn is not None:
                chosen_jump, node = _pick(root, seat, [*out_of_turn, _WAIT], c, rng)
                path.append((node, seat))
                if chosen_jump is not _WAIT:
                    game.apply(chosen_jump, seat)
            while not game.is_over:
                actor = game.turn
                acts = searched_actions(game.legal_actions())
                kids = node.children.get(actor)
                if kids is None:
                    kids = node.children[actor] = {}
                untried = [a for a in acts if a not in kids]
                if untried:
                    for a in acts:
                        child = kids.get(a)
                        if child is not None:
                            child.avail += 1
                    action = untried[rng.below(len(untried))] if len(untried) > 1 else untried[0]
                    node = kids[action] = _Node()
                    path.append((node, actor))
                    game.step(action)
                    break
                best_score = -1.0
                chosen = acts[0]
                if uniform_root and node is root and actor == seat:
                    fewest = -1
                    for a in acts:
                        child = kids[a]
                        child.avail += 1
                        if fewest < 0 or child.visits < fewest:
                            fewest = child.visits
                            chosen = a
                else:
                    for a in acts:
                        child = kids[a]
                        child.avail += 1
                        score = child.wins / child.visits + c * sqrt(log(child.avail) / child.visits)
                        if score > best_score:
                            best_score = score
                            chosen = a
                node = kids[chosen]
                path.append((node, actor))
                game.step(chosen)
            if depth is None:
                _rollout(game, rng)
            elif depth:
                _rollout(game, rng, depth)
            rewards = _rewards(game, self.house_rules)
            for child, actor in path:
                child.visits += 1
                child.wins += rewards[actor]
            if totals is not None:
                for s, reward in enumerate(rewards):
                    totals[s] += reward
        self.last_iterations = done
        return root


def hand_features(game: Game, seat: int) -> tuple[int, ...]:
    """The features of ``seat``'s hand besides its size, in the order of :data:`FEATURES`
    (active faces): wild cards, coloured draw cards, other action cards, whether the seat is to
    act, its coloured cards that match the colour in play or the top card's kind, and the number
    of colours among its coloured cards."""
    side = game.side
    kinds = game.deck.kind[side]
    colors = game.deck.color[side]
    color = game.color
    top_kind = kinds[game.discard[-1]] if game.discard else -1
    wilds = draws = actions = matching = 0
    held = 0
    for t in game.hands[seat]:
        k = kinds[t]
        if IS_WILD[k]:
            wilds += 1
            continue
        if _DRAW_KIND[k]:
            draws += 1
        elif KINDS[k].number < 0:
            actions += 1
        c = colors[t]
        held |= 1 << c
        if c == color or k == top_kind:
            matching += 1
    return (wilds, draws, actions, int(game.turn == seat), matching, held.bit_count())


def log_strength(game: Game, seat: int) -> float:
    """``seat``'s log-strength in the hand-strength model: :data:`HAND_SIZE_TERM` of its hand
    size plus :data:`FEATURE_TERMS` times :func:`hand_features`."""
    size = len(game.hands[seat])
    value = (
        HAND_SIZE_TERM[size]
        if size < len(HAND_SIZE_TERM)
        else HAND_SIZE_TERM[-1] + EXTRA_CARD_TERM * (size - len(HAND_SIZE_TERM) + 1)
    )
    for coef, feature in zip(FEATURE_TERMS, hand_features(game, seat), strict=True):
        value += coef * feature
    return value


def _rewards(game: Game, for_teams: bool = True) -> list[float]:
    """Each seat's reward: 1 shared among the hand's winners once it is over; before that,
    its chance to win estimated by the hand-strength model (:func:`log_strength`). With
    ``teams=true`` a seat's reward is its team's: 1 to both partners of a winning team, and
    before the end the sum of the partners' chances (H-6); ``for_teams=False`` rewards each
    seat alone (its share of a team's win)."""
    teams = game.teams if for_teams else ()
    if game.is_over:
        winners = game.winners
        share = 1.0 if teams else 1.0 / len(winners) if winners else 0.0
        return [share if s in winners else 0.0 for s in range(game.n)]
    logs = [log_strength(game, s) for s in range(game.n)]
    top = max(logs)
    weights = [math.exp(v - top) for v in logs]
    total = sum(weights)
    chances = [w / total for w in weights]
    if teams:
        n = game.n
        return [chances[s] + chances[partner(s, n)] for s in range(n)]
    return chances


def _rollout(game: Game, rng: Rng, limit: int = 1 << 62) -> None:
    """Play on with a cheap greedy policy for every seat, for at most ``limit`` decisions or to
    the end of the hand: play a card whenever one is playable (with UNO; coloured cards before
    wilds, wilds naming the colour held most), play a drawn card, accept Wild Draws, stop
    pressing, trade with the smallest hand."""
    legal = game.legal_actions
    step = game.step
    below = rng.below
    while limit > 0 and not game.is_over:
        limit -= 1
        actions = legal()
        decision = game.decision
        seat = game.turn
        if decision is D.TURN or decision is D.STACK or decision is D.PLAY_OR_KEEP:
            best: list[Action] = []
            rank = 0
            wild_color = -2
            for a in actions:
                if a.kind == PLAY or a.kind == PLAY_DRAWN:
                    if a.color >= 0:
                        if wild_color == -2:
                            wild_color = most_held_color(game.hands[seat], game.deck.color[game.side], game.side)
                        if a.color != wild_color:
                            continue
                        r = 3 if a.uno else 1
                    else:
                        r = 4 if a.uno else 2
                elif a.kind == CATCH and not (game.options.teams and a.seat == partner(seat, game.n)):
                    r = 5
                else:
                    continue
                if r > rank:
                    rank = r
                    best = [a]
                elif r == rank:
                    best.append(a)
            if not best:
                step(actions[-1] if actions[-1].kind != CATCH else actions[-2])
                continue
            step(best[below(len(best))] if len(best) > 1 else best[0])
            continue
        if decision is D.CHOOSE_COLOR:
            wanted = most_held_color(game.hands[seat], game.deck.color[game.side], game.side)
            for a in actions:
                if a.color == wanted:
                    step(a)
                    break
            else:  # pragma: no cover - every colour of the side is listed
                step(actions[0])
            continue
        if decision is D.CHOOSE_PLAYER or decision is D.CHOOSE_TARGET:
            hands = game.hands
            mate = partner(seat, game.n) if game.options.teams else -1
            step(
                min(
                    (a for a in actions if a.kind is TRADE or a.kind is TARGET),
                    key=lambda a: (a.seat == mate, len(hands[a.seat])),
                )
            )
            continue
        if decision is D.CHOOSE_DISCARD or decision is D.DISCARD_CARDS:
            unos = [a for a in actions if a.uno]
            pool = unos or [a for a in actions if a.kind != CATCH and a.kind != UNO]
            step(pool[below(len(pool))])
            continue
        # challenge: accept; press_your_luck: stop.
        for a in actions:
            if a.kind in _KEEPING:
                step(a)
                break
        else:  # pragma: no cover
            step(actions[0])
