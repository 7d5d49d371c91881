"""Admin → Queues: every queue with its settings; beside it the highlighted queue's settings
and members. ``n`` creates a queue (name, default, do-not-offer, priority, offer and wrap-up
timeouts, offering algorithm …), ``m`` assigns and removes members."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical

from ....api.models import Queue, QueueMember
from ....store.errors import Refused
from ....store.queue_settings import ALGORITHMS, QueueSettings
from ....text import one_line, safe
from ...answers import Regarding, Returned, answer_of
from ...widgets.safe import DataTable, Label, Static
from ..shared.common import admin_store, cell, highlighted_key, move_to, session_of
from ..shared.form import FormField, FormScreen, Values
from .members import ChoiceRead, choose_members, read_choice
from .pane import AdminPane


def _yes(value: bool | None) -> Text:
    return Text("yes", style="bold") if value else Text("—", style="dim")


def _seconds(value: int | None) -> str:
    return "—" if value is None else f"{value} s"


class QueuesPane(AdminPane):
    """The queues section."""

    TITLE = "Queues"

    def __init__(self) -> None:
        super().__init__("queues")
        self.queues: dict[str, Queue] = {}

    def compose(self) -> ComposeResult:
        yield self.caption()
        with Horizontal(classes="admin-split"):
            table: DataTable[Any] = DataTable(id="queues-table", cursor_type="row",
                                              zebra_stripes=True, classes="admin-main")
            table.add_columns("Queue", "Default", "Priority", "Offer", "Algorithm")
            yield table
            with Vertical(classes="admin-side"):
                yield Static("", id="queue-settings")
                yield Label("Members", id="queue-members-title", classes="section-title")
                members: DataTable[Any] = DataTable(id="queue-members", cursor_type="row")
                members.add_columns("Name", "Priority")
                yield members

    @property
    def table(self) -> DataTable[Any]:
        """The queues."""
        return self.query_one("#queues-table", DataTable)

    @property
    def current(self) -> Queue | None:
        """The highlighted queue."""
        key = highlighted_key(self.table)
        return self.queues.get(key) if key else None

    def reload(self, select: str | None = None) -> None:
        """Read the queues again."""
        self._load(select)

    class Loaded(Regarding[str | None, list[Queue]]):
        """The queues were read (``about``: the queue to highlight then)."""

    @work(exclusive=True, group="queues-load", exit_on_error=False)
    async def _load(self, select: str | None = None) -> None:
        self.post_message(self.Loaded(select, *await answer_of(admin_store(self).list_queues())))

    def on_queues_pane_loaded(self, message: Loaded) -> None:
        """The list, or why it could not be read on the caption."""
        if message.refusal is not None:
            self.set_caption(message.refusal.reason)
            return
        queues = message.value
        before = message.about or highlighted_key(self.table)
        self.queues = {q.id: q for q in queues}
        table = self.table
        table.clear()
        for queue in queues:
            table.add_row(cell(queue.name, 30), _yes(queue.is_default),
                          str(queue.priority if queue.priority is not None else "—"),
                          _seconds(queue.offer_timeout), cell(queue.offering_algorithm, 30),
                          key=queue.id)
        move_to(table, before)
        self.set_caption(f"{len(queues)} queues")
        self.show_detail()

    @on(DataTable.RowHighlighted, "#queues-table")
    def _highlighted(self) -> None:
        self.show_detail()

    def show_detail(self) -> None:
        """The highlighted queue's settings and members."""
        queue = self.current
        if queue is None:
            return
        lines = [
            ("Name", one_line(queue.name, 40)),
            ("Default", "yes" if queue.is_default else "no"),
            ("Do not offer", "on" if queue.is_do_not_offer_enabled else "off"),
            ("Priority", str(queue.priority if queue.priority is not None else "—")),
            ("Offer timeout", _seconds(queue.offer_timeout)),
            ("Wrap-up", _seconds(queue.wrapup_timeout)),
            ("Algorithm", queue.offering_algorithm or "—"),
            ("Abandoned", "offered again" if queue.offer_abandoned_conversations else
             "not offered again"),
            ("Restricted", "yes" if queue.is_restricted else "no"),
            ("Preferred", "offered first" if queue.is_preferred_agent_enabled else "off"),
        ]
        self.query_one("#queue-settings", Static).update(
            "\n".join(f"[b]{name:<14}[/b] {safe(value)}" for name, value in lines))
        self._members(queue)

    class MembersRead(Returned[list[QueueMember]]):
        """The highlighted queue's members were read."""

    @work(exclusive=True, group="queues-members", exit_on_error=False)
    async def _members(self, queue: Queue) -> None:
        self.post_message(self.MembersRead(
            *await answer_of(admin_store(self).queue_members(queue.id))))

    def on_queues_pane_members_read(self, message: MembersRead) -> None:
        """The members beside the list, or why they could not be read above them."""
        if message.refusal is not None:
            self.query_one("#queue-members-title", Label).update(safe(message.refusal.reason))
            return
        members = message.value
        directory = session_of(self).directory
        self.query_one("#queue-members-title", Label).update(f"Members ({len(members)})")
        table = self.query_one("#queue-members", DataTable)
        table.clear()
        for member in sorted(members, key=lambda m: directory.name(m.agent_id).casefold()):
            table.add_row(cell(directory.name(member.agent_id), 30),
                          str(member.priority if member.priority is not None else "—"),
                          key=member.agent_id)

    # ------------------------------------------------------------------ actions

    def new(self) -> None:
        """A form with the settings the service takes for a new queue."""
        store = admin_store(self)

        async def submit(values: Values) -> None:
            queue = await store.create_queue(QueueSettings.from_form(values))
            self.notify(f"Queue {one_line(queue.name, 40)} created; m chooses its members.",
                        markup=False)
            self.reload(select=queue.id)

        def check(values: Values) -> str | None:
            try:
                QueueSettings.from_form(values)
            except Refused as refusal:
                return None if not str(values.get("name", "")).strip() else refusal.reason
            return None

        self.app.push_screen(FormScreen(
            "New queue",
            [FormField("name", "Name"),
             FormField("priority", "Priority", placeholder="0 to 1000"),
             FormField("offer_timeout", "Offer timeout", placeholder="seconds, e.g. 30"),
             FormField("wrapup_timeout", "Wrap-up", placeholder="seconds, e.g. 60"),
             FormField("offer_algorithm", "Algorithm", "choice", "AllAtOnce",
                       choices=tuple((a, a) for a in ALGORITHMS)),
             FormField("is_default", "The default queue", "bool"),
             FormField("is_do_not_offer_enabled", "Do not offer (with timeouts)", "bool"),
             FormField("offer_abandoned_conversations", "Offer abandoned conversations again",
                       "bool"),
             FormField("is_restricted", "Restricted", "bool"),
             FormField("is_preferred_agent_enabled", "Offer to the preferred agent first",
                       "bool"),
             FormField("preferred_agent_offline_timeout", "Preferred off",
                       placeholder="seconds the preferred agent may be offline"),
             FormField("personal_agent_offline_timeout", "Personal off",
                       placeholder="seconds the personal agent may be offline"),
             FormField("call_functionality", "Calls", "bool")],
            submit, check=check, send_label="create", form_id="new-queue"))

    def edit_members(self) -> None:
        """Tick the queue's members among every agent."""
        queue = self.current
        if queue is not None:
            self._open_members(queue)

    def _open_members(self, queue: Queue) -> None:
        store = admin_store(self)
        read_choice(self, queue, lambda: store.queue_members(queue.id), group="queues-act")

    def on_choice_read(self, message: ChoiceRead[Queue, QueueMember]) -> None:
        """The members picker opens, or a toast says why it cannot."""
        queue, store = message.about, admin_store(self)

        async def apply(add: set[str], remove: set[str]) -> None:
            change = await store.change_queue_members(queue.id, add, remove)
            if change.failures:
                self.notify("Some were not assigned: " + "; ".join(change.failures),
                            severity="warning", markup=False)
            self.notify(f"{one_line(queue.name, 40)}: {len(change.added)} assigned, "
                        f"{len(change.removed)} removed.", markup=False)
            self.show_detail()

        choose_members(self, message, f"Members of {queue.name}", lambda m: m.agent_id, apply)
