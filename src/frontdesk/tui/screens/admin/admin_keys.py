"""The Admin screen's keys and palette entries, section by section: each key is enabled only
in its section (``AdminScreen.check_action``), so the same letter can mean different things in
two sections; every action is also a palette command."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from ..shared.palette import PaletteEntry, section_palette

__all__ = ["ADMIN_BINDINGS", "ADMIN_NEEDS", "ADMIN_PALETTE", "SECTION_NEEDS"]

#: The screen's keys (ids ``admin.<section>.<what>``).
ADMIN_BINDINGS: list[BindingType] = [
    Binding("escape", "menu", "Menu", id="admin.menu"),
    Binding("r", "reload", "Reload", id="admin.reload"),
    Binding("n", "tags_new", "New tag", id="admin.tags.new"),
    Binding("space", "tags_toggle", "Activate/deactivate", id="admin.tags.toggle"),
    Binding("i", "tags_inactive", "Show deactivated", id="admin.tags.inactive"),
    Binding("d", "tags_delete", "Delete", id="admin.tags.delete"),
    Binding("D", "tags_delete_now", "Delete now", id="admin.tags.delete_now", show=False),
    Binding("n", "teams_new", "New team", id="admin.teams.new"),
    Binding("m", "teams_members", "Members", id="admin.teams.members"),
    Binding("d", "teams_delete", "Delete", id="admin.teams.delete"),
    Binding("D", "teams_delete_now", "Delete now", id="admin.teams.delete_now",
            show=False),
    Binding("n", "queues_new", "New queue", id="admin.queues.new"),
    Binding("m", "queues_members", "Members", id="admin.queues.members"),
    Binding("enter", "attributes_open", "Read again", id="admin.attributes.open"),
    Binding("enter", "endpoints_open", "Read again", id="admin.endpoints.open"),
    Binding("plus", "hours_more", "More days", id="admin.hours.more"),
    Binding("minus", "hours_less", "Fewer days", id="admin.hours.less"),
    Binding("a", "hours_at", "Open at…", id="admin.hours.at"),
    Binding("g", "anonymization_lookup", "Look up by id", id="admin.anonymization.lookup"),
    Binding("d", "templates_delete", "Delete", id="admin.templates.delete"),
    Binding("D", "templates_delete_now", "Delete now", id="admin.templates.delete_now",
            show=False),
    Binding("n", "webhooks_new", "New webhook", id="admin.webhooks.new"),
    Binding("e", "webhooks_edit", "Edit", id="admin.webhooks.edit"),
    Binding("v", "webhooks_events", "Events", id="admin.webhooks.events"),
    Binding("space", "webhooks_toggle", "On/off", id="admin.webhooks.toggle"),
    Binding("l", "webhooks_log", "Delivery log", id="admin.webhooks.log"),
    Binding("s", "webhooks_secret", "Secret key", id="admin.webhooks.secret"),
    Binding("d", "webhooks_delete", "Delete", id="admin.webhooks.delete"),
    Binding("D", "webhooks_delete_now", "Delete now", id="admin.webhooks.delete_now",
            show=False),
    Binding("enter", "knowledge_open", "Open", id="admin.knowledge.open"),
    Binding("n", "knowledge_new", "New article", id="admin.knowledge.new"),
    Binding("slash", "audit_filter", "Filter by member", id="admin.audit.filter"),
    Binding("m", "audit_more", "Older", id="admin.audit.more"),
]

#: The operation each restricted action performs: through a team gateway, an action the
#: member's role may not perform is not offered (its key does nothing; ``tui/offered.py``).
ADMIN_NEEDS: dict[str, str] = {
    "tags_new": "tags.create",
    "tags_toggle": "tags.deactivate",
    "tags_delete": "tags.delete",
    "tags_delete_now": "tags.delete",
    "teams_new": "teams.create",
    "teams_members": "teams.add_members",
    "teams_delete": "teams.delete",
    "teams_delete_now": "teams.delete",
    "queues_new": "queues.create",
    "queues_members": "queues.add_members",
    "templates_delete": "templates.delete",
    "templates_delete_now": "templates.delete",
    "knowledge_new": "knowledge.create_article",
}

#: The operation a whole section shows: a section whose operation the member's role may not
#: perform is not in the menu (the audit is a gateway's, for its admins).
SECTION_NEEDS: dict[str, str] = {
    "anonymization": "anonymization.get_request",
    "webhooks": "webhooks.list",
    "audit": "gateway.audit",
}

#: Every action of every section, for the palette.
ADMIN_PALETTE: tuple[PaletteEntry, ...] = (
    *section_palette(
        "Tags",
        ("new tag", "key: n", "tags_new"),
        ("activate or deactivate the highlighted tag", "key: space", "tags_toggle"),
        ("show or hide deactivated tags", "key: i", "tags_inactive"),
        ("delete the highlighted tag", "key: d (D without asking)", "tags_delete"),
    ),
    *section_palette(
        "Teams",
        ("new team", "key: n", "teams_new"),
        ("members of the highlighted team", "key: m", "teams_members"),
        ("delete the highlighted team", "key: d (D without asking)", "teams_delete"),
    ),
    *section_palette(
        "Queues",
        ("new queue", "key: n", "queues_new"),
        ("members of the highlighted queue", "key: m", "queues_members"),
    ),
    *section_palette(
        "Custom attributes",
        ("list and read definitions", "key: enter", "attributes_open"),
    ),
    *section_palette(
        "Contact endpoints",
        ("list and read (and the deprecated listing)", "key: enter", "endpoints_open"),
    ),
    *section_palette(
        "Business hours",
        ("more days in the calendar", "key: +", "hours_more"),
        ("fewer days in the calendar", "key: -", "hours_less"),
        ("open at a typed time?", "key: a", "hours_at"),
    ),
    *section_palette(
        "Anonymisation",
        ("requests made here", "section", "anonymization_reload"),
        ("look up a request by id", "key: g", "anonymization_lookup"),
        ("anonymize a conversation",
         "asks with the id typed back; can close it first", "anonymization_conversation"),
    ),
    PaletteEntry("Anonymize via the deprecated interface (deprecated)",
                 "POST /v1/anonymization; asks with the id typed back",
                 "palette('anonymization_deprecated')"),
    *section_palette(
        "Quick responses",
        ("every template", "section", "templates_reload"),
        ("delete the highlighted template", "key: d (D without asking)", "templates_delete"),
    ),
    *section_palette(
        "Organisation",
        ("name, id and status", "section", "organization_reload"),
    ),
    *section_palette(
        "Flows",
        ("every conversation flow", "section", "flows_reload"),
    ),
    *section_palette(
        "Webhooks",
        ("new webhook", "key: n", "webhooks_new"),
        ("edit the highlighted webhook", "key: e", "webhooks_edit"),
        ("events the highlighted webhook sends", "key: v", "webhooks_events"),
        ("turn the highlighted webhook on or off", "key: space", "webhooks_toggle"),
        ("delivery log of the highlighted event", "key: l", "webhooks_log"),
        ("show or hide the highlighted webhook's secret key", "key: s", "webhooks_secret"),
        ("delete the highlighted webhook", "key: d (D without asking)", "webhooks_delete"),
    ),
    *section_palette(
        "Knowledge",
        ("open the highlighted article, collection or category",
         "key: enter", "knowledge_open"),
        ("new article", "key: n", "knowledge_new"),
    ),
    *section_palette(
        "Audit",
        ("filter by member", "key: /", "audit_filter"),
        ("older entries", "key: m", "audit_more"),
    ),
)
