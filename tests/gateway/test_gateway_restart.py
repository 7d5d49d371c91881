"""A gateway restarted while its team works: every reply sent once, every console listening
again by itself.

Headless consoles (the real session: store, client, outbox) sign in through a real gateway in
front of the real sandbox, listen to its change stream and send replies through their
outboxes while the gateway stops and starts again on the same port.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from frontdesk.api.client import ApiClient
from frontdesk.api.transport import GATEWAY_TIMEOUT
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.store.topics import INBOX
from gateway_harness import PATIENCE, running_gateway

CONSOLES = 3
REPLIES = 4  # each console's, before and after the restart


async def _until(what: str, done: Callable[[], bool]) -> None:
    """Until ``done()`` holds (a settled state; the deadline only guards against a hang)."""
    deadline = time.monotonic() + PATIENCE
    while not done():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.02)


def test_a_gateway_restarted_under_load_loses_no_reply_and_its_consoles_listen_again(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    with running_gateway(sandbox, tmp_path, feed_interval=0.2) as gateway:
        agents = gateway.agent_ids()[:CONSOLES]
        keys = [gateway.add_member(agent, "agent") for agent in agents]
        conversations = [int(row["id"]) for row in sandbox.query(
            "SELECT id FROM conversations WHERE state = 'Open' AND channel = 'WidgetChat' "
            "ORDER BY id LIMIT ?", (CONSOLES,))]

        async def scene() -> list[int]:
            sessions = [Session(client=ApiClient(gateway.base_url, key, gateway.integrations_url,
                                                 timeout=GATEWAY_TIMEOUT),
                                local=LocalStore(tmp_path / f"console-{index}.db"),
                                settings=Settings(), profile=f"member-{index}", identity=agent,
                                gateway=True)
                        for index, (agent, key) in enumerate(zip(agents, keys, strict=True))]
            try:
                for session in sessions:
                    session.live.watch(INBOX)
                await asyncio.gather(*(session.start() for session in sessions))
                await _until("every console listening",
                             lambda: all(s.changes.pushed and s.me_id for s in sessions))

                def send(part: str) -> None:
                    for index, session in enumerate(sessions):
                        for n in range(REPLIES):
                            session.send_reply(conversations[index],
                                               f"restart {part} {index}.{n}")

                send("before")
                restarting = asyncio.create_task(asyncio.to_thread(gateway.restart))
                send("during")
                await restarting
                await _until("every console listening again",
                             lambda: all(s.changes.pushed for s in sessions))
                send("after")
                await _until("every reply sent", lambda: all(
                    s.outbox.pending_count == 0 for s in sessions))
                return [s.outbox.failed_count for s in sessions]
            finally:
                for session in sessions:
                    await session.close()

        failed = asyncio.run(scene())
    sent = [row["body_text"] for row in sandbox.query(
        "SELECT body_text FROM messages WHERE body_text LIKE 'restart %'")]
    wanted = sorted(f"restart {part} {index}.{n}" for part in ("before", "during", "after")
                    for index in range(CONSOLES) for n in range(REPLIES))
    assert failed == [0] * CONSOLES
    assert sorted(sent) == wanted  # each once: none lost, none twice
