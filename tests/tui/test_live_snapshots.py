"""SVG snapshots of Team mode, Queues mode, a followed queue position and my presence toggles
(``p``) at 80x24, 100x30 and 160x45, on the seeded demo data with the console's clock frozen.

Update after an intended change of the look: ``pytest tests/tui/test_live_snapshots.py
--snapshot-update`` (then look at the pictures before committing them).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

#: the least supported terminal, the usual one and a large one
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((100, 30), id="100x30"),
         pytest.param((160, 45), id="160x45")]

Step = Callable[[Pilot[Any]], Awaitable[None]]


def prepare(console: Any, keys: tuple[str, ...], topics: tuple[str, ...],
            then: Step | None = None) -> Step:
    """Sign in, press ``keys``, fetch ``topics`` and let the screen settle."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await console.settled(pilot)
        await pilot.press(*keys)
        await pilot.pause()
        session = pilot.app.session  # type: ignore[attr-defined]
        for topic in topics:
            await session.live.refresh(topic)
        if "queues" in topics:  # shown queues fill a few requests a second: wait for all
            for _ in range(30):
                rows = await session.live.refresh("queues")
                if all(row.channels and row.members is not None and row.waiting is not None
                       and row.oldest_exact for row in rows):
                    break
        if "team:load" in topics:  # every shown agent's load, a few a second at first
            for _ in range(30):
                loads = await session.live.refresh("team:load")
                if set(session.team.shown_agents()) <= {load.agent_id for load in loads}:
                    break
        if then is not None:
            await then(pilot)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_team_mode(console: Any, snap_compare: Any, size: tuple[int, int]) -> None:
    run_before = prepare(console, ("3",), ("team:list", "team:presence", "team:load"))
    assert snap_compare(console.app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_queues_mode(console: Any, snap_compare: Any, size: tuple[int, int]) -> None:
    run_before = prepare(console, ("2",), ("queues",))
    assert snap_compare(console.app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_queue_position(console: Any, snap_compare: Any, size: tuple[int, int]) -> None:
    waiting = console.sandbox.query(
        "SELECT id FROM conversations WHERE state = 'Open' AND assigned_agent_id IS NULL "
        "AND queue_id IS NOT NULL ORDER BY queue_id, queued_at, id LIMIT 3")
    followed = str(waiting[2]["id"])

    async def follow(pilot: Pilot[Any]) -> None:
        await pilot.press("P", *followed, "enter")
        await pilot.app.workers.wait_for_complete()

    run_before = prepare(console, ("2",), ("queues",), follow)
    assert snap_compare(console.app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_presence_toggles(console: Any, snap_compare: Any, size: tuple[int, int]) -> None:
    run_before = prepare(console, ("3",),
                         ("team:list", "team:presence", "team:load", "presence:me"))

    async def open_toggles(pilot: Pilot[Any]) -> None:
        await run_before(pilot)
        await pilot.press("p")
        await pilot.pause()

    assert snap_compare(console.app(), terminal_size=size, run_before=open_toggles)


@pytest.mark.parametrize("size", SIZES)
def test_queue_members_modal(console: Any, snap_compare: Any, size: tuple[int, int]) -> None:
    async def open_members(pilot: Pilot[Any]) -> None:
        await pilot.press("m")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        pilot.app.screen.query_one("#members-filter", Input).cursor_blink = False
        await pilot.press(*"an")

    run_before = prepare(console, ("2",), ("queues",), open_members)
    assert snap_compare(console.app(), terminal_size=size, run_before=run_before)
