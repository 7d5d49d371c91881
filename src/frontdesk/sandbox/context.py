"""What every route of the sandbox works with: the database, the clock, and its settings."""

from __future__ import annotations

import base64
import binascii
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import Depends, Request
from starlette.responses import Response

from .clock import Clock
from .db import Database
from .errors import bad_request
from .faults import Faults
from .webhooks_sender import Sender

DEFAULT_PAGE_LIMIT = 50
MAX_PAGE_LIMIT = 500
_BAD_KEY = "Invalid value in request: pageKey is not a key this service made"


@dataclass
class SandboxContext:
    """The state of one sandbox, shared by its routes, its worker and its simulator."""

    db: Database
    clock: Clock
    faults: Faults = field(default_factory=Faults)
    keys: tuple[str, ...] = ()
    rate_limit: bool = True
    #: seconds on a monotonic clock, for the rate budget: tests that count requests per
    #: second in virtual time put theirs here before the first request
    rate_clock: Callable[[], float] = field(default=time.monotonic)
    integrations_prefix: str = "/integrations"
    #: seconds before asynchronous work (bulk tags, anonymisation) is done
    work_delay: float = 0.5
    #: whether webhooks may be delivered beyond loopback addresses
    webhooks_anywhere: bool = False
    #: the threads that POST webhook deliveries, off the request path
    deliveries: Sender = field(default_factory=Sender)

    def new_id(self) -> str:
        """A fresh UUID in text form."""
        return str(uuid.uuid4())

    def now_iso(self) -> str:
        """The clock's time as stored."""
        from .db import iso

        return iso(self.clock.now())

    @property
    def organization_id(self) -> str:
        """The demo organisation's id."""
        return self.db.get_meta("organization_id") or "00000000-0000-4000-8000-000000000000"

    @property
    def api_user_id(self) -> str:
        """The admin on whose behalf API keys act (the requester of anonymisations)."""
        return self.db.get_meta("api_user_id") or "00000000-0000-4000-8000-000000000001"


async def context(request: Request) -> SandboxContext:
    """FastAPI dependency: the sandbox of the app serving this request (async, so FastAPI
    calls it inline instead of in its thread pool)."""
    ctx: SandboxContext = request.app.state.sandbox
    return ctx


Ctx = Annotated[SandboxContext, Depends(context)]


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def ok(data: Any, status: int = 200, meta: dict[str, str] | None = None) -> Response:
    """``{"data": …}`` (and ``meta`` for a paged list) with status 200."""
    body: dict[str, Any] = {"data": data}
    if meta:
        body["meta"] = meta
    return Response(_json(body), status_code=status, media_type="application/json")


def raw(body: Any, status: int = 200) -> Response:
    """A JSON body sent as it is (the bare presence list, the deprecated interface)."""
    return Response(_json(body), status_code=status, media_type="application/json")


def no_content() -> Response:
    """204: done, nothing to say."""
    return Response(status_code=204)


def accepted() -> Response:
    """202: accepted, done moments later."""
    return Response(status_code=202)


def encode_page_key(position: dict[str, Any]) -> str:
    """An opaque page key for a position in a list."""
    return base64.urlsafe_b64encode(_json(position)).decode().rstrip("=")


def decode_page_key(key: str | None) -> dict[str, Any] | None:
    """The position a page key stands for; a 400 for a key we did not make."""
    if not key:
        return None
    try:
        padded = key + "=" * (-len(key) % 4)
        value = json.loads(base64.urlsafe_b64decode(padded.encode()))
    except (binascii.Error, ValueError, UnicodeDecodeError) as exc:
        raise bad_request(_BAD_KEY) from exc
    if not isinstance(value, dict):
        raise bad_request(_BAD_KEY)
    return value


def page_limit(value: int | None) -> int:
    """The page size asked for, checked."""
    if value is None:
        return DEFAULT_PAGE_LIMIT
    if not 1 <= value <= MAX_PAGE_LIMIT:
        raise bad_request(f"Invalid value in request: pageLimit must be 1 to {MAX_PAGE_LIMIT}")
    return value


def page_meta(request: Request, next_key: str | None, limit: int) -> dict[str, str] | None:
    """``meta`` of a page: a root-relative ``next`` link when there is more."""
    if next_key is None:
        return None
    params = {k: v for k, v in request.query_params.items() if k not in ("pageKey", "pageLimit")}
    params.update({"pageLimit": str(limit), "pageKey": next_key})
    return {"next": f"{request.url.path}?{urlencode(params)}"}
