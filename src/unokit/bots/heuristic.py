"""The ``heuristic`` bot: strong rule-based play from what one seat may see (a View).

Every decision scores its candidate actions in *card equivalents* (one card shed is worth 1)
and takes the best; ties go to the first listed action, and the bot's RNG is not used, so its
play is a pure function of the view (and of what it remembered from earlier views of the hand).

What it knows, and how:

* **Card counting.** The cards it cannot see (the *unseen pool*) are the deck less its own hand
  and the discard pile, which every player saw being played. An opponent's hand is treated as a
  sample of that pool, so the chance that a seat holds a playable card, or a card of a colour,
  follows from the counts (a hypergeometric draw).
* **Reading Flip backs.** On UNO Flip and Flip Attack the back of every card in another hand is
  visible. The pairing of faces (``deck.back_class``) tells which fronts a back can hide, so each
  of the opponent's cards gets its own distribution over the few fronts that fit, weighted by how
  many of them are still unseen. After a Flip those backs become the active faces, which the bot
  therefore knows exactly when it considers playing a Flip.
* **Voids.** Between two of its decisions the bot sees what was played (the discard pile grows)
  and who took cards. A player who drew instead of playing probably holds nothing of the colour
  and symbol it faced, and no wild; one who played a plain wild probably had nothing else; one who
  played a Wild Draw card probably held none of the previous colour; one who just went down to
  its last card probably kept the card that did not fit. These beliefs (``VOID_BELIEF``,
  ``KEPT_BELIEF``) fade with every card the player takes afterwards and vanish when it plays
  the colour.

How it plays:

* **Turn.** Each play is scored by the card it sheds (Discard All: every card it takes along), the
  harm it does to the player it hits (cards drawn or pressed, the lost turn), weighted by how close
  that player is to going out, the chance that the next player cannot follow the colour and symbol
  it leaves (it then takes a card instead of shedding one), the chance that its own hand cannot
  follow on its next turn, and the value of keeping the card instead (wilds are kept for when
  nothing else fits, draw cards for a player close to UNO, and with two players a card that
  gives the turn back for the end). In two-player games and after Skip Everyone it looks ahead
  through the turns it gets back, so it spots a run of plays that empties its hand. Drawing is
  scored the same way, so it draws when no play is worth more, typically to keep its last wild
  while the others are far from going out.
* **Wild colours** go to the colour it holds most, away from colours the next player is likely to
  hold.
* **Challenges** compare the counted chance that the player of the Wild Draw card still holds a card
  of the previous colour (tempered by a prior that most players do not bluff) with the cost of a
  failed challenge.
* **Press Your Luck** presses again while the expected gain (one card discarded, or going out) beats
  the expected loss (the cards a fire ejects plus the discards taken back), with the chance to fire
  taken from the launcher model's public state (``FIRE_HAZARD`` and ``CARDS_PER_FIRE_WEIGHTS`` for
  ``random``, the known firing pattern for ``pattern``).
* It always declares UNO with its play and catches every player who forgets.

The house rules (``docs/rules/house_rules.md``) change what some plays are worth, and the bot
weighs them with the same scale:

* **Jump-In** (H-1): out of turn it jumps with an identical card when the jump scores better
  than letting the seat to act go on (the shed card, the effect on the player after it, the
  turns it skips), as a play on its own turn would be scored.
* **Seven-O** (H-2): a 7 is worth the cards it trades away (its victim, chosen the same way, is
  the opponent with the smallest hand, weighted by how close to going out each is); a 0 is
  worth what every seat gains or loses when the hands pass on.
* **Stacking** (H-3): a stacked draw is answered whenever an answer scores better than taking
  the total, also in a challenge decision where a Wild Draw card may be passed on.
* **Draw until playable** (H-4): drawing costs the cards expected until one fits (where the
  back of the draw pile's top card says nothing of it: Classic).
* **Partners** (H-6): harm to the partner counts against a play, the partner's chances to
  follow count for it, it never catches its partner and never swaps hands with it unless the
  rule forces a swap and every other swap is worse.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from ..core import cards as C
from ..core.actions import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    COLOR,
    KEEP,
    PLAY,
    PRESS,
    PRESS_AGAIN,
    STOP,
    TARGET,
    TRADE,
    UNO,
    Action,
)
from ..core.kinds import IS_WILD, KINDS
from ..core.launcher import CARDS_PER_FIRE_WEIGHTS, FIRE_HAZARD, FIRE_PATTERN, PATTERN_LENGTH
from ..core.observation import View
from ..core.types import DecisionKind as D
from .base import Bot, most_held_color

#: Whether each kind is wild, from the card-kind table (what cards do is read from KINDS).
_WILD = IS_WILD
#: A key of the void beliefs: no wild held (beside colours and KIND_KEY + kind).
WILD = C.WILD


#: How much a wild is worth keeping when a card must be discarded (Wild Press Your Luck).
_DISCARD_KEEP = {
    C.WILD: 1.6,
    C.WILD_DRAW_FOUR: 1.4,
    C.WILD_DRAW_TWO: 1.3,
    C.WILD_DRAW_COLOR: 1.6,
    C.WILD_ALL_HIT: 1.4,
    C.WILD_HIT_FIRE: 1.6,
    C.WILD_PRESS_YOUR_LUCK: 1.2,
    C.WILD_ALL_OUT_ATTACK: 1.6,
    C.WILD_DISCARD_ALL: 1.2,
}

# Weights of the turn evaluation (card equivalents).
TURN_LOSS = 0.8  # a lost turn, for the player who loses it
THREAT_SCALE = 5.0  # harm to a player with n cards counts 1 + THREAT_SCALE / n ** THREAT_POWER times
THREAT_POWER = 2.0
BLOCK = 0.7  # the next player cannot follow: they draw instead of shedding
FOLLOW = 0.35  # my own hand follows the colour I leave (within a run of extra turns)
STUCK = 1.0  # I cannot play on my next turn (I draw instead of shedding)
DRAWN_PLAY = 0.8  # a drawn card that fits is played at once
SAME_COLOR = 0.6  # chance that the colour I leave is still in play on my next turn
DRAW_COST = 1.3  # drawing a card instead of playing one
GO_OUT = 1000.0
BLUFF_PRIOR = 0.05  # odds of a Wild Draw card being a bluff, relative to a blind guess
CHALLENGE_RISK = 0.3  # chance that my own bluff is challenged
MAX_DEPTH = 3  # extra turns looked through
KEEP_WILD = 2.0  # holding a wild: a play for when nothing else fits
KEEP_COLORED = 0.5  # chance that a coloured card is still playable when it is most useful
KEEP_TEMPO = 0.5  # two players: a card that gives the turn back, kept for the end
KEEP_ATTACK = 1.0  # share of an attack's harm at its best moment counted as the value of keeping it
KEEP_HAND = 4.0  # holding is worth less with fewer cards than this left
VOID_BELIEF = 0.7  # belief that a player who drew instead of playing holds no card of the colour
VOID_FADE = 0.75  # how much of a colour void belief survives each card the player takes later
KEPT_BELIEF = 0.4  # the same belief about the last card of a player who just played its second-to-last
RARE_FADE = 0.92  # the same for a symbol or for holding no wild
KIND_KEY = 100  # void beliefs are keyed by colour, KIND_KEY + kind, or WILD_KEY
WILD_KEY = 200


def threat(cards: int) -> float:
    """How much harm to a player with ``cards`` cards is worth: more the closer they are to out."""
    scale: float = float(max(cards, 1)) ** THREAT_POWER
    return 1.0 + THREAT_SCALE / scale


def _no_match(hand: int, matching: float, pool: float) -> float:
    """Chance that ``hand`` cards drawn from ``pool`` cards hold none of ``matching`` ones."""
    if hand <= 0 or matching <= 0:
        return 1.0
    p = 1.0
    rest = pool - matching
    for i in range(hand):
        if pool - i <= 0 or rest - i <= 0:
            return 0.0
        p *= (rest - i) / (pool - i)
    return p


class _Tables:
    """Per deck: the types sharing each back class, for reading Flip backs."""

    def __init__(self, deck: Any) -> None:
        self.deck = deck
        n = len(deck.types)
        self.members: tuple[dict[int, list[int]], dict[int, list[int]]] = ({}, {})
        for side in (0, 1):
            for t in range(n):
                self.members[side].setdefault(deck.back_class[side][t], []).append(t)


#: The tables of the decks used last, by deck identity (a few: games with
#: ``pairing="random"`` each have a deck of their own).
_TABLES: OrderedDict[int, _Tables] = OrderedDict()
_TABLES_KEPT = 8


def _tables(deck: Any) -> _Tables:
    tables = _TABLES.get(id(deck))
    if tables is None or tables.deck is not deck:
        tables = _TABLES[id(deck)] = _Tables(deck)
        if len(_TABLES) > _TABLES_KEPT:
            _TABLES.popitem(last=False)
    else:
        _TABLES.move_to_end(id(deck))
    return tables


class _Ctx:
    """What one decision needs, computed once from the view."""

    def __init__(self, bot: HeuristicBot, view: View) -> None:
        self.view = view
        self.me = view.seat
        self.n = view.players
        self.side = side = view.side
        deck = view.deck
        self.deck = deck
        self.colors: tuple[int, ...] = deck.color[side]
        self.kinds: tuple[int, ...] = deck.kind[side]
        self.hand = view.hand
        self.sizes = view.hand_sizes
        self.direction = view.direction
        self.color = view.color
        self.discard = view.discard
        self.top = self.discard[-1]
        self.top_kind = self.kinds[self.top]
        self.double = deck.double_sided
        self.launcher = view.rules.uses_launcher
        self.points = view.rules.card_points
        self.scoring = view.options.rounds != 1
        self.voids = bot.voids
        self.options = view.options
        self.house = bot.house_rules
        #: +1 for an opponent, -1 for the partner (teams=true): harm to a seat counts with it.
        partner = view.partner() if self.house else None
        self.sign = [1.0 if s != partner else -1.0 for s in range(self.n)]
        unseen = list(deck.counts)
        for t in self.hand:
            unseen[t] -= 1
        for t in self.discard:
            unseen[t] -= 1
        self.unseen = [max(u, 0) for u in unseen]
        self.pool = sum(self.unseen)
        self._fire: float | None = None
        self._launcher_state: dict[str, Any] | None = None
        self._match_cache: dict[tuple[int, int, int, int], float] = {}

    # --- seats ---------------------------------------------------------------------
    def next_seat(self, seat: int, steps: int = 1, direction: int | None = None) -> int:
        d = self.direction if direction is None else direction
        return (seat + d * steps) % self.n

    # --- the launcher --------------------------------------------------------------
    def launcher_state(self) -> dict[str, Any]:
        if self._launcher_state is None:
            self._launcher_state = dict(self.view.launcher or {})
        return self._launcher_state

    def fire_chance(self, presses_before: int = 0) -> float:
        """Chance that the next press (after ``presses_before`` more empty ones) fires."""
        state = self.launcher_state()
        model = state.get("model")
        if model == "one_card":
            return 1.0
        if model == "pattern":
            index = int(state.get("index", 0)) + presses_before
            return 1.0 if index % PATTERN_LENGTH + 1 in FIRE_PATTERN else 0.0
        streak = int(state.get("empty_streak", 1)) + presses_before
        return FIRE_HAZARD[min(streak, 3)]

    def fire_size(self) -> float:
        """Expected cards a fire ejects (at most what the launcher holds)."""
        if self.launcher_state().get("model") == "one_card":
            return 1.0
        left = self.view.draw_size or self.pool
        total = sum(CARDS_PER_FIRE_WEIGHTS)
        return sum(min(k, left) * w for k, w in enumerate(CARDS_PER_FIRE_WEIGHTS, start=1)) / total

    def press_cards(self) -> float:
        """Expected cards one press ejects, averaged over the next few presses."""
        if self._fire is None:
            self._fire = 0.5 * (self.fire_chance() + 0.36) * self.fire_size()
        return self._fire

    # --- what opponents hold ------------------------------------------------------------
    def matches(self, t: int, color: int, kind: int) -> bool:
        k = self.kinds[t]
        return _WILD[k] or self.colors[t] == color or k == kind

    def p_play(self, seat: int, color: int, kind: int, side: int | None = None) -> float:
        """Chance that ``seat`` holds a card it can play on ``color``/``kind`` (on ``side``)."""
        size = self.sizes[seat]
        if size == 0:
            return 0.0
        side = self.side if side is None else side
        key = (seat, color, kind, side)
        cached = self._match_cache.get(key)
        if cached is not None:
            return cached
        colors = self.deck.color[side]
        kinds = self.deck.kind[side]
        if side != self.side:
            # The seat's faces on the other side are the backs this seat sees: known exactly.
            hit = any(_WILD[kinds[b]] or colors[b] == color or kinds[b] == kind for b in self.view.backs(seat))
            p = 1.0 if hit else 0.0
        elif self.double:
            p = 1.0 - self._no_match_backs(seat, color, kind)
        else:
            # Three kinds of card fit: the colour, the symbol (in another colour), a wild. Each
            # is missing from the hand by chance (a hypergeometric draw from the unseen pool) or
            # because the seat showed it had none (a void belief).
            in_color = in_kind = wilds = 0
            for t, u in enumerate(self.unseen):
                if u:
                    k = kinds[t]
                    if _WILD[k]:
                        wilds += u
                    elif colors[t] == color:
                        in_color += u
                    elif k == kind:
                        in_kind += u
            beliefs = self.voids.get(seat, {})
            pool = self.pool
            none = 1.0
            for count, belief in (
                (in_color, beliefs.get(color, 0.0)),
                (in_kind, beliefs.get(KIND_KEY + kind, 0.0)),
                (wilds, beliefs.get(WILD_KEY, 0.0)),
            ):
                if count:
                    none *= belief + (1.0 - belief) * _no_match(size, count, pool)
            p = 1.0 - none
        self._match_cache[key] = p
        return p

    def _no_match_backs(self, seat: int, color: int, kind: int) -> float:
        members = _tables(self.deck).members[1 - self.side]
        colors = self.colors
        kinds = self.kinds
        unseen = self.unseen
        counts = self.deck.counts
        none = 1.0
        for b in self.view.backs(seat):
            group = members.get(b, ())
            total = 0.0
            hit = 0.0
            for t in group:
                w = unseen[t] or 0.01 * counts[t]
                total += w
                k = kinds[t]
                if _WILD[k] or colors[t] == color or k == kind:
                    hit += w
            if total > 0:
                none *= 1.0 - hit / total
        return none

    def p_holds_color(self, seat: int, color: int) -> float:
        """Chance that ``seat`` holds at least one card whose active face has ``color``."""
        size = self.sizes[seat]
        if size == 0 or color < 0:
            return 0.0
        if self.double:
            members = _tables(self.deck).members[1 - self.side]
            none = 1.0
            for b in self.view.backs(seat):
                total = hit = 0.0
                for t in members.get(b, ()):
                    w = self.unseen[t] or 0.01 * self.deck.counts[t]
                    total += w
                    if self.colors[t] == color:
                        hit += w
                if total > 0:
                    none *= 1.0 - hit / total
            return 1.0 - none
        matching = sum(u for t, u in enumerate(self.unseen) if self.colors[t] == color)
        p = 1.0 - _no_match(size, matching, self.pool)
        return (1.0 - self.voids.get(seat, {}).get(color, 0.0)) * p


class HeuristicBot(Bot):
    """Strong rule-based play from the View only (see the module docstring).

    ``house_rules=False`` plays as if the house rules made no difference (no jumps, a swap with
    the smallest hand, partners treated as opponents, stacked Wild Draws never passed on,
    drawing priced as one card): only to measure what the bot's handling of them is worth
    (``scripts/bench_house_bots.py``).

    ``slips`` (0 to 1) is the chance that a decision with a choice is answered by a random
    legal action instead of by the scores (it may miss a card that fits, name a colour at
    random, challenge at random; it still calls UNO, since forgetting is a habit of people's
    games, :mod:`unokit.bots.habits`, not a matter of strength): a weaker player with the same
    memory (the ``beginner`` and ``easy`` levels). Slips are drawn from the bot's RNG; with
    ``slips=0`` (the default) the RNG is never used."""

    name = "heuristic"

    def __init__(self, seed: int = 0, house_rules: bool = True, slips: float = 0.0) -> None:
        super().__init__(seed)
        if not 0.0 <= slips <= 1.0:
            raise ValueError(f"slips is a chance from 0 to 1, not {slips}")
        self.house_rules = house_rules
        self.slips = slips
        self.seat = 0
        #: voids[seat][key]: belief that ``seat`` holds no card of a colour (key: the colour), of a
        #: symbol (KIND_KEY + kind) or no wild (WILD_KEY).
        self.voids: dict[int, dict[int, float]] = {}
        self.players = 2
        self._last: tuple[int, int, int, int, list[int], int, int] | None = None

    def reset(self, seat: int) -> None:
        self.seat = seat
        self.voids = {}
        self._last = None

    # ------------------------------------------------------------------ entry points
    def act(self, view: View) -> Action:
        actions = view.legal_actions()
        partner = view.partner()
        for action in actions:
            if action.kind == UNO or (action.kind == CATCH and action.seat != partner):
                return action
        self._track(view)
        ctx = _Ctx(self, view)
        decision = view.decision
        if decision in (D.TURN, D.STACK):
            choice = self._turn(ctx, actions)
        elif decision == D.PLAY_OR_KEEP:
            choice = self._play_or_keep(ctx, actions)
        elif decision == D.CHALLENGE:
            choice = self._challenge(ctx, actions)
        elif decision == D.CHOOSE_COLOR:
            choice = self._choose_color(ctx, actions)
        elif decision == D.CHOOSE_PLAYER and not self.house_rules:
            choice = min((a for a in actions if a.kind == TRADE), key=lambda a: (ctx.sizes[a.seat], a.seat))
        elif decision == D.CHOOSE_PLAYER:
            # Swap with the hand that gains the most (the smallest opponent's, H-2, H-6).
            mine = len(ctx.hand)
            sizes = ctx.sizes
            trades = [a for a in actions if a.kind == TRADE]
            choice = max(trades, key=lambda a: (_swap_value(ctx, mine, a.seat), -sizes[a.seat], -a.seat))
        elif decision == D.CHOOSE_TARGET:
            # Challenge the opponent closest to going out.
            sizes = ctx.sizes
            targets = [a for a in actions if a.kind == TARGET]
            choice = min(targets, key=lambda a: (ctx.sign[a.seat] < 0, sizes[a.seat], a.seat))
        elif decision == D.PRESS_YOUR_LUCK:
            choice = self._press_your_luck(ctx, actions)
        elif decision in (D.CHOOSE_DISCARD, D.DISCARD_CARDS):
            choice = self._choose_discard(ctx, actions)
        else:  # pragma: no cover - every decision kind is handled above
            choice = actions[0]
        if self.slips > 0:
            options = _prefer_uno(actions)  # a slip never leaves out the UNO call: that is a habit
            if len(options) > 1 and self.rng.random() < self.slips:
                choice = options[self.rng.below(len(options))]
        self._remember(view, choice)
        return choice

    def react(self, view: View) -> Action | None:
        """Out of turn: a late UNO call, a catch (never of the partner), or a jump (H-1) when
        it scores better than waiting."""
        action = super().react(view)
        if action is not None:
            return action
        jumps = _prefer_uno([a for a in view.legal_actions() if a.kind == PLAY]) if self.house_rules else []
        if not jumps or view.to_act is None:
            return None
        ctx = _Ctx(self, view)
        wait = self._after(ctx, ctx.hand, ctx.color, ctx.top_kind, view.to_act, MAX_DEPTH)
        best = max(jumps, key=lambda a: self._play_score(ctx, a.card, a.color, ctx.hand))
        if self._play_score(ctx, best.card, best.color, ctx.hand) <= wait:
            return None
        self._last = None  # the pile changed by this seat's own card: nothing to read next time
        return best

    # ------------------------------------------------------------------ memory between decisions
    def _track(self, view: View) -> None:
        """Update the void beliefs from what happened since this seat's previous decision."""
        last = self._last
        self._last = None
        if last is None:
            return
        round_number, side, color, kind, sizes, pile, nxt = last
        if view.round_number != round_number or view.side != side:
            self.voids = {}
            return
        now = view.hand_sizes
        for seat, size in enumerate(now):
            beliefs = self.voids.get(seat)
            if seat != self.seat and beliefs and size > sizes[seat]:
                taken = size - sizes[seat]  # new cards may hold what was missing
                for key in beliefs:
                    beliefs[key] *= (VOID_FADE if key < KIND_KEY else RARE_FADE) ** taken
        discard = view.discard
        if len(discard) < pile or nxt == self.seat:
            return  # reshuffled (the pile no longer tells what was played), or nobody else moved
        played = discard[pile:]
        if self.players == 2:
            # Only the opponent acted: it took ``drew`` cards and played ``played``.
            drew = now[nxt] - sizes[nxt] + len(played)
            colors = view.deck.color[side]
            kinds = view.deck.kind[side]
            beliefs = self.voids.setdefault(nxt, {})
            if len(played) > 1 or (played and KINDS[kinds[played[0]]].again_with_two):
                pass  # several turns in a row: whatever it drew, it faced another colour by then
            elif drew > 0:
                self._void(nxt, color, kind, wild=True)  # it drew instead of playing
            elif played:
                first = played[0]
                if kinds[first] == C.WILD:
                    self._void(nxt, color, kind, wild=False)  # a wild, kept for when stuck
                elif KINDS[kinds[first]].challengeable:
                    self._void(nxt, color, WILD, wild=False)  # most players play it fairly
                else:
                    if colors[first] == color:
                        beliefs.pop(color, None)
                    else:
                        beliefs.pop(KIND_KEY + kinds[first], None)
                    if now[nxt] == 1 and KEPT_BELIEF:
                        # Its last card is the one it did not play: had it fitted too, it
                        # might as well have been played, so it more likely did not fit.
                        for key in (color, KIND_KEY + kind):
                            beliefs[key] = max(beliefs.get(key, 0.0), KEPT_BELIEF)
            if played and _WILD[kinds[played[-1]]] and view.color >= 0:
                beliefs.pop(view.color, None)  # it named a colour for its wild: it holds some
            return
        # The next player took exactly one card: it drew on its turn instead of playing.
        if nxt != self.seat and now[nxt] == sizes[nxt] + 1:
            self._void(nxt, color, kind, wild=True)

    def _void(self, seat: int, color: int, kind: int, wild: bool) -> None:
        """``seat`` showed it could not follow ``color``/``kind`` (nor had a wild, if ``wild``)."""
        beliefs = self.voids.setdefault(seat, {})
        keys = [color, KIND_KEY + kind] if not _WILD[kind] else [color]
        if wild:
            keys.append(WILD_KEY)
        for key in keys:
            if key >= 0:
                beliefs[key] = max(beliefs.get(key, 0.0), VOID_BELIEF)

    def _remember(self, view: View, choice: Action) -> None:
        """Remember what this seat leaves to the next player, when that is clear."""
        decision = view.decision
        self.players = view.players
        direction = view.direction
        pile = len(view.discard)
        kinds = view.deck.kind[view.side]
        colors = view.deck.color[view.side]
        kind = kinds[view.top]
        if choice.kind == PLAY and decision == D.TURN:
            kind = kinds[choice.card]
            if kind < 10 or kind == C.WILD or kind == C.DISCARD_ALL or (kind == C.REVERSE and view.players > 2):
                if kind == C.REVERSE:
                    direction = -direction
                color = choice.color if _WILD[kind] else colors[choice.card]
                pile += 1
                if kind == C.DISCARD_ALL:
                    pile += sum(1 for t in view.hand if colors[t] == color) - 1
            else:
                return
        elif choice.kind == KEEP or (decision == D.TURN and choice.kind not in (PLAY, PRESS)):
            color = view.color  # a draw: kept, or followed by play_or_keep (which overrides this)
        elif choice.kind == COLOR and view.pending().get("then") != view.seat:
            color = choice.color
        else:
            return
        nxt = (view.seat + direction) % view.players
        self._last = (view.round_number, view.side, color, kind, view.hand_sizes, pile, nxt)

    # ------------------------------------------------------------------ turn
    def _turn(self, ctx: _Ctx, actions: list[Action]) -> Action:
        best: Action | None = None
        best_score = -1e9
        plays = _prefer_uno(actions)
        for action in plays:
            if action.kind == PLAY:
                score = self._play_score(ctx, action.card, action.color, ctx.hand)
            else:  # draw or press
                score = self._draw_score(ctx, ctx.hand, ctx.color, ctx.top_kind)
            if score > best_score:
                best, best_score = action, score
        assert best is not None
        return best

    def _draw_score(self, ctx: _Ctx, hand: list[int], color: int, kind: int, depth: int = 0) -> float:
        """Score of drawing (or pressing) on ``color``/``kind`` with ``hand``."""
        if ctx.view.decision == D.STACK and depth == 0:
            cost = ctx.view.stack_total + TURN_LOSS
        elif ctx.launcher:
            cost = ctx.press_cards() + 0.3
        else:
            cost = DRAW_COST
            back = ctx.view.draw_top_back if depth == 0 else None
            if back is not None:
                fronts = _tables(ctx.deck).members[1 - ctx.side].get(back, [back])
                total = sum(ctx.unseen[t] or 0.01 for t in fronts)
                fit = sum(ctx.unseen[t] or 0.01 for t in fronts if ctx.matches(t, color, kind))
                cost -= DRAWN_PLAY * fit / total
            else:
                fit = sum(u for t, u in enumerate(ctx.unseen) if u and ctx.matches(t, color, kind))
                if ctx.house and ctx.options.draw_until_playable:  # the cards expected until one fits (H-4)
                    cost = DRAW_COST * min(max(ctx.pool, 1) / max(fit, 1), 10.0) - DRAWN_PLAY
                else:
                    cost -= DRAWN_PLAY * fit / max(ctx.pool, 1)
        return -cost + self._after(ctx, hand, color, kind, ctx.next_seat(ctx.me), MAX_DEPTH)

    def _after(self, ctx: _Ctx, hand: list[int], color: int, kind: int, nxt: int, depth: int) -> float:
        """Value of the position where ``nxt`` moves on ``color``/``kind`` and I hold ``hand``."""
        if nxt != ctx.me:
            return _facing(ctx, nxt, color, kind) - STUCK * _stuck(ctx, hand, color, kind)
        if depth >= MAX_DEPTH:
            return FOLLOW * min(_follow(ctx, hand, color, kind), 2)
        kinds = ctx.kinds
        colors = ctx.colors
        best = self._draw_score(ctx, hand, color, kind, depth + 1)
        for x in set(hand):
            kx = kinds[x]
            if _WILD[kx]:
                if KINDS[kx].discards:
                    continue
                named = most_held_color(hand, colors, ctx.side)  # the wild itself has no colour
            elif colors[x] == color or kx == kind:
                named = -1
            else:
                continue
            best = max(best, self._play_score(ctx, x, named, hand, depth + 1))
        return best

    def _play_score(self, ctx: _Ctx, t: int, named: int, hand: list[int], depth: int = 0) -> float:
        """Score of playing card ``t`` (naming ``named`` for a wild) from ``hand``."""
        kinds = ctx.kinds
        colors = ctx.colors
        k = kinds[t]
        me = ctx.me
        n = ctx.n
        after = list(hand)
        after.remove(t)
        shed = 1.0
        card = KINDS[k]
        if card.discards:
            gone_color = colors[t] if card.discards == "own" else named
            gone = [x for x in after if colors[x] == gone_color]
            for x in gone:
                after.remove(x)
            shed += len(gone)
        if not after:
            return GO_OUT - depth
        score = shed
        if ctx.scoring:
            score += 0.004 * ctx.points(k)
        if k == C.FLIP and ctx.double:
            return score + self._flip_value(ctx, after)
        if k == C.TRADE_HANDS:
            return score + self._trade_value(ctx, after)
        if ctx.house and ctx.options.seven_o and k in (7, 0) and card.is_number:
            if k == 7:
                return score + max(_swap_value(ctx, len(after), s) for s in range(n) if s != me)
            score += _pass_value(ctx, len(after))
        res_color = named if _WILD[k] else colors[t]
        # Who is hit, who plays next, and whether the turn comes straight back.
        victim = ctx.next_seat(me)
        nxt = victim
        again = False
        if card.reverses:
            if n == 2:
                again = True
            else:
                nxt = ctx.next_seat(me, direction=-ctx.direction)
        elif card.plays_again:
            again = True
        elif card.skips:
            if n == 2:
                again = True
            else:
                nxt = ctx.next_seat(me, 2)
        # Harm done now, against keeping the card for a better moment.
        inflicted = self._inflicted(ctx, k, named)
        harm = 0.0
        sign = ctx.sign
        if card.plays_again:
            if n > 2:
                harm = sum(sign[s] * TURN_LOSS * threat(ctx.sizes[s]) for s in range(n) if s != me) / (n - 1)
        elif card.hits_all:
            harm = sum(sign[s] * threat(ctx.sizes[s]) * ctx.press_cards() for s in range(n) if s != me)
        elif inflicted or card.skips:
            lost = TURN_LOSS if n > 2 and card.skips else 0.0
            harm = sign[victim] * threat(ctx.sizes[victim]) * (inflicted + lost)
            if inflicted and ctx.view.options.stacking and not ctx.launcher and card.stackable:
                harm *= 0.7  # may be passed on
        score += harm - self._keep_value(ctx, k, inflicted, victim, len(after))
        # A bluffed Wild Draw card may be challenged.
        if (
            card.challengeable
            and depth == 0
            and ctx.view.options.bluffing
            and any(colors[x] == ctx.color for x in after)
        ):
            score -= CHALLENGE_RISK * (inflicted + harm + 1.0)
        if k == C.WILD_PRESS_YOUR_LUCK:
            score += 0.3 * (1.0 - ctx.fire_chance())
        # What follows: my own extra turn, or the next player facing what I leave.
        return score + self._after(ctx, after, res_color, k, me if again else nxt, depth)

    def _keep_value(self, ctx: _Ctx, k: int, inflicted: float, victim: int, left: int) -> float:
        """What holding a card of kind ``k`` (that makes its victim draw ``inflicted`` cards)
        for later is worth: a wild always fits somewhere; an attack hurts most when its victim
        is close to going out; in two-player games a card that gives the turn back can end the
        round in one go."""
        wild = _WILD[k]
        later = 1.0 if wild else KEEP_COLORED
        value = KEEP_WILD if wild else 0.0
        if inflicted:
            lost_turn = TURN_LOSS if ctx.n > 2 and KINDS[k].skips else 0.0
            value += KEEP_ATTACK * later * (inflicted + lost_turn) * threat(min(ctx.sizes[victim], 2))
        if ctx.n == 2 and KINDS[k].again_with_two:
            value += later * KEEP_TEMPO
        return value * min(1.0, left / KEEP_HAND)

    def _inflicted(self, ctx: _Ctx, k: int, named: int) -> float:
        card = KINDS[k]
        if card.victim != "next":
            return 0.0  # only what the next player takes is counted here
        if card.draws:
            return float(card.draws)
        if card.presses:
            return card.presses * ctx.press_cards()
        if card.until == "color":
            share = sum(u for t, u in enumerate(ctx.unseen) if ctx.colors[t] == named) / max(ctx.pool, 1)
            return float(min(1.0 / max(share, 0.05), 10.0))
        if card.until == "fire":
            return ctx.fire_size()
        return 0.0

    def _flip_value(self, ctx: _Ctx, after: list[int]) -> float:
        """Value of flipping to the other side (beyond shedding the Flip)."""
        deck = ctx.deck
        new = 1 - ctx.side
        kinds = deck.kind[new]
        colors = deck.color[new]
        # The pile reverses: its bottom card comes to the top, showing its other face.
        bottom = ctx.discard[0]
        top_kind = kinds[bottom]
        nxt = ctx.next_seat(ctx.me)
        if _WILD[top_kind]:
            chooser = ctx.me if ctx.view.options.flip_wild_chooser == "player" else nxt
            top_color = most_held_color(after, colors, new) if chooser == ctx.me else -1
        else:
            top_color = colors[bottom]
        mine_new = _hand_power(after, kinds)
        mine_old = _hand_power(after, ctx.kinds)
        value = 0.6 * (mine_new - mine_old)
        others = 0.0
        for s in range(ctx.n):
            if s == ctx.me or not ctx.sizes[s]:
                continue
            backs = ctx.view.backs(s)
            power_new = _hand_power(backs, kinds)
            power_old = ctx.sizes[s] * 0.45  # expected power of a hand on the current side
            others += threat(ctx.sizes[s]) * 0.6 * (power_new - power_old) / max(ctx.n - 1, 1)
        value -= others
        follow = sum(1 for x in after if _WILD[kinds[x]] or colors[x] == top_color or kinds[x] == top_kind)
        value += FOLLOW * min(follow, 2) / (1.0 + 0.15 * len(after))
        if top_color >= 0:
            value += _facing(ctx, nxt, top_color, top_kind, side=new)
        return value

    def _trade_value(self, ctx: _Ctx, after: list[int]) -> float:
        others = [ctx.sizes[s] for s in range(ctx.n) if s != ctx.me and ctx.sign[s] > 0]
        gain = len(after) - min(others)
        return 1.0 + gain - 0.5

    # ------------------------------------------------------------------ other decisions
    def _play_or_keep(self, ctx: _Ctx, actions: list[Action]) -> Action:
        pending = ctx.view.pending()
        card = ctx.deck.type_id(pending["card"])
        assert card is not None
        best: Action | None = None
        best_score = -1e9
        for action in _prefer_uno(actions):
            if action.kind == KEEP:
                score = self._after(ctx, ctx.hand, ctx.color, ctx.top_kind, ctx.next_seat(ctx.me), MAX_DEPTH)
            else:
                score = self._play_score(ctx, card, action.color, ctx.hand)
            if score > best_score:
                best, best_score = action, score
        assert best is not None
        return best

    def _challenge(self, ctx: _Ctx, actions: list[Action]) -> Action:
        answers = [a for a in actions if a.kind == PLAY]
        if answers and ctx.house:  # a stacked Wild Draw card (H-3): passing the total on beats drawing it
            return self._turn(ctx, answers)
        pending = ctx.view.pending()
        by = int(pending["by"])
        previous = pending.get("previous_color")
        kind = C.KIND_BY_NAME[pending["card"]]
        named = C.COLOR_BY_NAME[pending["color"]]
        if previous is None:
            return _find(actions, ACCEPT)
        p_color = ctx.p_holds_color(by, C.COLOR_BY_NAME[previous])
        p_bluff = BLUFF_PRIOR * p_color / (BLUFF_PRIOR * p_color + (1.0 - p_color) + 1e-9)
        penalty = self._inflicted(ctx, kind, named)
        # Challenge won: they draw the penalty, I draw nothing and keep my turn.
        gain = penalty * threat(ctx.sizes[by]) + penalty + TURN_LOSS
        loss = 2.0  # challenge lost: two more cards for me
        if p_bluff * gain > (1.0 - p_bluff) * loss:
            return _find(actions, CHALLENGE)
        # Accepted: most players play a Wild Draw card only without the previous colour.
        beliefs = self.voids.setdefault(by, {})
        beliefs[C.COLOR_BY_NAME[previous]] = max(beliefs.get(C.COLOR_BY_NAME[previous], 0.0), VOID_BELIEF)
        beliefs.pop(named, None)
        return _find(actions, ACCEPT)

    def _choose_color(self, ctx: _Ctx, actions: list[Action]) -> Action:
        then = ctx.view.pending().get("then", ctx.me)
        best: Action | None = None
        best_score = -1e9
        kinds = ctx.kinds
        for action in actions:
            c = action.color
            if then == ctx.me:  # I play on it next: my best play, or drawing
                plays = [x for x in set(ctx.hand) if _WILD[kinds[x]] or ctx.colors[x] == c or kinds[x] == ctx.top_kind]
                score = self._draw_score(ctx, ctx.hand, c, ctx.top_kind, MAX_DEPTH)
                wild_color = most_held_color(ctx.hand, ctx.colors, ctx.side)  # what a wild would name
                for x in plays:
                    named = wild_color if _WILD[kinds[x]] else -1
                    score = max(score, self._play_score(ctx, x, named, ctx.hand))
            else:
                score = self._after(ctx, ctx.hand, c, ctx.top_kind, then, MAX_DEPTH)
            if score > best_score:
                best, best_score = action, score
        assert best is not None
        return best

    def _press_your_luck(self, ctx: _Ctx, actions: list[Action]) -> Action:
        discarded = len(ctx.view.pending().get("discarded", []))
        p = ctx.fire_chance()
        size = len(ctx.hand)
        gain = GO_OUT / 100 if size == 1 else 1.0 + (0.5 if size == 2 else 0.0)
        loss = ctx.fire_size() + discarded
        if ctx.view.draw_size == 0:
            p = 0.0 if len(ctx.discard) <= 1 else p
        return _find(actions, PRESS_AGAIN if (1.0 - p) * gain > p * loss else STOP)

    def _choose_discard(self, ctx: _Ctx, actions: list[Action]) -> Action:
        kinds = ctx.kinds
        colors = ctx.colors
        counts: dict[int, int] = {}
        for t in ctx.hand:
            counts[colors[t]] = counts.get(colors[t], 0) + 1
        best: Action | None = None
        best_score = -1e9
        for action in _prefer_uno(actions):
            t = action.card
            k = kinds[t]
            keep = _DISCARD_KEEP.get(k, 0.0) + 0.25 * counts.get(colors[t], 0) + (0.4 if k >= 10 else 0.0)
            score = -keep + 0.01 * ctx.points(k)
            if score > best_score:
                best, best_score = action, score
        assert best is not None
        return best


