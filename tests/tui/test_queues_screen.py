"""Queues mode against the sandbox: availability, members, priority and default; a
conversation's position followed live; queue members added and removed through the modal."""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx2
from textual.coordinate import Coordinate
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import DataTable, Static

from frontdesk.api.models import AVAILABILITY_CHANNELS
from frontdesk.api.wire_time import parse_wire_time
from frontdesk.tui import clock
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.queues.members import AgentPicks, QueueMembersScreen
from frontdesk.tui.screens.queues.queues import QueuesScreen

Console = Any  # the `console` fixture of tests/tui/conftest.py
WAITING = ("state = 'Open' AND assigned_agent_id IS NULL AND queue_id IS NOT NULL "
           "AND queued_at IS NOT NULL")


async def open_queues(console: Any, pilot: Any) -> FrontdeskApp:
    """Signed in, in Queues mode, with the queues topic fetched."""
    app = pilot.app
    await console.ready(pilot)
    await pilot.press("2")
    await pilot.pause()
    assert isinstance(app.screen, QueuesScreen)
    await filled(app)
    await pilot.pause()
    return app  # type: ignore[no-any-return]


async def filled(app: Any) -> None:
    """Tick the queues topic until every queue shows its availability, members and waiting
    conversations with the oldest one's wait known for sure (the store fills what is shown a
    few requests a second)."""
    for _ in range(30):
        rows = await app.session.live.refresh("queues")
        if rows and all(row.channels and row.members is not None and row.waiting is not None
                        and row.oldest_exact for row in rows):
            return
    raise AssertionError(f"the queues did not fill: {rows}")


def app_of(pilot: Pilot[Any]) -> Any:
    return pilot.app


def table(app: FrontdeskApp) -> DataTable[Any]:
    return app.screen.query_one("#queues-table", DataTable)


def cell(app: FrontdeskApp, queue_id: str, column: str) -> str:
    return str(table(app).get_cell(queue_id, column).plain)


def position_line(app: FrontdeskApp) -> str:
    view = app.screen.query_one("#position-view", Static)
    return str(view.render().plain)  # type: ignore[union-attr]


def http(console: Any) -> httpx2.Client:
    return httpx2.Client(base_url=console.sandbox.base_url,
                        headers={"Authorization": console.sandbox.key}, timeout=10)


async def test_every_queue_with_availability_members_priority_default(console: Any) -> None:
    app = console.app()
    async with app.run_test(size=(160, 45)) as pilot:
        await open_queues(console, pilot)
        queues = console.sandbox.query("SELECT id, name, is_default FROM queues")
        assert table(app).row_count == len(queues)
        for queue in queues:
            members = console.sandbox.query(
                "SELECT COUNT(*) AS n FROM queue_members WHERE queue_id = ?", (queue["id"],))
            assert cell(app, queue["id"], "name") == queue["name"]
            assert cell(app, queue["id"], "members") == str(members[0]["n"])
            assert cell(app, queue["id"], "default") == ("default" if queue["is_default"] else "")
            for channel in AVAILABILITY_CHANNELS:
                assert cell(app, queue["id"], channel) == "Available"
        priorities = {cell(app, q["id"], "priority") for q in queues}
        assert priorities == {"1", "2", "3", "4", "5"}
        # the chat channels by their names, not the service's identifiers
        headers = [str(column.label.plain).strip() for column in table(app).ordered_columns]
        assert headers[-3:] == ["Ada chat", "Kindly chat", "DigitalGenius chat"]


def expected_waiting(console: Any, queue_id: str) -> str:
    """The waiting cell the sandbox's data calls for: "N · oldest's wait" or "0"."""
    rows = console.sandbox.query(
        f"SELECT COUNT(*) AS n, MIN(queued_at) AS oldest FROM conversations WHERE {WAITING} "
        "AND queue_id = ?", (queue_id,))
    if not rows[0]["n"]:
        return "0"
    return f"{rows[0]['n']} · {clock.ago(parse_wire_time(rows[0]['oldest']))}"


