"""People → End users: change a profile (only the edited fields; a hostile pre-filled name
shown inert and not rewritten), a full update, the same from a profile (u), and create and
update many from a CSV with a report per line — each on a console of its own (a second or
so each), so that one failing does not hide the others."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx2
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import DataTable

from frontdesk.tui.screens.people.bulk import BulkReportScreen
from frontdesk.tui.screens.people.people import PeopleScreen
from frontdesk.tui.screens.people.profile import EndUserProfileScreen
from frontdesk.tui.screens.shared.confirm import ConfirmScreen
from frontdesk.tui.screens.shared.form import FormScreen

HOSTILE_NAME = "Mal \x1b]2;pwned\x07 [b]Loud[/b]"


async def settle(pilot: Pilot[Any]) -> None:
    """Let every worker finish and the screen catch up."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def frame(app: App[Any]) -> str:
    """Every character on the screen in front (control segments left out)."""
    return "\n".join("".join(s.text for s in strip if not s.control)
                     for strip in app.screen._compositor.render_strips())


def front(app: Any) -> Any:
    """The screen in front now."""
    return app.screen


def plant_name(http: httpx2.Client, user: str) -> None:
    """Over HTTP, as an integration would: the hostile display name."""
    answer = http.patch(f"/v1/endusers/{user}", json={"displayName": HOSTILE_NAME})
    assert answer.status_code == 200, answer.text


def endusers(console: Any) -> list[dict[str, Any]]:
    """The two oldest end users with an email and a phone number."""
    found: list[dict[str, Any]] = console.sandbox.query(
        "SELECT id, email, phone_number, last_name FROM users WHERE kind = 'enduser' "
        "AND anonymized_at IS NULL AND email IS NOT NULL AND phone_number IS NOT NULL "
        "ORDER BY created_at, id LIMIT 2")
    return found


async def people_at(console: Any, pilot: Pilot[Any], user: str) -> PeopleScreen:
    """People → End users, signed in, with the cursor on ``user``."""
    await console.ready(pilot)
    await pilot.press("4")
    await settle(pilot)
    people = front(pilot.app)
    assert isinstance(people, PeopleScreen) and people.tab == "users"
    table = people.users.table
    table.move_cursor(row=table.get_row_index(user))
    return people


async def test_edit_changes_only_the_edited_fields(console: Any, http: httpx2.Client) -> None:
    """E: the form pre-filled, the hostile name inert; the last name changed alone (and the
    emptied external id cleared), the name not rewritten."""
    sandbox = console.sandbox
    user = endusers(console)[0]["id"]
    plant_name(http, user)
    app = console.app()
    async with app.run_test(size=(140, 40)) as pilot:
        people = await people_at(console, pilot, user)
        await pilot.press("E")
        await settle(pilot)
        form = front(app)
        assert isinstance(form, FormScreen)
        shown = frame(app)
        assert "\x1b" not in shown and "\x07" not in shown
        assert "␛]2;pwned" in shown and "[b]Loud[/b]" in shown
        form.set_values({"last_name": "Quill", "external_id": ""})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert front(app) is people
        stored = sandbox.query("SELECT display_name, last_name, external_id FROM users "
                               "WHERE id = ?", (user,))[0]
        assert stored == {"display_name": HOSTILE_NAME, "last_name": "Quill",
                          "external_id": None}


async def test_a_full_update_clears_what_was_emptied(console: Any, http: httpx2.Client) -> None:
    """e: a full update — the emptied phone is cleared, the hostile name and the rest kept
    as they were."""
    sandbox = console.sandbox
    chosen = endusers(console)[0]
    user = chosen["id"]
    plant_name(http, user)
    app = console.app()
    async with app.run_test(size=(140, 40)) as pilot:
        people = await people_at(console, pilot, user)
        await pilot.press("e")
        await settle(pilot)
        form = front(app)
        assert isinstance(form, FormScreen)
        form.set_values({"phone_number": ""})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert front(app) is people
        stored = sandbox.query("SELECT display_name, phone_number, email, last_name "
                               "FROM users WHERE id = ?", (user,))[0]
        assert stored == {"display_name": HOSTILE_NAME, "phone_number": None,
                          "email": chosen["email"], "last_name": chosen["last_name"]}


