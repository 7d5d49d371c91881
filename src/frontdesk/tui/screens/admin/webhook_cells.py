"""What Admin → Webhooks shows in its tables' cells: an event's name, its last delivery, and
a table refilled with columns as wide as their widest cell."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rich.text import Text

from ....api.models import EventDeliveryStatus
from ... import clock
from ...widgets.safe import DataTable
from ..shared.common import cell

__all__ = ["event_name", "refill", "status_cells", "when_shown"]


def when_shown(moment: Any) -> str:
    """A delivery's time as the section shows it ("" when there is none)."""
    return clock.shown(moment, "day") if isinstance(moment, datetime) else ""


def event_name(event: str) -> str:
    """An event as the section lists it: ``ConversationClosed`` is ``Closed``."""
    return event.removeprefix("Conversation") or event


def status_cells(status: EventDeliveryStatus, answer_width: int = 40
                 ) -> tuple[Text, Text, Text]:
    """When, how it went and what the receiver said, for one event."""
    detail = status.delivery_status
    if detail.type != "DeliveryDetail":
        return Text("—", style="dim"), Text("no recent delivery", style="dim"), Text("")
    ok = bool(detail.success)
    outcome = Text(f"{'ok' if ok else 'failed'} {detail.response_code or ''}".strip(),
                   style="green" if ok else "bold red")
    return (Text(when_shown(detail.delivery_timestamp)), outcome,
            cell(detail.response_text, answer_width))


def refill(table: DataTable[Any], columns: tuple[tuple[str, str], ...],
           rows: list[tuple[str, tuple[Text, ...]]]) -> None:
    """Replace a table's rows, each column exactly as wide as its label or widest cell (a
    width that fitted an earlier terminal size is not kept)."""
    table.clear(columns=True)
    for index, (label, key) in enumerate(columns):
        width = max([len(label), *(cells[index].cell_len for _, cells in rows)])
        table.add_column(label, key=key, width=width)
    for key, cells in rows:
        table.add_row(*cells, key=key)
