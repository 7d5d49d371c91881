"""From a thread, `v` opens its ratings (offer one, see each question's status)."""

from __future__ import annotations

from typing import Any

from test_thread_screen import chat, open_thread  # type: ignore[import-not-found]

from frontdesk.tui.screens.inbox.ratings import RatingsScreen


async def test_v_opens_the_ratings_of_the_thread(console: Any) -> None:
    cid = chat(console)
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        await open_thread(pilot, cid)
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, RatingsScreen)
        assert app.screen.conversation_id == cid
        # o, then enter on the kind (as the hint says): offered, no list opened
        await console.burst(pilot, "o", "enter")
        assert isinstance(app.screen, RatingsScreen)
        offers = console.sandbox.query(
            "SELECT rating_type FROM ratings WHERE conversation_id = ?", (cid,))
        assert [o["rating_type"] for o in offers] == ["Csat"]
