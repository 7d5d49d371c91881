"""The outbox: every reply still waiting to be sent, and what to do with each.

Opened with ``O`` anywhere, from the command palette, or by clicking the header's outbox
count. One row per reply, oldest first: its conversation, where it stands (held for undo with
its seconds left, waiting, sending, refused — with the service's reason), attempts, age and
its first line. ``r`` sends it again now (a held one: now, without waiting), ``u`` undoes a
held one (it never leaves: back in its conversation's draft, that thread opened), ``e`` takes
any one not in flight out of the outbox into its draft and opens that thread, ``d`` discards
it after a question. The list follows the outbox as it changes (the header's ``outbox``
topic) and counts the holds down.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import TYPE_CHECKING, ClassVar, Final

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen

from ....store.outbox import (
    OutboxBusy,
    OutboxItem,
    TooLate,
    UndoTooLate,
    hold_left,
    is_note,
)
from ....store.topics import OUTBOX
from ....text import one_line, safe
from ... import clock
from ...registry import owns_bindings
from ...store_changed import StoreChanged, store_change_handler
from ...widgets.safe import DataTable, Label
from ..shared.base import LiveModal

if TYPE_CHECKING:
    from ....store.session import Session

STATES = {"pending": ("waiting", "yellow"), "sending": ("sending…", "cyan"),
          "failed": ("refused", "bold red")}
#: How often the list looks at the outbox again (the holds count down by the second).
REPAINT_STEP: Final = 0.5


def too_late(why: TooLate, note: bool) -> str:
    """What ``ctrl+z`` says when an item can no longer be taken back."""
    what = "note" if note else "reply"
    if why == "sent":
        return (f"Too late to undo: the {what} was already "
                f"{'added' if note else 'sent'}.")
    if why == "sending":
        return f"Too late to undo: the {what} is being sent right now."
    if why == "tried":
        return (f"Too late to undo: sending the {what} was tried already (it may have "
                "arrived); O opens the outbox.")
    return f"Nothing to undo: the {what} is no longer in the outbox."



def item_cells(item: OutboxItem, width: int, now: float) -> tuple[Text, ...]:
    """The row of one reply or note at ``now`` (the outbox's clock): conversation, state
    (held: the seconds left), attempts, age, text (or the refusal); a note is marked as one,
    so it is never taken for a reply."""
    left = hold_left(item, now)
    label, style = (f"held {math.ceil(left)} s", "green") if left > 0 else \
        STATES.get(item.state, (item.state, ""))
    text = str(item.payload.get("content") or "")
    attachments = item.payload.get("attachments") or []
    if not text.strip():
        text = f"({len(attachments)} attachment{'s' if len(attachments) != 1 else ''})"
    line = Text(no_wrap=True, overflow="ellipsis")
    if is_note(item.payload):
        line.append("◆ note ", style="bold magenta")
    if item.last_error:
        line.append(one_line(item.last_error, 40), style="red" if item.state == "failed"
                    else "yellow")
        line.append(" · ")
    line.append(one_line(text, width))
    created = datetime.fromtimestamp(item.created_at, UTC)
    return (Text(f"#{item.conversation_id}", style="bold"), Text(label, style=style),
            Text(str(item.attempts)), Text(waited(created), style="dim"), line)


def waited(created: datetime) -> str:
    """How long a reply has waited: in seconds for its first minute (a reply tried seven
    times in it does not read as written "now"), then as every list says ages."""
    seconds = (clock.now() - created).total_seconds()
    return f"{max(0, int(seconds))} s" if seconds < 60 else clock.ago(created)


@owns_bindings
class OutboxScreen(LiveModal, ModalScreen[None]):
    """Replies waiting to be sent: retry now, edit, discard (asks)."""

    HELP_NAME = "Outbox"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "retry", "Retry now", id="outbox.retry"),
        Binding("u,ctrl+z", "undo", "Undo send", id="outbox.undo"),
        Binding("e", "edit", "Edit", id="outbox.edit"),
        Binding("d", "discard", "Discard…", id="outbox.discard"),
        Binding("escape,q", "close", "Close", id="outbox.close"),
        Binding("j", "cursor(1)", "Down", id="outbox.down", show=False),
        Binding("k", "cursor(-1)", "Up", id="outbox.up", show=False),
    ]
    DEFAULT_CSS = """
    OutboxScreen { align: center middle; }
    OutboxScreen > Vertical { width: 90%; max-width: 140; height: 80%; border: thick $accent;
        background: $surface; padding: 0 1; }
    OutboxScreen #outbox-title { text-style: bold; margin-bottom: 1; }
    OutboxScreen #outbox-table { height: 1fr; }
    OutboxScreen #outbox-hint { color: $text-muted; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._shown: tuple[OutboxItem, ...] | None = None
        self._shown_holds: tuple[int, ...] = ()

    @property
    def session(self) -> Session | None:
        """The app's session."""
        return getattr(self.app, "session", None)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("", id="outbox-title")
            table: DataTable[Text] = DataTable(id="outbox-table", cursor_type="row")
            yield table
            yield Label(safe("r send now · u undo a held one · e edit in its thread · "
                             "d discard (asks) · esc close"), id="outbox-hint")

    def on_mount(self) -> None:
        table = self.query_one("#outbox-table", DataTable)
        for key, label, width in (("conversation", "Conversation", 12), ("state", "State", 9),
                                  ("attempts", "Tries", 5), ("age", "Age", 7),
                                  ("text", "Reply or note", None)):
            table.add_column(label, key=key, width=width)
        self._paint()
        self.set_interval(REPAINT_STEP, self._paint)  # the holds' seconds
        table.focus()

    def items(self) -> list[OutboxItem]:
        """The replies waiting, oldest first."""
        session = self.session
        return session.outbox.items() if session is not None else []

    @store_change_handler
    def on_store_changed(self, message: StoreChanged) -> None:
        """The outbox changed: show it as it is now."""
        if message.topic == OUTBOX:
            self._paint()

    def _now(self) -> float:
        session = self.session
        return session.outbox.now() if session is not None else 0.0

    def _paint(self) -> None:
        items = tuple(self.items())
        now = self._now()
        holds = tuple(math.ceil(hold_left(item, now)) for item in items)
        if items == self._shown and holds == self._shown_holds:
            return
        self._shown = items
        self._shown_holds = holds
        table = self.query_one("#outbox-table", DataTable)
        cursor = self.highlighted()
        table.clear()
        width = max(20, table.size.width - 45)
        for item in items:
            table.add_row(*item_cells(item, width, now), key=str(item.id))
        failed = sum(1 for item in items if item.state == "failed")
        title = Text("Outbox", style="bold")
        if not items:
            title.append(" — empty: every reply was sent", style="dim")
        else:
            title.append(f" — {len(items)} repl{'y' if len(items) == 1 else 'ies'} waiting")
            if failed:
                title.append(f", {failed} refused by the service", style="red")
        self.query_one("#outbox-title", Label).update(title)
        if cursor is not None:
            ids = [item.id for item in items]
            if cursor.id in ids:
                table.move_cursor(row=ids.index(cursor.id), animate=False)

    def highlighted(self) -> OutboxItem | None:
        """The reply under the cursor."""
        table = self.query_one("#outbox-table", DataTable)
        items = self._shown or ()
        row = table.cursor_row
        return items[row] if 0 <= row < len(items) else None

    # ------------------------------------------------------------------ actions

    def _target(self) -> OutboxItem | None:
        item = self.highlighted()
        if item is None:
            self.notify("The outbox is empty.")
        return item

    def action_retry(self) -> None:
        """Send the highlighted reply again now."""
        item = self._target()
        session = self.session
        if item is None or session is None:
            return
        if session.outbox.retry(item.id) is None:
            self.notify("That reply is no longer in the outbox (it was sent).")
        elif hold_left(item, self._now()) > 0:
            self.notify(f"Sending the reply to #{item.conversation_id} now…")
        else:
            self.notify(f"Sending the reply to #{item.conversation_id} again…")
        self._paint()

    def action_undo(self) -> None:
        """Undo the highlighted held reply or note: it never leaves; it is back in its
        conversation's draft, and that thread opens."""
        item = self._target()
        session = self.session
        if item is None or session is None:
            return
        note = is_note(item.payload)
        try:
            session.outbox.undo(item.id)
        except UndoTooLate as late:
            self.notify(too_late(late.why, note), severity="warning", markup=False)
            self._paint()
            return
        from .thread import ThreadScreen

        self.notify("Undone: the note was not added; it is in its draft." if note else
                    "Undone: the reply was not sent; it is in its draft.", markup=False)
        self.dismiss(None)
        self.app.push_screen(ThreadScreen(item.conversation_id))

    def action_edit(self) -> None:
        """Take the reply out of the outbox into its conversation's draft, and open it."""
        item = self._target()
        session = self.session
        if item is None or session is None:
            return
        try:
            draft = session.outbox.restore_to_draft(item.id)
        except OutboxBusy:
            self.notify("That reply is being sent right now.", severity="warning")
            return
        if draft is None:
            self.notify("That reply is no longer in the outbox (it was sent).")
            self._paint()
            return
        from .thread import ThreadScreen

        self.dismiss(None)
        self.app.push_screen(ThreadScreen(item.conversation_id))

    def action_discard(self) -> None:
        """Throw the highlighted reply away, after a question."""
        item = self._target()
        session = self.session
        if item is None or session is None:
            return

        def answer(yes: bool | None) -> None:
            if not yes:
                return
            try:
                payload = session.outbox.discard(item.id)
            except OutboxBusy:
                self.notify("That reply is being sent right now.", severity="warning")
                return
            if payload is None:
                self.notify("That reply is no longer in the outbox (it was sent).")
            else:
                self.notify(f"The reply to #{item.conversation_id} was discarded.")
            self._paint()

        from ..shared.confirm import ConfirmScreen

        text = one_line(str(item.payload.get("content") or "(attachments only)"), 60)
        age = clock.ago(datetime.fromtimestamp(item.created_at, UTC))
        written = "just now" if age == "now" else f"{age} ago"
        self.app.push_screen(ConfirmScreen(
            f"Discard this reply to #{item.conversation_id} (written {written})?", text),
            answer)

    def action_close(self) -> None:
        """Back to where you were."""
        self.dismiss(None)

    def action_cursor(self, step: int) -> None:
        """Move the cursor (j/k)."""
        table = self.query_one("#outbox-table", DataTable)
        if step > 0:
            table.action_cursor_down()
        else:
            table.action_cursor_up()
