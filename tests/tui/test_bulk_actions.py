"""Marks in the inbox and the conversation keys acting on every marked conversation, typed in
bursts; each outcome read back from the sandbox and shown in the report, a refused one tried
again with ``r``."""

from __future__ import annotations

from typing import Any

import pytest
from test_inbox_actions import (  # type: ignore[import-not-found]
    app_of,
    me,
    parts,
    row,
    settle,
)
from textual.pilot import Pilot

from frontdesk.tui.screens.inbox.bulk_report import BulkReport
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.screens.shared.confirm import ConfirmScreen
from frontdesk.tui.widgets.conversation_cells import MARKED

Console = Any  # the `console` fixture of tests/tui/conftest.py


def shown_line(pilot: Pilot[Any], cid: int) -> str:
    _app, _session, _screen, listing = parts(pilot)
    position = listing.shown_ids().index(cid)
    return str(listing.render_line(position + 1 - round(listing.scroll_y)).text)


async def marks_then_close_in_one_burst(console: Console, pilot: Pilot[Any]) -> None:
    """``space j space j space x y`` in one read closes the three marked conversations."""
    app = app_of(pilot)
    _app, _session, screen, listing = parts(pilot)
    first = listing.shown_ids()[:3]
    assert len(first) == 3
    await console.burst(pilot, "space", "j", "space", "j", "space", "x", "y")
    report = app.screen
    assert isinstance(report, BulkReport)
    await console.idle(pilot)
    assert report.lines() == [f"#{cid}  done" for cid in first]
    assert report.summary().startswith("3 done · 0 refused")
    for cid in first:
        assert row(console, cid)["state"] == "Closed"
    await console.burst(pilot, "escape")
    assert isinstance(app.screen, InboxScreen)
    assert screen.marks == {}  # the done ones are no longer marked


async def marks_show_and_esc_clears_them(console: Console, pilot: Pilot[Any]) -> None:
    _app, _session, screen, listing = parts(pilot)
    cid = listing.highlighted_id
    assert cid is not None
    await console.burst(pilot, "space")
    assert shown_line(pilot, cid).startswith(MARKED)
    label = str(screen.query_one("#inbox-marks").render())
    assert "1 marked" in label
    await console.burst(pilot, "space")  # toggles
    assert not shown_line(pilot, cid).startswith(MARKED)
    await console.burst(pilot, "asterisk")
    assert list(screen.marks) == listing.shown_ids()
    # a refresh of the list keeps them (by conversation id)
    screen.rebuild()
    await pilot.pause()
    assert shown_line(pilot, cid).startswith(MARKED)
    await console.burst(pilot, "escape")
    assert screen.marks == {}
    assert not shown_line(pilot, cid).startswith(MARKED)


async def claim_many_with_one_refused_then_retry(console: Console,
                                                 pilot: Pilot[Any]) -> None:
    """One marked conversation is held by another agent: the others are claimed once, the
    report says why that one was refused, ``r`` tries only that one again."""
    app = app_of(pilot)
    agent = me(console)
    held = console.sandbox.query(
        "SELECT id, assigned_agent_id FROM conversations WHERE state = 'Open' "
        "AND assigned_agent_id IS NOT NULL AND assigned_agent_id != ? ORDER BY id LIMIT 1",
        (agent,))[0]
    free = [r["id"] for r in console.sandbox.query(
        "SELECT id FROM conversations WHERE state = 'Open' AND assigned_agent_id IS NULL "
        "AND queue_id IS NOT NULL ORDER BY id LIMIT 2")]
    wanted = [held["id"], *free]
    _app, session, screen, listing = parts(pilot)
    for cid in wanted:
        assert (await session.finder.open_by_id(cid)).id == cid
    screen.show_view("all")
    await pilot.pause()
    for cid in wanted:
        assert listing.move_to(cid)
        await console.burst(pilot, "space")
    assert list(screen.marks) == wanted
    await console.burst(pilot, "c")
    question = app.screen
    assert isinstance(question, ConfirmScreen)
    assert question.question == "Claim 3 conversations?"
    await console.burst(pilot, "y")
    report = app.screen
    assert isinstance(report, BulkReport)
    await console.idle(pilot)
    lines = report.lines()
    assert lines[0].startswith(f"#{held['id']}  refused: Could not claim #{held['id']}")
    assert lines[1:] == [f"#{cid}  done" for cid in free]
    assert row(console, held["id"])["assigned_agent_id"] == held["assigned_agent_id"]
    for cid in free:
        assert row(console, cid)["assigned_agent_id"] == agent
    before = activity(console, free)
    assert before  # the claims were logged: a second claim would add to them
    await console.burst(pilot, "r")
    await console.idle(pilot)
    assert report.lines()[0].startswith(f"#{held['id']}  refused:")
    assert report.lines()[1:] == [f"#{cid}  done" for cid in free]
    assert activity(console, free) == before  # the done ones were not claimed again
    await console.burst(pilot, "escape")
    assert list(screen.marks) == [held["id"]]  # the refused one stays marked


