"""The header: profile (and, through a team gateway, "via gateway · agent"), my presence and
channels, business hours, connection, outbox count, and the local disk when it cannot be
written."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ...store.session_topics import HoursNow
from ...text import one_line
from .. import clock


def describe_hours(hours: HoursNow | None) -> str:
    """``Open · closes 17:00`` or ``Closed · opens Mon 08:00``, in the user's local time (the
    schedule's own zone may be another)."""
    if hours is None:
        return ""
    if hours.is_open:
        return "Open" if hours.until is None else "Open · closes " + clock.when(hours.until)
    return "Closed" if hours.until is None else "Closed · opens " + clock.when(hours.until)


#: terminal widths from which the header says "via gateway · agent" in full (below: "agent",
#: leaving the connection's state room)
VIA_IN_FULL_FROM = 120


class StatusBar(Widget):
    """One line at the top of every screen, kept current by the app."""

    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; color: $text; padding: 0 1; }
    """

    profile: reactive[str] = reactive("")
    #: how the console is signed in when not with the service's own key ("via gateway ·
    #: agent"), "" otherwise
    via: reactive[str] = reactive("")
    presence: reactive[str] = reactive("")
    hours: reactive[str] = reactive("")
    connection: reactive[str] = reactive("connecting")
    outbox: reactive[int] = reactive(0)
    #: conversations alerted whose thread has not been opened since ("2 new")
    new: reactive[int] = reactive(0)
    mode: reactive[str] = reactive("")
    #: what keeps the local database from being written ("disk full"), "" when nothing
    disk: reactive[str] = reactive("")

    class OutboxClicked(Message):
        """The outbox count was clicked (the app opens the outbox)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        #: where the outbox count starts on the line (None: not shown)
        self._outbox_at: tuple[int, int] | None = None

    def render(self) -> Text:
        """Left: app, profile and mode; right: presence, hours, connection and outbox."""
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append("frontdesk", style="bold")
        if self.profile:
            line.append(" · " + one_line(self.profile, 24))
        if self.via:  # narrower than VIA_IN_FULL_FROM: the role alone ("agent")
            via = self.via if self.size.width >= VIA_IN_FULL_FROM else \
                self.via.rsplit(" · ", 1)[-1]
            line.append(" · " + one_line(via, 32), style="italic")
        if self.mode:
            line.append(" · " + self.mode, style="bold")
        right = Text(no_wrap=True)
        if self.new:
            right.append(f"{self.new} new", style="bold magenta")
            right.append("   ")
        if self.presence:  # words from the service: cleaned like all its text
            right.append(one_line(self.presence) + "   ")
        if self.hours:
            right.append(one_line(self.hours) + "   ")
        style = {"live": "green", "connecting": "yellow"}.get(self.connection, "bold red")
        right.append("● " + self.connection, style=style)
        outbox_at: int | None = None
        if self.outbox:
            right.append("   ")
            outbox_at = right.cell_len
            right.append(f"outbox {self.outbox} (O)", style="bold yellow")
        outbox_end = right.cell_len
        if self.disk:
            right.append(f"   ● {self.disk} — not saving", style="bold red")
        gap = max(1, self.size.width - line.cell_len - right.cell_len)
        line.append(" " * gap)
        start = line.cell_len
        line.append_text(right)
        self._outbox_at = (None if outbox_at is None
                           else (start + outbox_at, start + outbox_end))
        return line

    def on_click(self, event: events.Click) -> None:
        """A click on the outbox count asks the app to open the outbox."""
        at = self._outbox_at
        if at is not None and at[0] - 1 <= event.x < at[1]:
            event.stop()
            self.post_message(self.OutboxClicked())
