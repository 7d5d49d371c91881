"""What the People, Admin, ratings and attributes screens share: the palette entries each
screen declares (so the palette, the help and the reachability list agree), the session and
stores of the app, and small table helpers.

A screen lists its palette commands in a class attribute ``PALETTE`` (title, help, action);
``palette_commands()`` turns them into the palette's callbacks. Being a class attribute, the
list can be checked without running the app (tests/tui/test_reachability.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.dom import DOMNode

from ....store.admin import AdminStore
from ....store.people import PeopleStore
from ....text import one_line
from ...registry import owns_bindings
from ...widgets.safe import DataTable

if TYPE_CHECKING:
    from ....store.session import Session


def session_of(node: DOMNode) -> Session:
    """The app's session (every screen of these modes needs one)."""
    session = getattr(node.app, "session", None)
    if session is None:
        raise RuntimeError("the console has no session")
    return session  # type: ignore[no-any-return]


def people_store(node: DOMNode) -> PeopleStore:
    """The People store of the app's session."""
    return session_of(node).people


def admin_store(node: DOMNode) -> AdminStore:
    """The Admin store of the app's session."""
    return session_of(node).admin


def cell(text: str | None, width: int | None = None, style: str = "") -> Text:
    """A table cell from untrusted text: one line, cleaned, never parsed as markup."""
    return Text(one_line(text or "", width), style=style, no_wrap=True, overflow="ellipsis")


def highlighted_key(table: DataTable[Any]) -> str | None:
    """The key of the highlighted row (None for an empty table)."""
    if table.row_count == 0:
        return None
    from textual.coordinate import Coordinate

    row = min(max(table.cursor_row, 0), table.row_count - 1)
    key = table.coordinate_to_cell_key(Coordinate(row, 0)).row_key.value
    return key if isinstance(key, str) else None


def move_to(table: DataTable[Any], key: str | None) -> None:
    """Highlight the row with ``key``, when there is one."""
    if key is None:
        return
    from textual.widgets.data_table import RowDoesNotExist

    try:
        index = table.get_row_index(key)
    except RowDoesNotExist:
        return
    table.move_cursor(row=index)


@dataclass(frozen=True)
class Column:
    """A column of a :class:`FittedTable`: at least ``minimum`` cells wide, plus ``share``
    parts of the room left over."""

    label: str
    minimum: int
    share: int = 0


Cell = str | Text


@owns_bindings
class FittedTable(DataTable[Any]):
    """A row table whose columns share the width it has (so a large terminal shows more of
    each cell and a small one still shows every column); cells are cut with … to fit, and the
    rows are laid out again when the width changes, the highlighted row kept. ``j``/``k``
    move like the arrows, as in every other list."""

    HELP_NAME = "Table"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", id="table.down", show=False),
        Binding("k", "cursor_up", "Up", id="table.up", show=False),
    ]

    def __init__(self, columns: Iterable[Column], *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, cursor_type="row", zebra_stripes=True)
        self.specs = list(columns)
        self._fitted_rows: list[tuple[str, list[Cell]]] = []
        self._laid_out_for = -1

    def widths(self, total: int) -> list[int]:
        """Each column's width for a table ``total`` cells wide."""
        padding = 2 * len(self.specs) + 2  # cell padding, and the scrollbar
        minimum = sum(c.minimum for c in self.specs)
        room = total - padding - minimum
        if room < 0:
            return self._narrowed(-room) or self._shrunk(total - padding, minimum)
        shares = sum(c.share for c in self.specs) or 1
        return [c.minimum + room * c.share // shares for c in self.specs]

    def _narrowed(self, deficit: int) -> list[int] | None:
        """Widths ``deficit`` cells narrower than the least, taken from the columns that
        share the room, the largest share first, each down to half its least: a column that
        takes no share (a date, an id) keeps its width, so its value is never cut (80
        columns). None when that is not enough."""
        widths = [c.minimum for c in self.specs]
        for index in sorted(range(len(self.specs)), key=lambda i: -self.specs[i].share):
            if not deficit or not self.specs[index].share:
                break
            give = min(deficit, widths[index] - max(4, widths[index] // 2))
            widths[index] -= give
            deficit -= give
        return None if deficit else widths

    def _shrunk(self, usable: int, minimum: int) -> list[int]:
        """A very narrow terminal: every column gives up its part."""
        usable = max(usable, 4 * len(self.specs))
        return [max(4, c.minimum * usable // minimum) for c in self.specs]

    def fill(self, rows: Iterable[tuple[str, list[Cell]]], select: str | None = None) -> None:
        """Show ``rows`` (key, cells), highlighting ``select`` (or the row that was)."""
        keep = select or highlighted_key(self)
        self._fitted_rows = list(rows)
        self._lay_out(keep)

    def _lay_out(self, keep: str | None) -> None:
        width = self.size.width or 100
        self._laid_out_for = width
        widths = self.widths(width)
        self.clear(columns=True)
        for spec, size in zip(self.specs, widths, strict=True):
            self.add_column(spec.label, width=size)
        for key, cells in self._fitted_rows:
            self.add_row(*(_fit(value, size) for value, size in zip(cells, widths,
                                                                   strict=False)), key=key)
        move_to(self, keep)

    def on_resize(self) -> None:
        """Lay the rows out again for the new width."""
        if self.size.width and self.size.width != self._laid_out_for and self.specs:
            self._lay_out(highlighted_key(self))


def _fit(value: Cell, width: int) -> Text:
    if isinstance(value, Text):
        text = value.copy()
        text.no_wrap = True
        text.truncate(width, overflow="ellipsis")
        return text
    return Text(one_line(value, width), no_wrap=True)
