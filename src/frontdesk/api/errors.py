"""Typed errors of the API client.

Every failure of a call surfaces as one :class:`ApiError` subclass, so callers can react to
the kind of failure (``except NotFound``) instead of to status codes, and so one place decides
what a person reads. An error carries the service's own ``message`` (the contract's error body
is ``{"message": "…"}``) or, when the service sent something else, a short sanitised snippet of
it. Errors never carry request headers, so the API key cannot leak through an error, a log line
or a traceback.
"""

from __future__ import annotations

import codecs
import json
import math
import re
import time
from collections.abc import Callable
from typing import Any, ClassVar

from ..text import one_line

__all__ = [
    "ApiError",
    "Conflict",
    "Forbidden",
    "InvalidRequest",
    "NotFound",
    "RateLimited",
    "ServiceUnavailable",
    "TransportError",
    "Unauthorized",
    "UnexpectedResponse",
    "error_from_exception",
    "error_from_response",
    "parse_retry_after",
]

#: Longest snippet of a non-JSON body kept as an error message.
SNIPPET_LIMIT = 200
#: Longest service ``message`` kept (the service's wording is kept whole up to this).
MESSAGE_LIMIT = 1000
#: Bodies larger than this are not parsed as JSON; only their start is looked at.
_MAX_PARSED_BODY = 64 * 1024

# Patterns of an HTML error page, compiled (by ``re``'s cache) on the first such page rather
# than on the way to the first frame.
_HTML_DROP = r"<(script|style)\b.*?</\1\s*>"
_HTML_TITLE = r"<title\b[^>]*>(.*?)</title\s*>"
_HTML_TAG = r"<[^>]*>"
_HTML_FLAGS = re.IGNORECASE | re.DOTALL


class ApiError(Exception):
    """Base of every error the API client raises.

    ``status`` is the HTTP status (``None`` when no response was involved), ``message`` the
    service's message or a clear text of ours, ``operation`` the spec's name of the call
    (``"PUT /v1/conversations/{conversationId}/claim"``) and ``retry_after`` the seconds the
    service asked us to wait (``Retry-After``), when it did.
    """

    title: ClassVar[str] = "API error"

    status: int | None
    message: str
    operation: str | None
    retry_after: float | None

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        operation: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.operation = operation
        self.retry_after = retry_after

    def __str__(self) -> str:
        """One readable line for a person: kind, status, message, retry hint, operation."""
        head = self.title if self.status is None else f"{self.title} ({self.status})"
        text = f"{head} — {self.message}" if self.message else head
        if self.retry_after is not None:
            text += f" (retry after {self.retry_after:g} s)"
        if self.operation:
            text += f" [{self.operation}]"
        return text

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(message={self.message!r}, status={self.status!r}, "
            f"operation={self.operation!r}, retry_after={self.retry_after!r})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # Exceptions pickle through ``args`` by default, which would lose the keyword
        # attributes; rebuild from the message and restore the rest as state.
        return (type(self), (self.message,), self.__dict__.copy())


class InvalidRequest(ApiError):
    """The service refused the input (400), or the client refused it before sending (no status)."""

    title = "Invalid request"


class Unauthorized(ApiError):
    """The API key is missing, unknown or not allowed (401, 403)."""

    title = "Unauthorized"


class Forbidden(ApiError):
    """A team gateway refused the call for the member's role (403 naming ``requiredRole``).

    The key itself is good (unlike :class:`Unauthorized`): only this operation needs a role
    the member does not have. ``required_role`` is the role the gateway named ("supervisor"),
    ``message`` says it in a few words for a person ("Needs the supervisor role"), and
    ``detail`` keeps the gateway's own sentence.
    """

    title = "Forbidden"

    required_role: str | None
    detail: str

    def __init__(
        self,
        message: str,
        *,
        status: int | None = 403,
        operation: str | None = None,
        retry_after: float | None = None,
        required_role: str | None = None,
        detail: str = "",
    ) -> None:
        super().__init__(message, status=status, operation=operation, retry_after=retry_after)
        self.required_role = required_role
        self.detail = detail

    def __repr__(self) -> str:
        return f"{super().__repr__()[:-1]}, required_role={self.required_role!r})"


class NotFound(ApiError):
    """The addressed resource does not exist (404, 410)."""

    title = "Not found"


class Conflict(ApiError):
    """The request conflicts with the resource's current state (409)."""

    title = "Conflict"


class RateLimited(ApiError):
    """The service refused the request because the key is over its budget (429)."""

    title = "Rate limited"


class ServiceUnavailable(ApiError):
    """The service failed or is unreachable behind a gateway (500, 502, 503, 504, other 5xx)."""

    title = "Service unavailable"


class TransportError(ApiError):
    """No usable HTTP answer: connection refused, timeout, protocol error, garbage body.

    ``sent`` says whether the request may have reached the service. ``False`` only when it
    certainly did not (the connection was never made), which makes any retry safe; otherwise
    a retry of a non-idempotent request could apply it twice.
    """

    title = "Connection problem"

    sent: bool

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        operation: str | None = None,
        retry_after: float | None = None,
        sent: bool = True,
    ) -> None:
        super().__init__(message, status=status, operation=operation, retry_after=retry_after)
        self.sent = sent

    def __repr__(self) -> str:
        return f"{super().__repr__()[:-1]}, sent={self.sent!r})"


