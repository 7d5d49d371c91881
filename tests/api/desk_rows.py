"""Rows the client tests of the groups beyond the spec's tables need, written straight into the
sandbox (so the tests never depend on what the demo seed holds)."""

from __future__ import annotations

from frontdesk.sandbox import records
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.server import SandboxServer


def conversation_and_agent(sandbox: SandboxServer) -> tuple[int, str]:
    """A chat conversation and an agent, written straight into the sandbox."""

    def write(ctx: SandboxContext) -> tuple[int, str]:
        now = ctx.now_iso()
        with ctx.db.tx():
            user = records.insert_user(ctx.db, kind="enduser", created_at=now)
            agent = records.insert_user(ctx.db, kind="agent", created_at=now,
                                        display_name="Nora", email=f"{ctx.new_id()}@a.test")
            csid = records.insert_conversation(ctx.db, type="ChatConversation",
                                               channel="WidgetChat", requester_id=user,
                                               created_at=now, state="Open")
        return csid, agent

    return sandbox.call(write)
