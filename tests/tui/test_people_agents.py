"""People → Agents against the sandbox: the filter by part of a name, email or phone (on the
listing, no request), j/k, create one, create many from a CSV with a per-row report, edit and
patch, detail, downgrade (asked; D without asking)."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.store.session import Session
from frontdesk.tui.screens.people.agent import AgentDetailScreen
from frontdesk.tui.screens.people.bulk import BulkReportScreen
from frontdesk.tui.screens.people.people import PeopleScreen
from frontdesk.tui.screens.shared.confirm import ConfirmScreen
from frontdesk.tui.screens.shared.form import FormScreen


async def settle(pilot: Pilot[Any]) -> None:
    """Let every worker finish and the screen catch up."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()

def front(app: Any) -> Any:
    """The screen in front now (a call, so a type checker does not carry an earlier check)."""
    return app.screen


def rows(table: DataTable[Any]) -> list[str]:
    return [str(key.value) for key in table.rows]


async def fill(pilot: Pilot[Any], values: dict[str, Any]) -> FormScreen:
    form = pilot.app.screen
    assert isinstance(form, FormScreen)
    form.set_values(values)
    await pilot.pause()
    return form


class Requests:
    """Counts what leaves the client (a wrapper around the real transport's send)."""

    def __init__(self, session: Session) -> None:
        transport = session.client._transport
        self.sent: list[str] = []
        original = transport.send

        async def send(op: Any, **kwargs: Any) -> Any:
            self.sent.append(op.label)
            return await original(op, **kwargs)

        transport.send = send  # type: ignore[method-assign]


async def open_agents(console: Any, pilot: Pilot[Any]) -> PeopleScreen:
    await console.ready(pilot)
    await pilot.press("4")
    await settle(pilot)
    await pilot.press("t")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, PeopleScreen) and screen.tab == "agents"
    return screen


def agents_tab(pilot: Pilot[Any]) -> PeopleScreen:
    """The People screen on its Agents tab, where each step of the flow starts."""
    screen = pilot.app.screen
    assert isinstance(screen, PeopleScreen) and screen.tab == "agents"
    return screen


def select_agent(screen: PeopleScreen, agent_id: str) -> None:
    table = screen.agents.table
    table.move_cursor(row=table.get_row_index(agent_id))


def problem(form: FormScreen) -> str:
    return str(form.query_one("#form-problem", Static).render())


async def filter_by_part_of_a_name_email_or_phone_and_move_with_j_k(
        console: Any, pilot: Pilot[Any]) -> None:
    agents = console.sandbox.query(
        "SELECT id, display_name, email, phone_number FROM users "
        "WHERE kind = 'agent' ORDER BY display_name")
    demo = next(a for a in agents if a["email"] == DEMO_AGENT_EMAIL)
    # a word of one agent's name that few others have in their name or email
    hays = [f"{a['display_name']} {a['email']}".lower() for a in agents]
    someone, word = min(((a, a["display_name"].split()[-1].lower()) for a in agents
                         if a is not demo),
                        key=lambda pair: sum(pair[1] in hay for hay in hays))
    app: Any = pilot.app
    screen = agents_tab(pilot)
    assert len(rows(screen.agents.table)) == 25
    requests = Requests(app.session)
    # part of a name, typed in one burst: the listing narrows, nothing is asked
    await console.burst(pilot, "slash", *word, "enter")
    await settle(pilot)
    assert front(app) is screen
    shown = rows(screen.agents.table)
    assert someone["id"] in shown
    assert all(word in hay for a, hay in zip(agents, hays, strict=True)
               if a["id"] in shown)
    assert len(shown) < 25
    assert "GET /v1/agents" not in requests.sent  # the listing is filtered here
    # part of an email address
    await pilot.press("slash")
    form = await fill(pilot, {"text": DEMO_AGENT_EMAIL.split("@")[0][:5]})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert demo["id"] in rows(screen.agents.table)
    # nobody: the form stays and says so
    await pilot.press("slash")
    form = await fill(pilot, {"text": "zz-nobody-zz"})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is form and "No agent matches" in problem(form)
    await pilot.press("escape")
    await pilot.press("r")
    await settle(pilot)
    assert len(rows(screen.agents.table)) == 25
    # presence follows the live topic Team mode shows (no stale column)
    def demo_presence() -> str:
        table = screen.agents.table
        row = table.get_row(demo["id"])
        return str(row[-1])

    before = demo_presence()
    assert "Messaging" not in screen.agents.presence[demo["id"]].active_channels
    session = app.session
    await session.client.agents.set_working_channel(demo["id"], "Messaging", True)
    await session.live.refresh("team:presence")
    await console.idle(pilot)
    assert "Messaging" in screen.agents.presence[demo["id"]].active_channels
    assert demo_presence() != before
    # j / k move the cursor; j then enter opens the agent the cursor is on
    table = screen.agents.table
    table.move_cursor(row=0)
    await console.burst(pilot, "j", "j", "k", "j")
    assert table.cursor_row == 2
    expected = rows(table)[2]
    await console.burst(pilot, "enter")
    await settle(pilot)
    detail = front(app)
    assert isinstance(detail, AgentDetailScreen)
    assert detail.agent_id == expected