def queued(console: Console, offset: int, where: str = "", args: tuple[Any, ...] = ()
           ) -> list[int]:
    """Three open conversations waiting unassigned in a queue (from ``offset`` in id order:
    each step of the flow takes records of its own), meeting ``where`` too."""
    ids = [int(r["id"]) for r in console.sandbox.query(
        "SELECT id FROM conversations c WHERE state = 'Open' AND assigned_agent_id IS NULL "
        f"AND queue_id IS NOT NULL {where} ORDER BY id LIMIT 3 OFFSET ?", (*args, offset))]
    assert len(ids) == 3
    return ids


async def mark_these(console: Console, pilot: Pilot[Any], ids: list[int]) -> None:
    """Mark exactly these conversations (read by id first, found in the All view)."""
    _app, session, screen, listing = parts(pilot)
    for cid in ids:
        assert (await session.finder.open_by_id(cid)).id == cid
    screen.show_view("all")
    await pilot.pause()
    for cid in ids:
        assert listing.move_to(cid)
        await console.burst(pilot, "space")
    assert list(screen.marks) == ids


def kind_count(console: Console, cid: int, kind: str) -> int:
    """How many times the sandbox logged ``kind`` on a conversation (``bulk_tag``: how many
    times tagging by names was asked for, a job each)."""
    if kind == "bulk_tag":
        query = ("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'bulk_tag' "
                 "AND json_extract(payload, '$.conversationId') = ?")
    else:
        query = "SELECT COUNT(*) AS n FROM activity_log WHERE conversation_id = ? AND type = ?"
    return int(console.sandbox.query(query, (cid,) if kind == "bulk_tag" else (cid, kind))
               [0]["n"])


async def one_refused_then_retried(console: Console, pilot: Pilot[Any], ids: list[int], *,
                                   refuse: tuple[str, str], keys: tuple[str, ...],
                                   question: str, kind: str) -> None:
    """Marks ``ids``, switches the service's refusal of the first one's request (``refuse``:
    method and path after the conversation's), presses ``keys`` (the action and its
    picker) and says yes to ``question``: the others are done exactly once, the report says
    which was refused; once the service takes it again, ``r`` does the refused one alone."""
    app = app_of(pilot)
    _app, _session, screen, _listing = parts(pilot)
    await mark_these(console, pilot, ids)
    refused, others = ids[0], ids[1:]
    method, path = refuse

    def counts() -> list[int]:  # what the sandbox logged since (its history has some)
        console.sandbox.run_pending(everything=True)
        return [kind_count(console, cid, kind) - n for cid, n in zip(ids, before, strict=True)]

    before = [kind_count(console, cid, kind) for cid in ids]
    console.sandbox.faults.fail(409, count=None, methods=(method,),
                                path_prefix=f"/v1/conversations/{refused}{path}")
    await console.burst(pilot, *keys)
    asked = app.screen
    assert isinstance(asked, ConfirmScreen)
    assert asked.question.startswith(question), asked.question
    await console.burst(pilot, "y")
    report = app.screen
    assert isinstance(report, BulkReport)
    await console.idle(pilot)
    lines = report.lines()
    assert lines[0].startswith(f"#{refused}  refused: "), lines
    assert lines[1:] == [f"#{cid}  done" for cid in others]
    assert report.summary() == "2 done · 1 refused — r retries the refused, esc closes"
    assert counts() == [0, 1, 1]

    console.sandbox.faults.clear()  # the service takes it now: r does that one alone
    await console.burst(pilot, "r")
    await console.idle(pilot)
    assert report.lines() == [f"#{cid}  done" for cid in ids]
    assert report.summary() == "3 done · 0 refused — esc closes"
    assert counts() == [1, 1, 1]
    await console.burst(pilot, "escape")
    assert isinstance(app.screen, InboxScreen)
    assert screen.marks == {}


