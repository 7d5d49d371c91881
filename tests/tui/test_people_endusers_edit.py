"""People → End users: change a profile (only the edited fields; a hostile pre-filled name
shown inert and not rewritten), a full update, the same from a profile (u), and create and
update many from a CSV with a report per line — one walk through the whole flow."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
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


def plant_name(http: httpx.Client, user: str) -> None:
    """Over HTTP, as an integration would: the hostile display name."""
    answer = http.patch(f"/v1/endusers/{user}", json={"displayName": HOSTILE_NAME})
    assert answer.status_code == 200, answer.text


async def test_edit_patch_profile_and_csv(console: Any, http: httpx.Client,
                                          tmp_path: Path) -> None:
    sandbox = console.sandbox
    users = sandbox.query("SELECT id, email, phone_number FROM users WHERE kind = 'enduser' "
                          "AND anonymized_at IS NULL AND email IS NOT NULL "
                          "AND phone_number IS NOT NULL ORDER BY created_at, id LIMIT 2")
    user, other = users[0]["id"], users[1]["id"]
    plant_name(http, user)
    csv_file = tmp_path / "endusers.csv"
    csv_file.write_text("id,displayName,email,externalId\n"
                        f"{other},Olga Updated,,\n"
                        ",Nia New,nia.new@example.org,crm-77\n"
                        ",Bad Mail,not-an-email,\n", encoding="utf-8")
    app = console.app()
    async with app.run_test(size=(140, 40)) as pilot:
        await console.ready(pilot)
        await pilot.press("4")
        await settle(pilot)
        people = front(app)
        assert isinstance(people, PeopleScreen) and people.tab == "users"
        table = people.users.table
        table.move_cursor(row=table.get_row_index(user))
        # E: the form pre-filled, the hostile name inert; change the last name only
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
        # e: a full update — the emptied phone is cleared, the name kept as it was
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
                          "email": users[0]["email"], "last_name": "Quill"}
        # the profile: u changes the details there, and the page shows them
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
        form.set_values({"display_name": "Mallory Quill"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert front(app) is profile and "Mallory Quill" in frame(app)
        await pilot.press("escape")
        await settle(pilot)
        # b: a CSV of one change, one new end user and a line refused before sending
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