async def create_an_agent(console: Any, pilot: Pilot[Any]) -> None:
    app: Any = pilot.app
    screen = agents_tab(pilot)
    await pilot.press("n")
    form = await fill(pilot, {"display_name": "Ada Agent", "email": DEMO_AGENT_EMAIL})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is form  # the service refuses a taken email; its words shown
    assert "already exists" in problem(form)
    form.set_values({"email": "ada.agent@example.org", "phone_number": "+4511223344"})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is screen
    created = console.sandbox.query("SELECT id, kind, phone_number FROM users "
                                    "WHERE email = 'ada.agent@example.org'")
    assert created == [{"id": created[0]["id"], "kind": "agent",
                        "phone_number": "+4511223344"}]
    assert created[0]["id"] in rows(screen.agents.table)
    assert screen.agents.current is not None
    assert screen.agents.current.id == created[0]["id"]


async def bulk_create_from_csv_reports_every_row(console: Any, pilot: Pilot[Any],
                                                 tmp_path: Path) -> None:
    csv_file = tmp_path / "agents.csv"
    csv_file.write_text("displayName,email,phoneNumber\n"
                        "Bo Bulk,bo.bulk@example.org,+4522334455\n"
                        f"Dup Licate,{DEMO_AGENT_EMAIL},\n"
                        ",no.name@example.org,\n"
                        "Cy Bulk,cy.bulk@example.org,\n", encoding="utf-8")
    app: Any = pilot.app
    screen = agents_tab(pilot)
    await pilot.press("b")
    form = await fill(pilot, {"path": str(tmp_path / "missing.csv")})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is form and "no file" in problem(form)
    form.set_values({"path": str(csv_file)})
    await pilot.press("ctrl+s")
    await settle(pilot)
    # asked first, with the count: nothing is created before the answer
    question = app.screen
    assert isinstance(question, ConfirmScreen)
    assert question.question == "Create 3 agents?"
    assert "1 other line cannot be an agent" in question.detail
    assert not console.sandbox.query("SELECT id FROM users WHERE email = 'bo.bulk@example.org'")
    await pilot.press("n")  # no: nothing is sent
    await settle(pilot)
    assert front(app) is screen
    assert not console.sandbox.query("SELECT id FROM users WHERE email = 'bo.bulk@example.org'")
    await pilot.press("b")
    form = await fill(pilot, {"path": str(csv_file)})
    await console.burst(pilot, "ctrl+s")
    await settle(pilot)
    await console.burst(pilot, "y")
    await settle(pilot)
    report = app.screen
    assert isinstance(report, BulkReportScreen)
    assert [(r.line, r.ok) for r in report.report.rows] == [
        (2, True), (3, False), (4, False), (5, True)]
    table = report.query_one("#bulk-table", DataTable)
    assert table.row_count == 4
    assert "already exists" in str(table.get_row("3")[4])
    assert "no display name" in str(table.get_row("4")[4])
    assert "2 created, 2 not" in str(report.query_one("#bulk-summary").render())
    await pilot.press("escape")
    await settle(pilot)
    assert front(app) is screen
    emails = {r["email"] for r in console.sandbox.query(
        "SELECT email FROM users WHERE kind = 'agent'")}
    assert {"bo.bulk@example.org", "cy.bulk@example.org"} <= emails
    assert "no.name@example.org" not in emails
    assert len(rows(screen.agents.table)) == 27


