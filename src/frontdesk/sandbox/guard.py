"""The sandbox's front door: authentication, the rate budget and fault injection.

A plain ASGI middleware (no per-request objects when nothing is switched on), so the
sandbox stays fast enough to benchmark against.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .context import SandboxContext
from .errors import MESSAGES
from .faults import Fault

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

OPEN_PATHS = frozenset({"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc", "/health"})

RATE = 10.0
BURST = 4.0

#: ``/v1/conversations/<word>``: where the service names its collection-wide operations
#: (``import``, ``activitylog``, ``flows``). A word there that names none of them is an
#: unknown path (404), not a malformed conversation id: a conversation id is a number.
_CONVERSATIONS_NAME = re.compile(r"/v1/conversations/[A-Za-z][A-Za-z_-]*")


class TokenBucket:
    """The service's budget for one key: ``RATE`` requests a second, bursts of ``BURST``."""

    __slots__ = ("clock", "stamp", "tokens")

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.tokens = BURST
        self.stamp = clock()

    def take(self) -> float:
        """Spend a token; 0 when allowed, else the seconds until one is free."""
        now = self.clock()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / RATE


def _error(status: int, message: str, headers: list[tuple[bytes, bytes]] | None = None
           ) -> tuple[dict[str, Any], dict[str, Any]]:
    body = json.dumps({"message": message}).encode()
    start = {
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()), *(headers or [])],
    }
    return start, {"type": "http.response.body", "body": body}


class MethodTable:
    """Which methods each path supports, with literal segments winning over parameters.

    ``/v1/agents/bulk`` is its own resource (POST only), not an agent id for
    ``/v1/agents/{agentId}``; the router alone would try the parameter route and answer 400
    for a bad id, where the right answer is 405 with the methods the resource has.
    """

    def __init__(self, templates: dict[str, set[str]]) -> None:
        self._by_length: dict[int, list[tuple[tuple[str | None, ...], frozenset[str]]]] = {}
        #: paths without parameters: resources with a name of their own
        self.named = frozenset(t for t in templates if "{" not in t)
        for template, methods in templates.items():
            parts = tuple(None if p.startswith("{") else p for p in template.split("/"))
            self._by_length.setdefault(len(parts), []).append((parts, frozenset(methods)))
        for entries in self._by_length.values():
            entries.sort(key=lambda e: sum(p is None for p in e[0]))

    def allowed(self, path: str) -> frozenset[str] | None:
        """The methods of the most specific template matching ``path`` (None: no resource)."""
        parts = path.split("/")
        for template, methods in self._by_length.get(len(parts), ()):
            if all(t is None or t == p for t, p in zip(template, parts, strict=True)):
                return methods
        return None


