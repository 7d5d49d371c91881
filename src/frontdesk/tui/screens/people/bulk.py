"""The per-row report of a bulk action from a CSV (agents created; end users created or
updated): every line, done or not, and why."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen

from ....store.agents_csv import BulkReport
from ....text import safe
from ...registry import owns_bindings
from ...widgets.safe import DataTable, Label
from ..shared.common import cell


@owns_bindings
class BulkReportScreen(ModalScreen[None]):
    """One row per CSV line: line number, name, email, ✓ created / ✗ and the reason."""

    HELP_NAME = "Bulk report"
    BINDINGS = [Binding("escape,enter", "close", "Close", id="bulk.close")]

    def __init__(self, report: BulkReport, summary: str = "") -> None:
        super().__init__()
        self.report = report
        #: the first line (the agents' wording when not given)
        self.summary = summary or (f"Agents from the CSV: {report.created} created, "
                                   f"{report.failed} not")

    def compose(self) -> ComposeResult:
        report = self.report
        with Vertical(id="bulk-box"):
            yield Label(safe(self.summary), id="bulk-summary")
            table: DataTable[Any] = DataTable(id="bulk-table", cursor_type="row")
            table.add_columns("Line", "Name", "Email", "", "What happened")
            for row in report.rows:
                mark = Text("✓", style="green") if row.ok else Text("✗", style="bold red")
                table.add_row(str(row.line), cell(row.display_name or "—", 28),
                              cell(row.email or "—", 36), mark, cell(row.detail, 70),
                              key=str(row.line))
            yield table
            yield Label("esc / enter: close", id="bulk-hint")

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()

    def action_close(self) -> None:
        """Close the report."""
        self.dismiss(None)
