"""Help: the keys of the focused context and of the whole app, and how to work a conversation."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen

from ...registry import owns_bindings
from ...widgets.conversation_cells import (
    AGENT_MARK,
    CUSTOMER_MARK,
    DRAFT_MARK,
    MARKED,
    STATE_GLYPHS,
    UNREAD_MARK,
)
from ...widgets.safe import Static

GUIDE = """\
Working a conversation, from the queue to closed:
  1  Inbox, then the Queue view (tab / shift+tab switch views)
  j/k move, enter opens the thread, c claims it (C takes it over from someone else)
  i or tab writes a reply; ctrl+s sends it; esc leaves the composer
  t tags, T transfers to a queue, f follows up, x closes (X without asking), R reopens
  J/K next / previous conversation without leaving the thread, esc goes back
Everywhere: 1-5 modes, ctrl+p every command, p my presence, O the outbox, ? this help,
ctrl+q quit.
"""


#: what each state glyph of the lists means, and the colour it is painted in there
STATE_LEGEND = (("Open", "Open: someone works on it, or it waits in a queue", "green"),
                ("Pending", "Pending: followed up, opens again at its time", "yellow"),
                ("AwaitingPending", "Awaiting pending", "yellow"),
                ("Closed", "Closed", "dim"))


def legend() -> Text:
    """The marks of the conversation lists: state glyphs, the draft mark, the mark of a row
    marked for an action on many, tag colours."""
    out = Text("What the marks in the lists mean:\n", style="bold")
    for state, meaning, style in STATE_LEGEND:
        out.append(f"  {STATE_GLYPHS[state]} ", style=style)
        out.append(meaning + "\n")
    out.append(f"  {DRAFT_MARK} ", style="bold")
    out.append("after the id: a draft reply is waiting in the composer\n")
    out.append(f"  {MARKED} ", style="bold")
    out.append("before the state: marked (space); c x t T f B then act on every marked one. "
               "Marks are kept by conversation, also when it leaves the view; esc clears\n")
    out.append(f"  {UNREAD_MARK} ", style="bold")
    out.append("in Turn: the customer wrote since you last read it (what was written "
               "before your first start counts as read)\n")
    out.append(f"  {CUSTOMER_MARK} 12m ", style="bold")
    out.append("the customer wrote last, waiting 12 min (of open hours when the organisation "
               "has a schedule; yellow from 1 h, red from 4 h)\n")
    out.append(f"  {AGENT_MARK} ", style="bold")
    out.append("an agent wrote last: waiting on the customer\n")
    out.append("  tags ", style="bold")
    out.append("are painted in their own colour (Admin → Tags sets it)\n")
    out.append("  outbox N ", style="bold yellow")
    out.append("in the header: replies not sent yet (O or a click opens the outbox)\n")
    return out


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
            yield Static(legend(), id="help-legend")
            yield Static(Text(f"Keys — {self.context}", style="bold"))
            yield Static(table)
            yield Static(Text(GUIDE))