async def test_a_profile_changes_its_details_with_u(console: Any, http: httpx2.Client) -> None:
    """The profile: u with nothing edited sends nothing (the hostile pre-filled name counts
    as unchanged) and says so; a new name is sent and the page shows it."""
    sandbox = console.sandbox
    user = endusers(console)[0]["id"]
    plant_name(http, user)
    app = console.app()
    async with app.run_test(size=(140, 40)) as pilot:
        people = await people_at(console, pilot, user)
        await pilot.press("enter")
        await settle(pilot)
        profile = front(app)
        assert isinstance(profile, EndUserProfileScreen)
        await pilot.press("u")
        await settle(pilot)
        form = front(app)
        assert isinstance(form, FormScreen)
        await pilot.press("ctrl+s")  # nothing edited: nothing sent, the form says so
        await settle(pilot)
        assert front(app) is form and "Nothing changed" in frame(app)
        assert sandbox.query("SELECT display_name FROM users WHERE id = ?", (user,)) == [
            {"display_name": HOSTILE_NAME}]
        form.set_values({"display_name": "Mallory Quill"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert front(app) is profile and "Mallory Quill" in frame(app)
        assert sandbox.query("SELECT display_name FROM users WHERE id = ?", (user,)) == [
            {"display_name": "Mallory Quill"}]
        await pilot.press("escape")
        await settle(pilot)
        assert front(app) is people


async def test_a_csv_creates_and_changes_after_a_question_with_a_report_per_line(
        console: Any, tmp_path: Path) -> None:
    """b: a CSV of one change, one new end user and a line refused before sending."""
    sandbox = console.sandbox
    user, other = (row["id"] for row in endusers(console))
    csv_file = tmp_path / "endusers.csv"
    csv_file.write_text("id,displayName,email,externalId\n"
                        f"{other},Olga Updated,,\n"
                        ",Nia New,nia.new@example.org,crm-77\n"
                        ",Bad Mail,not-an-email,\n", encoding="utf-8")
    app = console.app()
    async with app.run_test(size=(140, 40)) as pilot:
        people = await people_at(console, pilot, user)
        await pilot.press("b")
        await settle(pilot)
        form = front(app)
        assert isinstance(form, FormScreen)
        form.set_values({"path": str(csv_file)})
        await pilot.press("ctrl+s")
        await settle(pilot)
        question = front(app)  # asked first, with the counts; nothing sent before the answer
        assert isinstance(question, ConfirmScreen)
        assert question.question == "Create 1 end user and change 1 end user?"
        assert "1 other line will be in the report" in question.detail
        assert sandbox.query("SELECT id FROM users WHERE email = 'nia.new@example.org'") == []
        await pilot.press("y")
        await settle(pilot)
        report = front(app)
        assert isinstance(report, BulkReportScreen)
        assert [(r.line, r.ok, r.detail) for r in report.report.rows][:2] == [
            (2, True, "updated"), (3, True, "created")]
        assert report.report.rows[2].detail.startswith("not sent:")
        assert "1 created, 1 updated, 1 not" in str(
            report.query_one("#bulk-summary").render())
        assert report.query_one("#bulk-table", DataTable).row_count == 3
        await pilot.press("escape")
        await settle(pilot)
        assert front(app) is people
    assert sandbox.query("SELECT display_name FROM users WHERE id = ?", (other,)) == [
        {"display_name": "Olga Updated"}]
    assert sandbox.query("SELECT external_id FROM users WHERE email = 'nia.new@example.org'") \
        == [{"external_id": "crm-77"}]
