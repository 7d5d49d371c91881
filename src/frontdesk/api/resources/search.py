"""Conversation search: text and field filters, answered with ids and highlights.

A search is a POST but reads only, so it is retried like a GET, and each next page is asked
for by sending the same search again with the page key. (Beyond the spec; published.)
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx2

from ..models.search import SearchConversationsInput, SearchFilters, SearchHit, SearchQuery
from ..operations import operation
from ..pacing import Priority
from ._base import Page, Resource, build

__all__ = ["SearchResource"]

_SEARCH = operation("search.conversations")
_BY_TEXT = operation("search.conversations_by_text")


class SearchResource(Resource):
    """``client.search``: find conversations."""

    async def conversations(
        self,
        query: str | None = None,
        *,
        exact_match: bool | None = None,
        filters: SearchFilters | Mapping[str, Any] | None = None,
        search: SearchConversationsInput | None = None,
        page_size: int | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> AsyncIterator[SearchHit]:
        """Every conversation matching ``query`` (text) and ``filters``, page by page: its
        id and the matched text, marked, in ``highlights``. Or pass a ready ``search``."""
        body = _body(query, exact_match, filters, search)

        async def fetch(key: str | None, url: httpx2.URL | None) -> Page[SearchHit]:
            return await self._fetch_page(_SEARCH, SearchHit, body=body, page_size=page_size,
                                          page_key=key, priority=priority, url=url)

        async for hit in self._iterate(fetch, _SEARCH):
            yield hit

    async def conversations_page(
        self,
        query: str | None = None,
        *,
        exact_match: bool | None = None,
        filters: SearchFilters | Mapping[str, Any] | None = None,
        search: SearchConversationsInput | None = None,
        page_size: int | None = None,
        page_key: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> Page[SearchHit]:
        """One page of search results; pass the previous page's ``next_key`` for the next."""
        body = _body(query, exact_match, filters, search)
        return await self._fetch_page(_SEARCH, SearchHit, body=body, page_size=page_size,
                                      page_key=page_key, priority=priority)


    async def conversations_by_text(
        self,
        query: str,
        *,
        exact_match: bool | None = None,
        page_size: int | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> AsyncIterator[SearchHit]:
        """Deprecated (the service publishes :meth:`conversations` in its place): every
        conversation whose subject or messages hold ``query``, page by page, with the
        messages that matched in ``inner_hits``."""
        text = build(_BY_TEXT, SearchQuery, value=query, exact_match=exact_match)
        params: dict[str, Any] = {"query": text.value}
        if exact_match is not None:
            params["exactMatch"] = exact_match

        async def fetch(key: str | None, url: httpx2.URL | None) -> Page[SearchHit]:
            return await self._fetch_page(_BY_TEXT, SearchHit, params=params,
                                          page_size=page_size, page_key=key,
                                          priority=priority, url=url)

        async for hit in self._iterate(fetch, _BY_TEXT):
            yield hit


def _body(
    query: str | None,
    exact_match: bool | None,
    filters: SearchFilters | Mapping[str, Any] | None,
    search: SearchConversationsInput | None,
) -> dict[str, Any]:
    if search is not None:
        return search.wire()
    text = None
    if query is not None:
        text = build(_SEARCH, SearchQuery, value=query, exact_match=exact_match)
    chosen = None
    if filters is not None:
        chosen = build(_SEARCH, SearchFilters, filters)
    return build(_SEARCH, SearchConversationsInput, query=text, filters=chosen).wire()
