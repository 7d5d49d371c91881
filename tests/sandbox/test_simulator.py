"""The simulator keeps the sandbox's invariants and leaves the demo agent's work alone."""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.db import Database
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.simulator import OWN_META, Simulator

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

def one(db: Database, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Row:
    """The first row of a query, which must exist."""
    row = db.one(sql, params)
    assert row is not None, sql
    return row


def _context(template: Path, target: Path) -> SandboxContext:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, target)
    return SandboxContext(db=Database(target), clock=ManualClock(NOW))


@pytest.fixture
def ctx(seeded_db: Path, tmp_path: Path) -> Iterator[SandboxContext]:
    """A copy of the seeded demo organisation, with a manual clock."""
    context = _context(seeded_db, tmp_path / "sim" / "sandbox.db")
    yield context
    context.db.close()


@pytest.fixture
def empty_ctx(empty_db: Path, tmp_path: Path) -> Iterator[SandboxContext]:
    """A copy of the empty organisation, with a manual clock."""
    context = _context(empty_db, tmp_path / "sim-empty" / "sandbox.db")
    yield context
    context.db.close()


def _demo_work(ctx: SandboxContext, agent_id: str) -> dict[int, dict[str, Any]]:
    return {r["id"]: dict(r) for r in ctx.db.all(
        "SELECT id, assigned_agent_id, queue_id, type, closed_at, state FROM conversations "
        "WHERE assigned_agent_id = ?", (agent_id,))}


def _check_invariants(ctx: SandboxContext) -> None:
    db = ctx.db
    both = db.all("SELECT id FROM conversations WHERE queue_id IS NOT NULL "
                  "AND assigned_agent_id IS NOT NULL")
    assert both == [], "queued and assigned at once"
    closed_queued = db.all("SELECT id FROM conversations WHERE state = 'Closed' "
                           "AND queue_id IS NOT NULL")
    assert closed_queued == []
    pending = db.all("SELECT id FROM conversations WHERE state = 'Pending' "
                     "AND followup_until IS NULL")
    assert pending == []
    orphans = db.all("SELECT m.id FROM messages m LEFT JOIN users u ON u.id = m.author_id "
                     "WHERE u.id IS NULL")
    assert orphans == [], "a message whose author does not exist"
    strays = db.all("SELECT m.id FROM messages m JOIN conversations c ON c.id = m.conversation_id "
                    "WHERE m.direction = 'Inbound' AND m.author_id != c.requester_id")
    assert strays == [], "an inbound message not written by the requester"


def test_two_hundred_steps_keep_the_invariants(ctx: SandboxContext) -> None:
    demo = ctx.db.one("SELECT id FROM users WHERE email = ?", (DEMO_AGENT_EMAIL,))
    assert demo is not None
    demo_id = demo["id"]
    before = _demo_work(ctx, demo_id)
    presence_before = dict(one(ctx.db, "SELECT * FROM presence WHERE user_id = ?", (demo_id,)))
    last_seq = one(ctx.db, "SELECT MAX(seq) AS s FROM messages")["s"]
    conversations_before = one(ctx.db, "SELECT COUNT(*) AS n FROM conversations")["n"]
    clock = ctx.clock
    assert isinstance(clock, ManualClock)
    simulator = Simulator(ctx, rng=random.Random(11))
    assert simulator.demo_agent_id == demo_id
    descriptions = []
    for _ in range(200):
        clock.advance(3)
        descriptions.append(simulator.step())
    _check_invariants(ctx)
    joined = "\n".join(descriptions)
    for act in ("wrote in conversation", "new ", "claimed conversation", "replied in",
                "closed conversation", " is Online", "Offline"):
        assert act in joined, act
    assert one(ctx.db, "SELECT COUNT(*) AS n FROM conversations")["n"] > conversations_before
    unlogged = ctx.db.all(
        "SELECT m.id FROM messages m WHERE m.seq > ? AND NOT EXISTS (SELECT 1 FROM activity_log a "
        "WHERE a.conversation_id = m.conversation_id "
        "AND json_extract(a.attributes, '$.messageId') = m.id)", (last_seq,))
    assert unlogged == [], "a message the activity log does not name"

    # the demo agent's conversations: still theirs, never closed or answered by the simulator
    after = _demo_work(ctx, demo_id)
    assert set(after) == set(before)
    for cid, row in after.items():
        assert row["assigned_agent_id"] == demo_id and row["queue_id"] is None
        assert row["closed_at"] == before[cid]["closed_at"]
        if before[cid]["state"] in ("Pending", "AwaitingPending"):
            assert row["state"] in (before[cid]["state"], "Open")  # a customer wrote
        else:
            assert row["state"] == before[cid]["state"]
    new_messages = ctx.db.all(
        "SELECT m.*, c.requester_id FROM messages m JOIN conversations c "
        "ON c.id = m.conversation_id WHERE m.seq > ? AND c.assigned_agent_id = ?",
        (last_seq, demo_id))
    assert new_messages, "customers write to the demo agent too"
    assert all(m["direction"] == "Inbound" and m["author_id"] == m["requester_id"]
               for m in new_messages)
    assert ctx.db.all("SELECT id FROM messages WHERE author_id = ? AND seq > ?",
                      (demo_id, last_seq)) == []
    assert dict(one(ctx.db, "SELECT * FROM presence WHERE user_id = ?",
                    (demo_id,))) == presence_before


