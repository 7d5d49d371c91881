"""A text search lists what the inbox knows as soon as the service answers (ids only), then
reads the others all together, each kept and announced as it arrives."""

from __future__ import annotations

from pathlib import Path

import httpx2

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.store.topics import INBOX


async def test_a_search_lists_the_known_at_once_and_reads_the_rest_together(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    client = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
    session = Session(client=client, local=LocalStore(tmp_path / "local.db"),
                      settings=Settings(), profile="work", identity=DEMO_AGENT_EMAIL)
    requests: list[str] = []
    told: list[int] = []

    async def on_request(request: httpx2.Request) -> None:
        requests.append(f"{request.method} {request.url.path}")

    client._http.event_hooks["request"].append(on_request)
    inbox = session.inbox
    session.live.add(INBOX, inbox.poll, 60.0)  # announced, never started
    session.live.subscribe(lambda topic, value: told.append(value) if topic == INBOX
                           else None)
    try:
        page = await client.search.conversations_page("router", page_size=100)
        ranked = [hit.id for hit in page.items]
        assert len(ranked) >= 2
        await session.finder.open_by_id(ranked[1])  # one the inbox knows
        requests.clear()
        at_answer: list[tuple[list[int], list[str], set[int]]] = []

        def found(ids: list[int]) -> None:
            at_answer.append((ids, list(requests), set(inbox.rows)))

        result = await session.finder.search_text("router", found)
        (ids, asked, known), = at_answer
        assert asked == ["POST /v1/search/conversations"]  # one round trip, nothing else
        assert ids == ranked and ranked[1] in known
        unknown = [cid for cid in ids if cid not in known]
        assert unknown
        gets = [r for r in requests if r.startswith("GET /v1/conversations/")]
        assert sorted(gets) == sorted(f"GET /v1/conversations/{cid}" for cid in unknown)
        assert [c.id for c in result] == ids  # in the service's order, all of them
        assert told and told[-1] == inbox.version  # the inbox was told as they came
        # the same search through the deprecated path: the same conversations, one GET
        requests.clear()
        again = await session.finder.search_text("router", deprecated=True)
        assert requests == ["GET /v1/search/conversations"]
        assert [c.id for c in again] == ids
    finally:
        await session.close()
