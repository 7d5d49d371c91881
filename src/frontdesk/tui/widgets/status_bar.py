"""The header: profile, my presence and channels, business hours, connection, outbox count,
and the local disk when it cannot be written."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ...text import one_line


class StatusBar(Widget):
    """One line at the top of every screen, kept current by the app."""

    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; color: $text; padding: 0 1; }
    """

    profile: reactive[str] = reactive("")
    presence: reactive[str] = reactive("")
    hours: reactive[str] = reactive("")
    connection: reactive[str] = reactive("connecting")
    outbox: reactive[int] = reactive(0)
    mode: reactive[str] = reactive("")
    #: what keeps the local database from being written ("disk full"), "" when nothing
    disk: reactive[str] = reactive("")

    def render(self) -> Text:
        """Left: app, profile and mode; right: presence, hours, connection and outbox."""
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append("frontdesk", style="bold")
        if self.profile:
            line.append(" · " + one_line(self.profile, 24))
        if self.mode:
            line.append(" · " + self.mode, style="bold")
        right = Text(no_wrap=True)
        if self.presence:  # words from the service: cleaned like all its text
            right.append(one_line(self.presence) + "   ")
        if self.hours:
            right.append(one_line(self.hours) + "   ")
        style = {"live": "green", "connecting": "yellow"}.get(self.connection, "bold red")
        right.append("● " + self.connection, style=style)
        if self.outbox:
            right.append(f"   outbox {self.outbox}", style="bold yellow")
        if self.disk:
            right.append(f"   ● {self.disk} — not saving", style="bold red")
        gap = max(1, self.size.width - line.cell_len - right.cell_len)
        line.append(" " * gap)
        line.append_text(right)
        return line
