"""A small Python client for ``unokit serve``: create rooms, join as a player, a spectator or an
external bot, act, and follow the state (``docs/protocol.md``).

    >>> room = create_room("http://127.0.0.1:8000", variant="flip", players=4)   # doctest: +SKIP
    >>> async with await RoomClient.join("http://127.0.0.1:8000", room["room"], name="Ann") as me:
    ...     await me.host("add_bot", room["host_token"], seat=1, bot="heuristic")
    ...     await me.wait_for(lambda s: me.my_turn)
    ...     await me.act(me.legal_actions[0])

The client reconnects by itself when the connection drops (to the next of its server
addresses, if it was given several), says hello again with its seat token and gets its seat
back. In a cluster it follows the server's ``redirect`` to the process that owns its room.
Every message received is kept in :attr:`RoomClient.received` when ``keep=True``.

It also talks and plays together: :meth:`RoomClient.say` and :meth:`RoomClient.react` write in
the room's chat (:attr:`RoomClient.chat` holds what this seat may read), :meth:`RoomClient.ready`
asks to play again after a game, :func:`lobby` lists the public rooms, :func:`play_now` finds
(or opens) one to join, and :func:`my_games` lists the finished games of a player identity
(:func:`new_identity`, given to :meth:`RoomClient.join` as ``player``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import http.client
import itertools
import json
import secrets
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection, connect

from . import PROTOCOL
from .protocol import SEAT_LOST, websocket_url
from .room import Settings

#: How long a dropped client keeps trying to reconnect (a restarting server, a takeover).
RECONNECT_SECONDS = 90.0
#: Redirects followed in a row before the client asks to be served where it is.
MOST_REDIRECTS = 3
#: How long a request waits for its answer.
REQUEST_SECONDS = 15.0
#: The longest a room may hold an in-turn action (the largest catch or jump hold it accepts).
MOST_HELD = max(Settings.LIMITS["catch_seconds"][1], Settings.LIMITS["jump_seconds"][1])


class ServerError(Exception):
    """The server refused a request: ``code`` is the protocol's error code; ``state`` is the
    current state it sent with the refusal (or None)."""

    def __init__(self, code: str, message: str, state: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.state = state


class NotUnokitError(ValueError):
    """An answer that is not a unokit server's (not JSON, or not the expected shape)."""


