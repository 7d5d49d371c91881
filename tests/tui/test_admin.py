"""Admin against the sandbox: tags (create, deactivate, activate, delete), teams (create,
members added and removed), queues (create with settings, members), custom attribute and
contact endpoint details (and the deprecated listing), anonymisation requests."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, OptionList, SelectionList, Static

from frontdesk.tui.screens.admin.admin import AdminScreen
from frontdesk.tui.screens.admin.members import MembersScreen
from frontdesk.tui.screens.inbox.ratings import RatingsScreen
from frontdesk.tui.screens.shared.confirm import ConfirmScreen, TypeBackScreen
from frontdesk.tui.screens.shared.form import FormScreen


async def settle(pilot: Pilot[Any]) -> None:
    """Let every worker finish and the screen catch up."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()

Console = Any  # the `console` fixture of tests/tui/conftest.py


def app_of(pilot: Pilot[Any]) -> Any:
    return pilot.app


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


async def open_admin(console: Any, pilot: Pilot[Any], section: str = "tags") -> AdminScreen:
    await console.ready(pilot)
    await pilot.press("5")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, AdminScreen)
    order = ["tags", "teams", "queues", "attributes", "endpoints", "hours", "anonymization"]
    await pilot.press(*["down"] * order.index(section), "enter")
    await settle(pilot)
    assert screen.section == section
    return screen


