"""Sandbox routes: conversation search — a text query and field filters, paged.

The text query looks in subjects and message bodies (case-insensitive for ASCII, as SQL
``LIKE``): ``exactMatch`` looks for the whole phrase, otherwise every word must occur
somewhere in the conversation. Filters compile to SQL, joined by ``All`` (and) or ``Any``
(or). Hits come newest activity first, paged by a key on (last activity, id).

Highlights wrap each match in ``<em class="highlight">…</em>``: ``subject`` holds the
subject, ``message`` up to three fragments of matching messages; the surrounding text is
returned as stored (not HTML-escaped). Without a text query they are ``{}``.

The text query and highlights are :mod:`..search_text`; the filters :mod:`..search_filters`.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from ...api.models import PagedEnvelope, SearchConversationsInput, SearchHit, SearchQuery
from ..context import Ctx, SandboxContext, decode_page_key, encode_page_key, ok, page_limit
from ..context import page_meta as make_page_meta
from ..errors import bad_request
from ..search_filters import compile_field
from ..search_text import highlights, inner_hits, terms_of, text_sql

router = APIRouter(tags=["search"])

_BAD_KEY = "Invalid value in request: pageKey is not a key this service made"

_ACTIVITY = "IFNULL(c.last_activity_at, '')"



def _position(key: str | None) -> tuple[str, int] | None:
    position = decode_page_key(key)
    if position is None:
        return None
    activity, last_id = position.get("a"), position.get("i")
    if not isinstance(activity, str) or not isinstance(last_id, int):
        raise bad_request(_BAD_KEY)
    return activity, last_id


@router.post("/v1/search/conversations", response_model=PagedEnvelope[SearchHit],
             summary="Search conversations by text and filters")
async def search_conversations(
    ctx: Ctx,
    request: Request,
    body: SearchConversationsInput | None = None,
    limit: Annotated[int | None, Query(alias="pageLimit", description="hits per page")] = None,
    key: Annotated[str | None, Query(alias="pageKey", description="opaque page key")] = None,
) -> Response:
    """Conversation ids with highlights, newest activity first, paged.

    An operator that does not fit its field, a value the field does not know (channels,
    directions and statuses are lowercase: ``email``, ``inbound``, ``pending``…) or a
    missing operator member is a 400. Without a body every conversation is a hit.
    """
    return _search(ctx, request, body or SearchConversationsInput(), limit, key)


@router.get("/v1/search/conversations", response_model=PagedEnvelope[SearchHit],
            summary="Search conversations by text (deprecated: POST searches by filters too)",
            deprecated=True)
async def search_conversations_by_text(
    ctx: Ctx,
    request: Request,
    query: Annotated[str, Query(description="the text to look for")],
    exact_match: Annotated[bool | None, Query(alias="exactMatch",
                                              description="only the whole phrase")] = None,
    limit: Annotated[int | None, Query(alias="pageLimit", description="hits per page")] = None,
    key: Annotated[str | None, Query(alias="pageKey", description="opaque page key")] = None,
) -> Response:
    """The published search before filters: conversations whose subject or messages hold
    ``query``, newest activity first, with the messages that matched in ``innerHits``."""
    if not query.strip() or len(query) > 1000:
        raise bad_request("Invalid value for: query parameter query")
    text = SearchQuery(value=query, exact_match=exact_match)
    return _search(ctx, request, SearchConversationsInput(query=text), limit, key,
                   inner=True)


def _search(ctx: SandboxContext, request: Request, body: SearchConversationsInput,
            limit: int | None, key: str | None, *, inner: bool = False) -> Response:
    """One page of hits for ``body``; with ``inner``, each hit's matching messages too."""
    size = page_limit(limit)
    position = _position(key)
    where: list[str] = []
    params: list[Any] = []
    terms = terms_of(body.query) if body.query is not None else None
    if terms is not None:
        sql, values = text_sql(terms)
        where.append(sql)
        params += values
    if body.filters is not None and body.filters.conditions:
        compiled = [compile_field(c.field) for c in body.filters.conditions]
        joiner = " AND " if body.filters.strategy == "All" else " OR "
        where.append("(" + joiner.join(f"({sql})" for sql, _ in compiled) + ")")
        params += [p for _, values in compiled for p in values]
    if position is not None:
        where.append(f"({_ACTIVITY} < ? OR ({_ACTIVITY} = ? AND c.id < ?))")
        params += [position[0], position[0], position[1]]
    rows = ctx.db.all(
        f"SELECT c.id, c.subject, {_ACTIVITY} AS activity FROM conversations c"
        + (" WHERE " + " AND ".join(where) if where else "")
        + f" ORDER BY activity DESC, c.id DESC LIMIT {size + 1}",
        tuple(params),
    )
    more = len(rows) > size
    rows = rows[:size]
    hits = []
    for row in rows:
        hit: dict[str, Any] = {
            "id": row["id"],
            "highlights": highlights(ctx, row, terms) if terms is not None else {}}
        if inner and terms is not None:
            hit["innerHits"] = inner_hits(ctx, row, terms)
        hits.append(hit)
    next_key = (encode_page_key({"a": rows[-1]["activity"], "i": rows[-1]["id"]})
                if more and rows else None)
    return ok(hits, meta=make_page_meta(request, next_key, size))


__all__ = ["router"]
