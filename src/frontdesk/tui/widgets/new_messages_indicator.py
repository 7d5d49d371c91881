"""The "↓ N new" line of a thread: shown while new messages arrived out of view."""

from __future__ import annotations

from textual import events
from textual.message import Message as TextualMessage

from .safe import Static

__all__ = ["NewMessagesIndicator"]


class NewMessagesIndicator(Static):
    """The "↓ N new" line, docked at the bottom while new messages are out of view."""

    class Pressed(TextualMessage):
        """The indicator was clicked: jump to the newest message."""

    def show_count(self, unseen: int) -> None:
        """Say how many new messages are out of view (none: hidden)."""
        self.update(f"↓ {unseen} new" if unseen else "")
        self.set_class(unseen > 0, "-visible")

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Pressed())
