"""The console signed in through a team gateway (a real gateway in front of the sandbox):
it acts as the member's agent, says "via gateway · role" in the header, offers only what the
role may do (keys, palette, modes, Admin sections), says a refusal that still comes in one
line naming the role, and shows admins the gateway's audit."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.launch import local_store_path
from frontdesk.sandbox.clock import ManualClock
from frontdesk.store.errors import Refused
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.store.stats import STATS_TOPIC
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.admin.admin import AdminScreen
from frontdesk.tui.screens.inbox.thread import ThreadScreen
from frontdesk.tui.screens.shared.tag_picker import TagPicker
from frontdesk.tui.widgets.safe import DataTable, OptionList, Static
from frontdesk.tui.widgets.status_bar import StatusBar
from gateway_harness import DEMO_AGENT_EMAIL, RunningGateway, running_gateway

Console = Any  # the `console` fixture of tests/tui/conftest.py

SIZE = (120, 36)


@pytest.fixture
def gateway(console: Console, tmp_path: Path) -> Iterator[RunningGateway]:
    """A gateway in front of the console's sandbox."""
    with running_gateway(console.sandbox, tmp_path) as running:
        yield running


def member_app(console: Console, gateway: RunningGateway, who: str, role: str,
               **options: Any) -> FrontdeskApp:
    """The console of ``who`` signed in through ``gateway`` with a personal key of ``role``,
    on an empty local store (as a first sign-in through it: the profile names no agent)."""
    key = gateway.add_member(who, role)
    client = ApiClient(gateway.base_url, key, gateway.integrations_url,
                       pacer=Pacer(enabled=False))
    profile = f"team-{role}"
    session = Session(client=client, local=LocalStore(local_store_path(profile)),
                      settings=console.settings, profile=profile,
                      identity=gateway.agent(who)["id"], gateway=True)
    console.sessions.append(session)
    return FrontdeskApp(session, **options)


def menu(app: FrontdeskApp) -> list[str]:
    """The Admin menu's sections, in order."""
    options = app.screen.query_one("#admin-menu", OptionList)
    return [str(options.get_option_at_index(i).id) for i in range(options.option_count)]


def palette(app: FrontdeskApp) -> set[str]:
    """The titles the palette offers on the screen in front."""
    return {command.title for command in app.get_system_commands(app.screen)}


def footer(app: FrontdeskApp) -> set[str]:
    """The descriptions of the keys enabled where the focus is (what the footer shows)."""
    return {active.binding.description for active in app.screen.active_bindings.values()
            if active.enabled and active.binding.show}


def open_chat(console: Console) -> int:
    """An open chat nobody is assigned to."""
    rows = console.sandbox.query(
        "SELECT id FROM conversations WHERE channel = 'WidgetChat' AND state = 'Open' "
        "AND assigned_agent_id IS NULL ORDER BY id LIMIT 1")
    assert rows, "the seeded sandbox has no unassigned open chat"
    return int(rows[0]["id"])


async def open_thread(console: Console, pilot: Pilot[Any], cid: int) -> ThreadScreen:
    app = pilot.app
    screen = ThreadScreen(cid)
    await app.push_screen(screen)
    assert isinstance(app, FrontdeskApp) and app.session is not None
    await app.session.live.refresh("thread")
    await console.idle(pilot)
    return screen


