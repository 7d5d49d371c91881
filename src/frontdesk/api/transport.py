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
5. maps every failure to a typed :class:`~frontdesk.api.errors.ApiError`, never a raw httpx2 or
   OS exception, and retries what the :mod:`~frontdesk.api.retry` policy allows;
6. logs each attempt at DEBUG on ``frontdesk.api``: method, path template, status, duration,
   attempt number. Never a header, a query string or a body, so never the key.

Where the key may go is :mod:`~frontdesk.api.origins`; reading and decoding a body is
:mod:`~frontdesk.api.bodies`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx2

from ..text import one_line
from .bodies import MAX_RESPONSE_BYTES, BodyReader, FinalError, decode_body
from .errors import (
    ApiError,
    InvalidRequest,
    RateLimited,
    TransportError,
    UnexpectedResponse,
    error_from_exception,
    error_from_response,
)
from .listing import TextItems
from .operations import Operation
from .origins import checked_base, origin_of
from .pacing import Pacer, Priority
from .retry import RetryPolicy, next_delay
from .secrets import ApiKey, redact

__all__ = ["DEFAULT_TIMEOUT", "GATEWAY_TIMEOUT", "NO_BODY", "PRIORITY_HEADER", "RawBody", "Reply",
           "Transport"]

#: Says who waits for a request: ``interactive`` (a person, now) or ``background`` (polling
#: nobody waits for). A team gateway pacing many members on one key of the service serves
#: the first before the second; the service ignores it.
PRIORITY_HEADER = "X-Frontdesk-Priority"

log = logging.getLogger("frontdesk.api")

#: Connect within 5 s; every other phase (each read, write, pool wait) within 15 s.
DEFAULT_TIMEOUT = httpx2.Timeout(15.0, connect=5.0)
#: Through a team gateway, an answer may wait its turn behind the whole team's budget (a
#: team starting at nine, say) before the service is asked: a read waits up to 90 s.
GATEWAY_TIMEOUT = httpx2.Timeout(90.0, connect=5.0)
#: Seconds of silence after which an event stream is taken for lost (a gateway sends a
#: keep-alive every 15 s).
EVENTS_READ_TIMEOUT = 45.0
#: The longest line of an event stream read (a notice is a few hundred bytes).
MAX_EVENT_LINE = 256 * 1024

QueryItems = list[tuple[str, str | int | float | bool | None]]


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


@dataclass(frozen=True, slots=True)
class Reply:
    """A successful answer: its status and its JSON body (``None`` when it had none)."""

    status: int
    body: Any
    operation: Operation
    #: the answer's validator, for a conditional request next time
    etag: str | None = None