def _find(actions: list[Action], kind: str) -> Action:
    for action in actions:
        if action.kind == kind:
            return action
    return actions[0]


def _prefer_uno(actions: list[Action]) -> list[Action]:
    """The actions of a decision less catches, late UNO calls, and any play or discard whose
    form with the UNO call is listed too (the bot always declares)."""
    with_uno = {(a.kind, a.card, a.color) for a in actions if a.uno}
    return [a for a in actions if a.kind not in (CATCH, UNO) and (a.uno or (a.kind, a.card, a.color) not in with_uno)]


def _hand_power(cards: list[int], kinds: tuple[int, ...]) -> float:
    """A rough strength of a hand's faces on one side: wilds and attacks are worth more."""
    power = 0.0
    for t in cards:
        k = kinds[t]
        if _WILD[k]:
            power += 1.6 if k != C.WILD else 1.2
        elif k in (C.DRAW_FIVE, C.SKIP_EVERYONE, C.HIT_5X):
            power += 1.0
        elif k >= 10:
            power += 0.5
        else:
            power += 0.3
    return power


def _follow(ctx: _Ctx, cards: list[int], color: int, kind: int) -> int:
    """How many of ``cards`` can be played on ``color``/``kind``."""
    kinds = ctx.kinds
    colors = ctx.colors
    return sum(1 for t in cards if _WILD[kinds[t]] or colors[t] == color or kinds[t] == kind)


