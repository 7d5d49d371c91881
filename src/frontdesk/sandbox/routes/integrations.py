"""Sandbox routes: the deprecated endpoint-listing interface (mounted at the integrations
prefix; snake_case; the API key with or without ``Bearer``).

The listing pages with cursors: ``after`` gives the items following a cursor, ``before`` the
items preceding one; each page names the cursors of its first and last items, and links to
the next and previous pages (absolute URLs) while there are more.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from ...api.models import Endpoint, EndpointPage, Envelope
from ..context import (
    DEFAULT_PAGE_LIMIT,
    MAX_PAGE_LIMIT,
    Ctx,
    SandboxContext,
    decode_page_key,
    encode_page_key,
    ok,
    raw,
)
from ..errors import ApiProblem, bad_request, not_found
from ..params import LegacyEndpointIdPath

router = APIRouter(tags=["integrations (deprecated)"])

KINDS = {"email_address": "EmailEndpoint", "phone_number": "TelephonyEndpoint"}
_BAD_CURSOR = "Invalid value in request: not a cursor this service made"


def email_shape(row: Any) -> dict[str, Any]:
    """The ``email_address`` member of an email endpoint."""
    return {"id": row["legacy_id"], "internal_email_address": row["internal_email_address"],
            "spf_email": row["key"]}


def phone_shape(row: Any) -> dict[str, Any]:
    """The ``phone_number`` member of a phone endpoint (E.164)."""
    return {"id": row["legacy_id"], "phone_number": row["key"]}


def item_shape(row: Any) -> dict[str, Any]:
    """A listed endpoint: a single-key object."""
    if row["type"] == "EmailEndpoint":
        return {"email_address": email_shape(row)}
    return {"phone_number": phone_shape(row)}


def _cursor(row: Any) -> str:
    return encode_page_key({"p": row["position"], "k": row["key"]})


def _position(cursor: str) -> tuple[int, str]:
    try:
        value = decode_page_key(cursor)
    except ApiProblem as exc:
        raise bad_request(_BAD_CURSOR) from exc
    if value is None or not isinstance(value.get("p"), int) or not isinstance(value.get("k"),
                                                                             str):
        raise bad_request(_BAD_CURSOR)
    return value["p"], value["k"]


def _key(row: Any) -> tuple[int, str]:
    return int(row["position"]), str(row["key"])


def _rows(ctx: SandboxContext, kind: str | None, *, after: tuple[int, str] | None = None,
          before: tuple[int, str] | None = None, limit: int) -> list[Any]:
    """Up to ``limit`` endpoints in (position, key) order, after or before a position."""
    where: list[str] = []
    params: list[Any] = []
    if kind is not None:
        where.append("type = ?")
        params.append(kind)
    if after is not None:
        where.append("(position, key) > (?, ?)")
        params.extend(after)
    if before is not None:
        where.append("(position, key) < (?, ?)")
        params.extend(before)
    sql = "SELECT * FROM contact_endpoints" + (" WHERE " + " AND ".join(where) if where else "")
    order = "DESC" if before is not None else "ASC"
    rows = ctx.db.all(f"{sql} ORDER BY position {order}, key {order} LIMIT ?",
                      (*params, limit))
    return rows[::-1] if before is not None else rows


@router.get("/v1/endpoints", response_model=EndpointPage, deprecated=True,
            summary="List endpoints (deprecated: use /v1/contact-endpoints)")
async def list_endpoints(
    ctx: Ctx,
    request: Request,
    kind_name: Annotated[str | None, Query(alias="type", max_length=50,
                                           description="email_address or phone_number")] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE_LIMIT)] = DEFAULT_PAGE_LIMIT,
    after: Annotated[str | None, Query(max_length=500)] = None,
    before: Annotated[str | None, Query(max_length=500)] = None,
) -> Response:
    """Endpoints as single-key objects, a page at a time, with cursor paging."""
    if kind_name is not None and kind_name not in KINDS:
        raise bad_request("Invalid value in request: type must be email_address or "
                          "phone_number")
    if after is not None and before is not None:
        raise bad_request("Invalid value in request: give after or before, not both")
    kind = None if kind_name is None else KINDS[kind_name]
    if before is not None:
        rows = _rows(ctx, kind, before=_position(before), limit=limit + 1)
        more_before, rows = len(rows) > limit, rows[-limit:]
        more_after = bool(rows) and bool(_rows(ctx, kind, after=_key(rows[-1]), limit=1))
    else:
        start = _position(after) if after is not None else None
        rows = _rows(ctx, kind, after=start, limit=limit + 1)
        more_after, rows = len(rows) > limit, rows[:limit]
        more_before = bool(rows) and bool(_rows(ctx, kind, before=_key(rows[0]), limit=1))
    cursors: dict[str, str] = {}
    paging: dict[str, Any] = {"cursors": cursors}
    if rows:
        cursors["before"] = _cursor(rows[0])
        cursors["after"] = _cursor(rows[-1])
    base = {k: v for k, v in (("type", kind_name), ("limit", str(limit))) if v is not None}
    if more_after:
        paging["next_page"] = str(request.url.replace(
            query=urlencode({**base, "after": cursors["after"]})))
    if more_before:
        paging["prev_page"] = str(request.url.replace(
            query=urlencode({**base, "before": cursors["before"]})))
    return raw({"data": [item_shape(r) for r in rows], "paging": paging})


@router.get("/v1/endpoints/{id}", response_model=Envelope[Endpoint], deprecated=True,
            summary="Get an endpoint (deprecated: use /v1/contact-endpoints/{id})",
            responses={404: {"description": "No such endpoint"}})
async def read_endpoint(ctx: Ctx, endpoint_id: LegacyEndpointIdPath) -> Response:
    """One endpoint by its id: both members present, the one not of its kind null."""
    row = ctx.db.one("SELECT * FROM contact_endpoints WHERE legacy_id = ?", (endpoint_id,))
    if row is None:
        raise not_found(f"Endpoint {endpoint_id}")
    email = row["type"] == "EmailEndpoint"
    return ok({"email_address": email_shape(row) if email else None,
               "phone_number": None if email else phone_shape(row)})
