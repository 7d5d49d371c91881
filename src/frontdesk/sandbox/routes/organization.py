"""Sandbox routes: the organisation the API key belongs to (published beyond the spec's
tables). Its details are kept in the ``meta`` table (``seed.organization``)."""

from __future__ import annotations

from fastapi import APIRouter
from starlette.responses import Response

from ...api.models import Envelope, Organization
from ..context import Ctx, ok

router = APIRouter(tags=["organization"])


@router.get("/v1/organization", response_model=Envelope[Organization],
            summary="Get the organisation's details")
async def organization(ctx: Ctx) -> Response:
    """The organisation's id, name, subdomain and status."""
    meta = ctx.db.get_meta
    return ok({"id": ctx.organization_id,
               "name": meta("organization_name") or "Sandbox organisation",
               "subdomain": meta("organization_subdomain") or "sandbox",
               "status": meta("organization_status") or "Active"})
