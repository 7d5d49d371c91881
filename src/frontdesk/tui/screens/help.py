"""Help: the keys of the focused context and of the whole app, and how to work a conversation."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen

from ..registry import owns_bindings
from ..widgets.safe import Static

GUIDE = """\
Working a conversation, from the queue to closed:
  1  Inbox, then the Queue view (tab / shift+tab switch views)
  j/k move, enter opens the thread, c claims it (C takes it over from someone else)
  i or tab writes a reply; ctrl+s sends it; esc leaves the composer
  t tags, T transfers to a queue, f follows up, x closes (X without asking), R reopens
  J/K next / previous conversation without leaving the thread, esc goes back
Everywhere: 1-5 modes, ctrl+p every command, p my presence, ? this help, ctrl+q quit.
"""


@owns_bindings
class HelpScreen(ModalScreen[None]):
    """The keys that work here, with their ids (to remap them in the config file)."""

    HELP_NAME = "Help"
    BINDINGS = [Binding("escape,question_mark,f1,q", "dismiss", "Close help", id="help.close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 96; max-width: 100%; height: 90%;
        border: thick $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, context: str, rows: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.context = context
        self.rows = rows

    def compose(self) -> ComposeResult:
        table = Table(box=None, expand=True, show_header=True, header_style="bold")
        table.add_column("key", no_wrap=True)
        table.add_column("does")
        table.add_column("id (remap in config.toml [keys])", style="dim", no_wrap=True)
        for key, description, binding_id in self.rows:
            table.add_row(key, description, binding_id)
        with VerticalScroll():
            yield Static(Text(f"Keys — {self.context}", style="bold"))
            yield Static(table)
            yield Static(Text(GUIDE))
