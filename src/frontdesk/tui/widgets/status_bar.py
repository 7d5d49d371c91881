"""The header: profile (and, through a team gateway, "via gateway · agent"), the mode,
"N new" (conversations alerted and not read yet), my presence and channels, business hours,
connection, outbox count, and the local disk when it cannot be written.

Each is a segment with a rank: on a narrow terminal the lowest-ranked give way first (hours,
then presence, the profile, the app's name, the mode), so the connection's state, the outbox
count and the disk's state are shown at every width the console supports (80 columns).
A new segment takes a rank between those it matters more and less than."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ...store.session import HoursNow
from ...text import one_line
from .. import clock


class Rank(IntEnum):
    """How long a segment of the status bar stays as the terminal narrows: the lowest
    gives way first; ``KEPT`` never does."""

    HOURS = 10
    PRESENCE = 20
    PROFILE = 30
    NAME = 40
    ROLE = 45
    MODE = 50
    NEW = 60
    KEPT = 100


class Segment(NamedTuple):
    """One thing the status bar says, on the left side or the right (a named tuple: a
    frozen dataclass costs some 5 M instructions to make, before the first frame)."""

    text: Text
    rank: Rank
    left: bool = True
    #: the outbox count (a click on it opens the outbox)
    outbox: bool = False


#: terminal widths from which the header says "via gateway · agent" in full (below: "agent",
#: so that the connection state keeps its place at 80 and 100 columns)
VIA_IN_FULL_FROM = 120

LEFT_GAP = " · "
RIGHT_GAP = "   "


def fitted(segments: list[Segment], width: int) -> list[Segment]:
    """``segments`` without the lowest-ranked ones, one by one, until the rest fit in
    ``width`` cells with their gaps and a space between the sides; the kept ones stay
    whatever the width."""
    shown = list(segments)

    def cells() -> int:
        lefts = [s for s in shown if s.left]
        rights = [s for s in shown if not s.left]
        return (sum(s.text.cell_len for s in shown) + len(LEFT_GAP) * max(0, len(lefts) - 1)
                + len(RIGHT_GAP) * max(0, len(rights) - 1) + 1)

    while cells() > width:
        droppable = [s for s in shown if s.rank < Rank.KEPT]
        if not droppable:
            break
        shown.remove(min(droppable, key=lambda s: s.rank))
    return shown


def describe_hours(hours: HoursNow | None) -> str:
    """``Open · closes 17:00`` or ``Closed · opens Mon 08:00``, in the user's local time (the
    schedule's own zone may be another)."""
    if hours is None:
        return ""
    if hours.is_open:
        return "Open" if hours.until is None else "Open · closes " + clock.when(hours.until)
    return "Closed" if hours.until is None else "Closed · opens " + clock.when(hours.until)


class StatusBar(Widget):
    """One line at the top of every screen, kept current by the app."""

    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; color: $text; padding: 0 1; }
    """

    profile: reactive[str] = reactive("")
    #: how the console is signed in when not with the service's own key ("via gateway ·
    #: agent"), "" otherwise
    via: reactive[str] = reactive("")
    #: conversations alerted whose thread has not been opened since ("2 new")
    new: reactive[int] = reactive(0)
    presence: reactive[str] = reactive("")
    hours: reactive[str] = reactive("")
    connection: reactive[str] = reactive("connecting")
    outbox: reactive[int] = reactive(0)
    mode: reactive[str] = reactive("")
    #: what keeps the local database from being written ("disk full"), "" when nothing
    disk: reactive[str] = reactive("")

    class OutboxClicked(Message):
        """The outbox count was clicked (the app opens the outbox)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        #: where the outbox count starts on the line (None: not shown)
        self._outbox_at: tuple[int, int] | None = None

    def segments(self) -> list[Segment]:
        """What the line says, in the order it is shown: the left side (app, profile, mode)
        then the right (presence, hours, connection, outbox, disk), each with its rank."""
        left = [Segment(Text("frontdesk", style="bold"), Rank.NAME)]
        if self.profile:
            left.append(Segment(Text(one_line(self.profile, 24)), Rank.PROFILE))
        if self.via:  # narrower than VIA_IN_FULL_FROM: the role alone ("agent", "agent ·
            # polling")
            via = self.via if self.size.width >= VIA_IN_FULL_FROM else \
                self.via.removeprefix("via gateway · ")
            left.append(Segment(Text(one_line(via, 32), style="italic"), Rank.ROLE))
        if self.mode:
            left.append(Segment(Text(self.mode, style="bold"), Rank.MODE))
        right: list[Segment] = []
        if self.new:
            right.append(Segment(Text(f"{self.new} new", style="bold magenta"), Rank.NEW,
                                 left=False))
        if self.presence:  # words from the service: cleaned like all its text
            right.append(Segment(Text(one_line(self.presence)), Rank.PRESENCE, left=False))
        if self.hours:
            right.append(Segment(Text(one_line(self.hours)), Rank.HOURS, left=False))
        style = {"live": "green", "connecting": "yellow"}.get(self.connection, "bold red")
        right.append(Segment(Text("● " + self.connection, style=style), Rank.KEPT, left=False))
        if self.outbox:
            right.append(Segment(Text(f"outbox {self.outbox} (O)", style="bold yellow"),
                                 Rank.KEPT, left=False, outbox=True))
        if self.disk:
            right.append(Segment(Text(f"● {self.disk} — not saving", style="bold red"),
                                 Rank.KEPT, left=False))
        return left + right

    def render(self) -> Text:
        """The segments that fit the width, the left ones joined by `` · `` and the right ones
        by three spaces, flush right; the lowest-ranked give way first (the connection, the
        outbox count and the disk's state never do)."""
        shown = fitted(self.segments(), self.size.width)
        line = Text(no_wrap=True, overflow="ellipsis")
        right = Text(no_wrap=True)
        outbox_at: tuple[int, int] | None = None
        for segment in shown:
            side = line if segment.left else right
            if side.cell_len:
                side.append(LEFT_GAP if segment.left else RIGHT_GAP)
            if segment.outbox:
                outbox_at = (right.cell_len, right.cell_len + segment.text.cell_len)
            side.append_text(segment.text)
        gap = max(1, self.size.width - line.cell_len - right.cell_len)
        line.append(" " * gap)
        start = line.cell_len
        line.append_text(right)
        self._outbox_at = (None if outbox_at is None
                           else (start + outbox_at[0], start + outbox_at[1]))
        return line

    def on_click(self, event: events.Click) -> None:
        """A click on the outbox count asks the app to open the outbox."""
        at = self._outbox_at
        if at is not None and at[0] - 1 <= event.x < at[1]:
            event.stop()
            self.post_message(self.OutboxClicked())