class UnexpectedResponse(TransportError):
    """The service answered with something we cannot read: HTML, truncated JSON, wrong shape."""

    title = "Unexpected response"


# --------------------------------------------------------------------------------------------
# Building errors


def parse_retry_after(value: str | None, *, now: Callable[[], float] = time.time) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date.

    Returns ``None`` when the header is missing or unreadable; a date in the past gives 0.
    ``now`` is the wall clock (seconds since the epoch) used for the HTTP-date form.
    """
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            import email.utils  # loaded when a date is met, not with the console

            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
        if when.tzinfo is None:  # an HTTP date is always GMT
            return None
        seconds = when.timestamp() - now()
    if not math.isfinite(seconds):
        return None
    return max(seconds, 0.0)


def _error_class(status: int) -> type[ApiError]:
    """The error class for an HTTP status that is not a success."""
    if status in (400, 422):
        return InvalidRequest
    if status in (401, 403):
        return Unauthorized
    if status in (404, 410):
        return NotFound
    if status == 409:
        return Conflict
    if status == 429:
        return RateLimited
    if 500 <= status <= 599:
        return ServiceUnavailable
    if 400 <= status <= 499:
        return ApiError
    # 1xx/2xx/3xx handed over as a failure: redirects are not followed (the key must not
    # travel to another origin), anything else is not what the contract describes.
    return UnexpectedResponse


def _decode(body: bytes, content_type: str | None) -> str:
    """Body bytes as text: the declared charset if it is known, else UTF-8, never failing."""
    charset = "utf-8"
    if content_type:
        for part in content_type.split(";")[1:]:
            name, _, val = part.partition("=")
            if name.strip().lower() == "charset" and val.strip():
                candidate = val.strip().strip("\"'")
                try:
                    codecs.lookup(candidate)
                except LookupError:
                    continue
                charset = candidate
    return body.decode(charset, errors="replace")


def _message_from_json(data: object) -> str | None:
    """The message of a JSON error body, accepting the shapes services commonly send."""
    if not isinstance(data, dict):
        return None
    for key in ("message", "detail", "error_description", "error", "title"):
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, dict):
            inner = _message_from_json(value)
            if inner:
                return inner
        if isinstance(value, list):
            parts = [
                item.get("msg") or item.get("message") if isinstance(item, dict) else item
                for item in value
            ]
            texts = [p for p in parts if isinstance(p, str) and p.strip()]
            if texts:
                return "; ".join(texts)
    errors = data.get("errors")
    if isinstance(errors, list):
        return _message_from_json({"detail": errors})
    return None


def _html_text(text: str) -> str:
    """The readable part of an HTML error page: its title, or its text without tags."""
    import html  # an HTML error page is rare: not loaded with the console

    title = re.search(_HTML_TITLE, text, _HTML_FLAGS)
    if title:
        found = html.unescape(re.sub(_HTML_TAG, " ", title.group(1))).strip()
        if found:
            return found
    return html.unescape(re.sub(_HTML_TAG, " ", re.sub(_HTML_DROP, " ", text, flags=_HTML_FLAGS)))


def _describe_body(status: int, body: bytes, content_type: str | None) -> str:
    """The message to show for an error response: the service's message or a snippet."""
    ctype = (content_type or "").lower()
    text = _decode(body[:_MAX_PARSED_BODY], content_type)
    stripped = text.lstrip()
    if len(body) <= _MAX_PARSED_BODY and ("json" in ctype or stripped.startswith(("{", "["))):
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            data = None
        message = _message_from_json(data)
        if message is not None:
            cleaned = one_line(message, MESSAGE_LIMIT)
            if cleaned:
                return cleaned
    if "html" in ctype or stripped[:1] == "<":
        text = _html_text(text)
    snippet = one_line(text[: SNIPPET_LIMIT * 8], SNIPPET_LIMIT)
    if snippet:
        return snippet
    try:
        from http import HTTPStatus

        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "unknown status"
    return f"The service answered {status} {phrase} without a message"