class Guard:
    """Authentication, rate budget and faults in front of the FastAPI app."""

    def __init__(self, app: ASGIApp, ctx: SandboxContext,
                 methods: MethodTable | None = None) -> None:
        self.app = app
        self.ctx = ctx
        self.buckets: dict[str, TokenBucket] = {}
        self.methods = methods

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path in OPEN_PATHS:
            await self.app(scope, receive, send)
            return
        key = self._key(scope, path)
        if key is None:
            await self._send(send, *_error(401, MESSAGES[401]))
            return
        if self.ctx.rate_limit:
            bucket = self.buckets.get(key)
            if bucket is None:
                bucket = self.buckets[key] = TokenBucket(self.ctx.rate_clock)
            wait = bucket.take()
            if wait:
                retry = str(max(1, math.ceil(wait))).encode()
                await self._send(send, *_error(429, MESSAGES[429] + ": 10 requests per second",
                                               [(b"retry-after", retry)]))
                return
        if self.methods is not None:
            if _CONVERSATIONS_NAME.fullmatch(path) and path not in self.methods.named:
                await self._send(send, *_error(404, "No such route: " + MESSAGES[404]))
                return
            allowed = self.methods.allowed(path)
            if allowed is not None and scope["method"] not in allowed:
                allow = ", ".join(sorted(allowed)).encode()
                await self._send(send, *_error(405, "Method not allowed",
                                               [(b"allow", allow)]))
                return
        if self.ctx.faults.active:
            fired = self.ctx.faults.take(scope["method"], path)
            if fired:
                await self._faulty(fired, scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _key(self, scope: Scope, path: str) -> str | None:
        """The API key of a request when it is one of ours, else None."""
        header = b""
        for name, value in scope["headers"]:
            if name == b"authorization":
                header = value
                break
        if not header:
            return None
        try:
            text = header.decode("latin-1").strip()
        except UnicodeDecodeError:  # pragma: no cover - latin-1 always decodes
            return None
        if text in self.ctx.keys:
            return text
        if path.startswith(self.ctx.integrations_prefix + "/") and text[:7].lower() == "bearer ":
            token = text[7:].strip()
            if token in self.ctx.keys:
                return token
        return None

    @staticmethod
    async def _send(send: Send, start: dict[str, Any], body: dict[str, Any]) -> None:
        await send(start)
        await send(body)

    async def _faulty(self, fired: list[Fault], scope: Scope, receive: Receive, send: Send
                      ) -> None:
        for fault in fired:
            if fault.kind == "latency":
                await asyncio.sleep(fault.seconds)
        for fault in fired:
            if fault.kind == "status":
                await self._send(send, *_error(fault.status, MESSAGES.get(
                    fault.status, "Service unavailable (injected fault)")))
                return
            if fault.kind == "rate_limit":
                retry = str(max(0, math.ceil(fault.seconds))).encode()
                await self._send(send, *_error(429, MESSAGES[429], [(b"retry-after", retry)]))
                return
        drop = any(f.kind == "drop" for f in fired)
        garbage = next((f for f in fired if f.kind == "garbage"), None)
        if not drop and garbage is None:
            await self.app(scope, receive, send)
            return
        captured: list[Message] = []

        async def capture(message: Message) -> None:
            captured.append(message)

        await self.app(scope, receive, capture)
        if drop:
            # The write is committed; now break the response so the caller cannot know.
            for message in captured:
                if message["type"] == "http.response.start":
                    headers = [(k, v) for k, v in message.get("headers", [])
                               if k.lower() != b"content-length"]
                    headers.append((b"content-length", b"1000"))
                    await send({**message, "headers": headers})
                    break
            return
        assert garbage is not None
        await self._garbage(garbage, captured, receive, send)

    async def _garbage(self, fault: Fault, captured: list[Message], receive: Receive,
                       send: Send) -> None:
        status = 200
        original = b""
        for message in captured:
            if message["type"] == "http.response.start":
                status = int(message["status"])
            elif message["type"] == "http.response.body":
                original += message.get("body", b"")
        kind = fault.garbage
        content_type = b"application/json"
        chunks: list[bytes]
        if kind == "html":
            content_type = b"text/html"
            chunks = [b"<html><head><title>502 Bad Gateway</title></head>"
                      b"<body><h1>Bad Gateway</h1></body></html>"]
        elif kind == "truncated":
            chunks = [original[: max(1, len(original) // 2)]]
        elif kind == "unknown_type":
            chunks = [_mutate(original, unknown=True)]
        elif kind == "wrong_types":
            chunks = [_mutate(original, unknown=False)]
        elif kind == "huge":
            filler = b" " * (10 * 1024 * 1024)
            chunks = [b'{"data": [', filler, b"]}"]
        else:  # slow_drip
            chunks = [bytes([b]) for b in original] or [b"{}"]
        total = sum(len(c) for c in chunks)
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", content_type),
                                (b"content-length", str(total).encode())]})
        # A drip stops when the client hangs up: nobody reads the rest, and a stopping
        # server would otherwise wait for it.
        gone = asyncio.ensure_future(_hung_up(receive)) if kind == "slow_drip" else None
        try:
            for index, chunk in enumerate(chunks):
                last = index == len(chunks) - 1
                if gone is not None:
                    await asyncio.wait({gone}, timeout=fault.seconds or 0.05)
                    if gone.done():
                        return
                await send({"type": "http.response.body", "body": chunk, "more_body": not last})
        finally:
            if gone is not None:
                gone.cancel()


async def _hung_up(receive: Receive) -> None:
    """Return once the client has closed the connection (skipping any unread body)."""
    while (await receive())["type"] != "http.disconnect":
        pass


def _mutate(body: bytes, *, unknown: bool) -> bytes:
    """A JSON body with every ``_type`` unknown and new fields (or every value mistyped)."""
    try:
        value = json.loads(body or b"null")
    except ValueError:
        return body

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            out = {k: walk(v) for k, v in node.items()}
            if unknown:
                if "_type" in out:
                    out["_type"] = "SomethingNewFromTheFuture"
                out["addedInAFutureVersion"] = {"nested": [1, 2, 3]}
            return out
        if isinstance(node, list):
            return [walk(v) for v in node]
        if unknown:
            return node
        if isinstance(node, str):
            return 12345
        if isinstance(node, bool | int | float):
            return "not-a-number"
        return node

    return json.dumps(walk(value)).encode()
