"""My presence: `p` opens the toggles and each change reaches the service."""

from __future__ import annotations

from textual.widgets import Switch

from frontdesk.tui.screens.shared.presence import PresenceScreen


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


async def test_toggles_in_a_burst_reach_the_service_in_order_and_once(console) -> None:  # type: ignore[no-untyped-def]
    """A switch this screen sets to show the service's answer is not sent back: a burst of
    flips ends with the service in the state the keys asked for, then nothing more."""
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        me = app.session.me_id
        await app.session.live.refresh("presence:me")  # the switches open on the service's state
        # no poll of presence lands in the middle of the burst (its own test is the header's)
        console.timers[id(app.session)].frozen = True
        before = console.sandbox.query("SELECT channels FROM presence WHERE user_id = ?", (me,))
        speak = "Speak" in before[0]["channels"]
        messaging = "Messaging" in before[0]["channels"]
        await console.burst(pilot, "p", "4", "4", "3")
        assert isinstance(app.screen, PresenceScreen)
        rows = console.sandbox.query("SELECT channels FROM presence WHERE user_id = ?", (me,))
        assert ("Speak" in rows[0]["channels"]) is speak
        assert ("Messaging" in rows[0]["channels"]) is (not messaging)
        screen = app.screen
        assert screen.query_one("#channel-Speak", Switch).value is speak
        assert screen.query_one("#channel-Messaging", Switch).value is (not messaging)
        # and quiet afterwards: no change sent back and forth
        await console.idle(pilot)
        assert not screen._echoes or not any(screen._echoes.values())
