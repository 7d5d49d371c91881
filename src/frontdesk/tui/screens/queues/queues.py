"""Mode 2, Queues: every queue with its chat channels' availability, and where a conversation
stands in its queue.

One row per queue: name, default flag, priority, member count, how many conversations wait
in it and for how long the oldest has waited ("12 · 25 min"), and the availability of the
three chat channels (Ada, Kindly and DigitalGenius chat: "Available" or "Not available
(N waiting)"; one column each on a wide terminal, one summary column on a narrow one).
``m`` manages the highlighted queue's members; ``P`` (or the field under the table) takes a
conversation id and follows its position live until it leaves the queue.

Rows come from the store's ``queues`` topic (:mod:`frontdesk.store.queues`), which asks the
screen which queues are on screen so it spends requests on those; a tick where nothing moved
never reaches the screen, and a change touches only the cells that differ.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.events import Resize

from ....api.models import AVAILABILITY_CHANNELS
from ....channels import channel_name
from ....store.queue_rows import ChannelState, PositionState, QueueRow
from ....store.queues import POSITION_TOPIC, QUEUES_TOPIC, QueueWatch
from ....text import one_line
from ... import clock
from ...registry import owns_bindings
from ...store_changed import StoreChanged, store_change_handler
from ...widgets.safe import DataTable, Input, Label, Static
from ..shared.base import ModeScreen
from ..shared.table_rows import Cell, TableRows

if TYPE_CHECKING:
    from ....store.session import Session

#: From this table width on, each chat channel gets its own column.
WIDE = 130
SHORT_CHANNEL = {"adachat": "ada", "kindlychat": "kindly", "digitalgeniuschat": "dgenius"}



def channel_cell(state: ChannelState | None) -> Cell:
    """``Available`` / ``Not available (N waiting)`` / ``unknown`` / ``…`` (not asked yet)."""
    if state is None:
        return ("…", "dim")
    if state.available is None:
        return ("unknown", "dim")
    if state.available:
        return ("Available", "green")
    waiting = f" ({state.waiting} waiting)" if state.waiting is not None else ""
    return ("Not available" + waiting, "red" if state.waiting else "yellow")


def summary_cell(channels: tuple[ChannelState, ...]) -> Cell:
    """The three chat channels in one cell: one verdict when they agree, else each briefly."""
    if not channels:
        return ("…", "dim")
    chat = [c for c in channels if c.channel in AVAILABILITY_CHANNELS] or list(channels)
    first = chat[0]
    if all((c.available, c.waiting) == (first.available, first.waiting) for c in chat):
        text, style = channel_cell(first)
        return (text + (" (all 3)" if first.available else ""), style)
    parts = []
    for state in chat:
        name = SHORT_CHANNEL.get(state.channel, state.channel)
        if state.available is None:
            parts.append(f"{name} ?")
        elif state.available:
            parts.append(f"{name} ✓")
        else:
            parts.append(f"{name} ✗{state.waiting if state.waiting is not None else ''}")
    return (" · ".join(parts), "yellow")


def waiting_cell(row: QueueRow) -> Cell:
    """``12 · 25 min`` (how many wait, the oldest's wait), ``0``, ``…`` (not counted yet);
    ``200+`` beyond one page, ``≥ 25 min`` while the oldest is not known for sure."""
    if row.waiting is None:
        return ("…", "dim")
    if row.waiting == 0:
        return ("0", "dim")
    count = f"{row.waiting}+" if row.waiting_more else str(row.waiting)
    if row.oldest is None:
        return (count, "bold")
    age = clock.ago(row.oldest)
    return (f"{count} · {'' if row.oldest_exact else '≥ '}{age}", "bold")


def describe_position(state: PositionState | None, zone: Any = None) -> Text:
    """The line under the table about the followed conversation."""
    if state is None:
        return Text("type an id (or P): its place in its queue, live", style="dim")
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append(f"#{state.conversation_id}", style="bold")
    if state.problem and not state.checked:
        line.append(": " + one_line(state.problem, 80), style="red")
    elif not state.checked:
        line.append(": asking…", style="dim")
    elif not state.waiting:
        if state.problem:
            line.append(": " + one_line(state.problem, 80), style="yellow")
        elif state.was_waiting:
            line.append(" is no longer waiting (claimed, closed or moved)", style="green")
        else:
            line.append(" is not waiting in a queue", style="yellow")
    else:
        line.append(" · position ")
        line.append(str(state.position) if state.position is not None else "?", style="bold")
        if state.queue_name:
            line.append(" in " + one_line(state.queue_name, 30))
        if state.queued_at is not None:
            line.append(f" · queued {clock.shown(state.queued_at)} · waiting ")
            line.append(clock.ago(state.queued_at), style="bold")
    return line


@owns_bindings
class QueuesScreen(ModeScreen):
    """Queues mode: availability of every queue, members, and conversation positions."""

    MODE_NAME = "Queues"
    HELP_NAME = "Queues"
    TOPICS = (QUEUES_TOPIC, POSITION_TOPIC)
    AUTO_FOCUS = "#queues-table"
    NEEDS = {"members": "queues.add_members"}
    BINDINGS: ClassVar[list[Any]] = [
        Binding("m", "members", "Members", id="queues.members"),
        Binding("P", "position", "Position of #…", id="queues.position"),
        Binding("escape", "leave_position", "Back to the queues", id="queues.back",
                show=False),
        Binding("r", "refresh", "Refresh", id="queues.refresh"),
        Binding("j", "cursor(1)", "Down", id="queues.down", show=False),
        Binding("k", "cursor(-1)", "Up", id="queues.up", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._watch: QueueWatch | None = None
        self._wide: bool | None = None
        self._widths: tuple[int, ...] = ()
        self._table_rows = TableRows()
        self._painted: tuple[QueueRow, ...] | None = None
        self._shown: dict[str, Text] = {}

    # ------------------------------------------------------------------ building

    def compose_body(self) -> ComposeResult:
        table: DataTable[Text] = DataTable(id="queues-table", cursor_type="row")
        yield table
        with Horizontal(id="position-bar"):
            yield Label("Position of #", id="position-label")
            yield Input(placeholder="conversation id", id="position-input",
                        restrict=r"#?[0-9]*", max_length=20, compact=True)
            yield Static("", id="position-view")

    @property
    def session(self) -> Session | None:
        """The app's session (None in a console without one)."""
        return self.fd.session

    def _attach_store(self) -> QueueWatch | None:
        """Create the store's Queues topics on first show (before the base class watches)."""
        if self._watch is None and self.session is not None:
            self._watch = self.session.queues
            self._watch.visible = self._visible_ids
        return self._watch

    def on_mount(self) -> None:
        self._attach_store()
        self._layout(self.size.width)
        self.set_interval(30, self._refresh_waiting, name="queues waiting time")

    def on_unmount(self) -> None:
        if self._watch is not None and self._watch.visible == self._visible_ids:
            self._watch.visible = None

    def on_screen_resume(self) -> None:
        # ModeScreen watches the topics (once, however often Textual resumes the screen).
        self._attach_store()
        self._paint()
        self._paint_position()

    def on_resize(self, event: Resize) -> None:
        """Switch between one availability column and three when the width allows."""
        if self._layout(event.size.width):
            self._paint(force=True)

    # ------------------------------------------------------------------ live changes

    @store_change_handler
    def on_store_changed(self, message: StoreChanged) -> None:
        """Repaint the rows or the position line."""
        if message.topic == QUEUES_TOPIC:
            self._paint()
        elif message.topic == POSITION_TOPIC:
            self._paint_position()

    def _visible_ids(self) -> list[str] | None:
        """The queues on screen (the store spends its requests on these)."""
        try:
            table = self.query_one("#queues-table", DataTable)
        except NoMatches:  # not composed yet
            return None
        return self._table_rows.visible(table)

    def _paint_position(self) -> None:
        watch = self._watch
        state = watch.position if watch is not None else None
        zone = self.session.schedule_zone if self.session is not None else None
        text = describe_position(state, zone)
        if self._shown.get("position-view") != text:
            self._shown["position-view"] = text
            self.query_one("#position-view", Static).update(text)

    def _refresh_waiting(self) -> None:
        """Waiting times move on with the clock (repainted only where their text changes)."""
        if self.app.screen is self:
            self._paint_position()
            self._paint(ages=True)

    # ------------------------------------------------------------------ the table

    def _layout(self, width: int) -> bool:
        """Columns for ``width`` cells; True when they changed (columns rebuilt)."""
        wide = width >= WIDE
        narrow = width < 100  # "Waiting" alone heads its column: every column fits 80
        fixed = (8, 8, 8, 10 if narrow else 15)  # default, priority, members, waiting
        channel_columns = len(AVAILABILITY_CHANNELS) if wide else 1
        padding = 2 * (4 + channel_columns) + 2
        room = max(30 if narrow else 50, width - padding - sum(fixed))
        if wide:
            channel = max(18, min(28, room * 2 // 9))
            name = room - channel * channel_columns
            widths: tuple[int, ...] = (name, *fixed, *([channel] * channel_columns))
        else:
            channel = max(18, min(34, room // 2))
            widths = (room - channel, *fixed, channel)
        if widths == self._widths:
            return False
        self._wide = wide
        self._widths = widths
        table = self.query_one("#queues-table", DataTable)
        table.clear(columns=True)
        labels = [("name", "Queue"), ("default", "Default"), ("priority", "Priority"),
                  ("members", "Members"), ("waiting", "Waiting" if narrow else "Waiting, oldest")]
        if wide:
            labels += [(channel, channel_name(channel) or channel)
                       for channel in AVAILABILITY_CHANNELS]
        else:
            labels.append(("chat", "Chat availability"))
        for (key, label), column_width in zip(labels, widths, strict=True):
            table.add_column(label, key=key, width=column_width)
        self._table_rows.forget()
        return True

    def _row_cells(self, row: QueueRow) -> tuple[Cell, ...]:
        cells: list[Cell] = [
            (one_line(row.name, self._widths[0]), "bold"),
            ("default", "cyan") if row.is_default else ("", ""),
            (str(row.priority) if row.priority is not None else "—", ""),
            (str(row.members) if row.members is not None else "…",
             "" if row.members is not None else "dim"),
            waiting_cell(row),
        ]
        if self._wide:
            by_channel = {state.channel: state for state in row.channels}
            cells += [channel_cell(by_channel.get(channel)) if row.channels
                      else ("…", "dim") for channel in AVAILABILITY_CHANNELS]
        else:
            cells.append(summary_cell(row.channels))
        return tuple(cells)

    def _paint(self, *, force: bool = False, ages: bool = False) -> None:
        """Show the store's rows (``ages``: the same rows, their waiting times moved on)."""
        watch = self._watch
        rows = watch.rows if watch is not None else ()
        if rows == self._painted and not force and not ages:
            return
        self._painted = rows
        table = self.query_one("#queues-table", DataTable)
        self._table_rows.sync(table, [row.queue_id for row in rows],
                        {row.queue_id: self._row_cells(row) for row in rows}, force=force)

    def highlighted(self) -> QueueRow | None:
        """The queue under the cursor."""
        table = self.query_one("#queues-table", DataTable)
        queue_id = self._table_rows.key_at(table.cursor_row)
        if queue_id is None:
            return None
        watch = self._watch
        rows = watch.rows if watch is not None else ()
        return next((row for row in rows if row.queue_id == queue_id), None)

    # ------------------------------------------------------------------ actions

    def action_members(self) -> None:
        """Add and remove the highlighted queue's members."""
        row = self.highlighted()
        if row is None or self._watch is None:
            self.notify("No queue is highlighted.", severity="warning")
            return
        from .members import QueueMembersScreen

        self.app.push_screen(QueueMembersScreen(self._watch, row.queue_id, row.name))

    def action_position(self) -> None:
        """Put the cursor in the "position of #…" field."""
        field = self.query_one("#position-input", Input)
        field.focus()

    def action_leave_position(self) -> None:
        """Back from the position field to the table."""
        self.query_one("#queues-table", DataTable).focus()

    @on(Input.Submitted, "#position-input")
    def _position_typed(self, event: Input.Submitted) -> None:
        text = event.value.strip().lstrip("#")
        watch = self._watch
        if watch is None:
            return
        if not text:
            watch.unfollow()
            self._paint_position()
            return
        if not text.isdigit() or not 1 <= int(text) <= 2**63 - 1:
            self.notify("A conversation id is a positive whole number.", severity="warning")
            return
        self._follow(int(text))
        self.query_one("#queues-table", DataTable).focus()

    @work(exclusive=True, group="queues-position", exit_on_error=False)
    async def _follow(self, conversation_id: int) -> None:
        """Ask for the position now; the store then keeps it current every 3 s."""
        if self._watch is not None:
            await self._watch.follow(conversation_id)
            self._paint_position()

    def action_refresh(self) -> None:
        """Ask the service now instead of at the next tick."""
        if self.session is not None:
            self.session.live.poke(QUEUES_TOPIC)
            self.session.live.poke(POSITION_TOPIC)

    def action_cursor(self, step: int) -> None:
        """Move the row cursor (j/k)."""
        table = self.query_one("#queues-table", DataTable)
        if step > 0:
            table.action_cursor_down()
        else:
            table.action_cursor_up()
