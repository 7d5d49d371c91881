"""DataTable, its cells and labels always inert."""

from __future__ import annotations

from typing import Any, TypeVar

from textual import widgets as textual_widgets

from . import inert

V = TypeVar("V")


class DataTable(textual_widgets.DataTable[V]):
    """``textual.widgets.DataTable`` whose cells, row labels and column labels are always
    :func:`inert` (a string cell is still markup: escape service text in it)."""

    def add_column(self, label: Any, *args: Any, **kwargs: Any) -> Any:
        return super().add_column(inert(label), *args, **kwargs)

    def add_row(self, *cells: Any, **kwargs: Any) -> Any:
        if "label" in kwargs:
            kwargs["label"] = inert(kwargs["label"])
        return super().add_row(*(inert(c) for c in cells), **kwargs)

    def update_cell(self, row_key: Any, column_key: Any, value: Any, **kwargs: Any) -> None:
        super().update_cell(row_key, column_key, inert(value), **kwargs)

    def update_cell_at(self, coordinate: Any, value: Any, **kwargs: Any) -> None:
        super().update_cell_at(coordinate, inert(value), **kwargs)
