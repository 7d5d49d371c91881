"""The delivery log of one webhook event: the latest attempts, newest first, and the
highlighted attempt's body (JSON indented) below."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen

from ....api.models import EventDeliveryLog
from ....text import one_line, safe
from ...registry import owns_bindings
from ...widgets.safe import DataTable, Label, Static
from ..shared.common import cell
from .webhook_cells import when_shown

__all__ = ["DeliveryLogScreen"]


@owns_bindings
class DeliveryLogScreen(ModalScreen[None]):
    """The latest attempts to deliver one event, newest first; the highlighted attempt's
    body below. ``esc`` closes."""

    HELP_NAME = "Delivery log"
    BINDINGS = [Binding("escape", "dismiss", "Close", id="webhooks.log.close")]

    def __init__(self, hook_name: str, event: str, entries: list[EventDeliveryLog]) -> None:
        super().__init__()
        self.hook_name, self.event, self.entries = hook_name, event, entries

    def compose(self) -> ComposeResult:
        with Vertical(id="delivery-log-box"):
            yield Label(safe(f"{one_line(self.hook_name, 40)} · {self.event}: "
                             f"{len(self.entries)} "
                             f"{'attempt' if len(self.entries) == 1 else 'attempts'} "
                             "(newest first)"),
                        id="delivery-log-title")
            table: DataTable[Any] = DataTable(id="delivery-log", cursor_type="row")
            table.add_columns("When", "Result", "Answer")
            for index, entry in enumerate(self.entries):
                detail = entry.delivery_detail
                table.add_row(Text(when_shown(detail.delivery_timestamp)),
                              Text(f"{'ok' if detail.success else 'failed'} "
                                   f"{detail.response_code}",
                                   style="green" if detail.success else "bold red"),
                              cell(detail.response_text, 60), key=str(index))
            yield table
            yield Static("", id="delivery-payload")

    def on_mount(self) -> None:
        self.query_one("#delivery-log", DataTable).focus()
        self._show(0)

    @on(DataTable.RowHighlighted, "#delivery-log")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show(event.cursor_row)

    def _show(self, index: int) -> None:
        body = self.query_one("#delivery-payload", Static)
        if not 0 <= index < len(self.entries):
            body.update("No delivery of this event yet.")
            return
        text = self.entries[index].payload
        with contextlib.suppress(ValueError):
            text = json.dumps(json.loads(text), indent=2, ensure_ascii=False)
        body.update(safe(text[:20_000]))
