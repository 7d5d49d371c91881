"""Keeping a DataTable of live rows in step with the store, touching as little as possible
(the Team and Queues modes' tables): cells are compared as (text, style) before one is
updated, and the rows on screen are what the store spends its requests on."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ...widgets.safe import DataTable

__all__ = ["Cell", "TableRows"]

Cell = tuple[str, str]  # (text, style): compared before a cell is touched


class TableRows:
    """Keeps a DataTable in step with keyed rows of (text, style) cells, touching little.

    Same keys in the same order: only the cells whose text or style changed are updated.
    Otherwise the rows are laid again, the cursor stays on its row (by key) and that row
    stays at the same height on screen, so a live change does not throw the reader off.
    """

    def __init__(self) -> None:
        self.order: list[str] = []
        self.cells: dict[str, tuple[Cell, ...]] = {}

    def forget(self) -> None:
        """The columns were rebuilt: the next sync lays every row."""
        self.order = []
        self.cells = {}

    def key_at(self, index: int) -> str | None:
        """The key of the row at ``index``."""
        return self.order[index] if 0 <= index < len(self.order) else None

    def sync(self, table: DataTable[Any], order: list[str],
             cells: dict[str, tuple[Cell, ...]], *, force: bool = False) -> None:
        """Show ``cells`` in ``order``."""
        if order == self.order and not force:
            self.update(table, cells)
            return
        cursor_key = self.key_at(table.cursor_row)
        offset = table.cursor_row - int(table.scroll_y)
        scroll = int(table.scroll_y)
        table.clear()
        for key in order:
            table.add_row(*(Text(text, style=style) for text, style in cells[key]), key=key)
        self.order = list(order)
        self.cells = dict(cells)
        if cursor_key in cells:
            index = order.index(cursor_key)
            table.move_cursor(row=index, animate=False)
            scroll = max(0, index - offset)
        if scroll:
            table.call_after_refresh(table.scroll_to, y=scroll, animate=False)

    def update(self, table: DataTable[Any], cells: dict[str, tuple[Cell, ...]]) -> None:
        """Update the cells that differ from what is shown (rows known to the table only)."""
        keys = [str(column.key.value) for column in table.ordered_columns]
        for key, new in cells.items():
            old = self.cells.get(key)
            if old is None or old == new:
                continue
            for index, (column_key, cell) in enumerate(zip(keys, new, strict=True)):
                if old[index] != cell:
                    table.update_cell(key, column_key, Text(cell[0], style=cell[1]))
            self.cells[key] = new

    def visible(self, table: DataTable[Any]) -> list[str] | None:
        """The keys of the rows on screen now (None before the table is laid out)."""
        height = table.size.height - 1  # the header row
        if height <= 0 or not self.order:
            return None
        first = int(table.scroll_y)
        return self.order[first:first + height]