async def test_an_agent_through_the_gateway_works_as_themselves_and_sees_only_their_part(
        console: Console, gateway: RunningGateway) -> None:
    who = gateway.agent_ids()[1]  # not the demo agent: the gateway says who, not a default
    agent = gateway.agent(who)
    app = member_app(console, gateway, who, "agent")
    async with app.run_test(size=SIZE) as pilot:
        await console.ready(pilot)
        session = app.session
        assert session is not None and session.me is not None
        assert session.me.id == agent["id"]
        assert app.screen.query_one(StatusBar).via == "via gateway · agent"
        # Stats is a supervisor's: not in the palette, and 6 does nothing
        assert "Go to Stats" not in palette(app)
        assert "Activity of the organisation (last 24 hours)" not in palette(app)
        await console.burst(pilot, "6")
        assert app.current_mode == "inbox"
        # queue membership is a supervisor's
        await console.burst(pilot, "2")
        assert "Members" not in footer(app)
        # Admin: no webhooks, anonymisation or audit; the tags are read, not changed
        await console.burst(pilot, "5")
        assert isinstance(app.screen, AdminScreen)
        sections = menu(app)
        assert "tags" in sections and "knowledge" in sections
        assert not {"webhooks", "anonymization", "audit"} & set(sections)
        assert not {"New tag", "Activate/deactivate", "Delete"} & footer(app)
        assert "Tags: new tag" not in palette(app) and "Webhooks: new webhook" not in palette(app)
        screens = len(app.screen_stack)
        await console.burst(pilot, "n", "d", "space")
        assert len(app.screen_stack) == screens, "a key not offered does nothing"
        # a claim and a reply reach the service as this agent
        await console.burst(pilot, "1")
        cid = open_chat(console)
        screen = await open_thread(console, pilot, cid)
        assert "History" not in footer(app)  # the activity log is a supervisor's
        await console.burst(pilot, "c")
        row = console.sandbox.query(
            "SELECT assigned_agent_id FROM conversations WHERE id = ?", (cid,))[0]
        assert row["assigned_agent_id"] == agent["id"]
        await console.burst(pilot, "i")
        assert screen.composer.editor.has_focus
        await console.burst(pilot, *"Thanks")
        await console.burst(pilot, "ctrl+s")
        await session.outbox.flush()
        stored = console.sandbox.query(
            "SELECT author_id, direction FROM messages WHERE conversation_id = ? "
            "AND body_text = 'Thanks'", (cid,))
        assert [(r["author_id"], r["direction"]) for r in stored] == [(agent["id"], "Outbound")]
        # the tag picker offers no new tag (a supervisor's); a refusal that still comes is
        # said in one line naming the role
        await console.burst(pilot, "escape", "t")
        picker = app.screen
        assert isinstance(picker, TagPicker)
        await console.burst(pilot, *"brandnew")
        assert "create" not in {picker.options.get_option_at_index(i).id
                                for i in range(picker.options.option_count)}
        await console.burst(pilot, "escape")
        with pytest.raises(Refused) as refused:
            await session.actions.set_tags(cid, (), (), create=["gateway-made"])
        assert refused.value.reason == "Could not create the tag: Needs the supervisor role"
        assert not console.sandbox.query("SELECT id FROM tags WHERE name = 'gateway-made'")


async def test_a_supervisor_sees_stats_and_activity_but_not_the_admin_s_part(
        console: Console, gateway: RunningGateway) -> None:
    app = member_app(console, gateway, gateway.agent_ids()[2], "supervisor")
    async with app.run_test(size=SIZE) as pilot:
        await console.ready(pilot)
        assert app.screen.query_one(StatusBar).via == "via gateway · supervisor"
        assert {"Go to Stats", "Activity of the organisation (last 24 hours)"} <= palette(app)
        await console.burst(pilot, "2")
        assert "Members" in footer(app)
        await console.burst(pilot, "3")
        assert app.screen.check_action("activity", ()) is True
        await console.burst(pilot, "5")
        sections = menu(app)
        assert not {"webhooks", "anonymization", "audit"} & set(sections)
        shown = footer(app)
        assert "New tag" in shown and not {"Activate/deactivate", "Delete"} & shown
        await console.burst(pilot, "6")
        assert app.current_mode == "stats"
        assert app.session is not None
        await app.session.live.refresh(STATS_TOPIC)  # analytics through the gateway
        await console.idle(pilot)
        created = app.screen.query_one("#tile-created_conversations", Static).render()
        assert "today" in str(created)
        assert app.screen.query_one("#stats-records", DataTable).row_count > 0


