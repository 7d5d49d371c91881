"""The queue picker: a queue to transfer a conversation to, with how many wait in each and
for how long. Queue names are shown as Rich ``Text`` after :func:`frontdesk.text.one_line`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rich.text import Text

from ....api.models import Queue
from ....store.queues import QUEUES_TOPIC
from ....text import one_line
from ...clock import ago
from ...registry import owns_bindings
from ...store_changed import StoreChanged, store_change_handler
from ...widgets.safe import Option
from .base import LiveModal
from .pickers import DIM, NAME_WIDTH, FilterPicker

if TYPE_CHECKING:
    from ....store.queue_rows import QueueRow
    from ....store.queues import QueueWatch

__all__ = ["QueuePicker", "waiting_text"]


def waiting_text(row: QueueRow | None) -> Text:
    """``  12 waiting · oldest 25 min`` for a queue (``…`` while not counted yet: an empty
    cell would read as "nothing known", or nothing waiting)."""
    text = Text()
    if row is None or row.waiting is None:
        text.append("  …", DIM)
        return text
    if row.waiting == 0:
        text.append("  none waiting", DIM)
        return text
    count = f"{row.waiting}+" if row.waiting_more else str(row.waiting)
    text.append(f"  {count} waiting")
    if row.oldest is not None:
        text.append(f" · oldest {'' if row.oldest_exact else '≥ '}{ago(row.oldest)}", DIM)
    return text


@owns_bindings
class QueuePicker(LiveModal, FilterPicker[str | None]):
    """Pick the queue to transfer a conversation to, with how many wait in each and for how
    long (from the store's ``queues`` topic, watched while the picker is open)."""

    HELP_NAME = "Queue picker"
    HINT = "type to filter · enter transfers · esc cancels"
    PLACEHOLDER = "filter queues"

    def __init__(self, queues: Mapping[str, Queue], *, current: str | None = None,
                 conversation_id: int | None = None, watch: QueueWatch | None = None) -> None:
        super().__init__()
        self.queues = dict(queues)
        self.current = current
        self.conversation_id = conversation_id
        self.queue_watch = watch
        self._waiting: dict[str, Text] = {}

    def on_mount(self) -> None:
        if self.queue_watch is not None:
            self.queue_watch.watch_topic()
            self._waiting = self._waiting_texts()
        super().on_mount()

    def on_unmount(self) -> None:
        if self.queue_watch is not None:
            self.queue_watch.unwatch_topic()

    def _waiting_texts(self) -> dict[str, Text]:
        rows = self.queue_watch.rows if self.queue_watch is not None else ()
        return {row.queue_id: waiting_text(row) for row in rows}

    @store_change_handler
    def on_store_changed(self, message: StoreChanged) -> None:
        """New waiting counts: refill the list, keeping the highlighted queue."""
        if message.topic != QUEUES_TOPIC or self.queue_watch is None:
            return
        waiting = self._waiting_texts()
        if waiting != self._waiting:
            self._waiting = waiting
            self.refill(self.typed)

    def title_text(self) -> str:
        where = f" #{self.conversation_id}" if self.conversation_id is not None else ""
        return f"Transfer{where} to the queue…"

    def refill(self, typed: str) -> None:
        wanted = typed.strip().casefold()
        shown = sorted((q for q in self.queues.values() if wanted in q.name.casefold()),
                       key=lambda q: (not q.is_default, q.name.casefold(), q.id))
        names: list[Text] = []
        for queue in shown:
            text = Text(one_line(queue.name, NAME_WIDTH))
            if queue.is_default:
                text.append("  default", DIM)
            if queue.id == self.current:
                text.append("  (now here)", DIM)
            names.append(text)
        width = max((text.cell_len for text in names), default=0)
        options: list[Option] = []
        for queue, text in zip(shown, names, strict=True):
            waiting = None if self.queue_watch is None else \
                self._waiting.get(queue.id) or waiting_text(None)
            if waiting:  # in a column of its own
                text.pad_right(width - text.cell_len)
                text.append_text(waiting)
            options.append(Option(text, id=queue.id))
        self.set_options(options, self.highlighted_id() if self.options.option_count else 0)

    def choose(self) -> None:
        queue_id = self.highlighted_id()
        if queue_id is not None:
            self.dismiss(queue_id)
