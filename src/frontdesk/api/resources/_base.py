"""What every resource shares: the transport it sends through, checking arguments before a
request leaves, reading the answer leniently into the contract's models, and paging.

Arguments are checked first (ids well-formed, inputs valid) and refused with
:class:`~frontdesk.api.errors.InvalidRequest` (no status), so a bad call never costs a
request. Answers are read leniently, as the real service may differ from the sandbox: the
``data`` envelope or a bare value, unknown fields kept, and in a list an item that does not
fit is left out (with a warning in the log) rather than failing the whole list.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar
from urllib.parse import parse_qs, urlsplit

import httpx2
from pydantic import BaseModel, ValidationError

from ...text import one_line
from .. import left_out
from ..errors import InvalidRequest, UnexpectedResponse
from ..models.common import UUID_PATTERN, Input, PageMeta
from ..operations import Operation
from ..pacing import Priority
from ..transport import NO_BODY, Transport

__all__ = ["Page", "Resource"]

log = logging.getLogger("frontdesk.api")

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)
I = TypeVar("I", bound=Input)  # noqa: E741

_UUID = re.compile(UUID_PATTERN)
MAX_CONVERSATION_ID = 2**63 - 1
MAX_PAGE_SIZE = 500


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a paged list: its items and the key of the next page (``None``: last).

    ``next_url`` is the service's own link to the next page, kept for the rare answer whose
    link carries no ``pageKey`` (the client then follows the link as given).
    """

    items: list[T]
    next_key: str | None = None
    next_url: str | None = field(default=None, repr=False)

    @property
    def has_more(self) -> bool:
        """Whether another page follows."""
        return self.next_key is not None or self.next_url is not None


class Resource:
    """The base of every resource: one API group's operations on one transport."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    # -------------------------------------------------------------- paging

    async def _fetch_page(
        self,
        op: Operation,
        model: type[M],
        *,
        path: Mapping[str, str | int] | None = None,
        params: Mapping[str, Any] | None = None,
        body: Any = NO_BODY,
        page_size: int | None = None,
        page_key: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
        items_of: Callable[[Any], Any] | None = None,
        url: httpx2.URL | None = None,
    ) -> Page[M]:
        """One page of ``op``: ``{"data": [...], "meta": {"next": …}}`` or a bare list."""
        query = dict(params or {})
        query["pageLimit"] = check_page_size(page_size, op)
        if page_key is not None:
            if not isinstance(page_key, str) or not page_key:
                raise InvalidRequest("The page key must be the text the service gave",
                                     operation=op.label)
            query["pageKey"] = page_key
        reply = await self._transport.send(op, path=path, params=query, body=body,
                                           priority=priority, url=url)
        body_value = reply.body
        data = unwrap(op, body_value)
        if items_of is not None:
            data = items_of(data)
        items = parse_items(op, data, model)
        next_link = None
        if isinstance(body_value, dict) and isinstance(body_value.get("meta"), dict):
            meta = parse_one(op, body_value["meta"], PageMeta)
            next_link = meta.next or None
        return page_from_link(items, next_link)

    def _iterate(
        self,
        fetch: Callable[[str | None, httpx2.URL | None], Awaitable[Page[M]]],
        op: Operation,
    ) -> AsyncIterator[M]:
        """Every item of every page, fetched lazily: the next page only when it is needed."""

        async def items() -> AsyncIterator[M]:
            key: str | None = None
            url: httpx2.URL | None = None
            seen: set[str] = set()
            while True:
                page = await fetch(key, url)
                for item in page.items:
                    yield item
                marker = page.next_key or page.next_url
                if marker is None:
                    return
                if marker in seen:
                    log.warning("the service repeated a page link of %s; stopping", op.label)
                    return
                seen.add(marker)
                key = page.next_key
                url = None if key is not None else self._transport.resolve(op, page.next_url or "")

        return items()


# ------------------------------------------------------------------ checking arguments


def fail(op: Operation, message: str) -> InvalidRequest:
    """The error for a call refused before sending."""
    return InvalidRequest(message, operation=op.label)


def check_conversation_id(value: object, op: Operation, what: str = "conversation id") -> int:
    """A conversation id: a positive int64 (digits in text are accepted)."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(op, f"The {what} must be a positive whole number, not {_show(value)}")
    if not 1 <= value <= MAX_CONVERSATION_ID:
        raise fail(op, f"The {what} must be between 1 and {MAX_CONVERSATION_ID}, not {value}")
    return value


def check_uuid(value: object, op: Operation, what: str) -> str:
    """An id that is a UUID in text form."""
    if not isinstance(value, str) or not _UUID.match(value):
        raise fail(op, f"The {what} must be a UUID, not {_show(value)}")
    return value


