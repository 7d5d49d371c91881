"""The inbox's views and their counts are read from its rows' kinds and times (no row made
per conversation): the same conversations, in the same order, as a walk over every row
gives — with activity seen, turns, rows taken out and the Closed view's days."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from frontdesk.store.directory import Directory
from frontdesk.store.hub import Hub
from frontdesk.store.inbox import (
    CLOSED_DAYS,
    CUSTOMER,
    OPEN_STATES,
    PENDING_STATES,
    VIEWS,
    InboxStore,
)
from frontdesk.store.local import LocalStore
from frontdesk.store.rows import InboxRow

NOW = datetime(2026, 3, 1, 10, 30, tzinfo=UTC)
ME = "a-me"
MY_QUEUES = {"q1", "q2"}


def _unused() -> Any:
    raise AssertionError("no service here")


def _inbox(tmp_path: Path) -> InboxStore:
    hub = Hub(client=_unused, me_id=lambda: ME, live=_unused, notice=lambda _s, _t: None,
              server_now=lambda: NOW)
    local = LocalStore(tmp_path / "local.db")
    directory = Directory(hub, local)
    directory.my_queue_ids = set(MY_QUEUES)
    return InboxStore(hub, local, directory)


def _walked(inbox: InboxStore, rows: list[InboxRow], name: str) -> list[int]:
    """A view as a walk over every row finds it (the rules of InboxStore.views_of)."""
    if name == "needs_reply":
        turns = inbox.turns
        return sorted(inbox.needs_reply_ids(), key=lambda cid: turns[cid][1])
    shown = [row for row in rows if name in inbox.views_of(row)]
    seen = {cid: int((moment - datetime(1970, 1, 1, tzinfo=UTC)) / timedelta(microseconds=1))
            for cid, moment in inbox.activity.items()}
    shown.sort(key=lambda row: seen.get(row.id) or row.micros, reverse=True)
    return [row.id for row in shown]


def test_views_and_counts_match_a_walk_over_every_row(tmp_path: Path) -> None:
    rng = random.Random(11)
    inbox = _inbox(tmp_path)
    rows: dict[int, InboxRow] = {}
    for cid in rng.sample(range(1, 50_000), 3_000):
        row = InboxRow(cid, rng.choice(("Open", "Pending", "AwaitingPending", "Closed", None)),
                       rng.choice(("Email", "Sms", "WidgetChat")), f"r{cid % 40}",
                       rng.choice((None, "Hello")), rng.choice((None, "q1", "q2", "q3")),
                       rng.choice((None, ME, "a-2")),
                       # whole hours: many rows alike in time (their order is the rows')
                       NOW - timedelta(hours=rng.randrange(0, 24 * 2 * CLOSED_DAYS)), cid)
        inbox.rows[cid] = rows[cid] = row
        if rng.random() < 0.3:
            inbox.turns[cid] = (rng.choice((CUSTOMER, "agent")),
                                NOW - timedelta(seconds=rng.randrange(10 ** 6)))
        if rng.random() < 0.05:
            inbox.activity[cid] = NOW - timedelta(minutes=rng.randrange(600))
    for cid in rng.sample(sorted(rows), 200):  # taken out (a conversation gone)
        del inbox.rows[cid], rows[cid]
    kept = list(rows.values())
    assert {name: len(_walked(inbox, kept, name)) for name in VIEWS} == inbox.counts()
    for name in VIEWS:
        assert [row.id for row in inbox.view(name)] == _walked(inbox, kept, name), name
        assert all(row == rows[row.id] for row in inbox.view(name))
    counts = inbox.counts()
    assert counts["all"] == 2_800 and min(counts.values()) > 0
    mine = {cid for cid, row in rows.items()
            if row.state in OPEN_STATES and row.agent_id == ME}
    assert set(inbox.view("mine").ids()) == mine
    assert {row.id for row in inbox.view("pending")} == {
        cid for cid, row in rows.items() if row.state in PENDING_STATES}
