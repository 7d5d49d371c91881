"""The one place that sends: pacing, retries, error mapping, logging and the key's reach.

Every call of every resource goes through :meth:`Transport.send`, which

1. builds the URL from the operation's path template and checks that it is on one of the two
   configured origins (the key must never travel anywhere else);
2. waits for a token of the :class:`~frontdesk.api.pacing.Pacer` at the caller's priority;
3. sends, with the key attached only by :class:`KeyAuth` (a last check of the origin at the
   moment the request leaves), never following a redirect;
4. reads the body with a size cap and a deadline (a 10 MB answer or a body dripping in a byte
   at a time cannot hang the console), and decodes it as JSON; a list answer that may be
   long (a thread's messages) is instead read item by item as it streams in, each item
   bounded and handed to the caller's ``each_item`` (:mod:`~frontdesk.api.listing`), so its
   size as a whole is not capped;
5. maps every failure to a typed :class:`~frontdesk.api.errors.ApiError`, never a raw httpx or
   OS exception, and retries what the :mod:`~frontdesk.api.retry` policy allows;
6. logs each attempt at DEBUG on ``frontdesk.api``: method, path template, status, duration,
   attempt number. Never a header, a query string or a body, so never the key.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx

from ..text import one_line
from .errors import (
    ApiError,
    InvalidRequest,
    RateLimited,
    TransportError,
    UnexpectedResponse,
    error_from_exception,
    error_from_response,
)
from .listing import ItemTooLarge, NotJson, read_listing
from .operations import Operation
from .pacing import Pacer, Priority
from .retry import RetryPolicy, next_delay
from .secrets import ApiKey, redact

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_RESPONSE_BYTES",
    "NO_BODY",
    "KeyAuth",
    "RawBody",
    "Reply",
    "Transport",
    "origin_of",
]

log = logging.getLogger("frontdesk.api")

#: Connect within 5 s; every other phase (each read, write, pool wait) within 15 s.
DEFAULT_TIMEOUT = httpx.Timeout(15.0, connect=5.0)
#: The largest answer read; anything bigger is refused as an unexpected response.
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
#: A list read item by item (``each_item``) is read whole up to this size (one ``json.loads``,
#: the fastest), then decoded item by item: each item is handed on (and may be made compact)
#: before the next is parsed, rather than every item parsed at once and freed after the last,
#: which leaves the allocator's pools part used (a 10,000-message thread, 3.5 MB: ~7 MB).
STREAM_AFTER_BYTES = 1024 * 1024

Origin = tuple[str, str, int]
QueryItems = list[tuple[str, str | int | float | bool | None]]
_DEFAULT_PORTS = {"http": 80, "https": 443}
_HTML_TITLE = re.compile(rb"<title\b[^>]*>(.*?)</title", re.IGNORECASE | re.DOTALL)


class _NoBody:
    """Marker: the request has no body (``None`` would be the JSON ``null``)."""

    def __repr__(self) -> str:
        return "NO_BODY"


NO_BODY: Any = _NoBody()


@dataclass(frozen=True, slots=True)
class RawBody:
    """A body sent as the given bytes with its own media type (a multipart upload), not as
    JSON."""

    content: bytes
    content_type: str


def origin_of(url: httpx.URL | str) -> Origin:
    """``(scheme, host, port)`` of a URL, with the scheme's default port filled in."""
    url = httpx.URL(url)
    scheme = url.scheme.lower()
    port = url.port if url.port is not None else _DEFAULT_PORTS.get(scheme, -1)
    return (scheme, url.host.lower(), port)


@dataclass(frozen=True, slots=True)
class Reply:
    """A successful answer: its status and its JSON body (``None`` when it had none)."""

    status: int
    body: Any
    operation: Operation
    #: the answer's validator, for a conditional request next time
    etag: str | None = None


class KeyAuth(httpx.Auth):
    """Puts the API key in the ``Authorization`` header, and only for the allowed origins.

    This is the only code that reveals the key, at the moment a request leaves; a request for
    any other origin is refused here even if something upstream let it through.
    """

    def __init__(self, key: ApiKey, origins: frozenset[Origin]) -> None:
        self._key = key
        self._origins = origins

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        """Attach the key to ``request`` after checking where it goes."""
        if origin_of(request.url) not in self._origins:
            raise InvalidRequest(
                "Refusing to send the API key to an address that is not the configured service"
            )
        request.headers["Authorization"] = self._key.reveal()
        yield request

    def __repr__(self) -> str:
        return "KeyAuth(****)"


