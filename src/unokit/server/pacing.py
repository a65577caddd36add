"""A room's pacing (:mod:`.authority`): when things happen that nobody asked for now. The turn
timer, the bots' moves and reactions, the grace of a dropped player before a stand-in bot plays
their seat, the pause between hands, a lobby's fill timer, and the hold of each out-of-turn
window (a missed UNO that may be caught, a card that may be jumped on) before in-turn actions
go on.

Every timer is a :class:`~.items.Fired` item of the room's queue carrying the state version it
was set for: one that fires after the room has moved on does nothing. Its kind is a
:class:`~.items.Timer`, answered by its entry of :data:`TIMERS` (a test checks that each kind
has one). The timers' state (the
handles, the holds, the deadlines told to the table, the bots and the seats their stand-ins
play) is :class:`Pacing`'s: the room keeps none of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import Game
from ..bots import Bot, make_bot
from ..bots.habits import ForgetfulBot
from ..bots.levels import LEVELS, for_people
from ..core.actions import CATCH
from ..core.actions import Action as EngineAction
from ..core.observation import View
from ..core.position import exposed_seat, jumps_may_come
from ..core.types import WindowKind
from . import messages
from .entries import Action as Move
from .entries import Continue, MoreTime, Pause
from .items import Fired, Timer
from .messages import Ack, error
from .room import (
    HAND_OVER,
    LOBBY,
    MORE_TIME_SECONDS,
    PLAYING,
    RoomError,
    Settings,
    bot_spec,
)

if TYPE_CHECKING:
    from .authority import Room
    from .peers import Peer

log = logging.getLogger("unokit.server")

#: A bot whose moves take long enough to be thought in the bot pool (:mod:`.botpool`): the
#: searches, and the levels that play them.
SLOW_BOTS = frozenset({"ismcts", "ismcts_fast"}) | {
    name for name, level in LEVELS.items() if level.bot == "ismcts_fast"
}


@dataclass(frozen=True)
class Hold:
    """How the room paces one kind of out-of-turn window (:mod:`unokit.core.windows`): in-turn
    actions wait ``seconds(settings)`` from the moment such a window opens (``is_open``, from
    the game and the actions offered to the seats not to act), once per window (``key`` tells
    one window of the kind from the next, beside the round and the discard pile's length)."""

    seconds: Callable[[Settings], float]
    is_open: Callable[[Game, dict[int, list[EngineAction]], Settings], bool]
    key: Callable[[Game], tuple[Any, ...]]


#: The hold of every kind of out-of-turn window (a test checks that each kind has one).
HOLDS: dict[WindowKind, Hold] = {
    WindowKind.UNO_CATCH: Hold(  # a missed UNO may be caught: held catch_seconds
        seconds=lambda settings: settings.catch_seconds,
        is_open=lambda game, offered, settings: any(a.kind == CATCH for acts in offered.values() for a in acts),
        key=lambda game: (exposed_seat(game),),
    ),
    WindowKind.JUMP_IN: Hold(  # a card that may be jumped on (H-1): held jump_seconds, if any
        seconds=lambda settings: settings.jump_seconds,
        is_open=lambda game, offered, settings: settings.jump_seconds > 0 and jumps_may_come(game),
        key=lambda game: (),
    ),
}


@dataclass
class TurnClock:
    """The clock of the turn being played: ``key`` tells the turn (game, phase, move count, the
    seat to act), ``due`` when it runs out (loop time), ``added`` the ``more_time`` it counts,
    ``left`` the seconds it had left while the host's pause lasts."""

    key: tuple[Any, ...]
    due: float
    added: int = 0
    left: float | None = None


@dataclass
class Automatic:
    """A bot playing a seat: the seat's own bot, or a stand-in for an away player."""

    bot: Bot
    name: str
    game_no: int


class Pacing:
    """The timers and bots of one room: :meth:`schedule` sets them after every change,
    :meth:`fired` answers one that ran out."""

    def __init__(self, room: Room) -> None:
        self.room = room
        #: (kind, seat for a bot's reaction) -> the handle of the room's timer of that kind
        self.timers: dict[tuple[Timer, int | None], asyncio.TimerHandle] = {}
        self.grace: dict[int, asyncio.TimerHandle] = {}  # seat -> its grace period's handle
        self.away: set[int] = set()  # the seats a stand-in bot plays (their player is away)
        self.automatic: dict[int, Automatic] = {}  # seat -> the bot playing it now
        self.paused = False  # bots and timers wait: nobody is connected
        #: In-turn actions that came while a window's hold lasted, answered when it ends.
        self.deferred: list[tuple[Peer, messages.Action]] = []
        self.hold_until: float | None = None  # loop time until which in-turn actions wait
        self.held: frozenset[tuple[Any, ...]] = frozenset()  # the open windows that have had their hold
        self.turn_clock: TurnClock | None = None  # the turn being played
        self.paused_until: float | None = None  # loop time when the host's pause ends by itself
        self.fill_at: float | None = None  # loop time when bots take the open seats (fill_seconds)
        #: What the table is told (wall clock): the seat to act's deadline, the end of the
        #: catch and jump-in windows' hold, the next hand, the lobby's fill.
        self.deadline: float | None = None
        self.catch_until: float | None = None
        self.jump_until: float | None = None
        self.continue_at: float | None = None
        self.fill_until: float | None = None

    def told(self) -> dict[str, Any]:
        """The pacing the table is told (a part of :meth:`~.authority.Room.runtime_info`)."""
        return {
            "away": sorted(self.away),
            "deadline": self.deadline,
            "turn_left": self.turn_clock.left if self.turn_clock is not None and self.room.state.paused else None,
            "catch_until": self.catch_until,
            "jump_until": self.jump_until,
            "continue_at": self.continue_at,
            "fill_at": self.fill_until,
        }

    def stop(self) -> None:
        """Cancel every timer and grace period (the room stops)."""
        for handle in [*self.timers.values(), *self.grace.values()]:
            handle.cancel()

    def wake(self) -> None:
        """Someone is connected again: a room paused for nobody there sets its timers again."""
        if self.paused:
            self.paused = False
            self.schedule()

    def end_grace(self, seat: int) -> None:
        """``seat``'s player is connected again: its grace period, if any, ends."""
        handle = self.grace.pop(seat, None)
        if handle is not None:
            handle.cancel()

    def back(self, seat: int) -> bool:
        """``seat``'s player looks at the table again: its stand-in, if any, stops (and the
        timers are set again when the room is run here); whether it had one."""
        if seat not in self.away:
            return False
        self.away.discard(seat)
        self.automatic.pop(seat, None)
        if self.room.owner:
            self.schedule()
        return True

    def forget(self, seat: int) -> None:
        """``seat`` has a new occupant: its grace period, stand-in and bot are the former one's."""
        self.end_grace(seat)
        self.away.discard(seat)
        self.automatic.pop(seat, None)

    def holds(self, peer: Peer, msg: messages.Action) -> bool:
        """Whether an in-turn action must wait for a window's hold to end; if so it is kept,
        and applied or refused (and answered) when the hold ends."""
        if self.hold_until is None or asyncio.get_running_loop().time() >= self.hold_until:
            return False
        self.deferred.append((peer, msg))
        return True

    def start_grace(self, seat: int) -> None:
        self.end_grace(seat)
        delay = self.room.state.spec.settings.grace_seconds
        self.grace[seat] = asyncio.get_running_loop().call_later(delay, self.room.submit, Fired(Timer.GRACE, -1, seat))

    def timer_at(self, kind: Timer, delay: float, data: Any = None, seat: int | None = None) -> None:
        """Set the room's timer ``kind`` (``seat``'s, for a bot's reaction) to fire in ``delay``
        seconds at the current state version, replacing the one set before."""
        self.timers[kind, seat] = asyncio.get_running_loop().call_later(
            max(0.0, delay), self.room.submit, Fired(kind, self.room.state.seq, data)
        )

    def is_automatic(self, seat: int) -> bool:
        return self.room.state.seats[seat].kind == "bot" or seat in self.away

    def bot(self, seat: int, purpose: str = "") -> Automatic:
        """The bot that plays ``seat`` now. In a daily room, its RNG is set for the decision
        ``purpose`` from the deal and the moves so far, so the same history meets the same
        answer however often the room's timers are set again."""
        current = self._seat_bot(seat)
        seeds = self.room.seeds
        if seeds is not None and purpose:
            current.bot.rng.state = seeds.decision(seat, len(self.room.state.moves), purpose)
        return current

    def _seat_bot(self, seat: int) -> Automatic:
        spec = self.room.state.seats[seat]
        name = spec.bot if spec.kind == "bot" and spec.bot else self.room.state.standin_level()
        current = self.automatic.get(seat)
        if current is None or current.name != name or current.game_no != self.room.state.game_no:
            seed = spec.bot_seed if spec.kind == "bot" else secrets.randbits(62)
            bot = make_bot(bot_spec(name), seed)
            # A level plays with its human habits; engine names (scripts, stand-ins) without.
            current = Automatic(for_people(bot, name) if name in LEVELS else bot, name, self.room.state.game_no)
            current.bot.reset(seat)
            self.automatic[seat] = current
        return current

    def schedule(self) -> None:
        """Set the timers of the room's new state: bot moves and reactions, the turn timer,
        the catch window's hold and the pause between hands. Old timers are cancelled; any that
        still fires finds the room at another version and does nothing."""
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()
        self.deadline = self.continue_at = self.catch_until = self.jump_until = None
        if not self.room.owner:
            return
        if not self.room.watched():
            # Nobody is here: bots, turn timers and the pause between hands wait for someone to
            # connect (a room of bots alone would otherwise play and log for ever).
            self.paused = True
            self.turn_clock = None  # the turn starts again, whole, when someone comes
            return
        state, settings = self.room.state, self.room.state.spec.settings
        loop_now = asyncio.get_running_loop().time()
        self.schedule_fill(loop_now)
        if state.paused:
            self.schedule_paused(loop_now)
            return
        self.paused_until = None
        if state.phase == HAND_OVER:
            self.timer_at(Timer.CONTINUE, settings.hand_pause_seconds)
            self.continue_at = time.time() + settings.hand_pause_seconds
            return
        game = state.game
        if state.phase != PLAYING or game is None or game.is_over:
            self.hold_until = None
            self.held = frozenset()
            return
        to_act = game.to_act
        assert to_act is not None
        offered = {s: game.legal_actions(s) for s in range(game.n) if s != to_act}
        open_kinds = {kind for kind, hold in HOLDS.items() if hold.is_open(game, offered, settings)}
        # Each window is held once, from the moment it opens; its key names the play that
        # opened it (a jump opens a new window on the jumped card). Both facts are public, so
        # a hold tells no one whether anybody holds an identical card.
        opened = (game.round_number, len(game.discard))
        windows: dict[tuple[Any, ...], float] = {
            (kind, *opened, *HOLDS[kind].key(game)): HOLDS[kind].seconds(settings) for kind in open_kinds
        }
        new = [seconds for key, seconds in windows.items() if key not in self.held]
        if new:
            self.hold_until = max(self.hold_until or loop_now, loop_now + max(new))
        elif not windows:
            self.hold_until = None
        self.held = frozenset(windows)
        if self.hold_until is not None:
            until = time.time() + (self.hold_until - loop_now)
            self.catch_until = until if WindowKind.UNO_CATCH in open_kinds else None
            self.jump_until = until if WindowKind.JUMP_IN in open_kinds else None
            self.timer_at(Timer.HOLD_END, self.hold_until - loop_now)
        if self.deferred and self.hold_until is None:
            self.timer_at(Timer.HOLD_END, 0.0)
        for seat, actions in offered.items():
            if actions and self.is_automatic(seat):
                bot = self.bot(seat, "react").bot
                view = View(game, seat)
                if isinstance(bot, ForgetfulBot):  # its own chance to react, after its reaction time
                    timed = bot.reaction(view) or bot.jump(view)
                    if timed is not None:
                        self.timer_at(Timer.REACT, timed.after, (seat, timed.action.text), seat=seat)
                    continue
                reaction = bot.react(view)
                if reaction is not None:
                    self.timer_at(Timer.REACT, settings.bot_seconds / 2, (seat, reaction.text), seat=seat)
        hold = 0.0 if self.hold_until is None else self.hold_until - loop_now
        if self.is_automatic(to_act):
            self.turn_clock = None
            # A room whose bots spent their CPU budget waits until it is repaid (bots.py).
            self.timer_at(
                Timer.BOT_MOVE, max(settings.bot_seconds, hold, self.room.host.think_delay(self.room.code)), to_act
            )
        elif settings.turn_seconds > 0:
            due = self.turn_due(loop_now, hold)
            self.deadline = time.time() + (due - loop_now)
            self.timer_at(Timer.TURN_TIMEOUT, due - loop_now, to_act)

    def turn_due(self, loop_now: float, hold: float) -> float:
        """When the turn being played runs out (loop time). A turn's clock starts once, when
        the turn comes (after a window's hold): a change that is not a move (a hint, more time,
        a pause and its end, someone joining) does not start it again. Each ``more_time`` of the
        turn adds :data:`~.room.MORE_TIME_SECONDS` once; a turn paused keeps the time it had left."""
        state = self.room.state
        key = (state.game_no, state.phase, len(state.moves), state.game.to_act if state.game else None)
        clock = self.turn_clock
        if clock is None or clock.key != key:
            clock = self.turn_clock = TurnClock(key, loop_now + hold + state.spec.settings.turn_seconds)
        if clock.left is not None:  # the pause is over: the turn goes on from where it was
            clock.due, clock.left = loop_now + clock.left, None
        if state.turn_more > clock.added:
            clock.due += (state.turn_more - clock.added) * MORE_TIME_SECONDS
            clock.added = state.turn_more
        return clock.due

    def schedule_paused(self, loop_now: float) -> None:
        """The host's pause: no bot moves, no turn timer, no next hand. The turn keeps the time
        it had left (``turn_left`` tells the table); the pause ends by itself when the hand's
        or the game's allowance of paused time is spent (:meth:`~.room.RoomState.pause_left`)."""
        clock = self.turn_clock
        if clock is not None and clock.left is None:
            clock.left = max(0.0, clock.due - loop_now)
        if self.paused_until is None:
            self.paused_until = loop_now + self.room.state.pause_left(time.time())
        self.timer_at(Timer.PAUSE_LIMIT, self.paused_until - loop_now)

    async def more_time(self, peer: Peer, msg: messages.MoreTime) -> None:
        """A ``more_time`` message: the seat's turn timer gets :data:`~.room.MORE_TIME_SECONDS`
        more (:meth:`~.entries.MoreTime.check` says when it is refused)."""
        seat = self.room.seating.own_seat(peer, msg.token)
        timed = self.deadline is not None and not self.is_automatic(seat)
        await self.room.commit([MoreTime.check(self.room.state, seat, timed=timed)])

    def schedule_fill(self, loop_now: float) -> None:
        """A room with ``fill_seconds``: once a player sits in its lobby, the game starts when
        every seat is taken, or when the wait runs out, with bots in the open seats."""
        state, wait = self.room.state, self.room.state.spec.settings.fill_seconds
        seated = any(seat.kind == "human" for seat in state.seats)
        if wait <= 0 or state.phase != LOBBY or not seated:
            self.fill_at = self.fill_until = None
            return
        if self.fill_at is None:
            self.fill_at = loop_now + wait
            self.fill_until = time.time() + wait
        self.timer_at(Timer.FILL, 0.0 if state.open_seats() == 0 else self.fill_at - loop_now)

    async def fired(self, kind: Timer, generation: int, data: Any) -> None:
        """The room's timer ``kind``, set at state version ``generation``, ran out: answer it by
        its entry of :data:`TIMERS`, unless it is stale (the room moved on since, or is no
        longer run here) or needs a game being played and none is."""
        answer = TIMERS[kind]
        state = self.room.state
        if not answer.any_version and (generation != state.seq or not self.room.owner):
            return  # a stale timer: the room has moved on
        if answer.in_play and (state.phase != PLAYING or state.game is None):
            return
        await answer.run(self, generation, data)

    async def _grace_over(self, _generation: int, seat: int) -> None:
        state = self.room.state
        self.grace.pop(seat, None)
        if self.room.owner and not self.room.seating.connected(seat) and state.seats[seat].kind == "human":
            self.away.add(seat)
            if state.paused and state.host_seat == seat:  # the host who paused is gone
                with contextlib.suppress(RoomError):
                    await self.room.commit([Pause(paused=False, reason="host_away", at=time.time())])
                    return
            self.schedule()
            self.room.teller.broadcast_room()

    async def _hold_over(self, generation: int, _data: None) -> None:
        self.hold_until = None
        waiting, self.deferred = self.deferred, []
        for peer, msg in waiting:
            try:
                await self.room.take_action(peer, msg, deferred=True)
            except RoomError as exc:
                peer.deliver(
                    error(
                        exc.code,
                        exc.message,
                        msg.id,
                        self.room.teller.state_message(peer.seat, []),
                        **exc.detail(),
                    )
                )
            else:
                if msg.id is not None:
                    peer.deliver(Ack(reply_to=msg.id, version=self.room.state.seq).to_json())
        if self.room.state.seq == generation:
            self.schedule()

    async def _pause_spent(self, _generation: int, _data: None) -> None:
        if self.room.state.paused:
            with contextlib.suppress(RoomError):
                await self.room.commit([Pause(paused=False, reason="limit", at=time.time())])

    async def _next_hand(self, _generation: int, _data: None) -> None:
        with contextlib.suppress(RoomError):
            await self.room.commit([Continue()])

    async def _fill(self, _generation: int, _data: None) -> None:
        if self.room.state.phase == LOBBY:
            with contextlib.suppress(RoomError):
                await self.room.commit(self.room.start_entries())

    async def _react(self, _generation: int, reaction: tuple[int, str]) -> None:
        seat, text = reaction
        with contextlib.suppress(RoomError):
            await self.room.commit([Move(seat=seat, action=text)])

    async def _turn_over(self, generation: int, seat: int) -> None:
        self.away.add(seat)
        self.room.teller.broadcast_room()
        await self._bot_due(generation, seat)

    async def _bot_due(self, _generation: int, seat: int) -> None:
        game = self.room.state.game
        if game is not None and game.to_act == seat:
            await self.bot_move(seat)

    async def bot_move(self, seat: int) -> None:
        game = self.room.state.game
        assert game is not None
        auto = self.bot(seat, "act")
        view = View(game, seat)
        try:
            if auto.name in SLOW_BOTS:
                action = await self.room.host.think(self.room.code, auto.bot.act, view)
            else:
                action = auto.bot.act(view)
            text = action.text
        except Exception:
            log.exception(
                "room %s: bot %s failed at seat %d; playing its first legal action",
                self.room.code,
                auto.name,
                seat,
                extra={"room": self.room.code},
            )
            text = game.legal_actions(seat)[0].text
        # A stand-in played for an away person: the log says so.
        entry = Move(seat=seat, action=text, standin=self.room.state.seats[seat].kind == "human")
        try:
            await self.room.commit([entry])
        except RoomError as exc:
            log.warning(
                "room %s: the move of bot %s was refused: %s",
                self.room.code,
                auto.name,
                exc.message,
                extra={"room": self.room.code},
            )


@dataclass(frozen=True, slots=True)
class TimerAnswer:
    """How the room answers one kind of timer: ``run`` (given the state version it was set for
    and what it is about), whether it runs whatever the state version (``any_version``: a
    seat's grace, which no change ends) and whether only while a game is played (``in_play``)."""

    run: Callable[[Pacing, int, Any], Awaitable[None]]
    any_version: bool = False
    in_play: bool = False


#: The answer to every kind of timer (a test checks that each kind has one).
TIMERS: dict[Timer, TimerAnswer] = {
    Timer.GRACE: TimerAnswer(Pacing._grace_over, any_version=True),
    Timer.HOLD_END: TimerAnswer(Pacing._hold_over),
    Timer.PAUSE_LIMIT: TimerAnswer(Pacing._pause_spent),
    Timer.CONTINUE: TimerAnswer(Pacing._next_hand),
    Timer.FILL: TimerAnswer(Pacing._fill),
    Timer.REACT: TimerAnswer(Pacing._react, in_play=True),
    Timer.TURN_TIMEOUT: TimerAnswer(Pacing._turn_over, in_play=True),
    Timer.BOT_MOVE: TimerAnswer(Pacing._bot_due, in_play=True),
}


__all__ = ["TIMERS", "Pacing", "TimerAnswer"]
