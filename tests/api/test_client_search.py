"""client.search against the sandbox: text, filters, pages."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from frontdesk.api import ApiClient, InvalidRequest, Pacer, RetryPolicy
from frontdesk.api.models import SearchConversationsInput
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                         pacer=Pacer(enabled=False), retry=FAST) as api:
        yield api


async def conversations_saying(client: ApiClient, word: str, n: int) -> list[int]:
    user = await client.endusers.create(display_name="Searcher")
    return [(await client.conversations.create_chat(user.id, str(uuid.uuid4()),
                                                    f"about {word} number {i}")).id
            for i in range(n)]


async def test_text_search_with_highlights(client: ApiClient) -> None:
    word = "zqx" + uuid.uuid4().hex[:6]
    ids = await conversations_saying(client, word, 3)
    hits = [h async for h in client.search.conversations(word, page_size=2)]
    assert sorted(h.id for h in hits) == sorted(ids)
    assert all(f'<em class="highlight">{word}</em>' in " ".join(h.highlights["message"])
               for h in hits)


async def test_pages(client: ApiClient) -> None:
    word = "pgx" + uuid.uuid4().hex[:6]
    ids = await conversations_saying(client, word, 3)
    first = await client.search.conversations_page(word, page_size=2)
    assert len(first.items) == 2 and first.next_key is not None
    rest = await client.search.conversations_page(word, page_size=2, page_key=first.next_key)
    assert sorted(h.id for h in first.items + rest.items) == sorted(ids)
    assert rest.next_key is None


async def test_filters(client: ApiClient) -> None:
    word = "flt" + uuid.uuid4().hex[:6]
    ids = await conversations_saying(client, word, 2)
    await client.conversations.close(ids[0])
    closed = {"strategy": "All", "conditions": [
        {"field": {"_type": "Status", "operator": {"_type": "IsOneOf", "values": ["closed"]}}}]}
    hits = [h.id async for h in client.search.conversations(word, filters=closed)]
    assert hits == [ids[0]]
    body = SearchConversationsInput.model_validate({"filters": {
        "strategy": "All", "conditions": [{"field": {
            "_type": "ConversationId", "operator": {"_type": "IsOneOf",
                                                    "values": [str(ids[1])]}}}]}})
    assert [h.id async for h in client.search.conversations(search=body)] == [ids[1]]


async def test_errors(client: ApiClient) -> None:
    bad_value = {"strategy": "All", "conditions": [
        {"field": {"_type": "Status", "operator": {"_type": "IsOneOf", "values": ["asleep"]}}}]}
    with pytest.raises(InvalidRequest) as caught:
        await client.search.conversations_page(filters=bad_value)
    assert caught.value.status == 400
    with pytest.raises(InvalidRequest) as caught:
        await client.search.conversations_page(filters={"strategy": "Most"})
    assert caught.value.status is None
    with pytest.raises(InvalidRequest) as caught:
        await client.search.conversations_page("")
    assert caught.value.status is None


async def test_the_deprecated_search_by_text(client: ApiClient) -> None:
    """``GET /v1/search/conversations`` as published: the hits of the text, newest activity
    first, each with the messages that matched; a blank query is refused."""
    word = "zqy" + uuid.uuid4().hex[:6]
    ids = await conversations_saying(client, word, 3)
    hits = [h async for h in client.search.conversations_by_text(word, page_size=2)]
    posted = [h async for h in client.search.conversations(word, page_size=2)]
    assert [h.id for h in hits] == [h.id for h in posted] and sorted(ids) == sorted(
        h.id for h in hits)
    for hit in hits:
        assert hit.inner_hits is not None and len(hit.inner_hits) == 1
        assert f'<em class="highlight">{word}</em>' in hit.inner_hits[0].highlight["text"]
    with pytest.raises(InvalidRequest):
        [h async for h in client.search.conversations_by_text("   ")]
