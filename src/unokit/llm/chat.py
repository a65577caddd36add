"""A client of the OpenAI-compatible chat-completions API (``POST {base}/chat/completions``),
standard library only: what vLLM, llama.cpp's server, Ollama, LM Studio, SGLang and the hosted
services answer.

One call sends one user message and reads the first choice's ``message.content``. A call has
a deadline: it is stopped when the deadline passes (:class:`ChatTimeout`). Anything else that
goes wrong (the server unreachable, an HTTP error status, a body that is not the API's JSON)
raises :class:`ChatError` naming the problem. The key, when the service needs one, is read
from the environment variable :data:`API_KEY_VARIABLE` and sent as a bearer token.
"""

from __future__ import annotations

import json
import os
import re
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

#: The environment variable holding the API key (sent as ``Authorization: Bearer KEY``).
API_KEY_VARIABLE = "UNOKIT_LLM_API_KEY"
#: The model asked for when the spec names none.
DEFAULT_MODEL = "default"
#: The largest response body read, in bytes.
MAX_BODY = 1 << 20

_SPEC = re.compile(r"^(?P<url>https?://[^/:\s]+(?::\d{1,5})?(?:/[^:\s]*)?)(?::(?P<model>\S+))?$")


class ChatError(Exception):
    """The endpoint did not give an answer: the reason in words."""


class ChatTimeout(ChatError):
    """The endpoint did not answer before the deadline."""


@dataclass(frozen=True)
class Endpoint:
    """Where to ask: the chat-completions ``url`` and the ``model`` to name."""

    url: str
    model: str

    @classmethod
    def parse(cls, text: str) -> Endpoint:
        """``URL[:MODEL]`` (``http://127.0.0.1:8000/v1:qwen2.5-7b``): the API's base URL (the
        ``/chat/completions`` path is added unless it is there) and the model; raise
        :class:`ValueError` naming what is wrong."""
        match = _SPEC.match(text.strip())
        if match is None:
            raise ValueError(
                f"{text!r} is not URL[:MODEL] with an http:// or https:// URL, e.g. http://127.0.0.1:8000/v1:my-model"
            )
        url = match.group("url").rstrip("/")
        if not url.endswith("/chat/completions"):
            url += "/chat/completions"
        return cls(url, match.group("model") or DEFAULT_MODEL)


def complete(endpoint: Endpoint, prompt: str, deadline: float, seed: int) -> str:
    """The model's answer to ``prompt`` (one user message), asked greedily (temperature 0)
    with ``seed``; ``deadline`` is a :func:`time.monotonic` time. Raise :class:`ChatTimeout`
    when it passes first, :class:`ChatError` when the endpoint gives no answer."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise ChatTimeout("no time was left to ask the model")
    body = {
        "model": endpoint.model,
        "messages": [{"role": "user", "content": prompt}],
        "temperature": 0,
        "seed": seed % (1 << 31),
    }
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    key = os.environ.get(API_KEY_VARIABLE)
    if key:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(endpoint.url, json.dumps(body).encode("utf-8"), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=left) as response:
            raw = response.read(MAX_BODY + 1)
    except urllib.error.HTTPError as exc:
        raise ChatError(f"the endpoint answered HTTP {exc.code}") from None
    except TimeoutError as exc:
        raise ChatTimeout(f"the model did not answer in time ({exc})") from None
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, TimeoutError | socket.timeout):
            raise ChatTimeout("the model did not answer in time") from None
        raise ChatError(f"the endpoint could not be reached: {exc.reason}") from None
    except OSError as exc:
        raise ChatError(f"the connection failed: {exc}") from None
    if time.monotonic() > deadline:
        raise ChatTimeout("the model answered after the deadline")
    if len(raw) > MAX_BODY:
        raise ChatError(f"the answer was over {MAX_BODY} bytes")
    return _content(raw)


def _content(raw: bytes) -> str:
    """The first choice's message text of a chat-completions response body."""
    try:
        obj: Any = json.loads(raw)
        content = obj["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise ChatError("the answer was not a chat-completions response") from None
    if not isinstance(content, str):
        raise ChatError("the answer's message had no text")
    return content


__all__ = ["API_KEY_VARIABLE", "DEFAULT_MODEL", "ChatError", "ChatTimeout", "Endpoint", "complete"]
