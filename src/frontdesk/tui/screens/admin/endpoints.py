"""Admin → Contact endpoints: the organisation's email addresses and phone numbers, and
(when the profile has an integrations URL) the deprecated endpoint listing, marked as such.
``enter`` reads the highlighted endpoint again by its id, in either list."""

from __future__ import annotations

from typing import Any

from textual import on, work
from textual.app import ComposeResult

from ....api.models import ContactEndpoint, Endpoint
from ....text import one_line, safe
from ...answers import Returned, answer_of
from ...widgets.safe import DataTable, Label, Static
from ..shared.common import admin_store, cell, highlighted_key
from .pane import AdminPane

DEPRECATED = "Endpoint listing — deprecated interface (use the contact endpoints above)"


def describe_endpoint(endpoint: ContactEndpoint) -> str:
    """A contact endpoint in full (markup-safe)."""
    rows = [("Type", endpoint.type), ("Endpoint", endpoint.key), ("Name", endpoint.name or "—"),
            ("Sends as", endpoint.sender_override or "—"),
            ("Can", ", ".join(endpoint.functionality or []) or "—")]
    return "\n".join(f"[b]{name:<9}[/b] {safe(one_line(value, 70))}" for name, value in rows)


def legacy_parts(endpoint: Endpoint) -> tuple[str, str, str, str]:
    """(kind, id, address or number, internal address) of a deprecated-listing endpoint."""
    if endpoint.email_address is not None:
        email = endpoint.email_address
        return ("email", email.id, email.spf_email or "—", email.internal_email_address)
    if endpoint.phone_number is not None:
        phone = endpoint.phone_number
        return ("phone", phone.id or "", phone.phone_number, "—")
    return ("?", "", "—", "—")


class EndpointsPane(AdminPane):
    """The contact endpoints section."""

    TITLE = "Contact endpoints"

    def __init__(self) -> None:
        super().__init__("endpoints")
        self.endpoints: dict[str, ContactEndpoint] = {}
        self.legacy: dict[str, Endpoint] = {}

    def compose(self) -> ComposeResult:
        yield self.caption()
        table: DataTable[Any] = DataTable(id="endpoints-table", cursor_type="row",
                                          zebra_stripes=True, classes="admin-main")
        table.add_columns("Type", "Endpoint", "Name", "Sends as", "Can")
        yield table
        yield Static("", id="endpoint-detail")
        yield Label(DEPRECATED, id="legacy-title", classes="section-title deprecated")
        legacy: DataTable[Any] = DataTable(id="legacy-table", cursor_type="row")
        legacy.add_columns("Kind", "Id", "Address or number", "Internal address")
        yield legacy

    @property
    def table(self) -> DataTable[Any]:
        """The contact endpoints."""
        return self.query_one("#endpoints-table", DataTable)

    def reload(self) -> None:
        """Read both lists again."""
        self._load()

    class Loaded(Returned[list[ContactEndpoint]]):
        """The contact endpoints were read."""

    class LegacyLoaded(Returned[list[Endpoint]]):
        """The deprecated endpoint listing was read."""

    @work(exclusive=True, group="endpoints-load", exit_on_error=False)
    async def _load(self) -> None:
        store = admin_store(self)
        endpoints, refusal = await answer_of(store.list_contact_endpoints())
        self.post_message(self.Loaded(endpoints, refusal))
        if refusal is None and store.integrations_configured:
            self.post_message(self.LegacyLoaded(
                *await answer_of(store.list_deprecated_endpoints())))

    def on_endpoints_pane_loaded(self, message: Loaded) -> None:
        """The list, or why it could not be read on the caption."""
        if message.refusal is not None:
            self.set_caption(message.refusal.reason)
            return
        endpoints = message.value
        self.endpoints = {e.key: e for e in endpoints}
        table = self.table
        table.clear()
        for endpoint in endpoints:
            kind = "email" if endpoint.type == "EmailEndpoint" else "phone"
            table.add_row(kind, cell(endpoint.key, 40), cell(endpoint.name, 30),
                          cell(endpoint.sender_override, 30),
                          cell(", ".join(endpoint.functionality or []), 30), key=endpoint.key)
        self.set_caption(f"{len(endpoints)} contact endpoints · enter reads one again")
        self._show(self.endpoints.get(highlighted_key(table) or ""))
        configured = admin_store(self).integrations_configured
        self.query_one("#legacy-title").display = configured
        self.query_one("#legacy-table").display = configured

    def on_endpoints_pane_legacy_loaded(self, message: LegacyLoaded) -> None:
        """The deprecated listing, or why it could not be read in its title."""
        title = self.query_one("#legacy-title", Label)
        if message.refusal is not None:
            title.update(safe(f"{DEPRECATED}: {message.refusal.reason}"))
            return
        legacy = message.value
        self.legacy = {}
        table = self.query_one("#legacy-table", DataTable)
        table.clear()
        for index, endpoint in enumerate(legacy):
            kind, legacy_id, address, internal = legacy_parts(endpoint)
            key = legacy_id or f"row-{index}"
            self.legacy[key] = endpoint
            table.add_row(kind, cell(legacy_id, 38), cell(address, 36), cell(internal, 46),
                          key=key)
        title.update(safe(f"{DEPRECATED} · {len(legacy)} endpoints"))

    def _show(self, endpoint: ContactEndpoint | None) -> None:
        self.query_one("#endpoint-detail", Static).update(
            describe_endpoint(endpoint) if endpoint is not None else "")

    @on(DataTable.RowHighlighted, "#endpoints-table")
    def _highlighted(self) -> None:
        self._show(self.endpoints.get(highlighted_key(self.table) or ""))

    def open(self, table_id: str | None = None) -> None:
        """Read the highlighted endpoint by its id (GET), in the list that has the cursor."""
        legacy_table = self.query_one("#legacy-table", DataTable)
        if table_id == "legacy-table" or (table_id is None and legacy_table.has_focus):
            key = highlighted_key(legacy_table)
            if key and not key.startswith("row-"):
                self._open_legacy(key)
            return
        key = highlighted_key(self.table)
        if key:
            self._open(key)

    class Opened(Returned[ContactEndpoint]):
        """One contact endpoint was read again."""

    class LegacyOpened(Returned[Endpoint]):
        """One endpoint of the deprecated listing was read again."""

    @work(exclusive=True, group="endpoints-open", exit_on_error=False)
    async def _open(self, key: str) -> None:
        self.post_message(self.Opened(
            *await answer_of(admin_store(self).get_contact_endpoint(key))))

    def on_endpoints_pane_opened(self, message: Opened) -> None:
        """Its details below the list, or why not in a toast."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            return
        endpoint = message.value
        self.endpoints[endpoint.key] = endpoint
        self._show(endpoint)

    @work(exclusive=True, group="endpoints-open", exit_on_error=False)
    async def _open_legacy(self, key: str) -> None:
        self.post_message(self.LegacyOpened(
            *await answer_of(admin_store(self).get_deprecated_endpoint(key))))

    def on_endpoints_pane_legacy_opened(self, message: LegacyOpened) -> None:
        """Its details below the lists, or why not in a toast."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            return
        endpoint = message.value
        kind, legacy_id, address, internal = legacy_parts(endpoint)
        self.query_one("#endpoint-detail", Static).update(
            f"[b]Deprecated listing[/b] {safe(kind)} {safe(one_line(address, 50))}\n"
            f"[b]Id[/b] {safe(legacy_id)}   [b]Internal[/b] {safe(one_line(internal, 60))}")
