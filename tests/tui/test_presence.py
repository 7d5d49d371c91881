"""My presence: `p` opens the toggles and each change reaches the service."""

from __future__ import annotations

import json
from typing import Any

import httpx2
from textual.pilot import Pilot
from textual.widgets import Switch

from frontdesk.store.presence import CHANNELS
from frontdesk.tui.screens.shared.presence import PresenceScreen


async def p_toggles_working_channels_on_the_service(console: Any, pilot: Pilot[Any]) -> None:
    app: Any = pilot.app
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


async def toggles_in_a_burst_reach_the_service_in_order_and_once(
        console: Any, pilot: Pilot[Any]) -> None:
    """A switch this screen sets to show the service's answer is not sent back: a burst of
    flips ends with the service in the state the keys asked for, then nothing more."""
    app: Any = pilot.app
    me = app.session.me_id
    await app.session.live.refresh("presence:me")  # the switches open on the service's state
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
    assert not any(screen._pending.values())


def channel_changes(app: Any) -> list[tuple[str, bool]]:
    """The working-channel changes the console sends from now on, as they leave for the
    service (channel, working)."""
    sent: list[tuple[str, bool]] = []

    async def record(request: httpx2.Request) -> None:
        if request.method == "PUT" and request.url.path.endswith("/working-channel"):
            body = json.loads(request.content)
            sent.append((body["channel"], body["working"]))

    app.session.client._http.event_hooks["request"].append(record)
    return sent


async def a_poll_landing_mid_burst_loses_no_flip_and_a_refusal_is_said(
        console: Any, pilot: Pilot[Any]) -> None:
    """A presence poll whose answer lands between a flip and the next key never overwrites
    the flipped switch: the service gets exactly the person's flips, in order, once each; a
    channel the poll did change (on another device) follows the service. A refused change
    puts the switch back and says why."""
    app: Any = pilot.app
    session = app.session
    me = session.me_id
    await session.live.refresh("presence:me")

    def working(channel: str) -> bool:
        rows = console.sandbox.query("SELECT channels FROM presence WHERE user_id = ?", (me,))
        return channel in rows[0]["channels"]

    speak, messaging, email = working("Speak"), working("Messaging"), working("Email")
    await console.burst(pilot, "p")
    screen = app.screen
    assert isinstance(screen, PresenceScreen)
    # Email changed on another device: a poll fetches the new state now, and its answer
    # lands right after the burst's first flip, before that flip's message is handled
    await session.client.agents.set_working_channel(me, "Email", not email)
    landed = await session.live.topic("presence:me").fetch()
    flip = screen.action_flip
    flips = 0

    def flip_then_poll_lands(index: int) -> None:
        nonlocal flips
        flip(index)
        flips += 1
        if flips == 1:
            session.live.put("presence:me", landed)

    screen.action_flip = flip_then_poll_lands  # type: ignore[method-assign]
    sent = channel_changes(app)
    await console.burst(pilot, "4", "4", "3")
    assert sent == [("Speak", not speak), ("Speak", speak), ("Messaging", not messaging)]
    assert (working("Speak"), working("Messaging")) == (speak, not messaging)
    switches = {c: screen.query_one(f"#channel-{c}", Switch).value for c in CHANNELS}
    assert (switches["Speak"], switches["Messaging"]) == (speak, not messaging)
    assert switches["Email"] is (not email)
    # a poll with nothing new once the burst is done: nothing more is sent
    await session.live.refresh("presence:me")
    await console.idle(pilot)
    assert len(sent) == 3

    # the service refuses a change: the switch shows the service's state, and why
    console.sandbox.faults.fail(409, methods=("PUT",), path_prefix="/v1/agents/")
    await console.burst(pilot, "4")
    assert sent[3:] == [("Speak", not speak)]
    assert working("Speak") is speak
    assert screen.query_one("#channel-Speak", Switch).value is speak
    summary = str(screen.query_one("#summary").render())
    assert "Could not change Speak" in summary
    assert not any(screen._pending.values())


async def test_presence_walked(console: Any) -> None:
    """My presence on one console: p and one toggle, a burst of toggles, then a poll landing
    mid-burst and a refusal (last: it wraps the screen's flip and watches the requests)."""
    await console.walk((100, 30),
                       p_toggles_working_channels_on_the_service,
                       toggles_in_a_burst_reach_the_service_in_order_and_once,
                       a_poll_landing_mid_burst_loses_no_flip_and_a_refusal_is_said)
