"""Test data for conversations, messages and search, independent of the demo seed.

People, queues, tags and conversations of channels the API cannot create (WhatsApp, phone,
anonymized) are written straight into the sandbox's database on its own thread; ordinary
conversations and messages are created over HTTP, as a client would.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import httpx2

from frontdesk.sandbox import records, rules
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.server import SandboxServer

EMAIL_INTEGRATION = "support@acme.example"
SMS_NUMBER = "+4520123456"


def _unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def advance(sandbox: SandboxServer, seconds: float) -> datetime:
    """Move the sandbox's manual clock on; returns the new time."""
    clock = sandbox.clock
    assert isinstance(clock, ManualClock)
    return clock.advance(seconds)


def _write(sandbox: SandboxServer, fn: Any) -> Any:
    """Run ``fn(ctx)`` in one transaction on the sandbox's thread."""

    def run(ctx: SandboxContext) -> Any:
        with ctx.db.tx():
            return fn(ctx)

    return sandbox.call(run)


# ---------------------------------------------------------------- people, queues, tags


def enduser(sandbox: SandboxServer, *, name: str | None = None, email: str | None = "",
            phone: str | None = None) -> str:
    """A new end user (with a unique email address unless ``email`` is None)."""
    display = name or _unique("Customer")
    address = (email or f"{display.lower()}@customer.example") if email is not None else None
    return str(_write(sandbox, lambda ctx: records.insert_user(
        ctx.db, kind="enduser", created_at=ctx.now_iso(), display_name=display,
        email=address, phone_number=phone)))


def agent(sandbox: SandboxServer, *, name: str | None = None) -> str:
    """A new agent."""
    display = name or _unique("Agent")
    return str(_write(sandbox, lambda ctx: records.insert_user(
        ctx.db, kind="agent", created_at=ctx.now_iso(), display_name=display,
        email=f"{display.lower()}@acme.example")))


def queue(sandbox: SandboxServer, *, name: str | None = None) -> str:
    """A new, non-default queue."""
    return str(_write(sandbox, lambda ctx: records.insert_queue(
        ctx.db, name=name or _unique("Queue"), created_at=ctx.now_iso())))


def default_queue(sandbox: SandboxServer) -> str:
    """The organisation's default queue, made when it has none."""

    def find_or_make(ctx: SandboxContext) -> str:
        return rules.default_queue_id(ctx) or records.insert_queue(
            ctx.db, name=_unique("Default"), created_at="2000-01-01T00:00:00.000Z",
            is_default=True)

    return str(_write(sandbox, find_or_make))


def tag(sandbox: SandboxServer, *, name: str | None = None, state: str = "Active") -> str:
    """A new tag."""
    return str(_write(sandbox, lambda ctx: records.insert_tag(
        ctx.db, name=name or _unique("tag"), created_at=ctx.now_iso(), state=state)))


def tag_conversation(sandbox: SandboxServer, conversation_id: int, tag_id: str) -> None:
    """Apply a tag directly."""
    _write(sandbox, lambda ctx: records.tag_conversation(ctx.db, conversation_id, tag_id,
                                                         ctx.now_iso()))


@dataclass
class Org:
    """What most tests need: a customer, two agents, a default queue and another queue."""

    requester: str
    agent: str
    other_agent: str
    default_queue: str
    queue: str


def org(sandbox: SandboxServer) -> Org:
    """A fresh customer and agents, the default queue and one more queue."""
    return Org(requester=enduser(sandbox, phone="+4561234567"), agent=agent(sandbox),
               other_agent=agent(sandbox), default_queue=default_queue(sandbox),
               queue=queue(sandbox))


# ---------------------------------------------------------------- stored conversations


def stored_conversation(sandbox: SandboxServer, requester_id: str, *, channel: str,
                        type: str, **columns: Any) -> int:
    """A conversation written directly (for channels the API cannot create)."""
    return int(_write(sandbox, lambda ctx: records.insert_conversation(
        ctx.db, type=type, channel=channel, requester_id=requester_id,
        created_at=ctx.now_iso(), direction=columns.pop("direction", "Inbound"), **columns)))


def stored_messages(sandbox: SandboxServer, conversation_id: int, author_id: str, count: int,
                    *, start: str = "2025-01-01T00:00:00") -> None:
    """``count`` chat messages written directly, one millisecond apart."""
    from datetime import timedelta

    from frontdesk.sandbox.db import iso

    base = datetime.fromisoformat(start + "+00:00")

    def write(ctx: SandboxContext) -> None:
        for n in range(count):
            records.insert_message(
                ctx.db, conversation_id=conversation_id, author_id=author_id,
                created_at=iso(base + timedelta(milliseconds=n)), direction="Inbound",
                attributes={"_type": "ChatAttributes", "direction": "Inbound",
                            "content": {"value": f"message {n}", "_type": "Text"},
                            "attachments": [], "isAutomated": False},
            )

    _write(sandbox, write)


# ---------------------------------------------------------------- over HTTP


def text(value: str, kind: str = "Text") -> dict[str, Any]:
    """A message body."""
    return {"value": value, "_type": kind}


def inbound(value: str = "Hello, I need help", **extra: Any) -> dict[str, Any]:
    """An inbound message input."""
    return {"_type": "Inbound", "content": text(value), **extra}


def outbound(agent_id: str, value: str | None = "Happy to help", **extra: Any
             ) -> dict[str, Any]:
    """An outbound message input."""
    body: dict[str, Any] = {"_type": "Outbound", "agentId": agent_id, **extra}
    if value is not None:
        body.setdefault("content", text(value))
    return body


def _created(response: httpx2.Response) -> int:
    assert response.status_code == 200, response.text
    return int(response.json()["data"]["id"])


def create_chat(http: httpx2.Client, requester: str, message: dict[str, Any] | None = None
                ) -> int:
    """A chat conversation (inbound unless ``message`` says otherwise)."""
    return _created(http.post("/v1/conversations", json={
        "_type": "Chat", "requesterId": requester, "widgetId": str(uuid.uuid4()),
        "message": message or inbound()}))


def create_email(http: httpx2.Client, requester: str, subject: str = "Order help",
                 message: dict[str, Any] | None = None, kind: str = "Email") -> int:
    """An email (or contact-form) conversation."""
    return _created(http.post("/v1/conversations", json={
        "_type": kind, "requesterId": requester, "emailIntegrationId": EMAIL_INTEGRATION,
        "subject": subject, "message": message or inbound(), "language": "en"}))


def conversation(http: httpx2.Client, conversation_id: int) -> dict[str, Any]:
    """The conversation record."""
    response = http.get(f"/v1/conversations/{conversation_id}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


def messages(http: httpx2.Client, conversation_id: int) -> list[dict[str, Any]]:
    """The conversation's messages, oldest first."""
    response = http.get(f"/v1/conversations/{conversation_id}/messages")
    assert response.status_code == 200, response.text
    data: list[dict[str, Any]] = response.json()["data"]
    return data


def count_rows(sandbox: SandboxServer, table: str) -> int:
    """How many rows a table holds (to check that a refusal wrote nothing)."""
    return int(sandbox.query(f"SELECT COUNT(*) AS n FROM {table}")[0]["n"])
