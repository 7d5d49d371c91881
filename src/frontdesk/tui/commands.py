"""The command palette (``ctrl+p``): every action of the screen in front, with its key.

Built from the bindings active where the focus is (so it follows context), plus the commands
a screen adds through ``palette_commands()`` (actions without a key, e.g. admin forms), plus
the app's global ones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from textual.app import App, SystemCommand
from textual.screen import Screen


class HasPaletteCommands(Protocol):
    """A screen that offers commands beyond its key bindings."""

    def palette_commands(self) -> Iterable[tuple[str, str, Callable[[], Any]]]:
        """(title, help, callback) of each command."""
        ...


def screen_commands(app: App[Any], screen: Screen[Any]) -> Iterable[SystemCommand]:
    """Commands of ``screen``: its active bindings (not the app's own: the app lists those
    under clearer names), then its own extra commands."""
    seen: set[str] = set()
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if not binding.description or binding.action in seen or not active.enabled \
                or active.node is app:
            continue
        seen.add(binding.action)
        node = active.node
        action = binding.action

        def run(action: str = action, node: Any = node) -> None:
            app.call_later(app.run_action, action, node)

        display_key = app.get_key_display(binding) if hasattr(app, "get_key_display") else key
        yield SystemCommand(binding.description, f"key: {display_key}", run)
    extra = getattr(screen, "palette_commands", None)
    if callable(extra):
        for title, help_text, callback in extra():
            yield SystemCommand(title, help_text, callback)


def once_each(commands: Iterable[SystemCommand]) -> Iterable[SystemCommand]:
    """Each title once (the first, most specific one wins: two bindings may share a name)."""
    titles: set[str] = set()
    for command in commands:
        title = command.title.casefold()
        if title not in titles:
            titles.add(title)
            yield command