class _From(urllib.request.HTTPHandler):
    """Plain HTTP from the local address ``source`` (on loopback, another of ``127.0.0.0/8`` is
    another client's address to the server)."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(functools.partial(http.client.HTTPConnection, source_address=(self.source, 0)), req)


def _http(
    method: str, url: str, body: dict[str, Any] | None = None, timeout: float = 10.0, source: str | None = None
) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    opener = urllib.request.build_opener(_From(source)) if source is not None else urllib.request.build_opener()
    try:
        with opener.open(request, timeout=timeout) as response:
            payload = response.read()
            kind = response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as exc:
        try:
            detail = json.loads(exc.read() or b"{}")
        except (ValueError, RecursionError):  # not a unokit server's answer
            detail = None
        if not isinstance(detail, dict):
            detail = {}
        raise ServerError(str(detail.get("error", exc.code)), str(detail.get("message", exc))) from None
    try:
        return json.loads(payload) if "json" in kind else payload.decode()
    except (ValueError, RecursionError):
        raise NotUnokitError(f"{url} did not answer with JSON: is it a unokit server?") from None


def create_room(
    base_url: str,
    variant: str = "classic",
    players: int | None = None,
    options: dict[str, Any] | None = None,
    settings: dict[str, Any] | None = None,
    public: bool = False,
    bots: list[str] | None = None,
    lang: str | None = None,
) -> dict[str, Any]:
    """Create a room (``POST /api/rooms``); returns its ``room`` code, ``link``, ``websocket``
    address and the ``host_token``. A ``public`` room is listed in the lobby (:func:`lobby`);
    ``bots`` seats a bot of each name at the last seats before the answer comes; ``lang`` (a
    language code of the catalogue) names them in that language. Raises :class:`ServerError`
    ``bad_room`` for a bad spec."""
    body: dict[str, Any] = {"variant": variant, "options": options or {}, "settings": settings or {}}
    if public:
        body["public"] = True
    if lang is not None:
        body["lang"] = lang
    if players is not None:
        body["players"] = players
    if bots:
        body["bots"] = bots
    result: dict[str, Any] = _http("POST", f"{base_url.rstrip('/')}/api/rooms", body)
    return result


def get_json(base_url: str, path: str) -> Any:
    """``GET`` an API path (``/api/rooms/CODE``, ``/api/health``) and read its JSON."""
    return _http("GET", f"{base_url.rstrip('/')}{path}")


def lobby(base_url: str) -> dict[str, list[dict[str, Any]]]:
    """The server's public rooms (``GET /api/lobby``): ``waiting`` (an open seat) and
    ``playing`` (to watch), each with its ``room`` code, variant, options, open seats and host."""
    result: dict[str, list[dict[str, Any]]] = _http("GET", f"{base_url.rstrip('/')}/api/lobby")
    return result


def play_now(
    base_url: str, variant: str = "classic", players: int | None = None, lang: str | None = None
) -> dict[str, Any]:
    """A public room of ``variant`` with an open seat, or a new one that bots fill if nobody
    comes (``POST /api/play-now``; its bots named in ``lang``, and a waiting room of that
    language picked first): its ``room`` code, ``link`` and ``created``. Join it with
    :meth:`RoomClient.join` (another player may have taken the last seat meanwhile: then the
    join is refused ``room_full`` and :func:`join_play_now` asks again)."""
    body: dict[str, Any] = {"variant": variant}
    if players is not None:
        body["players"] = players
    if lang is not None:
        body["lang"] = lang
    result: dict[str, Any] = _http("POST", f"{base_url.rstrip('/')}/api/play-now", body)
    return result


async def join_play_now(
    base_url: str, name: str, variant: str = "classic", players: int | None = None, **kwargs: Any
) -> RoomClient:
    """Play now: take a seat in a public room of ``variant`` (asking again when another player
    took the last seat first)."""
    for _ in range(10):
        found = play_now(base_url, variant, players)
        try:
            return await RoomClient.join(base_url, found["room"], name=name, **kwargs)
        except ServerError as exc:
            if exc.code not in ("room_full", "phase", "room_closed"):
                raise
    raise ServerError("room_full", "every room found filled up first; try again")


def new_identity() -> str:
    """A new player identity: a long random secret (keep it, like a browser keeps its own)."""
    return secrets.token_urlsafe(32)


def my_games(base_url: str, player: str) -> list[dict[str, Any]]:
    """The finished games the identity ``player`` played on this server, newest first."""
    result: dict[str, Any] = _http("POST", f"{base_url.rstrip('/')}/api/my-games", {"player": player})
    return list(result["games"])


def forget_me(base_url: str, player: str) -> int:
    """Have the server forget the identity ``player`` and its list of games; returns how many."""
    result: dict[str, Any] = _http("POST", f"{base_url.rstrip('/')}/api/my-games/forget", {"player": player})
    return int(result["forgotten"])


def daily_deals(base_url: str) -> dict[str, Any]:
    """Today's deals of the day (``GET /api/daily``): the ``day``, when the next one begins
    (``next_day_at``) and its ``deals``, each with its key (``deal``), variant, seats and bots."""
    result: dict[str, Any] = _http("GET", f"{base_url.rstrip('/')}/api/daily")
    return result


def daily_start(
    base_url: str, player: str, deal: str, lang: str | None = None, source: str | None = None
) -> dict[str, Any]:
    """A room of today's ``deal`` for the identity ``player`` (``POST /api/daily/start``): its
    ``room`` code and ``link``, and whether the game is ``scored`` (the identity's one attempt
    of the day) or practice. Sit in it with :meth:`RoomClient.join` and the same identity.
    ``source``: the local address to ask from (only an address's first attempt ranks)."""
    body: dict[str, Any] = {"player": player, "deal": deal}
    if lang is not None:
        body["lang"] = lang
    result: dict[str, Any] = _http("POST", f"{base_url.rstrip('/')}/api/daily/start", body, source=source)
    return result


def daily_board(base_url: str, deal: str, player: str | None = None, day: str | None = None) -> dict[str, Any]:
    """The results of ``deal`` on ``day`` (today by default), best first (``POST
    /api/daily/board``); with ``player``, its own attempt and streak (``you``)."""
    body: dict[str, Any] = {"deal": deal}
    if player is not None:
        body["player"] = player
    if day is not None:
        body["day"] = day
    result: dict[str, Any] = _http("POST", f"{base_url.rstrip('/')}/api/daily/board", body)
    return result


def ratings_join(base_url: str, player: str, name: str) -> dict[str, Any]:
    """Have the identity ``player`` rated from its next public game on, under ``name``
    (``POST /api/ratings/join``); returns its ratings (:func:`ratings_mine`)."""
    result: dict[str, Any] = _http("POST", f"{base_url.rstrip('/')}/api/ratings/join", {"player": player, "name": name})
    return result


def ratings_leave(base_url: str, player: str) -> bool:
    """Stop rating ``player`` and have its ratings forgotten; whether it was rated."""
    result: dict[str, Any] = _http("POST", f"{base_url.rstrip('/')}/api/ratings/leave", {"player": player})
    return bool(result["forgotten"])


def ratings_mine(base_url: str, player: str) -> dict[str, Any]:
    """The identity's choice (``rated``, ``name``), its ``ratings`` and their ``history``."""
    result: dict[str, Any] = _http("POST", f"{base_url.rstrip('/')}/api/ratings/mine", {"player": player})
    return result


def leaderboard(base_url: str, variant: str, players: int) -> list[dict[str, Any]]:
    """The rated players of ``variant`` at tables of ``players``, best first."""
    result: dict[str, Any] = _http("GET", f"{base_url.rstrip('/')}/api/leaderboard?variant={variant}&players={players}")
    return list(result["places"])


#: Seconds :func:`ladder_play` waits when the server has no new table for the address yet.
LADDER_WAIT = 5.0
#: The share of the server's declared message rate a pacing client sends at: the rest is a
#: margin for messages that arrive closer together than they were sent.
PACE_SHARE = 0.9

#: How long a ladder bot's table connection tries to come back, and pings a silent server,
#: before the bot stops (a server that is gone): it never runs on for long without one.
LADDER_RECONNECT_SECONDS = 15.0


def ladder_join(base_url: str, name: str, token: str, variant: str = "classic", players: int = 2) -> dict[str, Any]:
    """``POST /api/ladder/join``: the ladder table the bot ``name`` (with its ``token``) sits at
    next (``room``, ``link``, ``websocket``); sit with ``hello`` (:func:`ladder_play` does it all)."""
    body = {"name": name, "token": token, "variant": variant, "players": players}
    answer = _http("POST", f"{base_url}/api/ladder/join", body)
    if not isinstance(answer, dict) or not isinstance(answer.get("room"), str):
        raise NotUnokitError(f"{base_url} did not answer with a ladder table: is it a unokit server?")
    return answer


def ladder_standings(base_url: str, variant: str, players: int) -> list[dict[str, Any]]:
    """``GET /api/ladder``: the bot ladder's standings of ``variant`` at tables of ``players``;
    :class:`NotUnokitError` when the answer is not a list of places."""
    answer = get_json(base_url, f"/api/ladder?variant={variant}&players={players}")
    places = answer.get("places") if isinstance(answer, dict) else None
    fields = {"place": int, "name": str, "rating": float, "games": int}
    if not isinstance(places, list) or not all(
        isinstance(p, dict) and all(isinstance(p.get(k), (int, float) if t is float else t) for k, t in fields.items())
        for p in places
    ):
        raise NotUnokitError(f"{base_url} did not answer with the ladder's standings: is it a unokit server?")
    return places


async def ladder_play(
    base_url: str,
    name: str,
    token: str,
    choose: Callable[[dict[str, Any]], str],
    *,
    variant: str = "classic",
    players: int = 2,
    tables: int | None = None,
    timeout: float = 600.0,
    on_table: Callable[[dict[str, Any]], None] | None = None,
    on_sit: Callable[[int], None] | None = None,
) -> int:
    """Play ladder tables one after another as the bot ``name``: ask for a table, sit with the
    token, play the game with ``choose`` to its end, and ask again; ``tables`` of them (``None``:
    until cancelled). ``on_sit`` is given the seat at each new table, ``on_table`` each table's
    final state. Returns the tables played."""
    played = 0
    while tables is None or played < tables:
        try:
            table = await asyncio.to_thread(ladder_join, base_url, name, token, variant, players)
        except ServerError as exc:
            if exc.code != "rate_limited":
                raise
            await asyncio.sleep(LADDER_WAIT)  # this address opened its rooms of the minute
            continue
        try:
            client = await RoomClient.join(
                base_url,
                table["room"],
                name=name,
                player=token,
                reconnect_seconds=LADDER_RECONNECT_SECONDS,
                ping_seconds=LADDER_RECONNECT_SECONDS,
            )
        except ServerError as exc:
            if exc.code in ("room_full", "phase", "room_closed", "name_taken"):
                continue  # the table filled or started before this bot sat: ask for another
            raise
        try:
            if on_sit is not None and client.seat is not None:
                on_sit(client.seat)
            final = await play(client, choose, timeout=timeout)
        finally:
            await client.close()
        played += 1
        if on_table is not None:
            on_table(final)
    return played


def push_info(base_url: str) -> dict[str, Any]:
    """Whether the server sends notifications (Web Push), the key to subscribe with (the
    browsers' ``applicationServerKey``) and the kinds of message (``GET /api/push``)."""
    result: dict[str, Any] = _http("GET", f"{base_url.rstrip('/')}/api/push")
    return result


def push_subscribe(
    base_url: str,
    player: str,
    subscription: dict[str, Any],
    lang: str = "en",
    kinds: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Have the identity ``player`` told by Web Push at ``subscription`` (a browser's
    ``PushSubscription.toJSON()``: ``endpoint`` and ``keys``), in ``lang``, of ``kinds`` (by
    default :data:`.push.DEFAULT_KINDS`: all but the deal of the day). Raises :class:`ServerError`
    (``bad_subscription``, ``push_taken``, ``push_off``)."""
    body: dict[str, Any] = {"player": player, "subscription": subscription, "lang": lang}
    if kinds is not None:
        body["kinds"] = list(kinds)
    result: dict[str, Any] = _http("POST", f"{base_url.rstrip('/')}/api/push/subscribe", body)
    return result


def push_unsubscribe(base_url: str, player: str, endpoint: str) -> int:
    """Stop telling the identity ``player`` at ``endpoint``; returns how many were deleted."""
    body = {"player": player, "endpoint": endpoint}
    result: dict[str, Any] = _http("POST", f"{base_url.rstrip('/')}/api/push/unsubscribe", body)
    return int(result["removed"])


def download_record(base_url: str, room: str, game_no: int) -> str:
    """The ``unokit-record/1`` text of finished game ``game_no`` of ``room``."""
    url = f"{base_url.rstrip('/')}/api/rooms/{room}/records/{game_no}"
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return str(response.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        detail = json.loads(exc.read() or b"{}")
        raise ServerError(detail.get("error", str(exc.code)), detail.get("message", str(exc))) from None


def ws_url(base_url: str) -> str:
    """The websocket address of the server at ``base_url``."""
    return websocket_url(base_url)


class RoomClient:
    """One websocket connection to one room, kept alive across reconnects."""

    def __init__(
        self,
        servers: Sequence[str],
        room: str,
        *,
        name: str | None = None,
        token: str | None = None,
        role: str = "player",
        keep: bool = False,
        reconnect: bool = True,
        follow_redirects: bool = True,
        player: str | None = None,
        host_token: str | None = None,
        visible: bool = True,
        reconnect_seconds: float = RECONNECT_SECONDS,
        ping_seconds: float | None = None,
        source: str | None = None,
        pace: bool = True,
    ) -> None:
        """``reconnect_seconds``: how long a dropped connection keeps trying to come back
        before :attr:`error` is set (``disconnected``); ``ping_seconds``: with a number, the
        connection pings the server that often and counts it dropped when a ping goes
        unanswered that long (a server gone without closing its connections); ``pace``: send
        no faster than the welcome's ``rate`` allows (:data:`PACE_SHARE` of it), waiting when
        need be, so that a bot that answers at once is never refused ``rate_limited``."""
        self.servers = list(servers)
        self.reconnect_seconds = reconnect_seconds
        self.ping_seconds = ping_seconds
        #: The local address to connect from (``None``: the system's choice); on loopback,
        #: another of ``127.0.0.0/8`` is another client's address to the server.
        self.source = source
        self.room = room
        self.name = name
        self.token = token
        self.role = role
        self.player = player
        self.host_token = host_token
        #: Whether the client's "page" shows the table (a browser says so when it is hidden);
        #: said in every hello, and by :meth:`look`.
        self.visible = visible
        #: The chat this connection may read, oldest first (each message has ``n``, ``seat``,
        #: ``name``, ``channel``, and ``text`` or ``reaction``).
        self.chat: list[dict[str, Any]] = []
        self.keep = keep
        self.reconnect = reconnect
        self.follow_redirects = follow_redirects
        self.seat: int | None = None
        self.state: dict[str, Any] | None = None
        self.received: list[dict[str, Any]] = []
        self.reconnects = 0
        self.connected = False  # said hello and got the room's state on the current connection
        self._ids = itertools.count(1)
        self._waiting: dict[Any, asyncio.Future[dict[str, Any]]] = {}
        self._changed = asyncio.Event()
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._reconnecting: asyncio.Task[None] | None = None
        self._closed = False
        self._welcome: asyncio.Future[dict[str, Any]] | None = None
        self._first_state: asyncio.Future[None] = asyncio.get_event_loop().create_future()
        self._server_index = 0
        self._redirect_to: str | None = None  # where a redirect sent the client
        self.server: str | None = None  # the websocket address of the current connection
        self.redirected = 0  # redirects followed, in all
        self.error: ServerError | None = None
        self.pace = pace
        #: The welcome's rate (a second, at once) this connection paces itself to, when it does.
        self._pacing: tuple[float, float] | None = None
        self._tokens = 0.0
        self._stamp = 0.0

    @classmethod
    async def join(cls, servers: str | Sequence[str], room: str, **kwargs: Any) -> RoomClient:
        """Connect to ``room`` on the first server that answers (``http://host:port``; several
        for a cluster) and say hello; raises :class:`ServerError` when the hello is refused."""
        client = cls([servers] if isinstance(servers, str) else servers, room, **kwargs)
        await client._connect(first=True)
        return client

    async def __aenter__(self) -> RoomClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ connection
    async def _connect(self, first: bool = False) -> None:
        """Connect to the next server that answers and say hello there. A ``redirect`` (the
        room's owner is another process of a cluster) is followed to the address it names;
        when that address cannot be reached, or after :data:`MOST_REDIRECTS` in a row, the
        client says hello where it was sent from, and that process serves it by forwarding."""
        last: Exception | None = None
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.reconnect_seconds
        redirects = 0
        unreachable: str | None = None
        for attempt in itertools.count():
            target, self._redirect_to = self._redirect_to, None
            if target is None:
                if first and attempt - redirects >= len(self.servers):
                    break
                if not first and attempt > 0 and loop.time() > give_up:
                    break
                index = (self._server_index + attempt - redirects) % len(self.servers)
                url = ws_url(self.servers[index])
            else:
                url = target
            try:
                ping = self.ping_seconds
                local: dict[str, Any] = {} if self.source is None else {"local_addr": (self.source, 0)}
                ws = await connect(url, max_size=2**24, open_timeout=5, ping_interval=ping, ping_timeout=ping, **local)
            except (TimeoutError, OSError, websockets.exceptions.WebSocketException) as exc:
                last = exc
                if target is not None:
                    unreachable = target  # say hello where the redirect came from, once more
                    redirects += 1
                    continue
                await asyncio.sleep(min(0.05 * (attempt + 1), 0.5))
                continue
            if target is None:
                self._server_index = index
            self._ws = ws
            self.server = url
            self._welcome = asyncio.get_running_loop().create_future()
            self._first_state = asyncio.get_running_loop().create_future()
            self._reader = asyncio.get_running_loop().create_task(self._read(ws))
            hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL, "room": self.room, "role": self.role}
            if self.token is not None:
                hello["token"] = self.token
            elif self.name is not None:
                hello["name"] = self.name
            if self.player is not None:
                hello["player"] = self.player
            if self.host_token is not None:
                hello["host_token"] = self.host_token
            if not self.visible:
                hello["visible"] = False
            if self.follow_redirects and redirects < MOST_REDIRECTS:
                hello["redirects"] = True
                if unreachable is not None:
                    hello["unreachable"] = unreachable
            await ws.send(json.dumps(hello))
            welcome = await asyncio.wait_for(self._welcome, 15)
            if welcome["type"] == "redirect":
                self._ws = None  # this connection ends here: no reconnect when it closes
                await ws.close()
                self._redirect_to = str(welcome["websocket"])
                self.redirected += 1
                redirects += 1
                continue
            if welcome["type"] == "error":
                await ws.close()
                raise ServerError(welcome["code"], welcome["message"])
            self.seat = welcome.get("seat")
            self._pace_to(welcome.get("rate"))
            if "token" in welcome:
                self.token = welcome["token"]
            await asyncio.wait_for(self._first_state, 15)
            self.connected = True
            self._changed.set()
            return
        raise ConnectionError(f"no server of {self.servers} answered: {last}")

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                message = json.loads(raw)
                self._receive(message)
        except websockets.exceptions.ConnectionClosed:
            pass
        finally:
            if ws.close_code == SEAT_LOST and self._ws is ws:
                # The seat is no longer this player's: the token is void; never reconnect with it.
                self.token = None
                self.seat = None
                self.reconnect = False
                self.error = ServerError("seat_lost", ws.close_reason or "this seat is no longer yours")
                self._changed.set()
            if self._ws is ws:
                self.connected = False
            if (not self._closed and self._ws is ws and self.reconnect and self.token is not None) or (
                not self._closed and self._ws is ws and self.role == "spectator" and self.reconnect
            ):
                self._reconnecting = asyncio.get_running_loop().create_task(self._reconnect())

    async def _reconnect(self) -> None:
        self.reconnects += 1
        for waiter in self._waiting.values():
            if not waiter.done():
                waiter.set_exception(ConnectionError("the connection dropped; the request may not have arrived"))
        self._waiting.clear()
        self._server_index += 1  # prefer another server of a cluster, in case this one died
        try:
            await self._connect()
        except Exception as exc:
            self.error = ServerError("disconnected", str(exc))
            self._changed.set()

    def _receive(self, message: dict[str, Any]) -> None:
        if self.keep:
            self.received.append(message)
        kind = message.get("type")
        welcoming = self._welcome is not None and not self._welcome.done()
        if welcoming and (kind in ("welcome", "redirect") or (kind == "error" and "reply_to" not in message)):
            assert self._welcome is not None
            self._welcome.set_result(message)
            return
        if kind == "redirect":  # the room moved to another process: go there
            self._redirect_to = str(message["websocket"])
            self.redirected += 1
        if kind == "state":
            self.state = message
            if not self._first_state.done():
                self._first_state.set_result(None)
        elif kind == "room" and self.state is not None:
            self.state = {**self.state, "room": message["room"], "events": [], "narration": []}
        elif kind == "error" and "state" in message:
            self.state = message["state"]
        elif kind == "chat":
            self._chat(message)
        elif kind == "closed":
            self._closed = True
        reply_to = message.get("reply_to")
        waiter = self._waiting.pop(reply_to, None) if reply_to is not None else None
        if waiter is not None and not waiter.done() and kind in ("ack", "error", "pong", "state", "hint"):
            waiter.set_result(message)
        self._changed.set()

    def _chat(self, message: dict[str, Any]) -> None:
        """Keep the chat in order: a ``history`` message replaces what was kept (on every
        hello), others add to it (spectators' lines of a game may arrive once it is over)."""
        known = {} if message.get("history") else {m["n"]: m for m in self.chat}
        known.update({m["n"]: m for m in message["messages"]})
        self.chat = [known[n] for n in sorted(known)]

    async def close(self) -> None:
        """Leave: close the connection and stop reconnecting."""
        self._closed = True
        if self._reconnecting is not None and not self._reconnecting.done():
            self._reconnecting.cancel()
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader

    async def drop(self) -> None:
        """Cut the connection as a network failure would (the client then reconnects)."""
        if self._ws is not None:
            with contextlib.suppress(Exception):
                self._ws.transport.abort()

    # ------------------------------------------------------------------ requests
    async def request(self, message: dict[str, Any], timeout: float = REQUEST_SECONDS) -> dict[str, Any]:
        """Send ``message`` with a fresh ``id`` and wait for its answer; raise :class:`ServerError`
        for an ``error`` answer."""
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        try:
            await self.send({**message, "id": ident})
        except ConnectionError:
            self._waiting.pop(ident, None)
            if future.done():
                future.exception()  # the drop may have failed it already: this error says the same
            raise
        answer = await asyncio.wait_for(future, timeout)
        if answer["type"] == "error":
            raise ServerError(answer["code"], answer["message"], answer.get("state"))
        return answer

    def _pace_to(self, rate: object) -> None:
        """Pace this connection to the welcome's ``rate`` (a new connection: a full allowance,
        less the ``hello`` and one to spare), or not at all without one."""
        self._pacing = None
        if self.pace and isinstance(rate, dict):
            per_second, burst = float(rate["per_second"]), float(rate["burst"])
            self._pacing = (per_second * PACE_SHARE, max(1.0, burst - 2.0))
            self._tokens, self._stamp = self._pacing[1], time.monotonic()

    def _wait_to_send(self) -> float:
        """Take one message from the paced allowance: the seconds to wait before sending it."""
        if self._pacing is None:
            return 0.0
        per_second, burst = self._pacing
        now = time.monotonic()
        self._tokens = min(burst, self._tokens + (now - self._stamp) * per_second) - 1.0
        self._stamp = now
        return max(0.0, -self._tokens / per_second)

    async def send(self, message: dict[str, Any] | str) -> None:
        """Send a raw message (a dict, or any text: tests send malformed ones), paced to the
        server's rate when the client paces itself; raise ``ConnectionError`` when the
        connection is down or still saying hello (it reconnects by itself): a message sent
        before the welcome could go down a connection that a redirect then ends, where nothing
        would ever answer it."""
        if self._ws is None or not self.connected:
            raise ConnectionError("not connected")
        wait = self._wait_to_send()
        if wait > 0:
            await asyncio.sleep(wait)
            if self._ws is None or not self.connected:
                raise ConnectionError("not connected")
        try:
            await self._ws.send(message if isinstance(message, str) else json.dumps(message))
        except websockets.exceptions.ConnectionClosed as exc:
            raise ConnectionError(f"the connection dropped: {exc}") from None

    async def act(self, action: str, version: int | None = None) -> dict[str, Any]:
        """Take ``action`` (text notation) at the current state version; returns the ``ack``.
        A room may hold an in-turn action while a window is open (``catch_seconds`` or
        ``jump_seconds``, at most :data:`MOST_HELD` seconds) and answers it only then, so this
        waits that much longer than other requests."""
        if self.token is None:
            raise ServerError("spectator", "this client holds no seat")
        return await self.request(
            {
                "type": "action",
                "action": action,
                "token": self.token,
                "version": self.version if version is None else version,
            },
            timeout=REQUEST_SECONDS + MOST_HELD,
        )

    async def back(self) -> dict[str, Any]:
        """Take the seat back from the stand-in bot that plays it while this player was away."""
        if self.token is None:
            raise ServerError("spectator", "this client holds no seat")
        return await self.request({"type": "back", "token": self.token})

    async def look(self, visible: bool) -> dict[str, Any]:
        """Say that the client's page shows the table (``True``) or is hidden (a browser tab in
        the background): a player who does not look may be told by Web Push; one who looks
        again takes the seat back from the stand-in."""
        self.visible = visible
        return await self.request({"type": "visibility", "visible": visible})

    async def more_time(self) -> dict[str, Any]:
        """At this seat's turn, while its timer runs: ask for more time (``more_time``)."""
        if self.token is None:
            raise ServerError("spectator", "this client holds no seat")
        return await self.request({"type": "more_time", "token": self.token})

    async def host(self, command: str, host_token: str, **fields: Any) -> dict[str, Any]:
        """A host command (``add_bot``, ``kick``, ``replace``, ``start``, ``continue``, ``close``,
        ``pause``, ``resume``, ...)."""
        return await self.request(
            {"type": "host", "command": command, "host_token": host_token, "version": self.version, **fields}
        )

    async def say(self, text: str) -> dict[str, Any]:
        """Write ``text`` in the room's chat (as the seat, or as a spectator); returns the ``ack``."""
        return await self.request(self._chat_message({"type": "chat", "text": text}))

    async def react(self, reaction: str) -> dict[str, Any]:
        """Send a quick reaction (``uno``, ``nice``, ``oops``, ...: :data:`unokit.server.chat.REACTIONS`)."""
        return await self.request(self._chat_message({"type": "chat", "reaction": reaction}))

    def _chat_message(self, message: dict[str, Any]) -> dict[str, Any]:
        if self.token is not None and self.seat is not None:
            message["token"] = self.token
        return message

    async def ready(self, ready: bool = True) -> dict[str, Any]:
        """After a game: ask to play again (or take it back). The next game starts once every
        player present is ready."""
        if self.token is None:
            raise ServerError("spectator", "this client holds no seat")
        return await self.request({"type": "ready", "token": self.token, "ready": ready})

    async def leave(self) -> dict[str, Any]:
        """Give the seat up (before a game or after one); the connection stays as a spectator."""
        if self.token is None:
            raise ServerError("spectator", "this client holds no seat")
        answer = await self.request({"type": "leave", "token": self.token})
        self.token = None
        self.seat = None
        return answer

    async def wait_for(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 30.0) -> dict[str, Any]:
        """Wait until the latest state satisfies ``predicate``; return that state."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            if self.state is not None and predicate(self.state):
                return self.state
            if self.error is not None:
                raise self.error
            self._changed.clear()
            remaining = end - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"the state did not reach the expected condition in {timeout} s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)

    # ------------------------------------------------------------------ reading the state
    @property
    def version(self) -> int:
        return int(self.state["version"]) if self.state is not None else 0

    @property
    def observation(self) -> dict[str, Any] | None:
        return self.state.get("observation") if self.state is not None else None

    @property
    def phase(self) -> str:
        return str(self.state["room"]["phase"]) if self.state is not None else "unknown"

    @property
    def legal_actions(self) -> list[str]:
        obs = self.observation
        return list(obs["legal_actions"]) if obs is not None and self.phase == "playing" else []

    @property
    def my_turn(self) -> bool:
        obs = self.observation
        return obs is not None and self.phase == "playing" and obs["to_act"] == self.seat


async def play(
    client: RoomClient, choose: Callable[[dict[str, Any]], str], *, timeout: float = 600.0
) -> dict[str, Any]:
    """Play ``client``'s seat until the game is over: whenever it is this seat's decision, send
    ``choose(observation)`` (one of ``observation["legal_actions"]``). Refusals because the state
    moved on (``stale``, ``duplicate``, ``out_of_turn``) are normal in a live room and skipped.
    Returns the final state. An external bot is exactly this loop."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        state = await client.wait_for(
            lambda s: s["room"]["phase"] in ("finished", "closed") or client.my_turn, end - loop.time()
        )
        if state["room"]["phase"] in ("finished", "closed"):
            return state
        observation = state["observation"]
        try:
            await client.act(choose(observation), state["version"])
        except ServerError as exc:
            if exc.code not in ("stale", "duplicate", "out_of_turn", "unavailable"):
                raise
        except ConnectionError:
            if client.error is not None:  # it gave up reconnecting: the last state is all it has
                raise client.error from None
            await asyncio.sleep(0.05)  # reconnecting by itself: give it a moment


def _next_game(game_no: int) -> Callable[[dict[str, Any]], bool]:
    """A :meth:`RoomClient.wait_for` predicate: a game after ``game_no`` has started (or the room closed)."""
    return lambda state: bool(state["room"]["game_no"] > game_no or state["room"]["phase"] == "closed")


def first_legal(observation: dict[str, Any]) -> str:
    """The simplest external bot: always the first legal action."""
    return str(observation["legal_actions"][0])


async def play_again(
    client: RoomClient, choose: Callable[[dict[str, Any]], str], *, games: int, timeout: float = 600.0
) -> list[dict[str, Any]]:
    """Play ``games`` games in a row in ``client``'s room: after each one, say "play again" and
    wait for the next to start (when every player present is ready, or the host starts it).
    Returns each game's final state. An external bot that stays at the table is this loop."""
    finals = []
    for number in range(games):
        final = await play(client, choose, timeout=timeout)
        finals.append(final)
        if number == games - 1 or final["room"]["phase"] == "closed":
            break
        await client.ready()
        await client.wait_for(_next_game(final["room"]["game_no"]), timeout)
    return finals


__all__ = [
    "RoomClient",
    "ServerError",
    "create_room",
    "daily_board",
    "daily_deals",
    "daily_start",
    "download_record",
    "first_legal",
    "forget_me",
    "get_json",
    "join_play_now",
    "ladder_join",
    "ladder_play",
    "ladder_standings",
    "leaderboard",
    "lobby",
    "my_games",
    "new_identity",
    "play",
    "play_again",
    "play_now",
    "ratings_join",
    "ratings_leave",
    "ratings_mine",
    "ws_url",
]
