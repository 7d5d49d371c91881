"""The question asked when quitting while replies or notes are held for undo (undo send).

The agent pressed ``ctrl+s`` moments ago: what they most likely want is the reply sent, so
``s`` (and ``enter``) sends the held ones now and quits once the outbox is done with them
(at most :data:`SEND_WAIT` seconds: a service that cannot be reached keeps them in the outbox,
sent the next time frontdesk starts). ``u`` undoes them — each back in its conversation's
draft — and quits; when one has left meanwhile, nothing is undone: that is said, and the
console stays. ``w`` or ``esc`` waits: back to the console, the countdown going on. Nothing
is lost silently.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, ClassVar, Final

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen

from ....store.outbox import OutboxItem, UndoTooLate, is_note
from ....text import safe
from ...registry import owns_bindings
from ...widgets.safe import Label
from ...worker_failures import ReportsFailedWorkers

if TYPE_CHECKING:
    from ....store.session import Session

__all__ = ["SEND_WAIT", "QuitQuestion", "held_words"]

#: Seconds "send now and quit" waits for the service before quitting anyway (kept, sent at
#: the next start).
SEND_WAIT: Final = 10.0


def held_words(held: list[OutboxItem]) -> str:
    """``1 reply``, ``2 notes``, ``1 reply and 1 note``: what is held."""
    notes = sum(1 for item in held if is_note(item.payload))
    replies = len(held) - notes
    parts = []
    if replies:
        parts.append(f"{replies} repl{'y' if replies == 1 else 'ies'}")
    if notes:
        parts.append(f"{notes} note{'' if notes == 1 else 's'}")
    return " and ".join(parts)


@owns_bindings
class QuitQuestion(ModalScreen[None], ReportsFailedWorkers):
    """Quitting with replies held for undo: send now and quit, undo and quit, or wait."""

    HELP_NAME = "Quit"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s,enter", "send_now", "Send now and quit", id="quit.send_now"),
        Binding("u", "undo", "Undo and quit", id="quit.undo"),
        Binding("w,escape", "wait", "Wait", id="quit.wait"),
    ]
    DEFAULT_CSS = """
    QuitQuestion { align: center middle; }
    QuitQuestion > Vertical { width: 72; max-width: 100%; height: auto;
        border: thick $warning; background: $surface; padding: 1 2; }
    QuitQuestion Label { width: 100%; }
    QuitQuestion .hint { color: $text-muted; margin-top: 1; }
    """

    def __init__(self, session: Session, held: list[OutboxItem], others: int) -> None:
        super().__init__()
        self._session = session
        self._held = held
        self._others = others
        self._busy = False

    def compose(self) -> ComposeResult:
        words = held_words(self._held)
        one = len(self._held) == 1
        waiting, it, its = ("is", "it", "its") if one else ("are", "them", "their")
        with Vertical():
            yield Label(safe(f"{words} {waiting} waiting to be sent (undo time)."),
                        id="quit-question")
            if self._others:
                yield Label(safe(
                    f"{self._others} other{'' if self._others == 1 else 's'} in the outbox "
                    "will be kept and sent the next time frontdesk starts."), id="quit-others")
            yield Label(f"s / enter  send {it} now, then quit\n"
                        f"u          undo: back to {its} draft{'' if one else 's'}, then quit\n"
                        "w / esc    wait (the console stays)", classes="hint", id="quit-hint")

    def action_wait(self) -> None:
        """Back to the console; the countdown goes on."""
        if not self._busy:
            self.dismiss(None)

    def action_send_now(self) -> None:
        """Send the held ones now, then quit."""
        if self._busy:
            return
        self._busy = True
        self.query_one("#quit-hint", Label).update(
            f"Sending {held_words(self._held)}… (quitting once sent)")
        self._send_then_quit()

    @work(exclusive=True, group="quit-send", exit_on_error=False,
          description="send the held replies before quitting")
    async def _send_then_quit(self) -> None:
        outbox = self._session.outbox
        try:
            left = await asyncio.wait_for(outbox.send_now(i.id for i in self._held), SEND_WAIT)
        except TimeoutError:  # the service is slow: kept in the outbox for the next start
            left = [item for item in map(outbox.item, (i.id for i in self._held))
                    if item is not None]
        except BaseException:
            self._busy = False  # the console stays (its one handler says what went wrong)
            raise
        if left:
            self.app.exit(message=f"{held_words(left)} could not be sent yet: kept in the "
                                  "outbox, sent the next time frontdesk starts.")
        else:
            self.app.exit()

    def action_undo(self) -> None:
        """Undo the held ones (each back in its draft) and quit. When one has left meanwhile
        nothing is undone: that is said, and the console stays (the others still held)."""
        if self._busy:
            return
        outbox = self._session.outbox
        # gone: undone or discarded already; asked and undone with no await between, so
        # the sender cannot take one in the meantime
        late = [item for item in self._held if outbox.too_late(item.id) not in (None, "gone")]
        if late:
            self.notify(f"Too late to undo {held_words(late)}: already on its way or sent. "
                        "Nothing was undone.", severity="warning", markup=False)
            self.dismiss(None)
            return
        for item in self._held:
            with contextlib.suppress(UndoTooLate):  # gone meanwhile: nothing to take back
                outbox.undo(item.id)
        self.app.exit()