def _facing(ctx: _Ctx, seat: int, color: int, kind: int, side: int | None = None) -> float:
    """Value for me of ``seat`` taking its turn on ``color``/``kind``: it sheds a card if it can
    follow, and takes one if it cannot (the other way round for my partner)."""
    return ctx.sign[seat] * BLOCK * threat(ctx.sizes[seat]) * (1.0 - 2.0 * ctx.p_play(seat, color, kind, side))


def _stuck(ctx: _Ctx, cards: list[int], color: int, kind: int) -> float:
    """Chance that ``cards`` hold nothing playable on my next turn, when the colour I leave
    stays with chance ``SAME_COLOR`` and otherwise changes to another colour at random."""
    kinds = ctx.kinds
    colors = ctx.colors
    held = set()
    for t in cards:
        if _WILD[kinds[t]]:
            return 0.0
        held.add(colors[t])
    same = 0.0 if color in held or (not _WILD[kind] and any(kinds[t] == kind for t in cards)) else 1.0
    others = [c for c in C.SIDE_COLORS[ctx.side] if c != color]
    missing = sum(1 for c in others if c not in held) / len(others)
    return SAME_COLOR * same + (1.0 - SAME_COLOR) * missing


def _swap_value(ctx: _Ctx, mine: int, other: int) -> float:
    """What swapping my ``mine`` cards for ``other``'s hand is worth (Trade Hands, a Seven-O 7):
    the cards I drop, and as many again for the opponent who takes them, weighted by how close
    to going out each of us then is; nothing with my partner (the team's cards do not change)."""
    theirs = ctx.sizes[other]
    if ctx.sign[other] < 0:
        return 0.0
    return (mine - theirs) * (threat(theirs) + threat(mine)) / 2.0


def _pass_value(ctx: _Ctx, mine: int) -> float:
    """What a Seven-O 0 is worth: every hand moves one seat on, so each seat's size becomes its
    predecessor's (mine: ``mine`` cards after the play); my gain and my partner's count for me,
    every opponent's against me, each weighted by how close to going out it leaves the seat."""
    n = ctx.n
    sizes = list(ctx.sizes)
    sizes[ctx.me] = mine
    value = 0.0
    for s in range(n):
        before = sizes[s]
        after = sizes[(s - ctx.direction) % n]
        weight = 1.0 if s == ctx.me or ctx.sign[s] < 0 else -1.0 / max(n - 1, 1)
        value += weight * (before - after) * threat(after)
    return value
