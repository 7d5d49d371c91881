"""Test data for the people tests (end users, agents, teams, queues), made in the sandbox itself.

Rows are written on the sandbox's own thread through ``records`` (one transaction each), so
the tests never depend on what the demo seed holds. ``walk`` follows ``meta.next`` links.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

import httpx2

from frontdesk.sandbox import records
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.db import iso
from frontdesk.sandbox.server import SandboxServer


def unique_email(prefix: str = "person") -> str:
    """An address no other test row uses."""
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.test"


def at(sandbox: SandboxServer, seconds: float = 0) -> str:
    """The sandbox clock's time ``seconds`` from now, as stored."""
    return iso(sandbox.clock.now() + timedelta(seconds=seconds))


def advance(sandbox: SandboxServer, seconds: float) -> None:
    """Move the sandbox's manual clock forward."""
    clock = sandbox.clock
    assert isinstance(clock, ManualClock)
    clock.advance(seconds)


def add_user(sandbox: SandboxServer, kind: str, *, created_at: str | None = None,
             **fields: Any) -> str:
    """An end user or an agent row (an agent gets an email unless one is given)."""
    if kind == "agent":
        fields.setdefault("email", unique_email("agent"))
        fields.setdefault("display_name", "Agent " + fields["email"].split("@")[0])
    when = created_at or at(sandbox)

    def write(ctx: SandboxContext) -> str:
        with ctx.db.tx():
            return records.insert_user(ctx.db, kind=kind, created_at=when, **fields)

    return sandbox.call(write)


def add_enduser(sandbox: SandboxServer, **fields: Any) -> str:
    """An end user row."""
    return add_user(sandbox, "enduser", **fields)


def add_agent(sandbox: SandboxServer, **fields: Any) -> str:
    """An agent row (Offline, Away)."""
    return add_user(sandbox, "agent", **fields)


def add_team(sandbox: SandboxServer, name: str = "Team", members: Iterable[str] = ()) -> str:
    """A team with members."""
    when, agent_ids = at(sandbox), list(members)

    def write(ctx: SandboxContext) -> str:
        with ctx.db.tx():
            return records.insert_team(ctx.db, name=name, created_at=when, members=agent_ids)

    return sandbox.call(write)


def add_queue(sandbox: SandboxServer, name: str = "Queue",
              members: Iterable[str] = ()) -> str:
    """A queue (not the default) with members of no priority."""
    when = at(sandbox)
    member_rows: list[tuple[str, int | None]] = [(agent_id, None) for agent_id in members]

    def write(ctx: SandboxContext) -> str:
        with ctx.db.tx():
            return records.insert_queue(ctx.db, name=name, created_at=when,
                                        members=member_rows)

    return sandbox.call(write)


def add_conversation(sandbox: SandboxServer, requester_id: str, *,
                     created_at: str | None = None, **columns: Any) -> int:
    """A chat conversation (Open unless ``state`` says otherwise; ``queue_id``, … by name)."""
    when = created_at or at(sandbox)

    def write(ctx: SandboxContext) -> int:
        with ctx.db.tx():
            return records.insert_conversation(ctx.db, type="ChatConversation",
                                               channel="WidgetChat",
                                               requester_id=requester_id, created_at=when,
                                               **columns)

    return sandbox.call(write)


def set_presence(sandbox: SandboxServer, user_id: str, *, connection: str = "Online",
                 status: str = "Working", channels: list[str] | None = None) -> None:
    """Set an agent's presence directly."""
    when = at(sandbox)

    def write(ctx: SandboxContext) -> None:
        with ctx.db.tx():
            records.set_presence(ctx.db, user_id, connection=connection, status=status,
                                 channels=channels or [], last_seen=when)

    sandbox.call(write)


def walk(http: httpx2.Client, path: str, params: dict[str, Any] | None = None
         ) -> tuple[list[dict[str, Any]], int]:
    """Every item of a paged list, following ``meta.next``; and how many pages it took."""
    response = http.get(path, params=params)
    items: list[dict[str, Any]] = []
    pages = 0
    while True:
        assert response.status_code == 200, response.text
        body = response.json()
        items.extend(body["data"])
        pages += 1
        link = (body.get("meta") or {}).get("next")
        if not link:
            return items, pages
        assert link.startswith("/v1/")
        response = http.get(link)


def user_ids(sandbox: SandboxServer, kind: str) -> list[str]:
    """Ids of every user of ``kind``, in list order (created, then id)."""
    rows = sandbox.query("SELECT id FROM users WHERE kind = ? ORDER BY created_at, id", (kind,))
    return [str(r["id"]) for r in rows]
