"""`B` tags a conversation by names in one request; the service applies them moments later and
creates the names it does not know."""

from __future__ import annotations

from typing import Any

from frontdesk.tui.screens.shared.pickers import PromptScreen


async def test_B_tags_by_names_and_the_service_applies_them(console: Any) -> None:
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        screen = app.screen
        cid = screen.current_conversation_id()
        assert cid is not None
        await pilot.press("B")
        assert isinstance(app.screen, PromptScreen)
        for key in "brand-new-tag":
            await pilot.press(key)
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        console.sandbox.run_pending(everything=True)
        rows = console.sandbox.query(
            "SELECT t.name FROM conversation_tags ct JOIN tags t ON t.id = ct.tag_id "
            "WHERE ct.conversation_id = ?", (cid,))
        assert "brand-new-tag" in {r["name"] for r in rows}
