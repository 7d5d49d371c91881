"""Mode 4, People: two tabs, End users and Agents.

End users: ``/`` or ``f`` find (name, id, email, phone or external id), ``n`` new, ``e`` edit
(full) / ``E`` change only what differs, ``b`` create and update many from a CSV, ``enter``
the profile (attributes, conversations), ``a`` anonymise (id typed back; followed live).
Agents: ``/`` filter by part of a name, email or phone, ``n`` new, ``b`` many from a CSV,
``e`` edit (full) / ``E`` change only what differs, ``enter`` teams and presence, ``d``
downgrade to end user (asks) / ``D`` without asking. ``t`` switches tab, ``r`` reloads.

The keys live on the screen and each is enabled only on its tab (so the footer, the help and
the palette show the tab's keys); the panes (:mod:`.people_endusers`, :mod:`.people_agents`)
do the work. Every action is also a palette command, from either tab.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding

from ....store.team import PRESENCE_TOPIC, TeamSnapshot
from ....store.topics import anonymization_topic
from ...offered import offered, offered_entries
from ...registry import owns_bindings
from ...store_changed import StoreChanged, store_change_handler
from ...widgets.safe import DataTable, TabbedContent, TabPane
from ..shared.base import ModeScreen
from ..shared.palette import PaletteCommands, PaletteEntry, palette_of, section_palette
from .agents import AgentsPane
from .endusers import EndUsersPane

_TABS = {"users": "endusers", "agents": "agents"}


@owns_bindings
class PeopleScreen(ModeScreen):
    """End users and agents."""

    MODE_NAME = "People"
    #: everyone's presence, live, for the Agents tab (the topic Team mode shows)
    TOPICS = (PRESENCE_TOPIC,)
    HELP_NAME = "People"
    NEEDS = {
        "users_anonymize": "anonymization.anonymize_enduser",
        "users_bulk": "endusers.bulk_patch",
        "agents_new": "agents.create",
        "agents_bulk": "agents.bulk_create",
        "agents_edit": "agents.update",
        "agents_patch": "agents.patch",
        "agents_downgrade": "agents.downgrade",
        "agents_downgrade_now": "agents.downgrade",
    }
    BINDINGS = [
        Binding("t", "switch_tab", "Switch tab", id="people.tab"),
        Binding("r", "reload", "Reload", id="people.reload"),
        Binding("slash,f", "users_find", "Find", id="people.users.find"),
        Binding("n", "users_new", "New end user", id="people.users.new"),
        Binding("enter", "users_open", "Profile", id="people.users.open"),
        Binding("a", "users_anonymize", "Anonymize", id="people.users.anonymize"),
        Binding("slash", "agents_filter", "Filter", id="people.agents.filter"),
        Binding("n", "agents_new", "New agent", id="people.agents.new"),
        Binding("b", "agents_bulk", "Bulk from CSV", id="people.agents.bulk"),
        Binding("e", "agents_edit", "Edit", id="people.agents.edit"),
        Binding("E", "agents_patch", "Change fields", id="people.agents.patch"),
        Binding("enter", "agents_open", "Detail", id="people.agents.open"),
        Binding("d", "agents_downgrade", "Downgrade", id="people.agents.downgrade"),
        Binding("D", "agents_downgrade_now", "Downgrade now", id="people.agents.downgrade_now",
                show=False),
        # after the agents' keys: the footer orders keys by their first binding
        Binding("e", "users_edit", "Edit", id="people.users.edit"),
        Binding("E", "users_patch", "Change fields", id="people.users.patch"),
        Binding("b", "users_bulk", "Bulk from CSV", id="people.users.bulk"),
    ]
    PALETTE: ClassVar[tuple[PaletteEntry, ...]] = (
        *section_palette(
            "End users",
            ("find by name, id, email, phone or external id", "key: / or f", "users_find"),
            ("new end user", "key: n", "users_new"),
            ("open the profile", "key: enter", "users_open"),
            ("anonymize (asks, with the id typed back)", "key: a", "users_anonymize"),
            ("edit (full update)", "key: e", "users_edit"),
            ("change only the edited fields", "key: E", "users_patch"),
            ("create and update many from a CSV file", "key: b", "users_bulk"),
            ("show everyone again", "key: r", "users_reload"),
        ),
        *section_palette(
            "Agents",
            ("filter by name, email or phone", "key: /", "agents_filter"),
            ("new agent", "key: n", "agents_new"),
            ("create many from a CSV file", "key: b", "agents_bulk"),
            ("edit (full update)", "key: e", "agents_edit"),
            ("change only the edited fields", "key: E", "agents_patch"),
            ("teams and presence", "key: enter", "agents_open"),
            ("downgrade to end user", "key: d (D without asking)", "agents_downgrade"),
            ("show everyone again", "key: r", "agents_reload"),
        ),
    )

    def compose_body(self) -> ComposeResult:
        with TabbedContent(initial="endusers", id="people-tabs"):
            with TabPane("End users", id="endusers"):
                yield EndUsersPane()
            with TabPane("Agents", id="agents"):
                yield AgentsPane()

    def on_mount(self) -> None:
        super().on_mount()
        self.users.table.focus()

    def on_screen_resume(self) -> None:
        session = self.fd.session
        if session is not None:
            session.team  # noqa: B018 - made on first use: the presence topic of the Agents tab
        super().on_screen_resume()
        self.users.render_followed()

    # ------------------------------------------------------------------ parts

    @property
    def users(self) -> EndUsersPane:
        """The end users tab."""
        return self.query_one(EndUsersPane)

    @property
    def agents(self) -> AgentsPane:
        """The agents tab."""
        return self.query_one(AgentsPane)

    @property
    def tab(self) -> str:
        """``users`` or ``agents``."""
        active = self.query_one("#people-tabs", TabbedContent).active
        return "agents" if active == "agents" else "users"

    def show_tab(self, tab: str) -> None:
        """Bring a tab to the front and put the cursor in its list."""
        self.query_one("#people-tabs", TabbedContent).active = _TABS[tab]
        pane = self.agents if tab == "agents" else self.users
        pane.table.focus()
        self.refresh_bindings()

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        """A tab was chosen (by key or mouse): its keys take over."""
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A tab's keys only on that tab, and only those the role may use."""
        if not offered(self, self.NEEDS, action):
            return False
        for prefix in ("users_", "agents_"):
            if action.startswith(prefix):
                return self.tab == prefix[:-1]
        return True

    def palette_commands(self) -> PaletteCommands:
        """Every action of both tabs (those the role may use)."""
        return palette_of(self, offered_entries(self, self.NEEDS, self.PALETTE))

    @store_change_handler
    def on_store_changed(self, message: StoreChanged) -> None:
        """A followed anonymisation request changed, or someone's presence."""
        users = self.users
        if any(message.topic == anonymization_topic(request) for request in users.followed):
            users.render_followed()
        elif isinstance(snapshot := message.of(PRESENCE_TOPIC), TeamSnapshot):
            self.agents.apply_presence(snapshot.rows)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """``enter`` (or a click) on a row opens it."""
        event.stop()
        if event.data_table.id == "users-table":
            self.users.open()
        elif event.data_table.id == "agents-table":
            self.agents.open()

    # ------------------------------------------------------------------ actions

    def action_palette(self, action: str) -> None:
        """Run a tab's action from the palette: its tab comes to the front first."""
        self.show_tab("agents" if action.startswith("agents_") else "users")
        getattr(self, f"action_{action}")()

    def action_switch_tab(self) -> None:
        """End users ⇄ Agents."""
        self.show_tab("users" if self.tab == "agents" else "agents")

    def action_reload(self) -> None:
        """Reload the tab in front (a search or filter is dropped)."""
        getattr(self, f"action_{self.tab}_reload")()

    def action_users_reload(self) -> None:
        """Every end user again."""
        self.users.load()

    def action_users_find(self) -> None:
        """Find end users."""
        self.users.find()

    def action_users_new(self) -> None:
        """Create an end user."""
        self.users.new()

    def action_users_open(self) -> None:
        """Open the highlighted end user's profile."""
        self.users.open()

    def action_users_anonymize(self) -> None:
        """Anonymise the highlighted end user."""
        self.users.anonymize()

    def action_users_edit(self) -> None:
        """Edit the highlighted end user (full update)."""
        self.users.edit(full=True)

    def action_users_patch(self) -> None:
        """Change the highlighted end user's edited fields only."""
        self.users.edit(full=False)

    def action_users_bulk(self) -> None:
        """Create and update end users from a CSV file."""
        self.users.bulk()

    def action_agents_reload(self) -> None:
        """Every agent again."""
        self.agents.reset()

    def action_agents_filter(self) -> None:
        """Filter agents by part of a name, email or phone."""
        self.agents.filter_form()

    def action_agents_new(self) -> None:
        """Create an agent."""
        self.agents.new()

    def action_agents_bulk(self) -> None:
        """Create agents from a CSV file."""
        self.agents.bulk()

    def action_agents_edit(self) -> None:
        """Edit the highlighted agent (full update)."""
        self.agents.edit(full=True)

    def action_agents_patch(self) -> None:
        """Change the highlighted agent's edited fields only."""
        self.agents.edit(full=False)

    def action_agents_open(self) -> None:
        """The highlighted agent's teams and presence."""
        self.agents.open()

    def action_agents_downgrade(self) -> None:
        """Downgrade the highlighted agent (asks)."""
        self.agents.downgrade(ask=True)

    def action_agents_downgrade_now(self) -> None:
        """Downgrade the highlighted agent without asking."""
        self.agents.downgrade(ask=False)
