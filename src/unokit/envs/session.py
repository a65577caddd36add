"""One table of the environments: the game, the UNO-catch rule, the Jump-In offers and rewards.

Both environments drive a :class:`Session`. It checks an action id against the seat's legal
actions (an illegal id raises :class:`~unokit.IllegalActionError` and changes nothing),
applies it, runs the catch rule and turns the end of a hand into rewards. The observation's
history block is read from the game's public record of plays (:meth:`unokit.View.played`),
which a bot's view holds as well.

**Catch rule.** Catching a missed UNO is not an agent action; the session decides it, so that
agents only ever act in turn order. With ``uno_catch="auto"`` (default), when a play, a
``play_drawn`` or a Press Your Luck discard leaves its player with one card and no UNO call,
the next seat in the direction of play catches that player with probability
``catch_probability`` (default 1.0), drawn from the session's seeded generator: one chance per
missed call. With ``uno_catch="never"`` nobody is caught. The UNO call itself is part of the
play action ids (``play … uno``).

**Jump-In offers** (``jump_in=true``, H-1). A jump is out of turn, but agents act one at a time:
after every action that leaves a Jump-In window open, each seat that could jump is *offered*
the jump, one seat at a time in turn order from the player of the card (``offers``), before the
seat to act decides. The offered seat is the one to act (:attr:`Session.actor`): its mask holds
its jumps (``play`` ids) and the ``pass`` id. A jump is applied out of turn and may be offered
on in turn; once every offered seat has passed, the seat to act decides.

**Teams** (``teams=true``, H-6). Rewards are the team's: with ``reward="hand"`` +1 to both
partners of the winning team and -2/(n-2) to every other seat; with ``"points"`` half the
team's gain to each partner and minus its own hand to every other seat (zero-sum both).
"""

from __future__ import annotations

import operator
import secrets
from collections.abc import Mapping
from typing import Any

from ..core.actions import DISCARD, PLAY, PLAY_DRAWN, Action
from ..core.colors import COLOR_NAMES
from ..core.errors import IllegalActionError, InvalidActionError, OptionError
from ..core.game import Game
from ..core.observation import View
from ..core.rng import Rng
from ..core.round_end import RoundResult
from ..core.teams import team_of
from ..core.types import DecisionKind
from ..encoding import Encoding, Mask, Obs

UNO_CATCH_RULES = ("auto", "never")
REWARDS = ("hand", "points")


#: Truncate an episode after this many decisions per seat unless the environment is told otherwise.
DEFAULT_MAX_CYCLES = 5000
#: The render modes of the environments: ``ansi`` returns the table as text, ``human`` prints it
#: at every reset and step, ``rgb_array`` returns a picture of it (what video recorders and
#: Stable-Baselines3's ``make_vec_env``, which asks for it by default, expect).
RENDER_MODES = ("ansi", "human", "rgb_array")