class Transport:
    """Sends the requests of one :class:`~frontdesk.api.client.ApiClient`.

    ``http`` is the client's ``httpx2.AsyncClient`` (redirects off, ``auth`` a
    :class:`KeyAuth`); ``base_url`` and ``integrations_url`` are the two interfaces' bases;
    ``key``, when given, is scrubbed from error messages (a service may echo what it was
    sent); ``sleep`` waits between attempts (injectable so a test can watch the waits).
    """

    def __init__(
        self,
        http: httpx2.AsyncClient,
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
        self._bases: dict[str, httpx2.URL | None] = {
            "main": checked_base(base_url),
            "integrations": None if integrations_url is None else checked_base(integrations_url),
        }
        self.origins = frozenset(origin_of(u) for u in self._bases.values() if u is not None)
        self.pacer = pacer
        self.policy = policy
        #: reads each answer's body, bounded in size and time
        self._bodies = BodyReader(max_body=max_body, body_timeout=body_timeout)
        self._sleep = sleep

    def use_key(self, key: ApiKey) -> None:
        """Scrub ``key`` from error messages from now on (the client sends it instead)."""
        self._key = key

    # ------------------------------------------------------------------ addresses

    def url_for(self, op: Operation, path: Mapping[str, str | int] | None = None) -> httpx2.URL:
        """The URL of ``op`` with its path parameters filled in (each one percent-encoded)."""
        base = self._base_for(op)
        values = {name: _quote(str(value)) for name, value in (path or {}).items()}
        try:
            rendered = op.path.format(**values)
        except (KeyError, IndexError) as exc:
            raise InvalidRequest(f"Missing path parameter {exc} for {op.label}",
                                 operation=op.label) from None
        return self._checked(httpx2.URL(str(base).rstrip("/") + rendered), op)

    def resolve(self, op: Operation, link: str) -> httpx2.URL:
        """A link the service sent (``meta.next``), resolved against ``op``'s interface."""
        base = self._base_for(op)
        try:
            url = base.join(link)
        except (httpx2.InvalidURL, ValueError) as exc:
            detail = one_line(str(exc))
            raise UnexpectedResponse(
                f"The service sent a link that is not a usable address: {detail}",
                operation=op.label,
            ) from None
        return self._checked(url, op)

    def _base_for(self, op: Operation) -> httpx2.URL:
        base = self._bases[op.interface]
        if base is None:
            raise InvalidRequest(
                "The deprecated endpoint listing needs the integrations URL, and none is set",
                operation=op.label,
            )
        return base

    def _checked(self, url: httpx2.URL, op: Operation) -> httpx2.URL:
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
        url: httpx2.URL | None = None,
        if_none_match: str | None = None,
        each_item: Callable[[Any], Any] | TextItems | None = None,
        on_sent: Callable[[], None] | None = None,
    ) -> Reply:
        """Send ``op`` and return its successful answer, retrying what may be retried.

        ``if_none_match`` makes the request conditional: an unchanged resource is answered
        ``304`` (a ``Reply`` with no body).

        ``each_item`` marks a list answer (``{"data": [...]}``) of any length: every item
        goes through it (to be bounded) and the answer is not refused for its size; only one
        item larger than the size cap is. A :class:`~.listing.TextItems` is given each item
        with its JSON text as read.

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
        headers = {**(headers or {}), PRIORITY_HEADER: _priority_word(priority)}
        safe = op.idempotent if idempotent is None else idempotent
        attempt = 0
        while True:
            attempt += 1
            await self.pacer.acquire(priority)
            started = time.perf_counter()
            try:
                reply = await self._attempt(op, target, query, content, headers, each_item,
                                            on_sent)
            except FinalError as final:
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
        url: httpx2.URL,
        query: QueryItems,
        content: bytes | None,
        headers: dict[str, str] | None,
        each_item: Callable[[Any], Any] | TextItems | None = None,
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
                    raise FinalError(UnexpectedResponse(
                        f"The service answered {status}, a redirect; redirects are not "
                        "followed, so the API key never travels to another address",
                        status=status, operation=op.label,
                    ))
                content_type = response.headers.get("content-type")
                if each_item is not None and 200 <= status < 300:
                    return Reply(status, await self._bodies.read_listing(response, op, each_item),
                                 op, response.headers.get("etag"))
                raw = await self._bodies.read(response, op)
                if not 200 <= status < 300:
                    raise error_from_response(status, raw, content_type, op.label,
                                              response.headers.get("retry-after"))
                return Reply(status, decode_body(raw, content_type, status, op), op,
                             response.headers.get("etag"))
        except (ApiError, FinalError):
            raise
        except (httpx2.HTTPError, httpx2.InvalidURL, httpx2.StreamError, OSError) as exc:
            raise error_from_exception(exc, op.label) from exc

    async def events(self, op: Operation, *, last_event_id: str | None = None,
                     read_timeout: float = EVENTS_READ_TIMEOUT
                     ) -> AsyncIterator[tuple[str | None, str, str]]:
        """A stream of server-sent events (``op`` a GET answering ``text/event-stream``):
        each event's ``(id, event, data)`` as it comes, for as long as the server sends.
        Silence longer than ``read_timeout`` (the server's keep-alives come more often) or a
        line longer than :data:`MAX_EVENT_LINE` ends it with a :class:`TransportError`;
        an answer other than 200 is the service's error, as :meth:`send` raises it."""
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        timeout = httpx2.Timeout(15.0, connect=5.0, read=read_timeout)
        try:
            async with self._http.stream("GET", self.url_for(op, None), headers=headers,
                                         timeout=timeout) as response:
                if response.status_code != 200:
                    raw = await response.aread()
                    raise error_from_response(response.status_code, raw,
                                              response.headers.get("content-type", ""),
                                              op.label, response.headers.get("retry-after"))
                fields: dict[str, str] = {}
                async for line in response.aiter_lines():
                    if len(line) > MAX_EVENT_LINE:
                        raise TransportError("An event line was too long", operation=op.label,
                                             sent=True)
                    if not line:
                        if "event" in fields or "data" in fields:
                            yield fields.get("id"), fields.get("event", "message"), \
                                fields.get("data", "")
                        fields = {}
                    elif not line.startswith(":"):
                        name, _, value = line.partition(":")
                        fields[name] = value[1:] if value.startswith(" ") else value
        except (ApiError, FinalError):
            raise
        except (httpx2.HTTPError, httpx2.InvalidURL, httpx2.StreamError, OSError) as exc:
            raise error_from_exception(exc, op.label) from exc

    def _stream(
        self,
        method: str,
        url: httpx2.URL,
        query: QueryItems,
        content: bytes | None,
        headers: dict[str, str] | None,
        extensions: dict[str, Any] | None = None,
    ) -> AbstractAsyncContextManager[httpx2.Response]:
        """The streamed request (a context manager giving the response)."""
        return self._http.stream(method, url, params=query, content=content, headers=headers,
                                 extensions=extensions)


# ---------------------------------------------------------------------- helpers


def _priority_word(priority: Priority) -> str:
    """The priority header's word: what a person waits for (a key press, the screen in
    front) is ``interactive``, polling and prefetching ``background``."""
    return "background" if priority >= Priority.BACKGROUND else "interactive"


def _sent_trace(on_sent: Callable[[], None]) -> Callable[[str, Any], Awaitable[None]]:
    """An httpcore2 ``trace`` extension calling ``on_sent`` once the request's body (empty
    or not) is written, whatever the protocol."""

    async def trace(event: str, _info: Any) -> None:
        if event.endswith("send_request_body.complete"):
            on_sent()

    return trace


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

