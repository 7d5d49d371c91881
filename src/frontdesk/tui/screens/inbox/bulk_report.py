"""The report of an action on many marked conversations: each conversation and what came of
it (done, or refused with the service's reason), filled in as the service answers.

The store does the work (:meth:`frontdesk.store.actions.Actions.each`: one at a time, paced,
each once); this screen only shows it. ``r`` tries the refused ones again (only those), ``esc``
or ``enter`` closes the report once every conversation has its answer. The screen is dismissed
with every outcome of its last run, so the inbox can drop the marks of the ones done.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen

from ....store.actions import Outcome
from ....text import one_line, safe
from ...registry import owns_bindings
from ...widgets.safe import Label
from ...worker_failures import ReportsFailedWorkers

if TYPE_CHECKING:
    from ....store.session import Session

__all__ = ["BulkReport"]

#: one conversation's action (a store method with everything but the conversation given)
Act = Callable[["Session", int], Awaitable[None]]


@owns_bindings
class BulkReport(ModalScreen[list[Outcome]], ReportsFailedWorkers):
    """What came of one action on each marked conversation."""

    HELP_NAME = "Report of an action on many"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "retry", "Retry the refused", id="bulk.retry"),
        Binding("escape,enter", "close", "Close", id="bulk.close"),
    ]
    DEFAULT_CSS = """
    BulkReport { align: center middle; }
    BulkReport > Vertical { width: 80; max-width: 100%; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 0 1; }
    BulkReport VerticalScroll { height: auto; max-height: 20; }
    BulkReport Label { width: 100%; }
    BulkReport .refused { color: $error; }
    BulkReport .hint { color: $text-muted; }
    """

    def __init__(self, title: str, session: Session, conversation_ids: list[int],
                 act: Act) -> None:
        super().__init__()
        self.title_text = title
        self.session = session
        self.act = act
        #: every conversation's outcome, in the order asked (None: not answered yet)
        self.outcomes: dict[int, Outcome | None] = dict.fromkeys(conversation_ids)
        self.running = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(safe(self.title_text), id="bulk-title")
            yield VerticalScroll(id="bulk-rows")
            yield Label("", id="bulk-summary", classes="hint")

    def on_mount(self) -> None:
        self._run(list(self.outcomes))

    def _run(self, conversation_ids: list[int]) -> None:
        """Do the action to these conversations (in a worker; the report fills in)."""
        for conversation_id in conversation_ids:
            self.outcomes[conversation_id] = None
        self.running = True
        self._paint()
        session, act = self.session, self.act

        async def run() -> None:
            try:
                async for outcome in session.actions.each(
                        conversation_ids, lambda cid: act(session, cid)):
                    self.outcomes[outcome.conversation_id] = outcome
                    self._paint()
            finally:
                self.running = False
                self._paint()

        self.run_worker(run(), group="bulk-actions", exit_on_error=False)

    def refused(self) -> list[int]:
        """The conversations the service refused, in order."""
        return [cid for cid, outcome in self.outcomes.items()
                if outcome is not None and not outcome.done]

    def lines(self) -> list[str]:
        """The report's lines as shown (one per conversation)."""
        shown: list[str] = []
        for cid, outcome in self.outcomes.items():
            if outcome is None:
                shown.append(f"#{cid}  …")
            elif outcome.done:
                shown.append(f"#{cid}  done")
            else:
                shown.append(f"#{cid}  refused: {one_line(outcome.reason or '', 200)}")
        return shown

    def summary(self) -> str:
        """``5 done · 2 refused — r retries the refused, esc closes`` (or the work left)."""
        done = sum(1 for o in self.outcomes.values() if o is not None and o.done)
        refused = len(self.refused())
        waiting = len(self.outcomes) - done - refused
        if waiting:
            return f"{done} done · {refused} refused · {waiting} to go…"
        hint = " — r retries the refused, esc closes" if refused else " — esc closes"
        return f"{done} done · {refused} refused{hint}"

    def _paint(self) -> None:
        if not self.is_mounted:
            return
        box = self.query_one("#bulk-rows", VerticalScroll)
        box.remove_children()
        labels = []
        for line, outcome in zip(self.lines(), self.outcomes.values(), strict=True):
            label = Label(safe(line))
            if outcome is not None and not outcome.done:
                label.add_class("refused")
            labels.append(label)
        box.mount_all(labels)
        self.query_one("#bulk-summary", Label).update(safe(self.summary()))

    def action_retry(self) -> None:
        """Try the refused conversations again (only those; the done ones stay done)."""
        refused = self.refused()
        if self.running:
            self.app.notify("Still working on the others.", severity="warning")
        elif not refused:
            self.app.notify("Nothing was refused.")
        else:
            self._run(refused)

    def action_close(self) -> None:
        """Close the report once every conversation has its answer."""
        if self.running:
            self.app.notify("Still working: the report closes once every conversation has "
                            "its answer.", severity="warning")
            return
        self.dismiss([o for o in self.outcomes.values() if o is not None])
