"""The gateway as an ASGI app: its own routes under ``/gateway/v1`` and the service's API,
passed through at the same paths with the organisation's key.

A member's request goes: the personal key checked (401), the operation found from the method
and path (404 when the service has no such operation), the body read (up to
:data:`MAX_REQUEST_BYTES`), the guard asked (403), and then the request goes upstream through
the one :class:`~frontdesk.gateway.upstream.Upstream`; the answer comes back streamed, with its
status, content type and Retry-After as the service sent them.

With a public URL the gateway also hears the service's webhooks at ``POST
/gateway/v1/webhooks`` (no member's key: the delivery's signature is its authentication; see
:mod:`~frontdesk.gateway.webhook_feed`), and its change feed polls only as a safety net.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote, urlencode

import httpx2
from fastapi import FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from starlette import datastructures
from starlette.background import BackgroundTask
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from frontdesk.api.models.webhooks import SIGNATURE_HEADER, SUBSCRIPTION_HEADER
from frontdesk.api.pacing import Priority
from frontdesk.api.roles import Role
from frontdesk.api.secrets import ApiKey
from frontdesk.api.transport import PRIORITY_HEADER

from .agents import ALL_PRESENCE, presence_of
from .attempts import FailedAttempts
from .audit import Audit, State, parse_since
from .change_feed import INTERVAL, OVERLAP, ChangeFeed, events
from .guard import (
    Forbidden,
    Unreadable,
    article,
    asks_assignee,
    check,
    check_assignee,
    read_json,
)
from .members import Member, MemberError, Members
from .routing import Route, allowed_methods, is_write, match, split_interface, targets
from .shared_reads import ReadKey, SharedReads, read_key
from .upstream import DOWN_RETRY_AFTER, Upstream, UpstreamDown
from .webhook_feed import MAX_DELIVERY_BYTES, Refusal, WebhookFeed

__all__ = ["MAX_REQUEST_BYTES", "Gateway", "GatewayApp", "GatewayConfig", "create_app",
           "error_response"]

log = logging.getLogger("frontdesk.gateway")

#: The largest request body the gateway passes on (a knowledge attachment upload is the
#: largest the service takes); beyond it the answer is 413 and nothing is sent.
MAX_REQUEST_BYTES = 32 * 1024 * 1024

#: Request headers passed on to the service (the key and the connection's own are not).
_REQUEST_HEADERS = ("content-type", "accept", "accept-encoding", "accept-language",
                    "if-match", "if-none-match", "idempotency-key", "user-agent")
#: Response headers never passed back: the connection's own (the gateway's server sets them).
_HOP_HEADERS = frozenset({"connection", "keep-alive", "transfer-encoding", "te", "trailer",
                          "upgrade", "proxy-authenticate", "proxy-authorization", "server",
                          "date", "set-cookie"})


@dataclass(frozen=True, slots=True)
class GatewayConfig:
    """What a gateway needs to serve: where the service is, its key, and the database."""

    upstream_url: str
    upstream_key: ApiKey
    db: Path
    integrations_url: str | None = None
    rate: float = 10.0
    burst: int = 4
    public_url: str | None = None
    """The address the service reaches the gateway at: with it (and a change feed) the
    gateway subscribes to the service's webhooks at ``<public_url>/gateway/v1/webhooks``."""
    feed_interval: float | None = INTERVAL
    """Seconds between the change feed's looks at the service (None: no feed)."""
    feed_overlap: float = OVERLAP.total_seconds()
    """Seconds each of the feed's searches reaches back before the previous one began."""
    transport: httpx2.AsyncBaseTransport | None = None
    """How to reach the service (tests and benchmarks may give their own)."""


