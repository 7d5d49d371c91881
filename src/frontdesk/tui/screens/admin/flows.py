"""Admin → Flows: the organisation's conversation flows — how conversations arriving at a
contact endpoint (a phone number, an address, a chat widget) are routed — every channel's, in
the organisation's order. A channel the service would not list is named on the caption."""

from __future__ import annotations

from typing import Any

from textual import work
from textual.app import ComposeResult

from ....api.models import ConversationFlow
from ....channels import channel_name
from ....store.organization import Flows
from ...answers import Returned, answer_of
from ...widgets.safe import DataTable
from ..shared.common import cell, session_of
from .pane import AdminPane


class FlowsPane(AdminPane):
    """The flows section."""

    TITLE = "Flows"

    def __init__(self) -> None:
        super().__init__("flows")
        self.flows: list[ConversationFlow] = []

    def compose(self) -> ComposeResult:
        yield self.caption()
        table: DataTable[Any] = DataTable(id="flows-table", cursor_type="row",
                                          zebra_stripes=True, classes="admin-main")
        table.add_columns("Channel", "Flow", "Contact endpoint", "Id")
        yield table

    def reload(self) -> None:
        """Read every channel's flows again."""
        self._load()

    class Loaded(Returned[Flows]):
        """Every channel's flows were read (or the channels that could not be)."""

    @work(exclusive=True, group="flows-load", exit_on_error=False)
    async def _load(self) -> None:
        self.post_message(self.Loaded(*await answer_of(session_of(self).organization.flows())))

    def on_flows_pane_loaded(self, message: Loaded) -> None:
        """The list, or why it could not be read on the caption."""
        if message.refusal is not None:
            self.set_caption(message.refusal.reason)
            return
        found = message.value
        self.flows = found.flows
        table = self.query_one("#flows-table", DataTable)
        table.clear()
        for flow in found.flows:
            table.add_row(cell(channel_name(flow.channel) or flow.channel, 18), cell(flow.name, 36),
                          cell(flow.contact_endpoint_id, 36), cell(flow.id, 36), key=flow.id)
        caption = f"{len(found.flows)} flows on {len({f.channel for f in found.flows})} channels"
        if found.unread:
            caption += " · not listed: " + ", ".join(
                f"{channel_name(c) or c} ({why})" for c, why in found.unread.items())
        self.set_caption(caption)
