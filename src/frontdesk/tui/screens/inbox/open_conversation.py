"""``o``: open a conversation by its id (``123`` or ``#123``).

The id is checked as typed; on ``enter`` the conversation is fetched (and kept in the inbox's
working set) before the modal closes with its id, so an unknown id is said here, with what was
typed still in place.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen

from ....api.models import Conversation
from ....store.finder import Finder
from ...answers import Returned, answer_of
from ...registry import owns_bindings
from ...widgets.safe import Input, Label
from ...worker_failures import ReportsFailedWorkers

__all__ = ["OpenConversationScreen", "parse_conversation_id"]

MAX_ID = 2**63 - 1


def parse_conversation_id(typed: str) -> int | str:
    """The id in ``typed`` (``123``, ``#123``), or why there is none."""
    text = typed.strip().removeprefix("#").strip()
    if not text:
        return "Type a conversation id."
    if not (text.isascii() and text.isdigit()):
        return "A conversation id is a number, like 1042."
    value = int(text)
    if not 1 <= value <= MAX_ID:
        return "No conversation has that id."
    return value


@owns_bindings
class OpenConversationScreen(ModalScreen[int | None], ReportsFailedWorkers):
    """Ask for a conversation id, check it exists, answer it."""

    HELP_NAME = "Open by id"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="open.cancel"),
    ]

    def __init__(self, finder: Finder) -> None:
        super().__init__()
        self.finder = finder

    def compose(self) -> ComposeResult:
        with Vertical(classes="picker-box"):
            yield Label("Open the conversation…", classes="picker-title")
            yield Input(placeholder="#id", id="open-id")
            yield Label("enter: open · esc: cancel", id="open-hint", classes="picker-hint")

    def _hint(self, text: str, *, error: bool) -> None:
        hint = self.query_one("#open-hint", Label)
        hint.update(Text(text))
        hint.set_class(error, "-error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        parsed = parse_conversation_id(event.value)
        if isinstance(parsed, str):
            self._hint(parsed, error=True)
            return
        self._hint(f"Looking for #{parsed}…", error=False)
        self._open(parsed)

    class Found(Returned[Conversation]):
        """The conversation was read, or refused (it does not exist, …)."""

    @work(exclusive=True, exit_on_error=False, group="open-by-id")
    async def _open(self, conversation_id: int) -> None:
        self.post_message(self.Found(*await answer_of(self.finder.open_by_id(conversation_id))))

    def on_open_conversation_screen_found(self, message: Found) -> None:
        """Found: the screen closes with its number; refused: why, and the number stays."""
        if message.refusal is not None:
            self._hint(message.refusal.reason, error=True)
            return
        self.dismiss(message.value.id)

    def action_cancel(self) -> None:
        """Close without opening anything."""
        self.dismiss(None)
