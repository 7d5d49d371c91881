"""Admin → Webhooks against the sandbox and a real receiver on loopback: create (form, then the
events picker), the last delivery of each event, an event's delivery log, the events sent
(``v``), off and on, edit, delete with a question, the URL cut to the width and shown whole
once there is room, polled only while in front; and how the section looks at 80 by 24, 100 by
30 and 160 by 45. Each on a console of its own, from a webhook made over HTTP where it is not
what the test makes, so that one failing does not hide the others."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Label, SelectionList, Static
from textual.worker import WorkerCancelled, WorkerFailed

from frontdesk.sandbox.listen import Receiver
from frontdesk.tui.screens.admin.admin import SECTIONS, AdminScreen
from frontdesk.tui.screens.admin.delivery_log import DeliveryLogScreen
from frontdesk.tui.screens.admin.members import MembersScreen
from frontdesk.tui.screens.shared.confirm import ConfirmScreen
from frontdesk.tui.screens.shared.form import FormScreen


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until the workers started so far are done (a worker replaced by a newer one of
    its exclusive group is done too: cancelled)."""
    for _ in range(3):
        await pilot.pause()
        with contextlib.suppress(WorkerCancelled, WorkerFailed):
            await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def front(app: Any) -> Any:
    """The screen in front now (a call, so a type checker does not carry an earlier check)."""
    return app.screen


