"""Mode 5, Admin: a menu of sections on the left, the chosen section on the right.

Tags (``n`` new, ``space`` activate/deactivate, ``i`` show deactivated, ``d``/``D`` delete),
Teams (``n``, ``m`` members, ``d``/``D`` delete), Queues (``n``, ``m`` members), Custom
attributes and Contact endpoints (``enter`` reads one again; the deprecated endpoint listing
when an integrations URL is configured), Business hours (``+``/``-`` days, ``a`` open at a
time), Anonymisation (``g`` look up by id), Quick responses (every template; ``d``/``D``
delete), Organisation, Flows, Webhooks (``n``, ``e`` edit, ``v`` events, ``space`` on/off,
``l`` delivery log, ``d``/``D`` delete) and Knowledge (``enter`` opens an article, ``n``
writes one); through a team gateway, for its admins, Audit (``/`` filter by member, ``m``
older entries). ``r`` reloads the section, ``esc`` goes back to the menu.

Through a team gateway, a section or a key the member's role may not use is not offered: the
section is not in the menu, the key not in the footer, the help or the palette, and pressing
it does nothing (``ADMIN_NEEDS`` and ``SECTION_NEEDS`` name the operations; the role table
says who may perform them).

The keys live on the screen, each enabled only in its section (so the footer and the help show
the section's keys, and the same letter can mean different things in two sections); the
sections (``admin_*.py``) do the work. Every action is also a palette command.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import ContentSwitcher

from ....store.connection import Link
from ....store.topics import CONNECTION, MEMBER
from ...offered import may, offered, offered_entries, through_gateway
from ...registry import owns_bindings
from ...store_changed import StoreChanged, store_change_handler
from ...widgets.safe import DataTable, Option, OptionList
from ..shared.base import ModeScreen
from ..shared.palette import PaletteCommands, PaletteEntry, palette_of
from .admin_keys import ADMIN_BINDINGS, ADMIN_NEEDS, ADMIN_PALETTE, SECTION_NEEDS
from .anonymization import AnonymizationPane
from .attributes import AttributesPane
from .audit import AuditPane
from .endpoints import EndpointsPane
from .flows import FlowsPane
from .hours import HoursPane
from .knowledge import KnowledgePane
from .organization import OrganizationPane
from .pane import AdminPane
from .queues import QueuesPane
from .tags import TagsPane
from .teams import TeamsPane
from .templates import TemplatesPane
from .webhooks import WebhooksPane

#: Section key → its title in the menu (in menu order).
SECTIONS: dict[str, str] = {
    "tags": "Tags",
    "teams": "Teams",
    "queues": "Queues",
    "attributes": "Custom attributes",
    "endpoints": "Contact endpoints",
    "hours": "Business hours",
    "anonymization": "Anonymisation",
    "templates": "Quick responses",
    "organization": "Organisation",
    "flows": "Flows",
    "webhooks": "Webhooks",
    "knowledge": "Knowledge",
    "audit": "Audit",
}
#: Sections only a team gateway has.
GATEWAY_SECTIONS = frozenset({"audit"})


@owns_bindings
class AdminScreen(ModeScreen):
    """Tags, teams, queues, custom attributes, contact endpoints, business hours,
    anonymisation requests, templates, the organisation, its flows, webhooks and the help
    centre."""

    MODE_NAME = "Admin"
    HELP_NAME = "Admin"
    BINDINGS = ADMIN_BINDINGS
    PALETTE: ClassVar[tuple[PaletteEntry, ...]] = ADMIN_PALETTE
    NEEDS = ADMIN_NEEDS

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="admin-body"):
            yield OptionList(*self._menu_options(), id="admin-menu")
            with ContentSwitcher(initial="pane-tags", id="admin-panes"):
                yield TagsPane()
                yield TeamsPane()
                yield QueuesPane()
                yield AttributesPane()
                yield EndpointsPane()
                yield HoursPane()
                yield AnonymizationPane()
                yield TemplatesPane()
                yield OrganizationPane()
                yield FlowsPane()
                yield WebhooksPane()
                yield KnowledgePane()
                yield AuditPane()

    def on_mount(self) -> None:
        super().on_mount()
        menu = self.query_one("#admin-menu", OptionList)
        menu.highlighted = 0
        self.show_section("tags", focus=False)
        menu.focus()

    def on_screen_resume(self) -> None:
        """Back in front: the menu offers what the role allows now (it may have been said
        while another mode was in front), and the section in front polls its topics."""
        super().on_screen_resume()
        self._offer_sections()
        self._watch_pane_topics(self.pane())

    @store_change_handler
    def on_store_changed(self, message: StoreChanged) -> None:
        """Once the service answers, sections read before it did are read again; once a
        team gateway says the member's role, the menu offers what the role may use; the
        section in front hears of its own topics (a message of its own, after this one)."""
        if (state := message.of(CONNECTION)) is not None and state.link is Link.LIVE:
            for pane in self.query(AdminPane):
                pane.connected()
        elif message.topic == MEMBER:
            self._offer_sections()
        pane = self.pane()
        if message.topic in pane.TOPICS:
            pane.post_message(StoreChanged(message.topic, message.value))

    _pane_topics: tuple[str, ...] = ()

    def _watch_pane_topics(self, pane: AdminPane | None) -> None:
        """Poll the topics of the section in front (none while the screen is not shown)."""
        session = self.fd.session
        wanted = pane.TOPICS if pane is not None and session is not None else ()
        if wanted == self._pane_topics or session is None:
            return
        for topic in self._pane_topics:
            session.live.unwatch(topic)
        self._pane_topics = wanted
        for topic in wanted:
            session.live.watch(topic)

    def on_screen_suspend(self) -> None:
        super().on_screen_suspend()
        self._watch_pane_topics(None)

    # ------------------------------------------------------------------ what is offered

    def section_offered(self, section: str) -> bool:
        """Whether the menu offers ``section``: a gateway's own only through one, and any
        only when the member's role may perform what it shows."""
        if section in GATEWAY_SECTIONS and not through_gateway(self):
            return False
        operation = SECTION_NEEDS.get(section)
        return operation is None or may(self, operation)

    def offered_sections(self) -> list[str]:
        """The sections in the menu, in menu order."""
        return [section for section in SECTIONS if self.section_offered(section)]

    def _menu_options(self) -> list[Option]:
        return [Option(SECTIONS[section], id=section) for section in self.offered_sections()]

    def _offer_sections(self) -> None:
        """Build the menu again for the role now known (the section in front stays, or the
        first one comes to the front when it is no longer offered)."""
        menu = self.query_one("#admin-menu", OptionList)
        shown = [str(menu.get_option_at_index(i).id) for i in range(menu.option_count)]
        if shown == self.offered_sections():
            return
        current = self.section
        menu.clear_options()
        menu.add_options(self._menu_options())
        offered_now = self.offered_sections()
        self.show_section(current if current in offered_now else offered_now[0], focus=False)

    # ------------------------------------------------------------------ sections

    @property
    def section(self) -> str:
        """The section in front."""
        current = self.query_one("#admin-panes", ContentSwitcher).current or "pane-tags"
        return current.removeprefix("pane-")

    def pane(self, section: str | None = None) -> AdminPane:
        """A section's pane (the one in front by default)."""
        return self.query_one(f"#pane-{section or self.section}", AdminPane)

    def show_section(self, section: str, *, focus: bool = True) -> None:
        """Bring a section to the front (loading it the first time)."""
        switcher = self.query_one("#admin-panes", ContentSwitcher)
        switcher.current = f"pane-{section}"
        menu = self.query_one("#admin-menu", OptionList)
        sections = self.offered_sections()
        index = sections.index(section) if section in sections else None
        if index is not None and menu.highlighted != index:
            menu.highlighted = index
        pane = self.pane(section)
        pane.activate()
        if self.is_current:
            self._watch_pane_topics(pane)
        if focus:
            pane.focus_main()
        self.refresh_bindings()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Moving in the menu shows the section (a message about an option no longer
        highlighted is stale — a burst of keys moved on — and following it would set the menu
        back and start the two chasing each other)."""
        if event.option_list.id == "admin-menu" and event.option.id \
                and event.option_index == event.option_list.highlighted:
            self.show_section(event.option.id, focus=False)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """``enter`` in the menu goes into the section."""
        if event.option_list.id == "admin-menu" and event.option.id:
            self.show_section(event.option.id)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """``enter`` on a row of a list that reads again."""
        table = event.data_table.id or ""
        if table == "attributes-table":
            event.stop()
            self.query_one(AttributesPane).open()
        elif table in ("endpoints-table", "legacy-table"):
            event.stop()
            self.query_one(EndpointsPane).open(table)
        elif table == "webhook-status":
            event.stop()
            self.query_one(WebhooksPane).open_log()
        elif table == "knowledge-table":
            event.stop()
            self.query_one(KnowledgePane).open()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A section's keys only in that section, and only those the role may use."""
        if not offered(self, self.NEEDS, action):
            return False
        if action == "audit_more" and all(pane.next_key is None
                                           for pane in self.query(AuditPane)):
            return False  # nothing older to read
        for section in SECTIONS:
            if action.startswith(section + "_"):
                return self.section == section and self.section_offered(section)
        return True

    def palette_commands(self) -> PaletteCommands:
        """Every action of every section offered (those the role may use)."""
        hidden = tuple(section for section in SECTIONS if not self.section_offered(section))
        entries = offered_entries(self, self.NEEDS, self.PALETTE)
        return palette_of(self, (entry for entry in entries
                                 if not any(f"'{section}_" in entry.action
                                            for section in hidden)))

    # ------------------------------------------------------------------ general actions

    def action_palette(self, action: str) -> None:
        """Run a section's action from the palette: its section comes to the front first."""
        section = next(s for s in SECTIONS if action.startswith(s + "_"))
        self.show_section(section)
        getattr(self, f"action_{action}")()

    def action_menu(self) -> None:
        """Back to the menu."""
        self.query_one("#admin-menu", OptionList).focus()

    def action_reload(self) -> None:
        """Read the section again."""
        self.pane().reload()

    # ------------------------------------------------------------------ tags

    def action_tags_new(self) -> None:
        """Create a tag."""
        self.query_one(TagsPane).new()

    def action_tags_toggle(self) -> None:
        """Activate or deactivate the highlighted tag."""
        self.query_one(TagsPane).toggle()

    def action_tags_inactive(self) -> None:
        """Show or hide deactivated tags."""
        self.query_one(TagsPane).toggle_inactive()

    def action_tags_delete(self) -> None:
        """Delete the highlighted tag (asks)."""
        self.query_one(TagsPane).delete(ask=True)

    def action_tags_delete_now(self) -> None:
        """Delete the highlighted tag without asking."""
        self.query_one(TagsPane).delete(ask=False)

    # ------------------------------------------------------------------ teams and queues

    def action_teams_new(self) -> None:
        """Create a team."""
        self.query_one(TeamsPane).new()

    def action_teams_members(self) -> None:
        """Add and remove members of the highlighted team."""
        self.query_one(TeamsPane).edit_members()

    def action_teams_delete(self) -> None:
        """Delete the highlighted team (asks)."""
        self.query_one(TeamsPane).delete(ask=True)

    def action_teams_delete_now(self) -> None:
        """Delete the highlighted team without asking."""
        self.query_one(TeamsPane).delete(ask=False)

    def action_queues_new(self) -> None:
        """Create a queue."""
        self.query_one(QueuesPane).new()

    def action_queues_members(self) -> None:
        """Assign and remove members of the highlighted queue."""
        self.query_one(QueuesPane).edit_members()

    # ------------------------------------------------------------------ reading sections

    def action_attributes_open(self) -> None:
        """Read the highlighted definition again."""
        self.query_one(AttributesPane).open()

    def action_endpoints_open(self) -> None:
        """Read the highlighted endpoint again."""
        self.query_one(EndpointsPane).open()

    def action_hours_more(self) -> None:
        """More days in the calendar."""
        self.query_one(HoursPane).change_days(1)

    def action_hours_less(self) -> None:
        """Fewer days in the calendar."""
        self.query_one(HoursPane).change_days(-1)

    def action_hours_at(self) -> None:
        """Open or closed at a typed time."""
        self.query_one(HoursPane).open_at()

    def action_anonymization_reload(self) -> None:
        """The requests made here, asked about again."""
        self.query_one(AnonymizationPane).reload()

    def action_anonymization_lookup(self) -> None:
        """Look up any anonymisation request by id."""
        self.query_one(AnonymizationPane).lookup()

    def action_anonymization_conversation(self) -> None:
        """Anonymise a conversation by its id."""
        self.query_one(AnonymizationPane).request_conversation()

    def action_webhooks_new(self) -> None:
        """Subscribe a receiver to events."""
        self.query_one(WebhooksPane).new()

    def action_webhooks_edit(self) -> None:
        """Change the highlighted webhook's name, URL or token."""
        self.query_one(WebhooksPane).edit()

    def action_webhooks_events(self) -> None:
        """Tick the events the highlighted webhook sends."""
        self.query_one(WebhooksPane).events()

    def action_webhooks_toggle(self) -> None:
        """Turn the highlighted webhook on or off."""
        self.query_one(WebhooksPane).toggle()

    def action_webhooks_log(self) -> None:
        """The delivery log of the highlighted event."""
        self.query_one(WebhooksPane).open_log()

    def action_webhooks_secret(self) -> None:
        """Show (or hide) the highlighted webhook's secret key."""
        self.query_one(WebhooksPane).toggle_secret()

    def action_webhooks_delete(self) -> None:
        """Delete the highlighted webhook (asks)."""
        self.query_one(WebhooksPane).delete(ask=True)

    def action_webhooks_delete_now(self) -> None:
        """Delete the highlighted webhook without asking."""
        self.query_one(WebhooksPane).delete(ask=False)

    def action_anonymization_deprecated(self) -> None:
        """Request an anonymisation through the deprecated interface."""
        self.query_one(AnonymizationPane).request_deprecated()

    # ------------------------------------------------------------------ templates, organisation

    def action_templates_reload(self) -> None:
        """Every template, read again."""
        self.query_one(TemplatesPane).reload()

    def action_templates_delete(self) -> None:
        """Delete the highlighted template (asks)."""
        self.query_one(TemplatesPane).delete(ask=True)

    def action_templates_delete_now(self) -> None:
        """Delete the highlighted template without asking."""
        self.query_one(TemplatesPane).delete(ask=False)

    def action_organization_reload(self) -> None:
        """The organisation, read again."""
        self.query_one(OrganizationPane).reload()

    def action_flows_reload(self) -> None:
        """Every flow, read again."""
        self.query_one(FlowsPane).reload()

    # ------------------------------------------------------------------ knowledge

    def action_knowledge_open(self) -> None:
        """Open the highlighted article, or read the collection or category again."""
        self.query_one(KnowledgePane).open()

    def action_knowledge_new(self) -> None:
        """Write a new article in the highlighted collection or category."""
        self.query_one(KnowledgePane).new()

    # ------------------------------------------------------------------ the gateway's audit

    def action_audit_filter(self) -> None:
        """Filter the audit by member."""
        self.query_one(AuditPane).filter()

    def action_audit_more(self) -> None:
        """Older audit entries."""
        self.query_one(AuditPane).more()