#: Longest role name read from a refusal (the gateway's roles are short words).
_ROLE_LIMIT = 40


def _required_role(body: bytes) -> str | None:
    """The ``requiredRole`` a gateway's 403 names, cleaned to one short line; None when the
    body is not such a refusal (a service's own 403 is a refused key)."""
    if len(body) > _MAX_PARSED_BODY:
        return None
    try:
        data = json.loads(body.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        return None
    role = data.get("requiredRole") if isinstance(data, dict) else None
    if not isinstance(role, str):
        return None
    return one_line(role, _ROLE_LIMIT) or None


def error_from_response(
    status: int,
    body: bytes,
    content_type: str | None = None,
    operation: str | None = None,
    retry_after_header: str | None = None,
) -> ApiError:
    """The typed error for a response that is not a success.

    A 403 naming ``requiredRole`` (a team gateway refusing the member's role) is a
    :class:`Forbidden` carrying that role; any other 401 or 403 is :class:`Unauthorized`.

    The message is taken leniently: a JSON object's ``message`` (or a common alternative
    such as ``detail``), otherwise a sanitised snippet of at most 200 characters of the body
    (the title of an HTML page). ``Retry-After`` is parsed into seconds when present.
    """
    cls = _error_class(status)
    message = _describe_body(status, body, content_type)
    retry_after = parse_retry_after(retry_after_header)
    if status == 403 and (role := _required_role(body)) is not None:
        return Forbidden(f"Needs the {role} role", status=status, operation=operation,
                         retry_after=retry_after, required_role=role, detail=message)
    if issubclass(cls, TransportError):
        return cls(message, status=status, operation=operation, retry_after=retry_after, sent=True)
    return cls(message, status=status, operation=operation, retry_after=retry_after)


def error_from_exception(exc: BaseException, operation: str | None = None) -> TransportError:
    """The typed error for an exception raised by the transport (httpx2 or the OS).

    Sets ``sent`` to ``False`` only when the request certainly never reached the service (no
    connection was made); a timeout or a broken connection after sending leaves it ``True``.
    (httpx2 is imported here, not at the top: the console's first frame loads this module's
    error classes but must not wait for the HTTP stack.)
    """
    import httpx2

    # Failures raised before any byte of the request left this machine: always safe to retry.
    not_sent: tuple[type[BaseException], ...] = (
        httpx2.ConnectError, httpx2.ConnectTimeout, httpx2.PoolTimeout, httpx2.UnsupportedProtocol,
        httpx2.ProxyError, ConnectionRefusedError)
    detail = one_line(str(exc), SNIPPET_LIMIT)
    sent = not isinstance(exc, not_sent)
    if isinstance(exc, httpx2.ConnectTimeout | httpx2.PoolTimeout):
        summary = "Timed out connecting to the service"
    elif isinstance(exc, httpx2.ConnectError | ConnectionRefusedError | httpx2.ProxyError):
        summary = "Could not connect to the service"
    elif isinstance(exc, httpx2.UnsupportedProtocol):
        summary = "The service address is not usable"
    elif isinstance(exc, httpx2.TimeoutException | TimeoutError):
        summary = "The service did not answer in time"
    elif isinstance(exc, httpx2.DecodingError):
        return UnexpectedResponse(
            _join("Could not decode the service's answer", detail), operation=operation
        )
    elif isinstance(exc, httpx2.RemoteProtocolError | httpx2.LocalProtocolError):
        summary = "The connection to the service broke (protocol error)"
    elif isinstance(exc, httpx2.NetworkError | OSError):
        summary = "The connection to the service failed"
    else:
        summary = "The request to the service failed"
    return TransportError(_join(summary, detail), operation=operation, sent=sent)


def _join(summary: str, detail: str) -> str:
    """``summary: detail``, or just the summary when the detail adds nothing."""
    return f"{summary}: {detail}" if detail else summary