def test_the_same_rng_does_the_same_things(seeded_db: Path, tmp_path: Path) -> None:
    runs = []
    for name in ("a", "b"):
        context = _context(seeded_db, tmp_path / name / "sandbox.db")
        simulator = Simulator(context, rng=random.Random(5))
        runs.append([simulator.step() for _ in range(20)])
        context.db.close()
    assert runs[0] == runs[1]


def test_an_empty_organisation_comes_to_life(empty_ctx: SandboxContext) -> None:
    simulator = Simulator(empty_ctx, rng=random.Random(3))
    assert simulator.demo_agent_id == ""
    descriptions = [simulator.step() for _ in range(30)]
    assert any(d.startswith("new ") for d in descriptions)
    assert one(empty_ctx.db, "SELECT COUNT(*) AS n FROM conversations")["n"] > 0
    _check_invariants(empty_ctx)


async def test_run_acts_on_its_own(ctx: SandboxContext) -> None:
    simulator = Simulator(ctx, speed=1000, rng=random.Random(8))
    await asyncio.wait_for(simulator.run(max_steps=5), timeout=30)
    assert simulator.steps == 5
    assert one(ctx.db, "SELECT total_changes() AS n")["n"] > 0
    _check_invariants(ctx)


def test_the_demo_keeps_its_size_however_long_it_runs(ctx: SandboxContext) -> None:
    """The simulator's own conversations age out beyond the newest it keeps (across
    restarts: a new simulator on the same database goes on from the same list); the demo
    agent's work is never taken away."""
    db = ctx.db
    clock = ctx.clock
    assert isinstance(clock, ManualClock)
    before = one(db, "SELECT COUNT(*) AS n FROM conversations")["n"]
    demo_id = one(db, "SELECT id FROM users WHERE email = ?", (DEMO_AGENT_EMAIL,))["id"]
    demo_work = set(_demo_work(ctx, demo_id))
    for start in range(3):  # three demo sessions on the same database
        simulator = Simulator(ctx, rng=random.Random(start), keep_own=5)
        for _ in range(40):
            clock.advance(3)
            simulator.new_conversation()
        if start == 0:  # the demo agent takes one of them: theirs from now on
            taken = json.loads(db.get_meta(OWN_META) or "[]")[-1]
            db.run("UPDATE conversations SET assigned_agent_id = ?, queue_id = NULL, "
                   "queued_at = NULL WHERE id = ?", (demo_id, taken))
            demo_work.add(taken)
        if start == 1:  # the demo agent works on one and hands it back to a queue
            touched = json.loads(db.get_meta(OWN_META) or "[]")[-1]
            db.run("INSERT INTO activity_log (id, conversation_id, at, type, author_id) "
                   "VALUES (?, ?, ?, 'ConversationTransferred', ?)",
                   (f"act-touched-{touched}", touched, clock.now().isoformat(), demo_id))
    # 120 conversations started, 5 kept, the one the demo agent took and the one it worked on
    assert one(db, "SELECT COUNT(*) AS n FROM conversations")["n"] == before + 7
    assert one(db, "SELECT COUNT(*) AS n FROM conversations WHERE id = ?", (touched,))["n"] == 1
    assert demo_work <= set(_demo_work(ctx, demo_id))
    strays = db.all("SELECT a.conversation_id FROM activity_log a LEFT JOIN conversations c "
                    "ON c.id = a.conversation_id WHERE c.id IS NULL")
    assert strays == []
    _check_invariants(ctx)
