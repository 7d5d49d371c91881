"""The sandbox's background worker: asynchronous work done when it falls due.

Work is queued in the ``jobs`` table with a due time on the sandbox clock; route modules
register a handler per kind with ``@job("kind")``. Each tick also runs the periodic rules
registered with ``@periodic`` (follow-up expiry). ``run_due`` is what tests call (through
``SandboxServer.run_pending``) to do the work at once after moving a manual clock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from . import origins
from .context import SandboxContext
from .db import dumps, iso, loads

log = logging.getLogger("frontdesk.sandbox.worker")

JobHandler = Callable[[SandboxContext, dict[str, Any]], None]
Periodic = Callable[[SandboxContext], int]

_HANDLERS: dict[str, JobHandler] = {}
_PERIODIC: list[Periodic] = []


def job(kind: str) -> Callable[[JobHandler], JobHandler]:
    """Register the handler of one kind of asynchronous work."""

    def register(handler: JobHandler) -> JobHandler:
        _HANDLERS[kind] = handler
        return handler

    return register


def periodic(rule: Periodic) -> Periodic:
    """Register a rule the worker runs on every tick; it returns how many things it changed."""
    _PERIODIC.append(rule)
    return rule


def enqueue(
    ctx: SandboxContext, kind: str, payload: dict[str, Any], delay: float | None = None
) -> int:
    """Queue work to be done ``delay`` seconds from now (the context's default delay)."""
    due = ctx.clock.now() + timedelta(seconds=ctx.work_delay if delay is None else delay)
    cursor = ctx.db.run(
        "INSERT INTO jobs (kind, payload, due_at) VALUES (?, ?, ?)",
        (kind, dumps(payload), iso(due)),
    )
    return int(cursor.lastrowid or 0)


def run_due(ctx: SandboxContext, *, everything: bool = False) -> int:
    """Do the work that is due (or all queued work), each job in its own transaction."""
    done = 0
    now = iso(ctx.clock.now())
    rows = ctx.db.all(
        "SELECT id, kind, payload FROM jobs WHERE done_at IS NULL"
        + ("" if everything else " AND due_at <= ?")
        + " ORDER BY due_at, id",
        () if everything else (now,),
    )
    for row in rows:
        handler = _HANDLERS.get(row["kind"])
        try:
            with ctx.db.tx():
                if handler is not None:
                    handler(ctx, loads(row["payload"]))
                ctx.db.run("UPDATE jobs SET done_at = ? WHERE id = ?", (now, row["id"]))
            done += 1
        except Exception:
            log.exception("job %s (%s) failed", row["id"], row["kind"])
            with ctx.db.tx():
                ctx.db.run("UPDATE jobs SET done_at = ? WHERE id = ?", (now, row["id"]))
    for rule in _PERIODIC:
        try:
            with ctx.db.tx(), origins.acting(origins.SYSTEM):
                done += rule(ctx)
        except Exception:
            log.exception("periodic rule %s failed", rule.__name__)
    return done


def due_count(ctx: SandboxContext) -> int:
    """How many queued jobs are due now."""
    row = ctx.db.one("SELECT count(*) AS n FROM jobs WHERE done_at IS NULL AND due_at <= ?",
                     (iso(ctx.clock.now()),))
    return 0 if row is None else int(row["n"])


async def run_forever(ctx: SandboxContext, interval: float = 0.2) -> None:
    """The worker loop: tick every ``interval`` seconds until cancelled."""
    while True:
        await asyncio.sleep(interval)
        run_due(ctx)
