"""A fake OpenAI-compatible chat-completions endpoint on loopback, for the tests: what it
answers depends on the model named in the request.

* ``scripted``: the last card it may play that the prompt lists (action cards and wilds are
  listed last), else the first legal move, in brackets after some words;
* ``json``: the first legal move as a JSON block;
* ``malformed``: text that names no move;
* ``illegal``: a move of the notation that is never legal (``play purple 12``);
* ``stubborn``: malformed for its first three requests (one decision and its retries), then scripted;
* ``flaky``: malformed on a decision's first request, the scripted answer when told it failed;
* ``error``: HTTP 500;
* ``garbage``: HTTP 200 with a body that is not the API's JSON;
* ``slow``: the scripted answer after :data:`SLOW_S` seconds (or as soon as the server stops).
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: How long the ``slow`` model takes, at most.
SLOW_S = 5.0
_MOVES = re.compile(r"Your legal moves: (.*)")


class FakeEndpoint:
    """The server and what it saw: ``requests`` per model, the ``bodies`` it was sent."""

    def __init__(self) -> None:
        self.requests: Counter[str] = Counter()
        self.bodies: list[dict[str, Any]] = []
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                model = str(body.get("model"))
                with fake.lock:
                    fake.requests[model] += 1
                    fake.bodies.append(body)
                    count = fake.requests[model]
                text = body["messages"][-1]["content"]
                legal = re.findall(r"\[([^\]]+)\]", _MOVES.findall(text)[-1])
                if model == "error":
                    self._send(500, b'{"error": "overloaded"}')
                    return
                if model == "garbage":
                    self._send(200, b"<html>not json</html>")
                    return
                if model == "slow":
                    fake.stopping.wait(SLOW_S)
                if model == "json":
                    answer = "Let me see.\n```json\n" + json.dumps({"move": legal[0]}) + "\n```"
                elif model == "malformed" or (model == "stubborn" and count <= 3):
                    answer = "I would rather not say."
                elif model == "illegal":
                    answer = "[play purple 12]"
                elif model == "flaky" and "previous answer" not in text:
                    answer = "Hmm."
                else:
                    plays = [m for m in legal if m.startswith("play")]
                    answer = f"I think the best is [{plays[-1] if plays else legal[0]}]"
                reply = {"choices": [{"index": 0, "message": {"role": "assistant", "content": answer}}]}
                self._send(200, json.dumps(reply).encode())

            def _send(self, status: int, payload: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:
                    pass  # the client gave up (the slow model)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def spec(self, model: str) -> str:
        return f"llm:{self.url}:{model}"


@contextmanager
def fake_endpoint() -> Iterator[FakeEndpoint]:
    """A running :class:`FakeEndpoint`, stopped on leaving."""
    fake = FakeEndpoint()
    thread = threading.Thread(target=fake.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        fake.stopping.set()
        fake.server.shutdown()
        fake.server.server_close()
        thread.join(10)