def hooks(console: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = console.sandbox.query(
        "SELECT id, name, url, events, enabled, authorization, secret_key FROM webhooks")
    return found


def url_cell(screen: Any) -> str:
    table = screen.query_one("#webhooks-table", DataTable)
    return str(table.get_row_at(0)[3])


#: the events the webhook of these tests sends
WANTED = {"ConversationClosed", "ConversationNoteAdded"}
#: a path long enough to be cut at 100 columns and whole at 160
LONG_PATH = "/billing-integration/events-of-the-demo-organisation"
#: where a webhook no event reaches in its test points (TEST-NET-1: nothing listens)
NOWHERE = "http://192.0.2.10" + LONG_PATH


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A real receiver on loopback, for a test whose webhook is sent an event."""
    with Receiver() as running:
        yield running


def make_hook(http: httpx2.Client, url: str = NOWHERE) -> None:
    """The webhook the console's form makes (Billing, a token, :data:`WANTED`), made over HTTP
    as an integration would, for a test that starts from it. Made once the console is signed
    in: made before, the sandbox would no longer be the seeded organisation and the console
    would start from an empty local store, a slower start."""
    made = http.post("/v1/webhooks", json={
        "name": "Billing", "url": url, "enabled": True, "events": sorted(WANTED),
        "authorization": {"_type": "TokenAuth", "value": "tok-9"}, "customHeaders": {}})
    assert made.status_code == 201, made.text


async def webhooks_section(pilot: Pilot[Any], *, by_keys: bool = False) -> AdminScreen:
    """Admin (5), then its Webhooks section: down the menu to it and enter (``by_keys``, as a
    person gets there; each section on the way loads, a second or more), or straight there."""
    await pilot.press("5")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, AdminScreen)
    if by_keys:
        await pilot.press(*["down"] * list(SECTIONS).index("webhooks"), "enter")
    else:
        screen.show_section("webhooks")
    await settle(pilot)
    assert screen.section == "webhooks"
    return screen


async def test_a_webhook_is_made_with_the_form_then_the_events_picker(console: Any) -> None:
    """n: the form (a URL refused, then taken), then the events picker; its secret key shows
    once, to copy into the receiver, and s hides it."""
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        screen = await webhooks_section(pilot, by_keys=True)
        assert "No webhooks yet" in str(screen.query_one("#webhooks-caption").render())

        await pilot.press("n")
        form = app.screen
        assert isinstance(form, FormScreen)
        form.set_values({"name": "Billing", "url": "not a url"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert front(app) is form
        assert "http://" in str(form.query_one("#form-problem").render())
        form.set_values({"url": NOWHERE, "token": "tok-9"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, MembersScreen)
        listing = picker.query_one(SelectionList)
        for index in range(listing.option_count):
            if listing.get_option_at_index(index).value in WANTED:
                listing.select(listing.get_option_at_index(index))
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert front(app) is screen
        [hook] = hooks(console)
        assert hook["name"] == "Billing" and hook["enabled"] == 1
        assert set(json.loads(hook["events"])) == WANTED
        assert hook["authorization"] == "Bearer tok-9"
        # its secret key shows once, to copy into the receiver; s hides it
        secret = hook["secret_key"]
        title_of = screen.query_one("#webhook-status-title", Label)
        assert f"Secret key (s hides it):\n{secret}" in str(title_of.render())
        screen.query_one("#webhooks-table", DataTable).focus()
        await console.burst(pilot, "s")
        await settle(pilot)
        assert secret not in str(title_of.render())


async def test_the_last_delivery_of_each_event_and_an_event_s_log(
        console: Any, http: httpx2.Client, receiver: Receiver) -> None:
    """An event happens: the receiver gets it, the section shows how it went (polled while
    it is in front, no r), and l opens that event's delivery log."""
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        make_hook(http, receiver.url + LONG_PATH)
        screen = await webhooks_section(pilot)
        open_one = console.sandbox.query(
            "SELECT id FROM conversations WHERE state = 'Open' LIMIT 1")[0]["id"]
        await app.session.client.conversations.close(open_one)
        console.sandbox.run_pending()
        assert receiver.events() == ["ConversationClosed"]
        # no r: the section's deliveries are polled while it is in front
        topic = app.session.live.topic("webhooks:status")
        assert topic is not None and topic.active
        await app.session.live.refresh("webhooks:status")
        await settle(pilot)
        status = screen.query_one("#webhook-status", DataTable)
        assert [str(k.value) for k in status.rows] == ["ConversationClosed",
                                                       "ConversationNoteAdded"]
        first = " ".join(str(c) for c in status.get_row_at(0))
        assert "ok 200" in first
        assert "no recent delivery" in " ".join(str(c) for c in status.get_row_at(1))
        status.focus()
        await pilot.press("l")
        await settle(pilot)
        log = app.screen
        assert isinstance(log, DeliveryLogScreen) and len(log.entries) == 1
        title = str(log.query_one("#delivery-log-title", Label).render())
        assert "1 attempt (newest first)" in title  # not "1 attempts"
        body = str(log.query_one("#delivery-payload", Static).render())
        assert "CONVERSATION_CLOSED" in body and str(open_one) in body
        await pilot.press("escape")
        await settle(pilot)
        assert front(app) is screen


async def test_the_secret_key_is_shown_only_when_asked(
        console: Any, http: httpx2.Client) -> None:
    """s: the secret key a receiver checks signatures with, shown only when asked."""
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        make_hook(http)
        screen = await webhooks_section(pilot)
        secret = hooks(console)[0]["secret_key"]
        title_of = screen.query_one("#webhook-status-title", Label)
        screen.query_one("#webhooks-table", DataTable).focus()
        assert secret not in str(title_of.render())
        await console.burst(pilot, "s")
        await settle(pilot)
        assert f"Secret key (s hides it):\n{secret}" in str(title_of.render())
        await console.burst(pilot, "s")
        await settle(pilot)
        assert secret not in str(title_of.render())


async def test_v_shows_the_events_sent_and_sends_one_more_ticked(
        console: Any, http: httpx2.Client) -> None:
    """v: the events it sends, ticked as they are; one more ticked is sent too."""
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        make_hook(http)
        screen = await webhooks_section(pilot)
        screen.query_one("#webhooks-table", DataTable).focus()
        await pilot.press("v")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, MembersScreen)
        listing = picker.query_one(SelectionList)
        assert set(listing.selected) == WANTED
        # narrowed by typing, then ticked with space (keys in one burst)
        await pilot.press("ctrl+f", *"created", "enter", "space", "ctrl+s")
        await settle(pilot)
        assert front(app) is screen
        assert set(json.loads(hooks(console)[0]["events"])) == WANTED | {
            "ConversationCreated"}
        status = screen.query_one("#webhook-status", DataTable)
        assert [str(k.value) for k in status.rows] == [
            "ConversationCreated", "ConversationClosed", "ConversationNoteAdded"]