async def edit_patch_and_detail(console: Any, pilot: Pilot[Any]) -> None:
    agent = console.sandbox.query("SELECT id, display_name, phone_number FROM users "
                                  "WHERE kind = 'agent' AND phone_number IS NOT NULL "
                                  "ORDER BY created_at LIMIT 1")[0]
    app: Any = pilot.app
    screen = agents_tab(pilot)
    select_agent(screen, agent["id"])
    requests = Requests(app.session)
    await pilot.press("E")
    form = await fill(pilot, {})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is form and "Nothing changed" in problem(form)
    form.set_values({"first_name": "Patched"})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is screen
    assert [r for r in requests.sent if r.startswith(("PATCH", "PUT"))] == [
        "PATCH /v1/agents/{agentId}"]
    row = console.sandbox.query("SELECT first_name, phone_number FROM users WHERE id = ?",
                                (agent["id"],))[0]
    assert row == {"first_name": "Patched", "phone_number": agent["phone_number"]}
    await pilot.press("e")
    form = await fill(pilot, {"phone_number": "", "display_name": "Renamed Agent"})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is screen
    row = console.sandbox.query("SELECT phone_number FROM users WHERE id = ?",
                                (agent["id"],))[0]
    assert row["phone_number"] is None  # a full update clears what is left empty
    # the new name stays in the row when the list repaints: here for a presence change
    online = console.sandbox.query(
        "SELECT p.user_id FROM presence p JOIN users u ON u.id = p.user_id WHERE "
        "u.kind = 'agent' AND p.connection_status = 'Online' ORDER BY p.user_id LIMIT 1")[0]
    now = await app.session.client.agents.presence(online["user_id"])
    speaking = "Speak" in now.active_channels
    await app.session.client.agents.set_working_channel(online["user_id"], "Speak",
                                                        not speaking)
    await app.session.live.refresh("team:presence")
    await settle(pilot)
    table = screen.agents.table
    assert str(table.get_cell(agent["id"], table.ordered_columns[0].key)) == "Renamed Agent"
    await pilot.press("enter")
    await settle(pilot)
    detail = app.screen
    assert isinstance(detail, AgentDetailScreen)
    assert detail.detail is not None and detail.detail.agent.id == agent["id"]
    assert "team" in str(detail.query_one("#agent-teams").render()).lower() or \
        detail.detail.teams
    await pilot.press("escape")


async def downgrade_asks_and_D_does_not(console: Any, pilot: Pilot[Any]) -> None:
    agents = [r["id"] for r in console.sandbox.query(
        "SELECT id FROM users WHERE kind = 'agent' AND email != ? ORDER BY created_at DESC "
        "LIMIT 2", (DEMO_AGENT_EMAIL,))]
    app: Any = pilot.app
    screen = agents_tab(pilot)
    select_agent(screen, agents[0])
    await pilot.press("d")
    await pilot.pause()
    assert isinstance(app.screen, ConfirmScreen)
    await pilot.press("n")
    await settle(pilot)
    assert console.sandbox.query("SELECT kind FROM users WHERE id = ?",
                                 (agents[0],))[0]["kind"] == "agent"
    await pilot.press("d")
    await pilot.pause()
    assert isinstance(app.screen, ConfirmScreen)
    await pilot.press("y")
    await settle(pilot)
    assert console.sandbox.query("SELECT kind FROM users WHERE id = ?",
                                 (agents[0],))[0]["kind"] == "enduser"
    assert agents[0] not in rows(screen.agents.table)
    select_agent(screen, agents[1])
    await pilot.press("D")
    await settle(pilot)
    assert front(app) is screen
    assert console.sandbox.query("SELECT kind FROM users WHERE id = ?",
                                 (agents[1],))[0]["kind"] == "enduser"


async def test_agents_walked(console: Any, tmp_path: Path) -> None:
    """People → Agents on one console: filter and j/k, many from a CSV, one created, edit and
    detail, downgrade (the CSV's two before the one created: the counts are the listing's)."""
    async def start(pilot: Pilot[Any]) -> None:
        await open_agents(console, pilot)

    await console.walk((120, 36),
                       filter_by_part_of_a_name_email_or_phone_and_move_with_j_k,
                       partial(bulk_create_from_csv_reports_every_row, tmp_path=tmp_path),
                       create_an_agent,
                       edit_patch_and_detail,
                       downgrade_asks_and_D_does_not,
                       start=start)
