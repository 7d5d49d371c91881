"""Sandbox routes: the activity log, of one conversation or of the whole organisation
(published beyond the spec's tables). Entries are written by ``sandbox.activity`` where each
change is made; these routes only read them, in the order they were written (the order things
happened)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from ...api.models import ActivityLogEntry, Envelope, PagedEnvelope
from .. import activity, rules
from ..context import Ctx, decode_page_key, encode_page_key, ok, page_limit, page_meta
from ..db import iso
from ..errors import bad_request
from ..params import ConversationIdPath
from .endusers import PageKey, PageLimit

router = APIRouter(tags=["activity log"])

_BAD_KEY = "Invalid value in request: pageKey is not a key this service made"


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
    """Every entry of every conversation in the order written, within the window if given."""
    size = page_limit(limit)
    where: list[str] = ["1 = 1"]
    params: list[str | int] = []
    if since is not None:
        where.append("at >= ?")
        params.append(iso(since))
    if until is not None:
        where.append("at <= ?")
        params.append(iso(until))
    position = decode_page_key(key)
    if position is not None:
        after = position.get("s")
        if not isinstance(after, int):
            raise bad_request(_BAD_KEY)
        where.append("seq > ?")
        params.append(after)
    rows = ctx.db.all(f"SELECT * FROM activity_log WHERE {' AND '.join(where)} "
                      "ORDER BY seq LIMIT ?", (*params, size + 1))
    page, meta = rows, None
    if len(rows) > size:
        page = rows[:size]
        meta = page_meta(request, encode_page_key({"s": page[-1]["seq"]}), size)
    people: dict[str, Any] = {}
    return ok([activity.entry(ctx, r, people) for r in page], meta=meta)


@router.get("/v1/conversations/{conversationId}/activitylog",
            response_model=Envelope[list[ActivityLogEntry]],
            summary="List a conversation's activity log",
            responses={404: {"description": "No such conversation"}})
async def conversation_log(ctx: Ctx, conversation_id: ConversationIdPath) -> Response:
    """Every entry of the conversation, in the order written."""
    rules.get_conversation(ctx, conversation_id)
    rows = ctx.db.all("SELECT * FROM activity_log WHERE conversation_id = ? ORDER BY seq",
                      (conversation_id,))
    people: dict[str, Any] = {}
    return ok([activity.entry(ctx, r, people) for r in rows])
