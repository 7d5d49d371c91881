"""Reading an answer's body: capped in size and within a deadline (a 10 MB answer or a body
dripping in a byte at a time cannot hang the console), decoded as JSON; a list answer that
may be long (a thread's messages) is read item by item as it streams in, each item bounded
and handed to the caller's ``each_item`` (:mod:`~frontdesk.api.listing`).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx2

from ..text import one_line
from .errors import ApiError, UnexpectedResponse
from .listing import ItemTooLarge, NotJson, TextItems, read_listing
from .operations import Operation

__all__ = ["MAX_RESPONSE_BYTES", "STREAM_AFTER_BYTES", "BodyReader", "FinalError",
           "decode_body"]

#: The largest answer read; anything bigger is refused as an unexpected response.
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
#: A list read item by item (``each_item``) is read whole up to this size (one ``json.loads``,
#: the fastest), then decoded item by item: each item is handed on (and may be made compact)
#: before the next is parsed, rather than every item parsed at once and freed after the last,
#: which leaves the allocator's pools part used (a 10,000-message thread, 3.5 MB: ~7 MB).
#: A caller that wants each item's JSON text (:class:`~.listing.TextItems`) has its list
#: read item by item whatever its size.
STREAM_AFTER_BYTES = 1024 * 1024
_HTML_TITLE = re.compile(rb"<title\b[^>]*>(.*?)</title", re.IGNORECASE | re.DOTALL)


class FinalError(Exception):
    """An error no retry can fix (a redirect, an oversized answer): raised at once."""

    def __init__(self, error: ApiError) -> None:
        super().__init__(error.message)
        self.error = error


class BodyReader:
    """Reads the bodies of a transport's answers, each at most ``max_body`` bytes and within
    ``body_timeout`` seconds overall (the transport owns one)."""

    def __init__(self, *, max_body: int, body_timeout: float) -> None:
        self._max_body = max_body
        self._body_timeout = body_timeout

    async def read(self, response: httpx2.Response, op: Operation) -> bytes:
        """The body, refused past ``max_body`` bytes, within ``body_timeout`` seconds overall."""
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self._max_body:
            raise FinalError(_too_large(op, response.status_code, self._max_body))
        buffer = bytearray()
        async with asyncio.timeout(self._body_timeout):
            async for chunk in response.aiter_bytes():
                buffer += chunk
                if len(buffer) > self._max_body:
                    raise FinalError(_too_large(op, response.status_code, self._max_body))
        return bytes(buffer)

    async def read_listing(self, response: httpx2.Response, op: Operation,
                            each_item: Callable[[Any], Any] | TextItems) -> Any:
        """A list answer of any size: read whole while small (one ``json.loads``), then
        item by item as it streams in; within ``body_timeout`` seconds overall. With
        :class:`~.listing.TextItems`, item by item at any size (a small answer that is not
        an object holding the list, a bare list say, is decoded whole and left as it is)."""
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
                whole = bytes(buffer)
                if isinstance(each_item, TextItems):
                    try:
                        return await read_listing(_one(whole), each_item,
                                                  max_item=self._max_body)
                    except (ValueError, RecursionError):
                        pass  # not such an object: decoded whole, or refused, below
                body = decode_body(whole, content_type, status, op)
                if isinstance(body, dict) and isinstance(body.get("data"), list) \
                        and not isinstance(each_item, TextItems):
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
                raise FinalError(_too_large(op, status, self._max_body)) from None
            except NotJson as exc:
                raw = exc.head.encode()
                raise UnexpectedResponse(_not_json(raw, content_type, op, exc), status=status,
                                         operation=op.label) from None
            except (ValueError, RecursionError) as exc:  # not UTF-8, nested too deep
                raise UnexpectedResponse(_not_json(b"", content_type, op, exc), status=status,
                                         operation=op.label) from None


async def _one(data: bytes) -> AsyncIterator[bytes]:
    yield data


def _too_large(op: Operation, status: int, limit: int) -> UnexpectedResponse:
    return UnexpectedResponse(
        f"The answer to {op.label} is larger than {limit // (1024 * 1024)} MB; not read",
        status=status, operation=op.label,
    )


def decode_body(raw: bytes, content_type: str | None, status: int, op: Operation) -> Any:
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