async def test_the_url_is_cut_to_the_width_and_whole_once_there_is_room(
        console: Any, http: httpx2.Client) -> None:
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        make_hook(http)
        screen = await webhooks_section(pilot)
        assert url_cell(screen).endswith("…") and NOWHERE not in url_cell(screen)
        await pilot.resize_terminal(160, 45)
        await settle(pilot)
        assert url_cell(screen) == NOWHERE


async def test_off_and_on_edit_and_delete_with_a_question(
        console: Any, http: httpx2.Client) -> None:
    """space turns it off; e changes its name (a blank token keeps the one it has); d asks,
    then deletes it."""
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        make_hook(http)
        screen = await webhooks_section(pilot)
        screen.query_one("#webhooks-table", DataTable).focus()
        await pilot.press("space")
        await settle(pilot)
        assert hooks(console)[0]["enabled"] == 0
        await pilot.press("e")
        edit = app.screen
        assert isinstance(edit, FormScreen)
        edit.set_values({"name": "Billing 2"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert hooks(console)[0]["name"] == "Billing 2"
        assert hooks(console)[0]["authorization"] == "Bearer tok-9"  # blank token: kept

        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        assert hooks(console) == []


async def test_deliveries_are_polled_only_while_the_section_is_in_front(console: Any) -> None:
    """None while the section is hidden: another mode, another section."""
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        screen = await webhooks_section(pilot)
        topic = app.session.live.topic("webhooks:status")
        assert topic is not None and topic.active
        await pilot.press("1")
        await settle(pilot)
        assert not topic.active
        await pilot.press("5")
        await settle(pilot)
        assert topic.active
        screen.query_one("#admin-menu").focus()
        await console.burst(pilot, "up")
        await settle(pilot)
        assert screen.section != "webhooks" and not topic.active


#: the least supported terminal, the usual one and a large one
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((100, 30), id="100x30"),
         pytest.param((160, 45), id="160x45")]


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_webhooks_look(console: Any, snap_compare: Any, size: tuple[int, int]) -> None:
    sandbox = console.sandbox
    with httpx2.Client(base_url=sandbox.base_url, headers={"Authorization": sandbox.key},
                      timeout=120) as http:  # a guard for a busy machine, not a bound
        for name, enabled in (("Billing sync", True), ("Old CRM", False)):
            made = http.post("/v1/webhooks", json={
                "name": name, "url": "http://192.0.2.10/hook", "enabled": enabled,
                "events": ["ConversationCreated", "ConversationClosed", "ConversationRated"],
                "authorization": {"_type": "NoAuth"}, "customHeaders": {}})
            assert made.status_code == 201, made.text
        conversation = sandbox.query(
            "SELECT id FROM conversations WHERE state = 'Open' ORDER BY id LIMIT 1")[0]["id"]
        assert http.put(f"/v1/conversations/{conversation}/close").status_code == 204
    sandbox.run_pending()

    async def run_before(pilot: Pilot[Any]) -> None:
        await console.settled(pilot)
        await pilot.press("5")
        await settle(pilot)
        await pilot.press(*["down"] * list(SECTIONS).index("webhooks"), "enter")
        await settle(pilot)
        pilot.app.clear_notifications()
        await settle(pilot)

    assert snap_compare(console.app(), terminal_size=size, run_before=run_before)