def tag_state(console: Any, name: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = console.sandbox.query(
        "SELECT id, state, color FROM tags WHERE name = ?", (name,))
    return found


async def tags_create_deactivate_activate_delete(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    screen = await open_admin(console, pilot)
    table = screen.query_one("#tags-table", DataTable)
    assert len(rows(table)) == 36  # active tags only
    await pilot.press("n")
    form = await fill(pilot, {"name": "vip-gold", "color": "gold"})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is form
    assert "#rrggbb" in str(form.query_one("#form-problem").render())
    form.set_values({"color": "#aa8800"})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is screen
    [tag] = tag_state(console, "vip-gold")
    assert tag["state"] == "Active" and tag["color"].lower() == "#aa8800"
    table.focus()
    table.move_cursor(row=table.get_row_index(tag["id"]))
    await pilot.press("space")
    await settle(pilot)
    assert tag_state(console, "vip-gold")[0]["state"] == "Inactive"
    assert tag["id"] not in rows(table)  # deactivated tags are hidden …
    await pilot.press("i")
    await settle(pilot)
    assert tag["id"] in rows(table)  # … until i shows them
    assert len(rows(table)) == 41
    table.move_cursor(row=table.get_row_index(tag["id"]))
    await pilot.press("space")
    await settle(pilot)
    assert tag_state(console, "vip-gold")[0]["state"] == "Active"
    await pilot.press("d")
    await pilot.pause()
    question = app.screen
    assert isinstance(question, ConfirmScreen)
    assert "every conversation" in question.detail and "cannot be undone" in question.detail
    await pilot.press("n")
    await settle(pilot)
    assert tag_state(console, "vip-gold")
    await pilot.press("d")
    await pilot.pause()
    await pilot.press("y")
    await settle(pilot)
    assert tag_state(console, "vip-gold") == []
    assert tag["id"] not in rows(table)
    doomed = console.sandbox.query("SELECT id FROM tags WHERE name = 'spam'")[0]["id"]
    table.move_cursor(row=table.get_row_index(doomed))
    await pilot.press("D")  # without asking
    await settle(pilot)
    assert front(app) is screen
    assert console.sandbox.query("SELECT 1 FROM tags WHERE id = ?", (doomed,)) == []


async def team_create_add_two_members_remove_one(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    screen = await open_admin(console, pilot, "teams")
    await pilot.press("n")
    await fill(pilot, {"name": "Night shift"})
    await pilot.press("ctrl+s")
    await settle(pilot)
    team = console.sandbox.query("SELECT id FROM teams WHERE name = 'Night shift'")[0]["id"]
    assert rows(screen.query_one("#teams-table", DataTable))[0] == team or \
        team in rows(screen.query_one("#teams-table", DataTable))
    await pilot.press("m")
    await settle(pilot)
    picker = app.screen
    assert isinstance(picker, MembersScreen)
    await pilot.press("space", "down", "space")
    await pilot.pause()
    assert len(picker.added) == 2
    chosen = set(picker.added)
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is screen
    members = {r["agent_id"] for r in console.sandbox.query(
        "SELECT agent_id FROM team_members WHERE team_id = ?", (team,))}
    assert members == chosen
    shown = screen.query_one("#team-members", DataTable)
    assert set(rows(shown)) == chosen
    await pilot.press("m")
    await settle(pilot)
    picker = app.screen
    assert isinstance(picker, MembersScreen)
    listing = picker.query_one(SelectionList)
    first = next(iter(sorted(chosen)))
    listing.deselect(first)
    await pilot.pause()
    assert picker.removed == {first}
    await pilot.press("ctrl+s")
    await settle(pilot)
    members = {r["agent_id"] for r in console.sandbox.query(
        "SELECT agent_id FROM team_members WHERE team_id = ?", (team,))}
    assert members == chosen - {first}
    await pilot.press("d")
    await pilot.pause()
    assert isinstance(app.screen, ConfirmScreen)
    await pilot.press("y")
    await settle(pilot)
    assert console.sandbox.query("SELECT 1 FROM teams WHERE id = ?", (team,)) == []


async def test_queue_create_with_settings_and_assign_members(console: Console) -> None:
    app = console.app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_admin(console, pilot, "queues")
        await pilot.press("n")
        form = await fill(pilot, {"name": "Weekend", "priority": "high"})
        assert "priority" in str(form.query_one("#form-problem").render()).lower()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert front(app) is form  # refused before sending
        assert console.sandbox.query("SELECT 1 FROM queues WHERE name = 'Weekend'") == []
        form.set_values({"priority": "9", "offer_timeout": "25", "wrapup_timeout": "90",
                         "offer_algorithm": "LongestIdle", "is_do_not_offer_enabled": True})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert front(app) is screen
        [queue] = console.sandbox.query("SELECT id, is_default, settings FROM queues "
                                        "WHERE name = 'Weekend'")
        settings = json.loads(queue["settings"])
        assert settings["priority"] == 9 and settings["offerTimeout"] == 25
        assert settings["wrapupTimeout"] == 90
        assert settings["offeringAlgorithm"] == "LongestIdle"
        assert settings["isDoNotOfferEnabled"] is True and queue["is_default"] == 0
        table = screen.query_one("#queues-table", DataTable)
        table.move_cursor(row=table.get_row_index(queue["id"]))
        await settle(pilot)
        assert "Weekend" in str(screen.query_one("#queue-settings", Static).render())
        await pilot.press("m")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, MembersScreen)
        await pilot.press("space", "down", "space")
        chosen = set(picker.added)
        await pilot.press("ctrl+s")
        await settle(pilot)
        members = {r["agent_id"] for r in console.sandbox.query(
            "SELECT agent_id FROM queue_members WHERE queue_id = ?", (queue["id"],))}
        assert members == chosen and len(members) == 2
        assert set(rows(screen.query_one("#queue-members", DataTable))) == chosen


async def test_custom_attributes_and_endpoints_details(console: Console) -> None:
    app = console.app()
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await open_admin(console, pilot, "attributes")
        table = screen.query_one("#attributes-table", DataTable)
        assert table.row_count == 7
        product = console.sandbox.query("SELECT id FROM custom_attribute_definitions "
                                        "WHERE identifier = 'product'")[0]["id"]
        table.move_cursor(row=table.get_row_index(product))
        await pilot.press("enter")
        await settle(pilot)
        shown = app.export_screenshot()  # the options tree, deactivated ones marked
        for word in ("Options", "Hardware", "Router", "Fax", "deactivated", "product"):
            assert word in shown
        await pilot.press("escape", "down", "enter")
        await settle(pilot)
        assert screen.section == "endpoints"
        assert screen.query_one("#endpoints-table", DataTable).row_count == 5
        legacy = screen.query_one("#legacy-table", DataTable)
        assert legacy.display and legacy.row_count == 5
        assert "deprecated" in str(screen.query_one("#legacy-title").render())
        legacy.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert "Deprecated listing" in str(screen.query_one("#endpoint-detail").render())


async def anonymisation_requests_lookup_and_deprecated_request(console: Console,
                                                               pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    closed = console.sandbox.query("SELECT id FROM conversations WHERE state = 'Closed' "
                                   "AND type != 'AnonymizedConversation' LIMIT 1")[0]["id"]
    other = console.sandbox.query("SELECT id FROM anonymization_requests LIMIT 1")[0]["id"]
    screen = await open_admin(console, pilot, "anonymization")
    table = screen.query_one("#anonymization-table", DataTable)
    assert table.row_count == 0
    await pilot.press("g")
    await fill(pilot, {"id": other})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert other in str(screen.query_one("#anonymization-detail").render())
    [command] = [c for c in screen.palette_commands() if c[0].startswith("Anonymize via")]
    command[2]()
    await settle(pilot)
    await fill(pilot, {"kind": "Conversation", "entity": str(closed)})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert isinstance(app.screen, TypeBackScreen)
    await pilot.press(*str(closed), "enter")
    await settle(pilot)
    made = console.sandbox.query("SELECT id FROM anonymization_requests "
                                 "WHERE target_entity_id = ?", (str(closed),))
    assert len(made) == 1
    assert rows(table) == [made[0]["id"]]
    console.sandbox.clock.advance(5)
    console.sandbox.run_pending()
    await pilot.press("r")
    await settle(pilot)
    assert "processed" in str(table.get_row(made[0]["id"])[3])


async def ratings_panel_offers_submits_and_reads_the_deprecated_path(console: Console,
                                                                     pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    conversation = console.sandbox.query(
        "SELECT c.id FROM conversations c WHERE c.state = 'Open' AND NOT EXISTS "
        "(SELECT 1 FROM ratings r WHERE r.conversation_id = c.id) ORDER BY c.id LIMIT 1")[0]["id"]
    await console.ready(pilot)
    panel = RatingsScreen(conversation)
    app.push_screen(panel)
    await settle(pilot)
    assert "No rating offered yet" in str(panel.query_one("#ratings-problem").render())
    await pilot.press("o")
    await fill(pilot, {"type": "Nps"})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is panel
    [offer] = console.sandbox.query("SELECT id, rating_type, status FROM ratings "
                                    "WHERE conversation_id = ?", (conversation,))
    assert offer["rating_type"] == "Nps" and offer["status"] == "Offered"
    ratings = panel.query_one("#ratings-table", DataTable)
    assert ratings.row_count == 1
    # when it was offered, not the tail of an id nobody reads
    offered = str(ratings.get_row_at(0)[0])
    assert offer["id"][-8:] not in offered and re.fullmatch(r"\w{3} \d\d \w{3} \d\d:\d\d",
                                                          offered), offered
    [submit] = [c for c in panel.palette_commands() if c[0] == "Submit a rating result"]
    submit[2]()
    await settle(pilot)
    form = app.screen
    assert isinstance(form, FormScreen)
    assert form.values["rating_id"] == offer["id"] and form.values["type"] == "Nps"
    form.set_values({"value": "11"})
    await pilot.pause()
    assert "0 (would not recommend) to 10" in str(form.query_one("#form-problem").render())
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is form
    form.set_values({"value": "9", "comment": "Quick and kind"})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is panel
    row = console.sandbox.query("SELECT status, score, comment FROM ratings WHERE id = ?",
                                (offer["id"],))[0]
    assert row == {"status": "Rated", "score": 9, "comment": "Quick and kind"}
    [old] = [c for c in panel.palette_commands() if "deprecated path" in c[0]]
    old[2]()
    await settle(pilot)
    said = str(panel.query_one("#ratings-problem").render())
    assert "1 question, 1 rated" in said and "deprecated path" in said


async def palette_commands_bring_their_section_forward(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    screen = await open_admin(console, pilot)
    [command] = [c for c in screen.palette_commands() if c[0] == "Teams: new team"]
    command[2]()
    await settle(pilot)
    assert screen.section == "teams"
    form = front(app)
    assert isinstance(form, FormScreen) and form.id == "new-team"
    await pilot.press("escape")
    await settle(pilot)
    keys = {b.binding.id for b in screen.active_bindings.values()}
    assert "admin.teams.members" in keys and "admin.tags.toggle" not in keys


async def admin_menu_at_the_top(pilot: Pilot[Any]) -> None:
    """Admin's menu back on its first section, focused, as Admin first opens (each step
    walks down from there to its own section)."""
    screen = pilot.app.screen
    if isinstance(screen, AdminScreen):
        menu = screen.query_one("#admin-menu", OptionList)
        menu.highlighted = 0
        menu.focus()
        await pilot.pause()


@pytest.mark.slow
async def test_admin_sections_walked(console: Console) -> None:
    """Admin on one console: tags, teams, anonymisation requests, a conversation's ratings
    panel, the palette's commands."""
    await console.walk((120, 36),
                       tags_create_deactivate_activate_delete,
                       team_create_add_two_members_remove_one,
                       anonymisation_requests_lookup_and_deprecated_request,
                       ratings_panel_offers_submits_and_reads_the_deprecated_path,
                       palette_commands_bring_their_section_forward,
                       between=admin_menu_at_the_top)
