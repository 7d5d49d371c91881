"""Sandbox routes: the activity log, of one conversation or of the whole organisation
(published beyond the spec's tables). Entries are written by ``sandbox.activity`` where each
change is made; these routes only read them, oldest first."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from ...api.models import ActivityLogEntry, Envelope, PagedEnvelope
from .. import activity, rules
from ..context import Ctx, ok, page_limit
from ..db import iso
from ..params import ConversationIdPath
from .endusers import PageKey, PageLimit, keyset_after, keyset_page

router = APIRouter(tags=["activity log"])


@router.get("/v1/conversations/activitylog", response_model=PagedEnvelope[ActivityLogEntry],
            summary="List the organisation's activity log",
            responses={400: {"description": "A bad page key or time"}})
async def organisation_log(
    ctx: Ctx,
    request: Request,
    limit: PageLimit = None,
    key: PageKey = None,
    since: Annotated[datetime | None, Query(alias="fromDatetime",
                                            description="entries at or after")] = None,
    until: Annotated[datetime | None, Query(alias="toDatetime",
                                            description="entries at or before")] = None,
) -> Response:
    """Every entry of every conversation, oldest first, within the window if given."""
    size = page_limit(limit)
    where, params = ["1 = 1"], []
    if since is not None:
        where.append("at >= ?")
        params.append(iso(since))
    if until is not None:
        where.append("at <= ?")
        params.append(iso(until))
    after = keyset_after(key)
    if after is not None:
        where.append("(at, id) > (?, ?)")
        params.extend(after)
    rows = ctx.db.all(f"SELECT * FROM activity_log WHERE {' AND '.join(where)} "
                      "ORDER BY at, id LIMIT ?", (*params, size + 1))
    page, meta = keyset_page(request, rows, size, "at")
    people: dict[str, Any] = {}
    return ok([activity.entry(ctx, r, people) for r in page], meta=meta)


@router.get("/v1/conversations/{conversationId}/activitylog",
            response_model=Envelope[list[ActivityLogEntry]],
            summary="List a conversation's activity log",
            responses={404: {"description": "No such conversation"}})
async def conversation_log(ctx: Ctx, conversation_id: ConversationIdPath) -> Response:
    """Every entry of the conversation, oldest first."""
    rules.get_conversation(ctx, conversation_id)
    rows = ctx.db.all("SELECT * FROM activity_log WHERE conversation_id = ? ORDER BY at, seq",
                      (conversation_id,))
    people: dict[str, Any] = {}
    return ok([activity.entry(ctx, r, people) for r in rows])