async def transfer_many_with_one_refused(console: Console, pilot: Pilot[Any]) -> None:
    _app, session, _screen, _listing = parts(pilot)
    target = next(q for q in session.directory.queues.values() if not q.is_default)
    ids = queued(console, 10, "AND queue_id != ?", (target.id,))
    await one_refused_then_retried(
        console, pilot, ids, refuse=("PUT", "/transfer"),
        keys=("T", *target.name.lower()[:6], "enter"),
        question="Transfer 3 conversations to ", kind="TransferSuccessful")
    for cid in ids:
        assert row(console, cid)["queue_id"] == target.id


async def follow_up_many_with_one_refused(console: Console, pilot: Pilot[Any]) -> None:
    ids = queued(console, 13)
    await one_refused_then_retried(
        console, pilot, ids, refuse=("PUT", "/followup"), keys=("f", "enter"),
        question="Follow up 3 conversations on ", kind="FollowupAdded")
    for cid in ids:
        assert row(console, cid)["state"] == "Pending"


async def tag_many_with_one_refused(console: Console, pilot: Pilot[Any]) -> None:
    tag = console.sandbox.query(
        "SELECT id, name FROM tags WHERE state = 'Active' ORDER BY name LIMIT 1")[0]
    ids = queued(console, 16, "AND NOT EXISTS (SELECT 1 FROM conversation_tags ct WHERE "
                 "ct.conversation_id = c.id AND ct.tag_id = ?)", (tag["id"],))
    await one_refused_then_retried(
        console, pilot, ids, refuse=("PUT", "/tags/"),
        keys=("t", *tag["name"], "space", "enter"),
        question="Change the tags of 3 conversations?", kind="TagAdded")


async def tag_many_by_names_with_one_refused(console: Console, pilot: Pilot[Any]) -> None:
    ids = queued(console, 19)
    await one_refused_then_retried(
        console, pilot, ids, refuse=("POST", "/tags/bulk"),
        keys=("B", *"bulk-named", "enter"),
        question="Tag 3 conversations with bulk-named?", kind="bulk_tag")
    tagged = console.sandbox.query(
        "SELECT ct.conversation_id AS id FROM conversation_tags ct JOIN tags t "
        "ON t.id = ct.tag_id WHERE t.name = 'bulk-named'")
    assert {int(r["id"]) for r in tagged} == set(ids)


def activity(console: Console, ids: list[int]) -> int:
    """How many things the sandbox logged on these conversations."""
    marks = ",".join("?" * len(ids))
    return int(console.sandbox.query(
        f"SELECT COUNT(*) AS n FROM activity_log WHERE conversation_id IN ({marks})",
        tuple(ids))[0]["n"])


@pytest.mark.slow
async def test_marks_and_actions_on_many(console: Console) -> None:
    """Marks show and clear; a burst marks and closes three; a claim of three with one held
    by another agent, and its retry; a transfer, a follow-up, tags and tags by names of
    three, each with one refused by the service, the others done once, and its retry."""
    async def start(pilot: Pilot[Any]) -> None:
        await settle(console, pilot)

    async def between(pilot: Pilot[Any]) -> None:
        await settle(console, pilot)
        await console.fresh_inbox(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, InboxScreen)
        screen.action_clear()

    await console.walk((100, 30),
                       marks_show_and_esc_clears_them,
                       marks_then_close_in_one_burst,
                       claim_many_with_one_refused_then_retry,
                       transfer_many_with_one_refused,
                       follow_up_many_with_one_refused,
                       tag_many_with_one_refused,
                       tag_many_by_names_with_one_refused,
                       start=start, between=between)
