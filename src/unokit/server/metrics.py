"""What ``GET /metrics`` says about a server process, in Prometheus's text format
(``prometheus_client``; ``docs/server.md``, "Metrics").

Counters and histograms are kept as things happen (an action committed, a refusal, a commit,
a bot's move, a connection closed as too slow); the gauges (rooms by phase, connections) are
read from the process when the page is asked for. Each :class:`Metrics` has a registry of its
own, with the process's own collectors (memory, CPU, open files, garbage collection).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    GC_COLLECTOR,
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from .room import PHASES

#: Buckets of the latencies, in seconds: from a millisecond to ten seconds.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: Buckets of a bot's thinking time (CPU seconds a move).
THINKING_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

CONTENT_TYPE = CONTENT_TYPE_LATEST


class _Gauges(Collector):
    """The gauges read at each scrape from ``read()``: ``{"rooms": {(phase, role): n}, ...}``."""

    def __init__(self, read: Callable[[], dict[str, Any]]) -> None:
        self.read = read

    def collect(self) -> Iterator[Metric]:
        now = self.read()
        rooms = GaugeMetricFamily(
            "unokit_rooms", "Rooms in this process, by phase and by role (owner or follower)", labels=["phase", "role"]
        )
        for (phase, role), count in sorted(now["rooms"].items()):
            rooms.add_metric([phase, role], count)
        yield rooms
        yield GaugeMetricFamily(
            "unokit_games_in_progress", "Games being played in the rooms this process owns", value=now["games"]
        )
        yield GaugeMetricFamily("unokit_websockets", "Open websocket connections", value=now["websockets"])
        yield GaugeMetricFamily(
            "unokit_connections", "Open TCP connections (HTTP and websockets)", value=now["connections"]
        )
        yield GaugeMetricFamily(
            "unokit_push_queue", "Web Push messages waiting to be sent", value=now.get("push_queue", 0)
        )
        yield GaugeMetricFamily(
            "unokit_ready", "1 when the process serves rooms, 0 while it starts or stops", value=now["ready"]
        )


class Metrics:
    """The metrics of one server process (see the module docstring)."""

    def __init__(self) -> None:
        disable_created_metrics()  # type: ignore[no-untyped-call]  # a "_created" series per counter says nothing here
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)
        self.registry.register(GC_COLLECTOR)
        self.actions = Counter(
            "unokit_actions", "Actions committed (players', stand-ins' and bots')", registry=self.registry
        )
        self.games_started = Counter("unokit_games_started", "Games started", registry=self.registry)
        self.games_finished = Counter("unokit_games_finished", "Games played to their end", registry=self.registry)
        self.rooms_created = Counter("unokit_rooms_created", "Rooms created", registry=self.registry)
        self.reports = Counter("unokit_reports", "Players' reports kept", registry=self.registry)
        self.rooms_closed = Counter(
            "unokit_rooms_closed", "Rooms closed, by reason", ["reason"], registry=self.registry
        )
        self.refusals = Counter(
            "unokit_refusals",
            "Requests and messages refused, by error code and by where (websocket, http, tcp)",
            ["code", "via"],
            registry=self.registry,
        )
        self.action_latency = Histogram(
            "unokit_action_broadcast_seconds",
            "From a player's action reaching its room's queue to the new state sent to everyone",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.commit_latency = Histogram(
            "unokit_db_commit_seconds",
            "One group commit of the writer (all the rooms' entries waiting)",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.bot_thinking = Histogram(
            "unokit_bot_thinking_seconds",
            "CPU time of a search bot's move, in the bot pool",
            buckets=THINKING_BUCKETS,
            registry=self.registry,
        )
        self.push_sent = Counter(
            "unokit_push_sent", "Web Push messages a push service accepted, by kind", ["kind"], registry=self.registry
        )
        self.push_failures = Counter(
            "unokit_push_failures",
            "Web Push messages not delivered, by kind and reason (dropped, throttled, no_key, blocked, gone, "
            "refused, unavailable, network)",
            ["kind", "reason"],
            registry=self.registry,
        )
        self.too_slow = Counter(
            "unokit_send_buffer_closes",
            "Connections closed because their client did not read (--send-buffer)",
            registry=self.registry,
        )

    def watch(self, read: Callable[[], dict[str, Any]]) -> None:
        """Read the gauges from ``read()`` at each scrape (see :class:`_Gauges`)."""
        self.registry.register(_Gauges(read))

    def pushed(self, kind: str, failure: str | None) -> None:
        """Count a Web Push message of ``kind``: sent (``failure`` ``None``) or why not."""
        if failure is None:
            self.push_sent.labels(kind=kind).inc()
        else:
            self.push_failures.labels(kind=kind, reason=failure).inc()

    def refused(self, code: str, via: str) -> None:
        self.refusals.labels(code=code, via=via).inc()

    def page(self) -> bytes:
        """The metrics in Prometheus's text format."""
        return generate_latest(self.registry)


def count_rooms(rooms: Iterator[tuple[str, bool]]) -> dict[tuple[str, str], int]:
    """Rooms counted by ``(phase, "owner" | "follower")``, every phase present."""
    counts = {(phase, role): 0 for phase in PHASES for role in ("owner", "follower")}
    for phase, owner in rooms:
        key = (phase, "owner" if owner else "follower")
        counts[key] = counts.get(key, 0) + 1
    return counts


__all__ = ["CONTENT_TYPE", "Metrics", "count_rooms"]