class _Final(Exception):
    """An error no retry can fix (a redirect, an oversized answer): raised at once."""

    def __init__(self, error: ApiError) -> None:
        super().__init__(error.message)
        self.error = error


class Transport:
    """Sends the requests of one :class:`~frontdesk.api.client.ApiClient`.

    ``http`` is the client's ``httpx.AsyncClient`` (redirects off, ``auth`` a
    :class:`KeyAuth`); ``base_url`` and ``integrations_url`` are the two interfaces' bases;
    ``key``, when given, is scrubbed from error messages (a service may echo what it was
    sent); ``sleep`` waits between attempts (injectable so a test can watch the waits).
    """

    def __init__(
        self,
        http: httpx.AsyncClient,
        *,
        base_url: str,
        integrations_url: str | None,
        pacer: Pacer,
        policy: RetryPolicy,
        body_timeout: float,
        max_body: int = MAX_RESPONSE_BYTES,
        key: ApiKey | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._http = http
        self._key = key
        self._bases: dict[str, httpx.URL | None] = {
            "main": _base(base_url),
            "integrations": None if integrations_url is None else _base(integrations_url),
        }
        self.origins = frozenset(origin_of(u) for u in self._bases.values() if u is not None)
        self.pacer = pacer
        self.policy = policy
        self._body_timeout = body_timeout
        self._max_body = max_body
        self._sleep = sleep

    def use_key(self, key: ApiKey) -> None:
        """Scrub ``key`` from error messages from now on (the client sends it instead)."""
        self._key = key

    # ------------------------------------------------------------------ addresses

    def url_for(self, op: Operation, path: Mapping[str, str | int] | None = None) -> httpx.URL:
        """The URL of ``op`` with its path parameters filled in (each one percent-encoded)."""
        base = self._base_for(op)
        values = {name: _quote(str(value)) for name, value in (path or {}).items()}
        try:
            rendered = op.path.format(**values)
        except (KeyError, IndexError) as exc:
            raise InvalidRequest(f"Missing path parameter {exc} for {op.label}",
                                 operation=op.label) from None
        return self._checked(httpx.URL(str(base).rstrip("/") + rendered), op)

    def resolve(self, op: Operation, link: str) -> httpx.URL:
        """A link the service sent (``meta.next``), resolved against ``op``'s interface."""
        base = self._base_for(op)
        try:
            url = base.join(link)
        except (httpx.InvalidURL, ValueError) as exc:
            detail = one_line(str(exc))
            raise UnexpectedResponse(
                f"The service sent a link that is not a usable address: {detail}",
                operation=op.label,
            ) from None
        return self._checked(url, op)

    def _base_for(self, op: Operation) -> httpx.URL:
        base = self._bases[op.interface]
        if base is None:
            raise InvalidRequest(
                "The deprecated endpoint listing needs the integrations URL, and none is set",
                operation=op.label,
            )
        return base

    def _checked(self, url: httpx.URL, op: Operation) -> httpx.URL:
        if origin_of(url) not in self.origins:
            raise InvalidRequest(
                "Refusing to send a request (and the API key) to an address that is not the "
                "configured service",
                operation=op.label,
            )
        return url

    # ------------------------------------------------------------------ sending

    async def send(
        self,
        op: Operation,
        *,
        path: Mapping[str, str | int] | None = None,
        params: Mapping[str, Any] | None = None,
        body: Any = NO_BODY,
        priority: Priority = Priority.INTERACTIVE,
        idempotent: bool | None = None,
        url: httpx.URL | None = None,
        if_none_match: str | None = None,
        each_item: Callable[[Any], Any] | None = None,
        on_sent: Callable[[], None] | None = None,
    ) -> Reply:
        """Send ``op`` and return its successful answer, retrying what may be retried.

        ``if_none_match`` makes the request conditional: an unchanged resource is answered
        ``304`` (a ``Reply`` with no body).

        ``each_item`` marks a list answer (``{"data": [...]}``) of any length: every item
        goes through it (to be bounded) and the answer is not refused for its size; only one
        item larger than the size cap is.

        ``on_sent`` is called when a request has left whole (its bytes written to the
        connection), before its answer is awaited: a caller with other work to do can let
        the request go first.

        ``idempotent`` overrides the operation's own flag (a message carrying an
        ``externalId`` may be repeated safely). ``url`` replaces the built URL (following a
        link the service sent; it must already be checked by :meth:`resolve`).
        """
        if self._http.is_closed:
            raise TransportError("The API client is closed", operation=op.label, sent=False)
        target = url if url is not None else self.url_for(op, path)
        query = _query(params)
        if isinstance(body, RawBody):
            content: bytes | None = body.content
            headers: dict[str, str] | None = {"Content-Type": body.content_type}
        else:
            content = None if body is NO_BODY else json.dumps(body, ensure_ascii=False).encode()
            headers = {"Content-Type": "application/json"} if content is not None else None
        if if_none_match is not None:
            headers = {**(headers or {}), "If-None-Match": if_none_match}
        safe = op.idempotent if idempotent is None else idempotent
        attempt = 0
        while True:
            attempt += 1
            await self.pacer.acquire(priority)
            started = time.perf_counter()
            try:
                reply = await self._attempt(op, target, query, content, headers, each_item,
                                            on_sent)
            except _Final as final:
                self._scrub(final.error)
                _log_attempt(op, final.error.status, started, attempt, final.error)
                raise final.error from None
            except ApiError as error:
                self._scrub(error)
                _log_attempt(op, error.status, started, attempt, error)
                delay = next_delay(self.policy, error, attempt, idempotent=safe)
                if isinstance(error, RateLimited):
                    hold = error.retry_after if error.retry_after is not None else delay
                    if hold:
                        self.pacer.penalise(min(hold, self.policy.max_retry_after))
                if delay is None:
                    raise
                log.debug("retrying %s %s in %.2f s", op.method, op.path, delay,
                          extra={"api_method": op.method, "api_path": op.path,
                                 "api_retry_in": delay})
                await self._sleep(delay)
                continue
            _log_attempt(op, reply.status, started, attempt, None)
            return reply

    def _scrub(self, error: ApiError) -> None:
        """Take the key out of an error's text, should the service have echoed it."""
        if self._key is not None:
            error.message = redact(error.message, self._key)
            error.args = (error.message,)

    async def _attempt(
        self,
        op: Operation,
        url: httpx.URL,
        query: QueryItems,
        content: bytes | None,
        headers: dict[str, str] | None,
        each_item: Callable[[Any], Any] | None = None,
        on_sent: Callable[[], None] | None = None,
    ) -> Reply:
        """One attempt: send, read the body (capped, with a deadline), decode or fail."""
        extensions = None if on_sent is None else {"trace": _sent_trace(on_sent)}
        try:
            async with self._stream(op.method, url, query, content, headers,
                                    extensions) as response:
                status = response.status_code
                if status == 304:
                    return Reply(304, None, op, response.headers.get("etag"))
                if 300 <= status < 400:
                    raise _Final(UnexpectedResponse(
                        f"The service answered {status}, a redirect; redirects are not "
                        "followed, so the API key never travels to another address",
                        status=status, operation=op.label,
                    ))
                content_type = response.headers.get("content-type")
                if each_item is not None and 200 <= status < 300:
                    return Reply(status, await self._read_listing(response, op, each_item),
                                 op, response.headers.get("etag"))
                raw = await self._read(response, op)
                if not 200 <= status < 300:
                    raise error_from_response(status, raw, content_type, op.label,
                                              response.headers.get("retry-after"))
                return Reply(status, _decode(raw, content_type, status, op), op,
                             response.headers.get("etag"))
        except (ApiError, _Final):
            raise
        except (httpx.HTTPError, httpx.InvalidURL, httpx.StreamError, OSError) as exc:
            raise error_from_exception(exc, op.label) from exc

    def _stream(
        self,
        method: str,
        url: httpx.URL,
        query: QueryItems,
        content: bytes | None,
        headers: dict[str, str] | None,
        extensions: dict[str, Any] | None = None,
    ) -> AbstractAsyncContextManager[httpx.Response]:
        """The streamed request (a context manager giving the response)."""
        return self._http.stream(method, url, params=query, content=content, headers=headers,
                                 extensions=extensions)

    async def _read(self, response: httpx.Response, op: Operation) -> bytes:
        """The body, refused past ``max_body`` bytes, within ``body_timeout`` seconds overall."""
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self._max_body:
            raise _Final(_too_large(op, response.status_code, self._max_body))
        buffer = bytearray()
        async with asyncio.timeout(self._body_timeout):
            async for chunk in response.aiter_bytes():
                buffer += chunk
                if len(buffer) > self._max_body:
                    raise _Final(_too_large(op, response.status_code, self._max_body))
        return bytes(buffer)

    async def _read_listing(self, response: httpx.Response, op: Operation,
                            each_item: Callable[[Any], Any]) -> Any:
        """A list answer of any size: read whole while small (one ``json.loads``), then
        item by item as it streams in; within ``body_timeout`` seconds overall."""
        content_type = response.headers.get("content-type")
        status = response.status_code
        buffer = bytearray()
        async with asyncio.timeout(self._body_timeout):
            chunks = response.aiter_bytes()
            async for chunk in chunks:
                buffer += chunk
                if len(buffer) > STREAM_AFTER_BYTES:
                    break
            else:
                body = _decode(bytes(buffer), content_type, status, op)
                if isinstance(body, dict) and isinstance(body.get("data"), list):
                    body["data"] = [each_item(item) for item in body["data"]]
                return body
            head = bytes(buffer)
            del buffer

            async def stream() -> AsyncIterator[bytes]:
                yield head
                async for more in chunks:
                    yield more

            try:
                return await read_listing(stream(), each_item, max_item=self._max_body)
            except ItemTooLarge:
                raise _Final(_too_large(op, status, self._max_body)) from None
            except NotJson as exc:
                raw = exc.head.encode()
                raise UnexpectedResponse(_not_json(raw, content_type, op, exc), status=status,
                                         operation=op.label) from None
            except (ValueError, RecursionError) as exc:  # not UTF-8, nested too deep
                raise UnexpectedResponse(_not_json(b"", content_type, op, exc), status=status,
                                         operation=op.label) from None


# ---------------------------------------------------------------------- helpers


def _sent_trace(on_sent: Callable[[], None]) -> Callable[[str, Any], Awaitable[None]]:
    """An httpcore ``trace`` extension calling ``on_sent`` once the request's body (empty
    or not) is written, whatever the protocol."""

    async def trace(event: str, _info: Any) -> None:
        if event.endswith("send_request_body.complete"):
            on_sent()

    return trace


def _base(url: str) -> httpx.URL:
    """A base URL, checked: http(s) with a host; its path is kept (no trailing slash)."""
    parsed = httpx.URL(url)
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ValueError("the service address must be an http:// or https:// URL with a host")
    return parsed


def _quote(value: str) -> str:
    """A path parameter percent-encoded so it cannot leave its path segment."""
    return quote(value, safe="@+")


def _query(params: Mapping[str, Any] | None) -> QueryItems:
    """Query parameters as text; ``None`` values are left out, booleans are ``true/false``."""
    out: QueryItems = []
    for name, value in (params or {}).items():
        if value is None:
            continue
        if isinstance(value, bool):
            out.append((name, "true" if value else "false"))
        elif isinstance(value, list | tuple):
            out.extend((name, str(item)) for item in value)
        else:
            out.append((name, str(value)))
    return out


def _too_large(op: Operation, status: int, limit: int) -> UnexpectedResponse:
    return UnexpectedResponse(
        f"The answer to {op.label} is larger than {limit // (1024 * 1024)} MB; not read",
        status=status, operation=op.label,
    )


def _decode(raw: bytes, content_type: str | None, status: int, op: Operation) -> Any:
    """The JSON value of a successful answer; ``None`` for an empty one."""
    if not raw.strip():
        return None
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise UnexpectedResponse(_not_json(raw, content_type, op, exc), status=status,
                                 operation=op.label) from None


def _not_json(raw: bytes, content_type: str | None, op: Operation, exc: Exception) -> str:
    """A clear sentence about an answer that is not JSON."""
    head = raw[:4096]
    if "html" in (content_type or "").lower() or head.lstrip()[:1] == b"<":
        title = _HTML_TITLE.search(head)
        found = one_line(title.group(1).decode("utf-8", "replace"), 80) if title else ""
        page = f"an HTML page ({found})" if found else "an HTML page"
        return f"The answer to {op.label} is {page}, not JSON"
    detail = one_line(str(exc), 120)
    return f"The answer to {op.label} is not valid JSON (cut off or corrupted: {detail})"


def _log_attempt(op: Operation, status: int | None, started: float, attempt: int,
                 error: ApiError | None) -> None:
    """One DEBUG line per attempt: method, path template, status, duration, attempt."""
    if not log.isEnabledFor(logging.DEBUG):
        return
    elapsed_ms = (time.perf_counter() - started) * 1000
    outcome = str(status) if status is not None else type(error).__name__
    log.debug(
        "%s %s -> %s in %.1f ms (attempt %d)", op.method, op.path, outcome, elapsed_ms, attempt,
        extra={"api_method": op.method, "api_path": op.path, "api_status": status,
               "api_duration_ms": elapsed_ms, "api_attempt": attempt,
               "api_error": None if error is None else type(error).__name__},
    )
