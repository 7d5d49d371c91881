"""Admin's menu and a burst of keys that comes while Admin is still loading: the menu ends
where the keys put it, and ``enter`` goes into that section."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList

from frontdesk.tui.screens.admin.admin import SECTIONS, AdminScreen

Console = Any  # the `console` fixture of tests/tui/conftest.py


async def test_a_burst_into_admin_ends_on_the_section_the_keys_reached(console: Console) -> None:
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        await console.idle(pilot)
        # the mode key and the moves in one read: the moves land in the menu once it is there
        await console.burst(pilot, "5", "down", "down", "down", "enter")
        admin = app.screen
        assert isinstance(admin, AdminScreen)
        menu = admin.query_one("#admin-menu", OptionList)
        assert menu.highlighted == 3
        assert admin.section == list(SECTIONS)[3]
        assert not menu.has_focus  # enter went into the section
        # back to the menu and moving on in one read, while the section still loads
        await console.burst(pilot, "escape", "down", "down", "up")
        assert menu.highlighted == 4
        assert admin.section == list(SECTIONS)[4]
