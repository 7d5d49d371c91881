"""Sandbox routes: contact endpoints, the organisation's email addresses and phone numbers.

An endpoint has no id of its own: it is named by its address or its E.164 number.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Query
from starlette.responses import Response

from ...api.models import ContactEndpoint, Envelope
from ..context import Ctx, ok
from ..db import loads
from ..errors import bad_request, not_found
from ..params import ContactEndpointIdPath

router = APIRouter(tags=["contact endpoints"])

TYPES = ("EmailEndpoint", "TelephonyEndpoint")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")
E164 = re.compile(r"^\+[1-9][0-9]{1,14}$")


def endpoint_shape(row: Any) -> dict[str, Any]:
    """An ``EmailEndpoint`` or a ``TelephonyEndpoint``."""
    out: dict[str, Any] = {"_type": row["type"]}
    if row["type"] == "EmailEndpoint":
        out["address"] = row["key"]
        if row["sender_override"] is not None:
            out["senderOverride"] = row["sender_override"]
    else:
        out["number"] = row["key"]
        functionality = loads(row["functionality"])
        if functionality is not None:
            out["functionality"] = functionality
    if row["name"] is not None:
        out["name"] = row["name"]
    return out


@router.get("/v1/contact-endpoints", response_model=Envelope[list[ContactEndpoint]],
            summary="List contact endpoints")
async def list_endpoints(
    ctx: Ctx,
    kind: Annotated[str | None, Query(alias="_type", max_length=50,
                                      description="EmailEndpoint or TelephonyEndpoint")] = None,
) -> Response:
    """Every email and phone endpoint, or those of one ``_type``."""
    if kind is not None and kind not in TYPES:
        raise bad_request("Invalid value in request: _type must be EmailEndpoint or "
                          "TelephonyEndpoint")
    where = "" if kind is None else " WHERE type = ?"
    rows = ctx.db.all(f"SELECT * FROM contact_endpoints{where} ORDER BY position, key",
                      () if kind is None else (kind,))
    return ok([endpoint_shape(r) for r in rows])


@router.get("/v1/contact-endpoints/{contactEndpointId}",
            response_model=Envelope[ContactEndpoint], summary="Get a contact endpoint",
            responses={404: {"description": "No such contact endpoint"}})
async def read_endpoint(ctx: Ctx, endpoint_id: ContactEndpointIdPath) -> Response:
    """One endpoint, by its email address or its E.164 phone number."""
    key = endpoint_id.strip()
    if EMAIL.match(key):
        row = ctx.db.one("SELECT * FROM contact_endpoints WHERE key = ? COLLATE NOCASE "
                         "AND type = 'EmailEndpoint'", (key,))
    elif E164.match(key):
        row = ctx.db.one("SELECT * FROM contact_endpoints WHERE key = ? "
                         "AND type = 'TelephonyEndpoint'", (key,))
    else:
        raise bad_request("Invalid value in request: a contact endpoint id is an email address "
                          "or an E.164 phone number (+ and up to 15 digits)")
    if row is None:
        raise not_found(f"Contact endpoint {key}")
    return ok(endpoint_shape(row))
