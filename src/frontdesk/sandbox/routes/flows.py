"""Sandbox routes: conversation flows (published beyond the spec's tables). Flows are seeded
per contact endpoint (``seed.organization``); the list is one channel's, ``PstnPhone`` by
default."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from starlette.responses import Response

from ...api.models import Channel, ConversationFlow, Envelope
from ..context import Ctx, ok

router = APIRouter(tags=["flows"])


@router.get("/v1/conversations/flows", response_model=Envelope[list[ConversationFlow]],
            summary="List conversation flows",
            responses={400: {"description": "An unknown channel"}})
async def list_flows(
    ctx: Ctx,
    channel: Annotated[Channel, Query(description="the flows' channel (default PstnPhone)")]
    = Channel.PSTN_PHONE,
) -> Response:
    """The flows of one channel, in the organisation's order."""
    rows = ctx.db.all("SELECT * FROM flows WHERE channel = ? ORDER BY position, id",
                      (channel.value,))
    return ok([{"id": r["id"], "name": r["name"], "channel": r["channel"],
                "contactEndpointId": r["contact_endpoint_id"]} for r in rows])