async def test_an_admin_reads_the_gateway_s_audit_newest_first_by_member(
        console: Console, gateway: RunningGateway) -> None:
    agent = gateway.agent(gateway.agent_ids()[1])
    agent_key = gateway.add_member(agent["id"], "agent")
    cid = open_chat(console)
    with gateway.client(agent_key) as member:  # something to audit: a member's writes
        refused = member.post("/v1/tags", json={"name": "\x1b[31mred"})
        assert refused.status_code == 403
        hostile = member.patch("/v1/endusers/%1B%5B2J%1B%5D8%3B%3Bx", json={"firstName": "x"})
        assert hostile.status_code >= 400  # no such end user; the audit keeps the attempt
        claimed = member.put(f"/v1/conversations/{cid}/claim", json={"agentId": agent["id"]})
        assert claimed.status_code < 300, claimed.text
    app = member_app(console, gateway, gateway.agent_ids()[2], "admin")
    async with app.run_test(size=SIZE) as pilot:
        await console.ready(pilot)
        await console.burst(pilot, "5")
        sections = menu(app)
        assert {"webhooks", "anonymization", "audit"} <= set(sections)
        screen = app.screen
        assert isinstance(screen, AdminScreen)
        screen.show_section("audit")
        await console.idle(pilot)
        table = screen.query_one("#audit-table", DataTable)
        caption = str(screen.query_one("#audit-caption").render())
        assert table.row_count >= 2, caption
        assert "Older" not in footer(app)  # one page holds them all
        await console.burst(pilot, "slash", *agent["email"], "enter")
        rows = [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]
        assert [(row[1], row[3]) for row in rows] == [  # newest first
            (agent["email"], "conversations.claim"), (agent["email"], "endusers.patch"),
            (agent["email"], "tags.create")]
        assert rows[0][4].startswith(f"{cid}, ")  # the conversation, and the agent
        assert rows[0][5].startswith("2") and rows[2][5] == "403 refused"
        # the escapes a member sent are inert on screen, the rest of the text kept
        assert "x" in rows[1][4] and rows[1][5].startswith("4")
        assert all("\x1b" not in cell and "\x9b" not in cell for row in rows for cell in row)


async def test_the_role_the_gateway_says_wins_over_the_one_kept_from_last_time(
        console: Console, gateway: RunningGateway) -> None:
    """A member demoted since the last start: the first frame offers what the kept role
    allowed; once the gateway says the role, a mode it does not allow is left and the Admin
    screen offers only what it does."""
    who = gateway.agent_ids()[3]
    LocalStore(local_store_path("team-agent")).save_snapshot(
        "member", {"role": "admin", "email": gateway.agent(who)["email"]})
    app = member_app(console, gateway, who, "agent", start_session=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")  # before the gateway has answered
        assert {"webhooks", "anonymization", "audit"} <= set(menu(app))
        assert app.screen.query_one(StatusBar).via == "via gateway · admin"
        await pilot.press("6")
        assert app.current_mode == "stats"
        assert app.session is not None
        await app.session.start()
        await console.ready(pilot)
        await console.idle(pilot)
        assert app.current_mode == "inbox"  # Stats is no longer this member's
        await console.burst(pilot, "5")
        assert isinstance(app.screen, AdminScreen)
        assert app.screen.query_one(StatusBar).via == "via gateway · agent"
        assert not {"webhooks", "anonymization", "audit"} & set(menu(app))
        assert "New tag" not in footer(app)
        assert app.session is not None
        assert app.session.local.snapshot("member") == {
            "role": "agent", "email": gateway.agent(who)["email"]}


async def _until(pilot: Pilot[Any], what: str, condition: Callable[[], bool]) -> None:
    """Let the console run until ``condition`` holds (the bound only ends a hang)."""
    for _ in range(1200):
        if condition():
            return
        await pilot.pause(0.1)
    pytest.fail(f"the console never got to: {what}")


async def test_a_console_is_told_what_changes_and_polls_by_itself_while_the_stream_is_down(
        console: Console, tmp_path: Path) -> None:
    with running_gateway(console.sandbox, tmp_path, feed_interval=0.2) as gateway:
        app = member_app(console, gateway, DEMO_AGENT_EMAIL, "agent")
        async with app.run_test(size=SIZE) as pilot:
            await console.ready(pilot)
            session = app.session
            assert session is not None
            await _until(pilot, "listening to the gateway", lambda: session.changes.pushed)
            bar = app.screen.query_one(StatusBar)
            assert bar.via == "via gateway · agent"
            cid = open_chat(console)
            clock = console.sandbox.clock
            assert isinstance(clock, ManualClock)
            clock.advance(60)  # the customer writes after the feed's last look
            told = session.changes.notices
            await console.customer_writes(cid, "heard through the gateway")
            await _until(pilot, "told of the customer's message",
                         lambda: session.changes.notices > told
                         and cid in session.inbox.activity)
            # the gateway stops: the console says it polls by itself, and listens again
            # once the gateway is back
            gateway.stop()
            await _until(pilot, "polling by itself", lambda: session.changes.dropped)
            await console.idle(pilot)
            assert app.screen.query_one(StatusBar).via == "via gateway · agent · polling"
            # the header says it (below 120 columns as "agent · polling")
            assert "agent · polling" in str(app.screen.query_one(StatusBar).render())
            gateway.start()
            await _until(pilot, "listening again", lambda: session.changes.pushed)
            await console.idle(pilot)
            assert app.screen.query_one(StatusBar).via == "via gateway · agent"