class Refused(Exception):
    """A request the gateway answers itself with ``status`` and the service's error body."""

    def __init__(self, status: int, message: str, *, headers: Mapping[str, str] | None = None,
                 extra: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = dict(headers or {})
        self.extra = dict(extra or {})

    def response(self) -> Response:
        return error_response(self.status, self.message, self.headers, self.extra)


def error_response(status: int, message: str, headers: Mapping[str, str] | None = None,
                   extra: Mapping[str, Any] | None = None) -> Response:
    """The service's error body, ``{"message": …}`` (and any ``extra`` fields)."""
    body = json.dumps({"message": message, **(extra or {})}, ensure_ascii=False).encode()
    return Response(body, status_code=status, media_type="application/json",
                    headers=dict(headers or {}))


class Gateway:
    """The state one running gateway shares between its requests."""

    def __init__(self, config: GatewayConfig) -> None:
        self.config = config
        self.members = Members(config.db)
        self.audit = Audit(config.db)
        self.attempts = FailedAttempts()
        self.upstream: Upstream | None = None
        self.feed: ChangeFeed | None = None
        self.webhooks: WebhookFeed | None = None
        self.shared = SharedReads(fed=lambda: self.feed is not None and self.feed.hearing())

    def live_upstream(self) -> Upstream:
        if self.upstream is None:
            raise Refused(503, "The gateway is starting", headers={"Retry-After": "1"})
        return self.upstream

    async def member(self, request: Request) -> Member:
        """The member whose personal key the request carries; 401 otherwise (held back when
        the source keeps sending wrong keys)."""
        key = request.headers.get("authorization", "")
        member = self.members.authenticate(key) if key else None
        source = request.client.host if request.client else "?"
        if member is None:
            delay = self.attempts.failed(source)
            if delay:
                await asyncio.sleep(delay)
            raise Refused(401, "Unknown or revoked personal key: ask your gateway's admin "
                               "for a key (frontdesk gateway add-member or rotate)")
        self.attempts.succeeded(source)
        return member


def create_app(config: GatewayConfig) -> GatewayApp:
    """The gateway for ``config`` as an ASGI app (``app.state.gateway`` is its state)."""
    gateway = Gateway(config)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        gateway.audit.settle_interrupted()
        gateway.upstream = Upstream(config.upstream_url, config.integrations_url,
                                    config.upstream_key, rate=config.rate, burst=config.burst,
                                    transport=config.transport)
        tasks: set[asyncio.Task[None]] = set()
        if config.feed_interval is not None:
            gateway.feed = ChangeFeed(gateway.upstream, gateway.shared,
                                      interval=config.feed_interval,
                                      overlap=timedelta(seconds=config.feed_overlap))
            tasks.add(asyncio.create_task(gateway.feed.run(), name="change feed"))
        if config.public_url is not None and gateway.feed is None:
            log.warning("the public URL is not used: webhooks are heard by the change feed, "
                        "and this gateway runs without one")
        elif config.public_url is not None and gateway.feed is not None:
            gateway.webhooks = WebhookFeed(gateway.upstream, gateway.feed, config.public_url)
            tasks.add(asyncio.create_task(gateway.webhooks.run(), name="webhook subscription"))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            if tasks:
                await asyncio.wait(tasks)
            upstream, gateway.upstream = gateway.upstream, None
            await upstream.aclose()
            gateway.audit.close()

    app = FastAPI(
        title="frontdesk team gateway",
        version="v1",
        description="The team gateway's own API. Every other path is the service's v1 API, "
        "passed through with the organisation's key. Authenticate with "
        "`Authorization: <personal key>`.",
        lifespan=lifespan,
        redirect_slashes=False,
        docs_url=None,
        redoc_url=None,
    )
    app.state.gateway = gateway
    _install_errors(app)
    _add_own_routes(app, gateway)

    return GatewayApp(app, gateway)


class GatewayApp:
    """The ASGI app: the service's paths (``/v1/…``, ``/integrations/v1/…``) go to the pass
    -through whatever bytes they hold (a router's patterns stop at a line break in a decoded
    path), everything else (``/gateway/v1/…``, the OpenAPI document, lifespan) to FastAPI."""

    def __init__(self, api: FastAPI, gateway: Gateway) -> None:
        self.api = api
        self.gateway = gateway

    @property
    def state(self) -> datastructures.State:
        """The FastAPI app's state: ``state.gateway`` is the running gateway."""
        return self.api.state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or split_interface(_raw_path(scope)) is None:
            await self.api(scope, receive, send)
            return
        request = Request(scope, receive)
        try:
            response = await _pass_on(self.gateway, request)
        except Refused as refused:
            response = refused.response()
        except Exception:  # a bug: one line for the member, the traceback in the log
            log.exception("%s %s failed in the gateway", request.method, request.url.path)
            response = error_response(500, "The gateway failed on this request (a bug; the "
                                           "details are in its log)")
        await response(scope, receive, send)


def _raw_path(scope: Scope) -> str:
    raw: bytes = scope.get("raw_path") or scope["path"].encode("utf-8", "surrogateescape")
    return raw.decode("latin-1")


def _install_errors(app: FastAPI) -> None:
    """Every error the gateway answers itself has the service's body, ``{"message": …}``."""

    async def http_error(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        return error_response(exc.status_code, str(exc.detail), exc.headers)

    async def invalid(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return error_response(400, f"Invalid value in request: {where}".rstrip(": "))

    async def refused(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        return exc.response()

    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(Refused, refused)


_ERROR = {"content": {"application/json": {"schema": {
    "type": "object", "properties": {"message": {"type": "string"},
                                     "requiredRole": {"type": "string"}},
    "required": ["message"]}}}}
_SIGNED_IN: dict[int | str, dict[str, Any]] = {
    401: {"description": "Unknown or revoked personal key", **_ERROR}}
_STREAM: dict[int | str, dict[str, Any]] = {
    **_SIGNED_IN,
    400: {"description": "Invalid value in request", **_ERROR},
    404: {"description": "The gateway runs without a change feed", **_ERROR}}
_ADMIN_ONLY: dict[int | str, dict[str, Any]] = {
    **_SIGNED_IN,
    400: {"description": "Invalid value in request", **_ERROR},
    403: {"description": "Needs the admin role", **_ERROR}}
_DELIVERY: dict[int | str, dict[str, Any]] = {
    204: {"description": "Taken: the change is told to every console listening"},
    400: {"description": "The body is not a JSON event", **_ERROR},
    401: {"description": "Not this gateway's subscription, a signature that does not hold or "
                         "is too old, or a delivery heard before", **_ERROR},
    404: {"description": "The gateway runs without webhooks (no public URL)", **_ERROR},
    413: {"description": f"A body larger than {MAX_DELIVERY_BYTES} bytes", **_ERROR},
    503: {"description": "The gateway's subscription is not set up yet", **_ERROR}}


def _add_own_routes(app: FastAPI, gateway: Gateway) -> None:
    @app.get("/gateway/v1/health", summary="Whether the gateway serves and reaches the service")
    async def health() -> dict[str, dict[str, str]]:
        upstream = gateway.upstream
        up = upstream is not None and await upstream.healthy()
        data = {"status": "ok", "upstream": "ok" if up else "down"}
        if gateway.webhooks is not None:
            data["webhooks"] = gateway.webhooks.state()
        return {"data": data}

    @app.post("/gateway/v1/webhooks", summary="A delivery of the service's webhooks (no "
              "member's key: its signature is checked)", status_code=204,
              response_class=Response, responses=_DELIVERY)
    async def webhook(request: Request) -> Response:
        webhooks = gateway.webhooks
        if webhooks is None:
            raise Refused(404, "This gateway does not hear webhooks (it was started without "
                               "--public-url)")
        body = await _read_body(request, MAX_DELIVERY_BYTES)
        try:
            webhooks.receive(request.headers.get(SUBSCRIPTION_HEADER),
                             request.headers.get(SIGNATURE_HEADER), body)
        except Refusal as refusal:
            headers = {"Retry-After": "10"} if refusal.status == 503 else None
            raise Refused(refusal.status, refusal.message, headers=headers) from None
        return Response(status_code=204)

    @app.get("/gateway/v1/audit", summary="What members wrote through the gateway, newest "
             "first (admins only)", responses=_ADMIN_ONLY)
    async def audit(
        request: Request,
        member: Annotated[str | None, Query(max_length=320)] = None,
        since: Annotated[str | None, Query(max_length=64)] = None,
        page_limit: Annotated[int, Query(alias="pageLimit", ge=1, le=100)] = 50,
        page_key: Annotated[str | None, Query(alias="pageKey", max_length=20)] = None,
    ) -> dict[str, object]:
        reader = await gateway.member(request)
        if not reader.role.allows(Role.ADMIN):
            raise Refused(403, f"Reading the audit needs the admin role (you are "
                               f"{article(reader.role)})", extra={"requiredRole": "admin"})
        try:
            member_id = None if member is None else gateway.members.find(member).member_id
        except MemberError as error:
            raise Refused(400, str(error)) from None
        entries, more = gateway.audit.page(member_id=member_id, since=_since(since),
                                           limit=page_limit, before=_page_key(page_key))
        meta: dict[str, str] = {}
        if more is not None:
            query = {name: value for name, value in
                     (("member", member), ("since", since), ("pageLimit", str(page_limit)))
                     if value is not None}
            meta["next"] = f"/gateway/v1/audit?{urlencode({**query, 'pageKey': str(more)})}"
        return {"data": [entry.as_json() for entry in entries], "meta": meta}

    @app.get("/gateway/v1/changes", summary="What changes at the service, as it is heard "
             "(server-sent events: conversations, reset)", responses=_STREAM,
             response_class=StreamingResponse)
    async def changes(
        request: Request,
        last_event_id: Annotated[str | None, Header(alias="Last-Event-ID",
                                                    max_length=20)] = None,
    ) -> StreamingResponse:
        await gateway.member(request)
        feed = gateway.feed
        if feed is None:
            raise Refused(404, "This gateway has no change feed (it was started without one)")
        last = int(last_event_id) if last_event_id and last_event_id.isdigit() \
            and last_event_id.isascii() else None
        return StreamingResponse(events(feed, last), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store",
                                          "X-Accel-Buffering": "no"})

    @app.get("/gateway/v1/me", summary="The member the personal key belongs to",
             responses=_SIGNED_IN)
    async def me(request: Request) -> dict[str, dict[str, str | None]]:
        member = await gateway.member(request)
        return {"data": {"memberId": member.member_id, "agentId": member.agent_id,
                         "email": member.email, "name": member.name,
                         "role": member.role.value}}


def _since(value: str | None) -> str | None:
    """An ISO 8601 time as the audit writes times; 400 when it is not one."""
    if value is None:
        return None
    try:
        return parse_since(value)
    except ValueError:
        raise Refused(400, f"Invalid value in request: since ({value[:40]!r} is not an ISO "
                           "8601 time)") from None


def _page_key(value: str | None) -> int | None:
    if value is None:
        return None
    if not value.isdigit() or not value.isascii():
        raise Refused(400, "Invalid value in request: pageKey")
    return int(value)


async def _read_body(request: Request, limit: int = MAX_REQUEST_BYTES) -> bytes:
    """The request's body, refused past ``limit`` bytes without reading on (kept whole: the
    guard reads it and a request waited out after a 429 is sent again)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise Refused(413, f"The request body is larger than {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Refused(413, f"The request body is larger than {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _priority(request: Request, write: bool) -> Priority:
    """Writes first, then interactive reads, then background reads."""
    if write:
        return Priority.INTERACTIVE
    if request.headers.get(PRIORITY_HEADER, "").strip().lower() == "background":
        return Priority.BACKGROUND
    return Priority.VISIBLE


async def _pass_on(gateway: Gateway, request: Request) -> Response:
    member = await gateway.member(request)
    target = split_interface(_raw_path(request.scope))
    route = None if target is None else match(target[0], request.method, target[1])
    if target is None or route is None:
        allowed = [] if target is None else allowed_methods(*target)
        if allowed:
            raise Refused(405, "Method not allowed", headers={"Allow": ", ".join(allowed)})
        raise Refused(404, f"{request.method} {request.url.path} is not an operation of the "
                           "service")
    interface, path = target
    upstream = gateway.live_upstream()
    if not upstream.serves(interface):
        raise Refused(404, "This gateway does not pass on the deprecated endpoint listing "
                           "(it was started without --upstream-integrations-url)")
    body = await _read_body(request)
    write = is_write(route.operation)
    entry = _Entry(gateway.audit, member, route, request.url.path) if write else None
    try:
        checked = check(member, route.operation, route.params, body)
        if asks_assignee(member, route.operation, body):
            await _check_assignee(upstream, member, route)
    except Forbidden as refusal:
        if entry is not None:
            entry.refused(body)
        extra = {} if refusal.needed is None else {"requiredRole": refusal.needed.value}
        raise Refused(403, refusal.message, extra=extra) from None
    except Unreadable as unreadable:
        raise Refused(400, unreadable.message) from None
    headers = {name: request.headers[name] for name in _REQUEST_HEADERS
               if name in request.headers}
    if checked.rewritten:
        body = checked.body
        headers["content-type"] = "application/json"
    query: bytes = request.scope.get("query_string", b"")
    if not write:
        priority = _priority(request, write)
        return await _unless_left(request, _read(
            gateway, upstream, member, route,
            read_key(interface, request.method, path, query, headers.get("accept-encoding", ""),
                     body),
            lambda: upstream.send(request.method, interface, path, query, headers, body,
                                  priority, member.member_id),
            priority))
    if entry is not None:
        entry.begin(body)
    try:
        answer = await upstream.send(request.method, interface, path, query, headers, body,
                                     _priority(request, write), member.member_id)
    except UpstreamDown as down:
        if down.sent and write:
            if entry is not None:
                entry.finish("unknown", 504)
            raise Refused(504, f"{down.message}: the change may or may not have been made; "
                               "look before trying again") from None
        if entry is not None:
            entry.finish("failed", 503)
        raise Refused(503, f"{down.message}; try again shortly",
                      headers={"Retry-After": str(DOWN_RETRY_AFTER)}) from None
    except BaseException:
        if entry is not None:
            entry.finish("unknown", 0)
        raise
    if answer.status_code == 401:  # the organisation's key, not the member's, was refused
        await answer.aclose()
        if entry is not None:
            entry.finish("failed", 502)
        raise Refused(502, "The service refused the gateway's organisation key: the "
                           "gateway's admin must give it a valid key")
    if entry is not None:
        entry.finish("done", answer.status_code)
    gateway.shared.wrote(route)
    return _streamed(answer)


async def _read(gateway: Gateway, upstream: Upstream, member: Member, route: Route,
                key: ReadKey, fetch: Callable[[], Awaitable[httpx2.Response]],
                priority: Priority) -> Response:
    """A read, answered from the team's shared reads (kept, coalesced or fetched now); one
    agent's presence from every agent's."""
    if route.operation.name == "agents.presence" and not key[3]:
        picked = await _one_presence(gateway, upstream, member, route, priority)
        if picked is not None:
            return picked
    try:
        answer = await gateway.shared.read(key, route, fetch)
    except UpstreamDown as down:
        raise Refused(503, f"{down.message}; try again shortly",
                      headers={"Retry-After": str(DOWN_RETRY_AFTER)}) from None
    if answer.status == 401:  # the organisation's key, not the member's, was refused
        raise Refused(502, "The service refused the gateway's organisation key: the "
                           "gateway's admin must give it a valid key")
    response = Response(answer.body, status_code=answer.status)
    for name, value in answer.headers:
        response.headers.append(name, value)
    return response


async def _unless_left(request: Request, reading: Awaitable[Response]) -> Response:
    """The answer to a read, unless its member leaves first: a console that gave up waiting
    its turn behind the team's budget (its timeout) takes its place in the queue with it, so
    the read is never sent for nobody (a colleague waiting for the same read asks it anew).
    Writes are not dropped so: one may already be on its way."""
    work = asyncio.ensure_future(reading)
    gone = asyncio.ensure_future(_left(request))
    try:
        await asyncio.wait({work, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
        if not work.done():
            work.cancel()
        await asyncio.wait({work, gone})
    if work.cancelled():
        return error_response(499, "The member left before the answer came")
    return work.result()


async def _left(request: Request) -> None:
    """Returns when the member's connection closes (the body is read: what comes next from
    the server is the disconnect)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _one_presence(gateway: Gateway, upstream: Upstream, member: Member, route: Route,
                        priority: Priority) -> Response | None:
    """One agent's presence picked from every agent's, read once for the whole team (a
    shared read); None when that cannot answer it (the one is then read as asked)."""
    every = match("main", "GET", ALL_PRESENCE)
    assert every is not None, "the service lists every agent's presence"
    headers = {"accept": "application/json", "accept-encoding": "identity"}
    try:
        answer = await gateway.shared.read(
            read_key("main", "GET", ALL_PRESENCE, b"", "identity", b""), every,
            lambda: upstream.send("GET", "main", ALL_PRESENCE, b"", headers, b"", priority,
                                  member.member_id))
    except UpstreamDown:
        return None
    body = None if answer.status != 200 else presence_of(answer.body,
                                                         route.params["agentId"])
    return None if body is None else Response(body, media_type="application/json")


async def _check_assignee(upstream: Upstream, member: Member, route: Route) -> None:
    """Forbidden when the conversation ``route`` acts on is assigned to another agent (the
    conversation read with the organisation's key; an answer other than 200 lets the write
    go on, for the service to refuse as it does)."""
    conversation = quote(route.params.get("conversationId", ""), safe="")
    try:
        answer = await upstream.send("GET", "main", f"/v1/conversations/{conversation}", b"",
                                     {"accept": "application/json"}, b"",
                                     Priority.INTERACTIVE, member.member_id)
    except UpstreamDown as down:
        raise Refused(503, f"{down.message}; try again shortly",
                      headers={"Retry-After": str(DOWN_RETRY_AFTER)}) from None
    try:
        if answer.status_code != 200:
            return
        document = read_json(await answer.aread())
    except httpx2.HTTPError:
        return
    finally:
        await answer.aclose()
    record = document.get("data", document) if isinstance(document, dict) else None
    assignment = record.get("assignment") if isinstance(record, dict) else None
    assignee = assignment.get("agentId") if isinstance(assignment, dict) else None
    check_assignee(member, route.operation, assignee if isinstance(assignee, str) else None)


class _Entry:
    """The audit entry of one write: begun before it goes upstream, finished after."""

    def __init__(self, audit: Audit, member: Member, route: Route, path: str) -> None:
        self._audit = audit
        self._member = member
        self._route = route
        self._path = path
        self._seq: int | None = None

    def _fields(self, body: bytes) -> dict[str, Any]:
        return {"member_id": self._member.member_id, "email": self._member.email,
                "role": self._member.role.value, "operation": self._route.operation.name,
                "method": self._route.operation.method, "path": self._path,
                "targets": targets(self._route, body)}

    def begin(self, body: bytes) -> None:
        self._seq = self._audit.begin(**self._fields(body))

    def refused(self, body: bytes) -> None:
        self._audit.begin(**self._fields(body), state="refused", status=403)

    def finish(self, state: State, status: int) -> None:
        if self._seq is not None:
            self._audit.finish(self._seq, state, status)
            self._seq = None


def _streamed(answer: httpx2.Response) -> StreamingResponse:
    """The service's answer, passed back as it comes: status, headers and body bytes."""
    headers = {name: value for name, value in answer.headers.items()
               if name.lower() not in _HOP_HEADERS}
    return StreamingResponse(answer.aiter_raw(), status_code=answer.status_code,
                             headers=headers, background=BackgroundTask(answer.aclose))