def check_uuids(values: object, op: Operation, what: str) -> list[str]:
    """A non-empty list of UUIDs."""
    if isinstance(values, str) or not isinstance(values, list | tuple | set | frozenset):
        raise fail(op, f"The {what} must be a list of UUIDs")
    checked = [check_uuid(v, op, what[:-1] if what.endswith("s") else what) for v in values]
    if not checked:
        raise fail(op, f"Give at least one {what[:-1] if what.endswith('s') else what}")
    return checked


def check_text_id(value: object, op: Operation, what: str) -> str:
    """An id that is free text: non-empty, one line, not a relative path segment."""
    if not isinstance(value, str) or not value.strip() or value in (".", ".."):
        raise fail(op, f"The {what} must be a non-empty text, not {_show(value)}")
    if any(ch in value for ch in "\r\n\t\x00/?#"):
        raise fail(op, f"The {what} contains characters an id cannot have")
    return value


def check_page_size(value: object, op: Operation) -> int | None:
    """A page size: ``None`` (the service's default) or 1 to 500."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_PAGE_SIZE:
        raise fail(op, f"The page size must be 1 to {MAX_PAGE_SIZE}, not {_show(value)}")
    return value


def build(op: Operation, model: type[I], given: object = None, **fields: Any) -> I:
    """The input model of a call: ``given`` as it is (an instance or a mapping), or built from
    the keyword ``fields`` (``None`` left out). Invalid input → InvalidRequest, nothing sent;
    an unknown (say, misspelt) member is invalid too, though the service would ignore it.
    """
    if isinstance(given, model):
        return given
    try:
        if given is not None:
            if isinstance(given, BaseModel):
                given = given.model_dump(by_alias=True, exclude_none=True)
            return model.model_validate(given, extra="forbid")
        return model.model_validate({k: v for k, v in fields.items() if v is not None},
                                    extra="forbid")
    except ValidationError as exc:
        raise fail(op, "Invalid input: " + describe_validation(exc)) from None


def describe_validation(exc: ValidationError, limit: int = 3) -> str:
    """The first few problems of a validation error, as one readable line."""
    parts: list[str] = []
    for error in exc.errors()[:limit]:
        loc = ".".join(str(p) for p in error.get("loc", ()))
        message = str(error.get("msg", "invalid"))
        parts.append(f"{loc}: {message}" if loc else message)
    more = exc.error_count() - limit
    if more > 0:
        parts.append(f"and {more} more")
    return one_line("; ".join(parts), 400)


def _show(value: object) -> str:
    return one_line(repr(value), 60)


# ------------------------------------------------------------------ reading answers


def unwrap(op: Operation, body: Any) -> Any:
    """The ``data`` of an answer: ``{"data": …}`` unwrapped, a bare value taken as it is."""
    if body is None:
        raise UnexpectedResponse(f"The answer to {op.label} has no body where data was expected",
                                 operation=op.label)
    if isinstance(body, dict) and "data" in body:
        return body["data"]
    return body


def parse_one(op: Operation, value: Any, model: type[M]) -> M:
    """``value`` read as ``model``; a shape that does not fit → UnexpectedResponse."""
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise UnexpectedResponse(
            f"The answer to {op.label} does not have the expected shape: "
            + describe_validation(exc),
            operation=op.label,
        ) from None


def parse_items(op: Operation, value: Any, model: type[M]) -> list[M]:
    """A list read item by item: an item that does not fit is left out and logged, unless
    none fits (then the answer as a whole is wrong → UnexpectedResponse)."""
    if not isinstance(value, list):
        raise UnexpectedResponse(
            f"The answer to {op.label} is not a list (got {type(value).__name__})",
            operation=op.label,
        )
    items: list[M] = []
    first: ValidationError | None = None
    for raw in value:
        try:
            items.append(model.model_validate(raw))
        except ValidationError as exc:
            first = first or exc
    if first is not None:
        if not items:
            raise UnexpectedResponse(
                f"The answer to {op.label} does not have the expected shape: "
                + describe_validation(first),
                operation=op.label,
            )
        left_out.report(op.label, len(value) - len(items), len(value),
                        f"they do not fit {model.__name__}: {describe_validation(first, 1)}")
    return items


def page_key_of(link: str | None) -> str | None:
    """The ``pageKey`` carried by a ``meta.next`` link, if any."""
    if not link:
        return None
    try:
        values = parse_qs(urlsplit(link).query).get("pageKey")
    except ValueError:
        return None
    return values[0] if values and values[0] else None


def page_from_link(items: list[M], link: str | None) -> Page[M]:
    """A page whose next page is named by the service's ``link`` (or by nothing)."""
    key = page_key_of(link)
    return Page(items, key, None if key is not None or not link else link)
