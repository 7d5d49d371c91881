"""Use frontdesk's client as a library: list tags, end users and open conversations, then
start a conversation and reply to it.

    python examples/list_open_conversations.py

Without ``FRONTDESK_BASE_URL`` in the environment it starts a local sandbox of the service
(seeded demo data, on a loopback port) and talks to that. With it, it talks to that service,
using ``FRONTDESK_API_KEY`` (and ``FRONTDESK_INTEGRATIONS_URL`` if set); note that it then
creates a real conversation.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from collections.abc import Iterator

from frontdesk.api import ApiClient, ApiError


@contextlib.contextmanager
def service() -> Iterator[tuple[str, str, str | None]]:
    """The address and key of the service to use: the environment's, or a fresh sandbox's."""
    base_url = os.environ.get("FRONTDESK_BASE_URL")
    if base_url:
        yield base_url, os.environ["FRONTDESK_API_KEY"], os.environ.get(
            "FRONTDESK_INTEGRATIONS_URL")
        return
    from frontdesk.sandbox.server import SandboxServer  # only needed for the local sandbox

    with SandboxServer(seed=7) as sandbox:
        yield sandbox.base_url, sandbox.key, sandbox.integrations_url


async def main(base_url: str, api_key: str, integrations_url: str | None) -> None:
    async with ApiClient(base_url, api_key, integrations_url) as client:
        tags = await client.tags.list()
        print(f"{len(tags)} active tags:", ", ".join(tag.name for tag in tags[:10]), "…")

        print("First end users:")
        users = []
        async for user in client.endusers.list(page_size=5):
            users.append(user)
            print(f"  {user.id}  {user.display_name or '-'}  {user.email or ''}")
            if len(users) == 5:
                break

        print("Open conversations (newest activity first):")
        open_only = {"strategy": "All", "conditions": [
            {"field": {"_type": "Status", "operator": {"_type": "IsOneOf",
                                                       "values": ["open"]}}}]}
        page = await client.search.conversations_page(filters=open_only, page_size=5)
        for hit in page.items:
            conversation = await client.conversations.get(hit.id)
            print(f"  #{conversation.id}  {conversation.channel}  {conversation.state}")

        created = await client.conversations.create_chat(
            users[0].id, widget_id=str(uuid.uuid4()), content="Hi! Where is my order?")
        print(f"Created conversation #{created.id}")
        agents = await client.agents.list_page(page_size=1)
        reply = await client.messages.add(
            created.id, "It left our warehouse this morning.", agent_id=agents.items[0].id)
        print(f"Replied as {reply.author_id} (externalId {reply.external_id})")
        await client.conversations.claim(created.id, agents.items[0].id)
        thread = await client.messages.list(created.id)
        print(f"The thread now holds {len(thread)} messages")


if __name__ == "__main__":
    with service() as (url, key, integrations):
        try:
            asyncio.run(main(url, key, integrations))
        except ApiError as error:
            raise SystemExit(f"frontdesk example: {error}") from None