def check_env_arguments(render_mode: object, max_cycles: object, max_decisions: object = None) -> None:
    """Raise :class:`OptionError` naming a bad ``render_mode``, ``max_cycles`` or ``max_decisions``."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        modes = ", ".join(repr(m) for m in RENDER_MODES)
        raise OptionError(f"render_mode must be None, {modes}, not {render_mode!r}")
    if isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1:
        raise OptionError(f"max_cycles must be a whole number, 1 or more, not {max_cycles!r}")
    if max_decisions is not None and (
        isinstance(max_decisions, bool) or not isinstance(max_decisions, int) or max_decisions < 1
    ):
        raise OptionError(f"max_decisions must be None or a whole number, 1 or more, not {max_decisions!r}")


def decision_limit(players: int, max_cycles: int, max_decisions: int | None) -> int:
    """The number of decisions after which an episode is truncated: ``max_cycles`` per seat, or
    ``max_decisions`` when that is smaller."""
    limit = max_cycles * players
    return limit if max_decisions is None else min(limit, max_decisions)


class Session:
    """The state an environment keeps around one :class:`~unokit.Game`.

    ``options`` are the engine's rule options (``stacking``, ``scoring``, ``rounds``, ...);
    ``rounds`` defaults to 1, so that an episode is one hand.
    """

    def __init__(
        self,
        variant: str,
        players: int,
        *,
        uno_catch: str = "auto",
        catch_probability: float = 1.0,
        reward: str = "hand",
        history: int = 2,
        options: Mapping[str, object] | None = None,
    ) -> None:
        self.encoding = Encoding(variant, players, history)
        if uno_catch not in UNO_CATCH_RULES:
            raise OptionError(f"uno_catch must be one of {', '.join(UNO_CATCH_RULES)}, not {uno_catch!r}")
        try:
            p = float(catch_probability)
        except (TypeError, ValueError):
            p = -1.0
        if not 0.0 <= p <= 1.0:
            raise OptionError(f"catch_probability must be between 0 and 1, not {catch_probability!r}")
        if reward not in REWARDS:
            raise OptionError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        opts: dict[str, object] = {"rounds": 1, **(options or {})}
        if str(opts.get("pairing", "physical")).lower() == "random":
            raise OptionError("the environments need pairing='physical': a random pairing changes the card types")
        self.variant = self.encoding.variant
        self.players = players
        self.uno_catch = uno_catch
        self.catch_probability = p
        self.reward = reward
        self.options = opts
        self._seeds: Rng | None = None
        self.rng: Rng
        self.game: Game
        self.views: list[View]
        self.decisions: int
        self._drawn: tuple[int, int]
        self.reset(0)  # deals the first game (bad options raise here)

    # ------------------------------------------------------------------ episodes
    def next_seed(self, seed: int | None) -> int:
        """The engine seed of the next hand: ``seed`` itself when given (and the generator of
        later seeds restarts from it), else the next one from the last seed given."""
        if seed is not None:
            try:
                if isinstance(seed, bool):
                    raise TypeError
                seed = operator.index(seed)
            except TypeError:
                raise OptionError(f"seed must be a whole number, not {seed!r}") from None
            self._seeds = Rng(seed)
            return seed
        if self._seeds is None:
            self._seeds = Rng(secrets.randbits(64))
        return self._seeds.next64()

    def reset(self, seed: int | None = None) -> None:
        """Deal a new game; the same ``seed`` gives the same game and the same catches."""
        game_seed = self.next_seed(seed)
        assert self._seeds is not None
        self.rng = Rng(self._seeds.next64())
        self.load(Game.new(self.variant, self.players, game_seed, **self.options)[0])

    def load(self, game: Game) -> None:
        """Continue from an existing game (for example ``Game.from_position(...)``, whose record
        of plays starts empty). It must be of this session's variant and number of seats, with the
        standard deck."""
        if game.variant != self.variant or game.players != self.players:
            raise OptionError(
                f"this session plays {self.variant} with {self.players} seats, not {game.variant} with {game.players}"
            )
        if game.deck is not self.encoding.deck:
            raise OptionError("the environments need pairing='physical': a random pairing changes the card types")
        self.game = game
        self.views = [View(game, s) for s in range(self.players)]
        self.decisions = 0
        self._drawn = (-1, -1)
        #: How the last hand of this episode ended (``None`` until one has).
        self.result: RoundResult | None = None
        #: Seats still to be offered the open Jump-In window, the first one deciding now.
        self.offers: list[int] = []
        self._offer_jumps()

    @property
    def actor(self) -> int | None:
        """The seat that decides now: the seat offered a jump, else the seat to act (None at
        the end)."""
        return self.offers[0] if self.offers else self.game.to_act

    def jumps(self, seat: int) -> list[Action]:
        """The jumps open to ``seat`` now (H-1): its legal plays out of turn."""
        game = self.game
        if seat == game.to_act:
            return []
        return [a for a in game.legal_actions(seat) if a.kind == PLAY]

    def _offer_jumps(self) -> None:
        """Offer the open Jump-In window to the seats that can jump, in the engine's order."""
        game = self.game
        if game.is_over or not game.windows or not game.options.jump_in:
            self.offers = []
            return
        self.offers = [s for s in game.responders() if self.jumps(s)]

    def decline(self) -> None:
        """The offered seat passes (its jump is not taken); the next offer, or the seat to act."""
        if not self.offers:
            raise IllegalActionError("no jump is on offer")
        self.offers.pop(0)
        self.decisions += 1

    # ------------------------------------------------------------------ acting
    def decode(self, action_id: Any, seat: int) -> Action:
        """The legal engine action of ``action_id`` for ``seat``, who must be the seat to act, or raise
        :class:`IllegalActionError` (:class:`InvalidActionError` for a non-id)."""
        game = self.game
        try:
            i = operator.index(action_id)
        except TypeError:
            raise InvalidActionError(f"an action is an integer id, not {action_id!r}") from None
        enc = self.encoding
        action = enc.decode(i, game.side, seat)
        if action is None or action not in game.legal_actions():
            label = str(action) if action is not None else enc.action_labels[i]
            legal = enc.legal_ids(self.views[seat])
            raise IllegalActionError(
                f"action {i} ({label}) is not legal for seat {seat} now ({game.decision}); legal ids: {legal}"
            )
        return action

    def act(self, action_id: Any) -> list[float]:
        """Apply ``action_id`` for the seat that decides now (:attr:`actor`); return each
        seat's reward for it."""
        if self.offers:
            return self._answer_offer(action_id)
        seat = self.game.to_act
        if seat is None:
            raise IllegalActionError("the game is over; reset the environment")
        return self.apply(self.decode(action_id, seat), seat, checked=True)

    def _answer_offer(self, action_id: Any) -> list[float]:
        """The offered seat jumps (a ``play`` id of its jumps) or passes (the ``pass`` id)."""
        seat = self.offers[0]
        try:
            i = operator.index(action_id)
        except TypeError:
            raise InvalidActionError(f"an action is an integer id, not {action_id!r}") from None
        enc = self.encoding
        if i == enc.pass_id:
            self.decline()
            return [0.0] * self.players
        action = enc.decode(i, self.game.side, seat)
        if action is None or action not in self.jumps(seat):
            label = str(action) if action is not None else enc.action_labels[i]
            legal = self.offer_ids(seat)
            raise IllegalActionError(f"action {i} ({label}) is not a jump open to seat {seat}; legal ids: {legal}")
        return self.apply(action, seat)

    def offer_ids(self, seat: int) -> list[int]:
        """The ids open to ``seat`` while it is offered a jump: its jumps, then ``pass``."""
        enc = self.encoding
        ids = [enc.encode(a, seat) for a in self.jumps(seat)]
        return [i for i in ids if i is not None] + [enc.pass_id]

    def drawn_card(self, seat: int) -> int:
        """The card ``seat`` has just drawn, in its own ``play_or_keep`` decision (cached)."""
        version = self.game.version
        if self._drawn[0] != version:
            self._drawn = (version, self.encoding.drawn_card(self.views[seat]))
        return self._drawn[1]

    def apply(self, action: Action, seat: int, checked: bool = False) -> list[float]:
        """Apply a legal engine ``action`` of ``seat`` (ids, bots), then the catch rule.

        ``checked``: the action was taken from the seat's legal actions just now (as
        :meth:`act` does), so the engine may skip its validation and its events."""
        game = self.game
        kind = action.kind
        if checked and seat == game.to_act:
            ended = game.step(action)  # the engine's fast path: no validation, no events
        else:
            game.apply(action, seat=seat)
            ended = game.round_ended
        self.decisions += 1
        if (
            game.windows  # no window open: nobody to catch (uno_exposed is -1), without the call
            and game.uno_exposed == seat
            and not action.uno
            and kind in (PLAY, PLAY_DRAWN, DISCARD)
            and self.uno_catch == "auto"
            and (self.catch_probability >= 1.0 or self.rng.random() < self.catch_probability)
        ):
            catcher = game.next_seat(seat)
            catch = game.actions.catch[seat]
            if catch in game.legal_actions(catcher):
                game.apply(catch, seat=catcher)
        if game.windows:
            self._offer_jumps()
        elif self.offers:  # what _offer_jumps does with no window open, without the call
            self.offers = []
        if ended is None:
            return [0.0] * self.players
        self.result = ended
        return self._rewards(ended)

    def _rewards(self, ended: RoundResult) -> list[float]:
        """Each seat's reward for the hand that ``ended``: +1 to its winner and -1/(n-1) to the
        others (``reward="hand"``), or the points of the hands left (``reward="points"``)."""
        n = self.players
        winner = ended.winner
        points = ended.hand_points
        if self.game.options.teams:  # the team's reward, for both partners (H-6)
            team = team_of(winner, n)
            if self.reward == "hand":
                return [1.0 if team_of(s, n) == team else -2.0 / (n - 2) for s in range(n)]
            gained = sum(points[s] for s in range(n) if team_of(s, n) != team)
            return [gained / 2.0 if team_of(s, n) == team else -float(points[s]) for s in range(n)]
        if self.reward == "hand":
            return [1.0 if s == winner else -1.0 / (n - 1) for s in range(n)]
        return [float(sum(points) - points[s]) if s == winner else -float(points[s]) for s in range(n)]

    # ------------------------------------------------------------------ observing
    def observe(self, seat: int) -> Obs:
        """The observation vector of ``seat``."""
        game = self.game
        drawn = self.drawn_card(seat) if game.to_act == seat and game.decision == DecisionKind.PLAY_OR_KEEP else -1
        offered = bool(self.offers) and self.offers[0] == seat
        return self.encoding.observe(self.views[seat], None, drawn, offered)

    def mask(self, seat: int) -> Mask:
        """The action mask of ``seat`` (all zeros when it is not that seat's decision): while a
        jump is on offer, the offered seat's jumps and ``pass``."""
        if self.offers:
            mask = self.encoding.zero_mask()
            if self.offers[0] == seat:
                mask[self.offer_ids(seat)] = 1
            return mask
        if self.game.to_act != seat:
            return self.encoding.zero_mask()
        return self.encoding.mask(self.views[seat])

    def hand_info(self) -> dict[str, Any]:
        """What ``info`` says once a hand has ended: its ``winner`` (the seat that went out, or won
        a blocked hand), each seat's ``points`` for it and the game's ``scores`` after it."""
        ended = self.result
        if ended is None:
            return {}
        return {"winner": ended.winner, "points": list(ended.points), "scores": list(ended.scores)}

    def render(self, names: list[str] | None = None) -> str:
        """The whole table as text (every hand shown), for ``render_mode="ansi"``."""
        game = self.game
        names = names or [f"seat {s}" for s in range(self.players)]
        color = COLOR_NAMES[game.color] if game.color >= 0 else "to be named"
        lines = [
            f"{game.rules.title}, round {game.round_number}, {game.side_name} side, "
            f"{'clockwise' if game.direction == 1 else 'counterclockwise'}",
            f"top: {game.face_text(game.top_card)} (colour {color}); "
            f"discard {len(game.discard)}, {'launcher' if game.launcher else 'draw pile'} {len(game.draw)}",
        ]
        to_act = game.to_act
        for s in range(self.players):
            marker = f"  <- {game.decision}" if s == to_act else ""
            hand = ", ".join(game.card_text(t) for t in sorted(game.hands[s]))
            lines.append(f"{names[s]} [{len(game.hands[s])}]: {hand}{marker}")
        if to_act is None:
            lines.append(f"over: winners {game.winners}, scores {game.scores}")
        elif self.offers:
            enc = self.encoding
            seat = self.offers[0]
            legal = [f"{i}:{enc.action_labels[i]}" for i in self.offer_ids(seat)]
            lines.append(f"{names[seat]} may jump in: " + ", ".join(legal))
        else:
            enc = self.encoding
            legal = [f"{i}:{enc.action_labels[i]}" for i in enc.legal_ids(self.views[to_act])]
            lines.append("legal: " + ", ".join(legal))
        return "\n".join(lines) + "\n"