async def waiting_counts_and_oldest_wait_follow_the_service(console: Console,
                                                            pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    queues = console.sandbox.query("SELECT id FROM queues")
    for queue in queues:
        assert cell(app, queue["id"], "waiting") == expected_waiting(console, queue["id"])
    busy = console.sandbox.query(
        f"SELECT queue_id, id FROM conversations WHERE {WAITING} "
        "ORDER BY queued_at, id LIMIT 1")[0]
    before = cell(app, busy["queue_id"], "waiting")
    with http(console) as client:  # someone claims the oldest
        reply = client.put(f"/v1/conversations/{busy['id']}/claim",
                           json={"agentId": app.session.me_id, "force": False})
        assert reply.status_code == 204
    await filled(app)
    for _ in range(6):  # round-robin: the queue's turn comes within a few ticks
        if cell(app, busy["queue_id"], "waiting") != before:
            break
        await app.session.live.refresh("queues")
        await filled(app)
        await pilot.pause()
    await pilot.pause()
    assert cell(app, busy["queue_id"], "waiting") == expected_waiting(
        console, busy["queue_id"])
    assert cell(app, busy["queue_id"], "waiting") != before


async def a_queue_without_working_members_says_how_many_wait(console: Console,
                                                             pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    queue = console.sandbox.query("SELECT id FROM queues WHERE name = 'VIP'")[0]
    waiting = console.sandbox.query(
        f"SELECT COUNT(*) AS n FROM conversations WHERE {WAITING} AND queue_id = ?",
        (queue["id"],))[0]["n"]
    console.sandbox.call(lambda ctx: ctx.db.run(
        "UPDATE presence SET presence_status = 'Away', channels = '[]' WHERE user_id IN "
        "(SELECT agent_id FROM queue_members WHERE queue_id = ?)", (queue["id"],)))
    # round-robin: the queue's turn comes within a few ticks (how many requests a tick
    # spends depends on what the other topics took meanwhile)
    for _ in range(10):
        await app.session.live.refresh("queues")
        await pilot.pause()
        if cell(app, queue["id"], "chat") == f"Not available ({waiting} waiting)":
            break
    assert cell(app, queue["id"], "chat") == f"Not available ({waiting} waiting)"


async def position_moves_when_one_ahead_is_claimed_and_ends_when_it_leaves(
        console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    queue_id = console.sandbox.query(
        f"SELECT queue_id FROM conversations WHERE {WAITING} GROUP BY queue_id "
        "HAVING COUNT(*) >= 3 ORDER BY queue_id LIMIT 1")[0]["queue_id"]
    ahead, followed = [row["id"] for row in console.sandbox.query(
        f"SELECT id FROM conversations WHERE {WAITING} AND queue_id = ? "
        "ORDER BY queued_at, id LIMIT 2", (queue_id,))]
    await pilot.press("P", *str(followed), "enter")
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert f"#{followed} · position 2 in " in position_line(app)
    assert "waiting" in position_line(app)

    me = app.session.me_id
    with http(console) as client:
        reply = client.put(f"/v1/conversations/{ahead}/claim",
                           json={"agentId": me, "force": False})
        assert reply.status_code == 204
        await app.session.live.refresh("position")
        await pilot.pause()
        assert f"#{followed} · position 1 in " in position_line(app)

        reply = client.put(f"/v1/conversations/{followed}/claim",
                           json={"agentId": me, "force": False})
        assert reply.status_code == 204
    await app.session.live.refresh("position")
    await pilot.pause()
    assert "no longer waiting" in position_line(app)
    polls = app.session.live.stats()["position"]["polls"]
    changes = app.session.live.stats()["position"]["changes"]
    sent: list[str] = []

    async def count(request: httpx2.Request) -> None:
        sent.append(request.url.path)

    app.session.client._http.event_hooks["request"].append(count)
    await app.session.live.refresh("position")  # it left: no more requests, no change
    assert app.session.live.stats()["position"]["polls"] == polls + 1
    assert app.session.live.stats()["position"]["changes"] == changes
    assert not [path for path in sent if "conversation-position" in path]


async def a_conversation_that_is_not_waiting_says_so(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    closed = console.sandbox.query(
        "SELECT id FROM conversations WHERE state = 'Closed' ORDER BY id LIMIT 1")[0]["id"]
    await pilot.press("P", *str(closed), "enter")
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert f"#{closed} is not waiting in a queue" in position_line(app)
    await pilot.press("P", *"999999", "enter")
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert "There is no conversation #999999" in position_line(app)


def members_of(console: Any, queue_id: str) -> set[str]:
    rows = console.sandbox.query("SELECT agent_id FROM queue_members WHERE queue_id = ?",
                             (queue_id,))
    return {row["agent_id"] for row in rows}


async def members_are_added_and_removed_through_the_modal(console: Console,
                                                          pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    queue_id = str(table(app).coordinate_to_cell_key(Coordinate(0, 0)).row_key.value)
    before = members_of(console, queue_id)
    outsider = console.sandbox.query(
        "SELECT id, display_name FROM users WHERE kind = 'agent' AND id NOT IN "
        "(SELECT agent_id FROM queue_members WHERE queue_id = ?) "
        "ORDER BY display_name LIMIT 1", (queue_id,))[0]
    insider = console.sandbox.query(
        "SELECT u.id, u.display_name FROM users u JOIN queue_members m ON m.agent_id = u.id "
        "WHERE m.queue_id = ? ORDER BY u.display_name LIMIT 1", (queue_id,))[0]

    await pilot.press("m")
    await app.workers.wait_for_complete()
    await pilot.pause()
    modal = app.screen
    assert isinstance(modal, QueueMembersScreen)
    picks = modal.query_one(AgentPicks)
    assert set(picks.selected) == before

    await pilot.press(*outsider["display_name"].split()[-1].lower())
    await pilot.pause()
    assert modal.query_one(AgentPicks).option_count >= 1
    assert picks.get_option_at_index(picks.highlighted or 0).value == outsider["id"]
    await pilot.press("space")
    await pilot.pause()
    await pilot.press(*["backspace"] * 30)
    await pilot.press(*insider["display_name"].split()[-1].lower())
    await pilot.pause()
    assert picks.get_option_at_index(picks.highlighted or 0).value == insider["id"]
    await pilot.press("space")
    await pilot.pause()
    assert "+1 -1 to apply" in str(modal.query_one("#members-summary", Static)
                                   .render().plain)  # type: ignore[union-attr]
    await pilot.press("enter")
    await app.workers.wait_for_complete()
    await pilot.pause()

    assert not isinstance(app.screen, QueueMembersScreen)
    after = members_of(console, queue_id)
    assert after == (before | {outsider["id"]}) - {insider["id"]}
    assert cell(app, queue_id, "members") == str(len(after))


async def esc_in_the_modal_changes_nothing(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    queue_id = str(table(app).coordinate_to_cell_key(Coordinate(0, 0)).row_key.value)
    before = members_of(console, queue_id)
    await pilot.press("m")
    await app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.press("space", "down", "space", "escape")
    await pilot.pause()
    assert isinstance(app.screen, QueuesScreen)
    assert members_of(console, queue_id) == before


async def a_refused_read_of_the_members_is_said(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    queue_id = str(table(app).coordinate_to_cell_key(Coordinate(0, 0)).row_key.value)
    console.sandbox.faults.fail(400, count=None, path_prefix=f"/v1/queues/{queue_id}/members")
    try:
        await pilot.press("m")
        await app.workers.wait_for_complete()
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, QueueMembersScreen)
        summary = str(modal.query_one("#members-summary", Static)
                      .render().plain)  # type: ignore[union-attr]
        assert summary.startswith("Could not read the members: ")
        assert modal.current is None  # nothing to tick, nothing to apply
        await pilot.press("space", "enter", "escape")
        await pilot.pause()
    finally:
        console.sandbox.faults.clear()
    assert isinstance(app.screen, QueuesScreen)


async def test_a_queues_poll_that_changes_nothing_repaints_nothing(
        console: Any, monkeypatch: Any) -> None:
    counts: Counter[str] = Counter()
    original = Widget.refresh

    def refresh(self: Widget, *args: Any, **kwargs: Any) -> Any:
        counts[self.id or type(self).__name__] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Widget, "refresh", refresh)
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_queues(console, pilot)
        live = app.session.live
        await pilot.pause()
        changes = live.stats()["queues"]["changes"]
        counts.clear()
        await live.refresh("queues")
        await live.refresh("position")
        await pilot.pause()
        assert live.stats()["queues"]["changes"] == changes
        ids = {w.id for w in app.screen.query("*") if w.id} - {"position-input"}
        assert {key: n for key, n in counts.items() if key in ids} == {}


def test_queued_time_is_the_users_local_time() -> None:
    """Shown in the user's zone, whatever the schedule's zone (one formatter for times)."""
    import os
    import time
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    from frontdesk.store.queue_rows import PositionState
    from frontdesk.tui.screens.queues.queues import describe_position

    state = PositionState(7, position=2, queued_at=datetime(2026, 1, 5, 9, 53, tzinfo=UTC),
                          queue_name="Support", checked=True)
    original = os.environ.get("TZ")
    try:
        for zone, expected in (("UTC", "queued 09:53"), ("Asia/Kolkata", "queued 15:23")):
            os.environ["TZ"] = zone
            time.tzset()
            assert expected in describe_position(state, ZoneInfo("Europe/Copenhagen")).plain
    finally:
        if original is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = original
        time.tzset()


async def test_queues_waiting_positions_and_members(console: Console) -> None:
    """Queues mode walked on one console: the members modal (esc changes nothing, a refused
    read is said, then a change applied), a conversation not waiting, waiting counts and the
    oldest wait, a position followed, a queue without working members."""
    async def start(pilot: Pilot[Any]) -> None:
        await open_queues(console, pilot)

    async def between(pilot: Pilot[Any]) -> None:
        await filled(pilot.app)
        await pilot.pause()

    await console.walk((100, 30),
                       esc_in_the_modal_changes_nothing,
                       a_refused_read_of_the_members_is_said,
                       members_are_added_and_removed_through_the_modal,
                       a_conversation_that_is_not_waiting_says_so,
                       waiting_counts_and_oldest_wait_follow_the_service,
                       position_moves_when_one_ahead_is_claimed_and_ends_when_it_leaves,
                       a_queue_without_working_members_says_how_many_wait,
                       start=start, between=between)
