"""A bound on what the server holds for a client that does not read (``--send-buffer``).

uvicorn's sans-I/O websockets protocol (``ws="websockets-sansio"``) writes every message into the
connection's asyncio transport. When the client stops reading, its socket buffers fill, the
transport keeps what it cannot write, and once that passes the transport's high-water mark
(64 KiB under uvloop) uvicorn makes every further send wait until the client reads again. The
server's sender task then waits forever, and so does a close: the messages the rooms deliver
meanwhile pile up in the application, and the connection is never let go.

:class:`BoundedWebSocketProtocol` is that protocol with the high-water mark moved to the limit
and the pause replaced by a drop: a send never waits, everything unsent stays in one place (the
transport's write buffer, counted by the transport itself), and the moment the transport holds
more than ``send_buffer`` bytes the client has not taken, the connection is closed with
:data:`TOO_SLOW` and a reason. The application sees a disconnect at once (the room treats it
like any dropped connection: the seat stays its player's), the close frame is queued after the
unread data for a client that reads again, and the connection is cut with a reset (its buffers
freed) at the latest ``close_timeout`` seconds later.

uvicorn closes a connection by closing its transport, which first sends all it holds: with a
client that does not read, a closed connection would stay open for ever (and a stopping server
would wait for it). Here every way a connection is closed (by the application, a missed ping, a
server stop, a drop) ends it within ``close_timeout`` seconds, with a reset if need be.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import struct
from asyncio import BaseTransport, Task, TimerHandle, Transport
from collections.abc import Callable
from typing import Any, ClassVar, cast

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from . import DEFAULT_SEND_BUFFER, SEND_BUFFER_RANGE
from .connections import ConnectionGuard
from .protocol import TOO_SLOW

log = logging.getLogger("unokit.server")


class BoundedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets protocol, closing a connection whose transport holds more than
    :attr:`send_buffer` unsent bytes (the client stopped reading) instead of pausing it, and
    ending every connection that is closing within ``close_timeout`` seconds."""

    #: Unsent bytes one connection may hold before it is closed as too slow.
    send_buffer: ClassVar[int] = DEFAULT_SEND_BUFFER
    #: The guard that counted the connection when it was accepted (as HTTP): told when it ends.
    guard: ClassVar[ConnectionGuard | None] = None
    #: Told of every connection closed as too slow (the metrics count them).
    on_too_slow: ClassVar[tuple[Callable[[], None], ...]] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lost = False
        self.cut_timer: TimerHandle | None = None

    def connection_made(self, transport: BaseTransport) -> None:
        super().connection_made(transport)
        # The transport calls pause_writing() once it holds more than this.
        cast(Transport, transport).set_write_buffer_limits(high=self.send_buffer)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        if self.guard is not None:
            self.guard.release(self.transport)
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        """The transport holds more than :attr:`send_buffer` bytes the client has not read."""
        self.drop_too_slow()

    def drop_too_slow(self) -> None:
        """Close the connection as too slow: tell the application it is gone, queue the close
        frame after the unread data, send nothing more, and cut it after ``close_timeout``."""
        if self.disconnected:
            return
        unsent = self.unsent()
        reason = f"too slow: over {self.send_buffer} bytes unread"
        log.warning(
            "closing %s as too slow: %d bytes unsent, over --send-buffer %d", self.peer, unsent, self.send_buffer
        )
        for tell in self.on_too_slow:
            tell()
        self.stop_keepalive()
        self.queue.put_nowait({"type": "websocket.disconnect", "code": TOO_SLOW, "reason": reason})
        self.disconnected = True  # every further send of the application fails at once
        if not self.close_sent:
            self.conn.send_close(TOO_SLOW, reason)
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
        if self.read_paused:  # read on, for the client's answer to the close frame
            self.read_paused = False
            self.transport.resume_reading()
        self.cut_later()

    # The ways a connection is closed, each with its deadline (see the module's docstring).
    def on_task_complete(self, task: Task[None]) -> None:
        """The application is done with the connection (it closed it, or saw it go)."""
        super().on_task_complete(task)
        self.cut_later()

    def keepalive_timeout(self) -> None:
        """The client did not answer a ping: uvicorn closes (1011), without telling the application."""
        super().keepalive_timeout()
        self.cut_later()

    def shutdown(self) -> None:
        """The server stops: uvicorn closes (1012) and waits for the connection to end."""
        super().shutdown()
        self.cut_later()

    def cut_later(self) -> None:
        """Cut the connection ``close_timeout`` seconds from now unless it has ended by then
        (uvicorn's own close timer is replaced: it only closes, which waits for the client)."""
        if self.lost or (self.cut_timer is not None and not self.cut_timer.cancelled()):
            return
        if self.close_timer is not None:
            self.close_timer.cancel()
        # close_timer: uvicorn cancels it when the closing handshake completes or the connection is lost
        self.close_timer = self.cut_timer = self.loop.call_later(self.close_timeout, self.cut)

    def cut(self) -> None:
        """End the connection now with a reset: what is still unsent, here and in the operating
        system's socket buffer, is dropped (a plain close would keep trying to send it)."""
        if self.lost:
            return
        log.warning("cutting %s: %d bytes unsent %g s after its close", self.peer, self.unsent(), self.close_timeout)
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()

    @property
    def peer(self) -> str:
        """The client's address, for the log."""
        return f"{self.client[0]}:{self.client[1]}" if self.client else "a client"

    def unsent(self) -> int:
        """The bytes the transport holds that the client has not taken yet."""
        return self.transport.get_write_buffer_size()


def websocket_protocol(
    send_buffer: int, guard: ConnectionGuard | None = None, on_too_slow: Callable[[], None] | None = None
) -> type[BoundedWebSocketProtocol]:
    """The protocol class to give uvicorn (``ws=``) for a limit of ``send_buffer`` bytes; the
    connections it takes over from HTTP are released from ``guard`` when they end, and
    ``on_too_slow()`` is told of each one closed as too slow."""
    low, high = SEND_BUFFER_RANGE
    if not low <= send_buffer <= high:
        raise ValueError(f"the send buffer must be between {low} and {high} bytes, not {send_buffer}")

    class Limited(BoundedWebSocketProtocol):
        pass

    Limited.send_buffer = send_buffer
    Limited.guard = guard
    Limited.on_too_slow = () if on_too_slow is None else (on_too_slow,)
    return Limited


__all__ = ["BoundedWebSocketProtocol", "websocket_protocol"]
