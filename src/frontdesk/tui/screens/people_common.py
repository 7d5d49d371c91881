"""What the People, Admin, ratings and attributes screens share: the palette entries each
screen declares (so the palette, the help and the reachability list agree), the session and
stores of the app, and small table helpers.

A screen lists its palette commands in a class attribute ``PALETTE`` (title, help, action);
``palette_commands()`` turns them into the palette's callbacks. Being a class attribute, the
list can be checked without running the app (tests/tui/test_reachability.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.dom import DOMNode
from textual.widgets import DataTable

from ...store.admin import AdminStore, admin_of
from ...store.people import PeopleStore, people_of
from ...text import one_line

if TYPE_CHECKING:
    from ...store.session import Session


#: What ``palette_commands()`` gives the app's palette: (title, help, callback).
PaletteCommands = Iterator[tuple[str, str, Callable[[], Any]]]


@dataclass(frozen=True)
class PaletteEntry:
    """One palette command of a screen: its title, a help line, and the screen's action
    (``"tags_new"`` runs ``action_tags_new``)."""

    title: str
    help: str
    action: str


def palette_of(node: DOMNode, entries: Iterable[PaletteEntry]) -> PaletteCommands:
    """(title, help, callback) of each entry, run as an action of ``node``."""
    for entry in entries:

        def run(action: str = entry.action) -> None:
            node.app.call_later(node.app.run_action, action, node)

        yield entry.title, entry.help, run


def session_of(node: DOMNode) -> Session:
    """The app's session (every screen of these modes needs one)."""
    session = getattr(node.app, "session", None)
    if session is None:
        raise RuntimeError("the console has no session")
    return session  # type: ignore[no-any-return]


def people_store(node: DOMNode) -> PeopleStore:
    """The People store of the app's session."""
    return people_of(session_of(node))


def admin_store(node: DOMNode) -> AdminStore:
    """The Admin store of the app's session."""
    return admin_of(session_of(node))


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
    try:
        index = table.get_row_index(key)
    except Exception:
        return
    table.move_cursor(row=index)
