"""A screen's own palette commands: each an entry (title, help line, the screen's action),
given to the app's command palette as (title, help, callback).

Kept apart from the shared tables and stores (``common``) so that a screen drawn in the first
frame (the inbox) can list palette commands without loading them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

from textual.dom import DOMNode

__all__ = ["PaletteCommands", "PaletteEntry", "palette_of", "section_palette"]

#: What ``palette_commands()`` gives the app's palette: (title, help, callback).
PaletteCommands = Iterator[tuple[str, str, Callable[[], Any]]]


class PaletteEntry(NamedTuple):
    """One palette command of a screen: its title, a help line, and the screen's action
    (``"tags_new"`` runs ``action_tags_new``)."""

    title: str
    help: str
    action: str


def section_palette(section: str, *entries: tuple[str, str, str]
                    ) -> tuple[PaletteEntry, ...]:
    """One section's palette entries from its table of (what, help, name): titled
    ``Section: what``, each running the screen's ``palette(name)`` (which shows the section,
    then runs ``action_<name>``)."""
    return tuple(PaletteEntry(f"{section}: {what}", help_line, f"palette({name!r})")
                 for what, help_line, name in entries)


def palette_of(node: DOMNode, entries: Iterable[PaletteEntry]) -> PaletteCommands:
    """(title, help, callback) of each entry, run as an action of ``node``."""
    for entry in entries:

        def run(action: str = entry.action) -> None:
            node.app.call_later(node.app.run_action, action, node)

        yield entry.title, entry.help, run
