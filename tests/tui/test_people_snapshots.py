"""How People (end users, agents) and Admin (tags, business hours) look, at 80 by 24, 100 by 30 and
at 160 by 45, on the seeded sandbox with the console's clock frozen.

Update the pictures after an intended change with ``--snapshot-update`` and look at them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from pilot_waits import tables_laid_out

#: the least supported terminal, the usual one and a large one
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((100, 30), id="100x30"),
         pytest.param((160, 45), id="160x45")]


async def settle(pilot: Pilot[Any]) -> None:
    """Let every worker finish and the screen catch up, its tables laid out."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await tables_laid_out(pilot.app.screen)


def prepare(console: Any, *keys: str) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """Sign in, read the header's topics, then press ``keys`` (settling after each)."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await console.settled(pilot)
        app = pilot.app
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        app.clear_notifications()
        await settle(pilot)

    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_people_end_users(console: Any, snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(console.app(), terminal_size=size, run_before=prepare(console, "4"))


@pytest.mark.parametrize("size", SIZES)
def test_people_agents(console: Any, snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(console.app(), terminal_size=size,
                        run_before=prepare(console, "4", "t"))


@pytest.mark.parametrize("size", SIZES)
def test_admin_tags(console: Any, snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(console.app(), terminal_size=size,
                        run_before=prepare(console, "5", "enter", "i"))


@pytest.mark.parametrize("size", SIZES)
def test_admin_business_hours(console: Any, snap_compare: Any, size: tuple[int, int]) -> None:
    keys = ("5", "down", "down", "down", "down", "down", "enter", "plus")
    assert snap_compare(console.app(), terminal_size=size, run_before=prepare(console, *keys))
