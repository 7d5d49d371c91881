"""Quick responses from the composer (ctrl+o: filter in a burst, preview with the customer's
name filled, insert at the cursor, enter typed before the list loaded), then Admin: the
template deleted after a question, the organisation's details and every flow — one walk
through the whole flow."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.admin.admin import AdminScreen
from frontdesk.tui.screens.inbox.quick_responses import QuickResponsePicker
from frontdesk.tui.screens.inbox.thread import ThreadScreen
from frontdesk.tui.screens.shared.confirm import ConfirmScreen


async def settle(pilot: Pilot[Any]) -> None:
    """Let every worker finish and the screen catch up."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def front(app: Any) -> Any:
    """The screen in front now."""
    return app.screen


async def test_pick_insert_then_delete_in_admin_with_organisation_and_flows(
        console: Any) -> None:
    sandbox = console.sandbox
    chat = sandbox.query("SELECT c.id, u.first_name FROM conversations c JOIN users u "
                         "ON u.id = c.requester_id WHERE c.channel = 'WidgetChat' "
                         "AND c.state = 'Open' AND u.first_name IS NOT NULL "
                         "ORDER BY c.id LIMIT 1")[0]
    app = console.app()
    async with app.run_test(size=(140, 40)) as pilot:
        await console.ready(pilot)
        assert isinstance(app, FrontdeskApp) and app.session is not None
        thread = ThreadScreen(chat["id"])
        await app.push_screen(thread)
        await settle(pilot)
        await console.burst(pilot, "i", *"Ok. ")
        editor = thread.composer.editor
        assert editor.text == "Ok. "
        # ctrl+o and a filter typed in the same burst, enter before anything has loaded
        await console.burst(pilot, "ctrl+o", *"hola")
        await settle(pilot)
        picker = front(app)
        assert isinstance(picker, QuickResponsePicker)
        assert [e.title for e in picker.shown] == ["Greeting · es"]
        preview = str(picker.query_one("#quick-preview", Static).render())
        assert preview.startswith(f"Hola {chat['first_name']}, ")
        await console.burst(pilot, "enter")
        await settle(pilot)
        assert front(app) is thread and editor.has_focus
        assert editor.text.startswith(f"Ok. Hola {chat['first_name']}, ¡gracias")
        assert "{{" not in editor.text
        # esc in the picker leaves the reply as it was
        before = editor.text
        await console.burst(pilot, "ctrl+o", "escape")
        await settle(pilot)
        assert front(app) is thread and editor.text == before
        # a filter and enter in one burst with ctrl+o, before the list has loaded
        await console.burst(pilot, "ctrl+o", *"refund", "enter")
        await settle(pilot)
        assert front(app) is thread
        assert editor.text.endswith("I've issued a full refund. It shows on your statement "
                                    "within 5 working days.")
        # inserted after the greeting's last word as words of their own, not glued to it
        assert editor.text.startswith(before + " I've issued"), editor.text
        await console.burst(pilot, "escape", "escape")
        await settle(pilot)
        # Admin → Quick responses: delete one after a question
        await pilot.press("5")
        await settle(pilot)
        admin = front(app)
        assert isinstance(admin, AdminScreen)
        admin.show_section("templates")
        await settle(pilot)
        table = admin.query_one("#templates-table", DataTable)
        every = sandbox.query("SELECT id, name FROM templates ORDER BY created_at, id")
        assert table.row_count == len(every)
        refund = next(t["id"] for t in every if t["name"] == "Refund issued")
        table.move_cursor(row=table.get_row_index(refund))
        await settle(pilot)
        assert "5 working days" in str(admin.query_one("#template-detail", Static).render())
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(front(app), ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        assert front(app) is admin and table.row_count == len(every) - 1
        assert sandbox.query("SELECT id FROM templates WHERE id = ?", (refund,)) == []
        # the organisation, then every channel's flows
        admin.show_section("organization")
        await settle(pilot)
        detail = str(admin.query_one("#organization-detail", Static).render())
        assert "Acme Demo" in detail and "acme-demo" in detail and "Active" in detail
        admin.show_section("flows")
        await settle(pilot)
        flows = admin.query_one("#flows-table", DataTable)
        assert flows.row_count == sandbox.query("SELECT count(*) AS n FROM flows")[0]["n"]
