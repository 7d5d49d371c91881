"""People → End users, driven from the keyboard against the sandbox: find, create, edit
custom attributes through the nested pick, anonymise with the id typed back and follow it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Label, Select

from frontdesk.store.topics import anonymization_topic
from frontdesk.tui.screens.people.people import PeopleScreen
from frontdesk.tui.screens.people.profile import EndUserProfileScreen
from frontdesk.tui.screens.shared.attributes_panel import AttributesPanel
from frontdesk.tui.screens.shared.confirm import ConfirmScreen, TypeBackScreen
from frontdesk.tui.screens.shared.form import FormScreen


async def settle(pilot: Pilot[Any]) -> None:
    """Let every worker finish and the screen catch up."""
    app = pilot.app
    for _ in range(3):
        await pilot.pause()
        await app.workers.wait_for_complete()
    await pilot.pause()

Console = Any  # the `console` fixture of tests/tui/conftest.py


def app_of(pilot: Pilot[Any]) -> Any:
    return pilot.app


def front(app: Any) -> Any:
    """The screen in front now (a call, so a type checker does not carry an earlier check)."""
    return app.screen


async def open_people(console: Any, pilot: Pilot[Any]) -> PeopleScreen:
    await console.ready(pilot)
    await pilot.press("4")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, PeopleScreen)
    return screen


def rows(table: DataTable[Any]) -> list[str]:
    return [str(key.value) for key in table.rows]


async def fill(pilot: Pilot[Any], values: dict[str, Any]) -> FormScreen:
    form = pilot.app.screen
    assert isinstance(form, FormScreen)
    form.set_values(values)
    await pilot.pause()
    return form


async def find_an_end_user_by_email_and_by_name(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    target = console.sandbox.query("SELECT id, email FROM users WHERE kind = 'enduser' "
                                   "AND email IS NOT NULL ORDER BY created_at DESC LIMIT 1")[0]
    screen = await open_people(console, pilot)
    assert len(rows(screen.users.table)) == 100  # the first page of everyone
    await pilot.press("slash")
    form = await fill(pilot, {"kind": "email"})
    await pilot.press(*target["email"])
    assert form.values == {"kind": "email", "value": target["email"]}
    await pilot.press("enter")
    await settle(pilot)
    assert front(app) is screen
    assert rows(screen.users.table) == [target["id"]]
    assert "1 found" in str(screen.query_one("#users-caption", Label).render())
    # in the default mode, a name finds by name (typed in one burst)
    named = console.sandbox.query(
        "SELECT id, display_name FROM users WHERE kind = 'enduser' "
        "AND display_name LIKE '% %' ORDER BY created_at DESC LIMIT 1")[0]
    last_name = named["display_name"].split()[-1]
    await console.burst(pilot, "slash", *last_name.lower(), "enter")
    await settle(pilot)
    assert front(app) is screen, str(front(app).query_one("#form-problem").render())
    found = rows(screen.users.table)
    assert named["id"] in found
    assert all(last_name.lower() in (screen.users.users[i].display_name or "").lower()
               for i in found)


async def find_says_so_when_nobody_matches_and_keeps_the_form(console: Console,
                                                              pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    await open_people(console, pilot)
    await pilot.press("f")
    form = await fill(pilot, {"kind": "external_id", "value": "crm-nobody"})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is form
    assert "No end user matches 'crm-nobody'" in str(form.query_one("#form-problem").render())
    assert form.values["value"] == "crm-nobody"


async def create_an_end_user(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    screen = await open_people(console, pilot)
    await pilot.press("n")
    form = await fill(pilot, {"display_name": "Grace Hopper", "email": "not-an-email"})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is form  # refused before sending, what was typed kept
    assert "email" in str(form.query_one("#form-problem").render())
    assert form.values["display_name"] == "Grace Hopper"
    form.set_values({"email": "grace@example.org", "external_id": "crm-grace"})
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is screen
    created = console.sandbox.query("SELECT id, display_name, email, external_id "
                                    "FROM users WHERE external_id = 'crm-grace'")
    assert len(created) == 1
    assert created[0]["email"] == "grace@example.org"
    assert rows(screen.users.table)[0] == created[0]["id"]  # shown, highlighted
    assert screen.users.current is not None
    assert screen.users.current.id == created[0]["id"]


async def nested_select_attribute_of_a_conversation(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    conversation = console.sandbox.query(
        "SELECT id FROM conversations WHERE type != 'AnonymizedConversation' ORDER BY id "
        "LIMIT 1")[0]["id"]
    await console.ready(pilot)
    panel = AttributesPanel("Conversation", conversation)
    app.push_screen(panel)
    await settle(pilot)
    editor = panel.editor("product")
    top = editor.level_select(0)
    top.focus()
    await pilot.press("enter")  # opens the options
    await pilot.press("down", "enter")  # the first option: Hardware
    await settle(pilot)
    assert top.value == "hardware"
    nested = editor.level_select(1)
    labels = [str(option[0]) for option in nested._options]
    assert "Router" in " ".join(labels)
    assert "Fax machine" not in " ".join(labels)  # deactivated options are hidden
    nested.focus()
    await pilot.press("enter", "down", "enter")
    await settle(pilot)
    assert editor.value == ["hardware", "router"]
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is not panel
    definition = console.sandbox.query("SELECT id FROM custom_attribute_definitions "
                                       "WHERE identifier = 'product'")[0]["id"]
    stored = console.sandbox.query(
        "SELECT value FROM custom_attribute_values WHERE entity_type = 'Conversation' "
        "AND entity_id = ? AND attribute_id = ?", (str(conversation), definition))
    assert json.loads(stored[0]["value"]) == ["hardware", "router"]


async def profile_edits_an_end_user_attribute(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    user = console.sandbox.query("SELECT requester_id AS id FROM conversations "
                                 "GROUP BY requester_id ORDER BY COUNT(*) DESC LIMIT 1")[0]["id"]
    await open_people(console, pilot)
    await pilot.press("slash")
    await fill(pilot, {"kind": "id", "value": user})
    await pilot.press("ctrl+s")
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    profile = app.screen
    assert isinstance(profile, EndUserProfileScreen)
    conversations = profile.query_one("#profile-conversations", DataTable)
    assert conversations.row_count >= 1
    await pilot.press("e")
    await settle(pilot)
    panel = app.screen
    assert isinstance(panel, AttributesPanel)
    tier = panel.editor("customer_tier").level_select(0)
    tier.value = "enterprise"
    await settle(pilot)
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is profile
    assert "Enterprise" in str(profile.query_one("#profile-attributes").render())
    conversations.focus()
    await pilot.press("enter")  # the highlighted conversation opens in its thread
    await settle(pilot)
    assert type(front(app)).__name__ == "ThreadScreen"
    first = str(next(iter(conversations.rows)).value)
    assert front(app).conversation_id == int(first)
    stored = console.sandbox.query(
        "SELECT v.value FROM custom_attribute_values v JOIN custom_attribute_definitions d "
        "ON d.id = v.attribute_id WHERE v.entity_id = ? AND d.identifier = 'customer_tier'",
        (user,))
    assert json.loads(stored[0]["value"]) == ["enterprise"]


async def anonymize_with_the_id_typed_back_and_follow_it(console: Console,
                                                         pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    user = console.sandbox.query("SELECT requester_id AS id FROM conversations "
                                 "WHERE state != 'Closed' ORDER BY id LIMIT 1")[0]["id"]
    screen = await open_people(console, pilot)
    await pilot.press("slash")
    await fill(pilot, {"kind": "id", "value": user})
    await pilot.press("ctrl+s")
    await settle(pilot)
    await pilot.press("a")
    await pilot.pause()
    assert isinstance(app.screen, TypeBackScreen)
    await pilot.press(*"not-the-id", "enter")  # a wrong id does nothing
    await pilot.pause()
    assert isinstance(app.screen, TypeBackScreen)
    await pilot.press(*user, "enter")
    await settle(pilot)
    # the user still has open conversations: a second question offers to close them
    assert isinstance(app.screen, ConfirmScreen)
    await pilot.press("y")
    await settle(pilot)
    assert front(app) is screen
    requests = console.sandbox.query("SELECT id, processed_at FROM anonymization_requests "
                                     "WHERE type = 'User' AND target_entity_id = ?", (user,))
    assert len(requests) == 1 and requests[0]["processed_at"] is None
    follow = screen.query_one("#users-follow", Label)
    assert "waiting for the service" in str(follow.render())
    console.sandbox.clock.advance(5)
    console.sandbox.run_pending()
    assert app.session is not None
    await app.session.live.refresh(anonymization_topic(requests[0]["id"]))
    await settle(pilot)
    assert "processed" in str(follow.render())
    kept = app.session.local.snapshot("anonymizations")
    assert isinstance(kept, list)
    assert kept[0]["id"] == requests[0]["id"] and kept[0].get("processedAt")


async def tab_keys_follow_the_tab(console: Console, pilot: Pilot[Any]) -> None:
    screen = await open_people(console, pilot)
    keys = {b.binding.id for b in screen.active_bindings.values()}
    assert "people.users.anonymize" in keys and "people.agents.bulk" not in keys
    await pilot.press("t")
    await settle(pilot)
    keys = {b.binding.id for b in screen.active_bindings.values()}
    assert "people.agents.bulk" in keys and "people.users.anonymize" not in keys
    titles = [title for title, _, _ in screen.palette_commands()]
    assert "End users: new end user" in titles and "Agents: new agent" in titles
    assert isinstance(screen.query_one("#users-table"), DataTable)
    assert not isinstance(screen.query_one("#people-tabs"), Select)


@pytest.mark.slow
async def test_end_users_found_created_and_anonymized(console: Console) -> None:
    """People on one console: find by email and by name, nobody found, create, anonymize and
    follow the request, the keys that follow the tab."""
    await console.walk((120, 36),
                       find_an_end_user_by_email_and_by_name,
                       find_says_so_when_nobody_matches_and_keeps_the_form,
                       create_an_end_user,
                       anonymize_with_the_id_typed_back_and_follow_it,
                       tab_keys_follow_the_tab)


async def test_attributes_of_a_conversation_and_an_end_user(console: Console) -> None:
    """A conversation's nested select attribute, then an end user's attribute edited from
    the profile."""
    await console.walk((120, 40),
                       nested_select_attribute_of_a_conversation,
                       profile_edits_an_end_user_attribute)
