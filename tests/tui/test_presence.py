"""My presence: `p` opens the toggles and each change reaches the service."""

from __future__ import annotations

from frontdesk.tui.screens.presence import PresenceScreen


async def test_p_toggles_working_channels_on_the_service(console) -> None:  # type: ignore[no-untyped-def]
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        me = app.session.me_id
        before = app.session.presence.working("Speak")
        await pilot.press("p")
        assert isinstance(app.screen, PresenceScreen)
        await pilot.press("4")
        await app.workers.wait_for_complete()
        await pilot.pause()
        rows = console.sandbox.query("SELECT channels FROM presence WHERE user_id = ?", (me,))
        assert ("Speak" in rows[0]["channels"]) is (not before)
        assert app.session.presence.working("Speak") is (not before)
        await pilot.press("escape")
        assert not isinstance(app.screen, PresenceScreen)
