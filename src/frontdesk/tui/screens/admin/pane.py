"""What every Admin section shares: it loads when first shown, reloads on ``r``, says what
it shows (or why it cannot) on its caption line, and names the store topics that poll while
it is in front (``TOPICS``: the Admin screen watches them and posts their changes on to it as
``StoreChanged`` messages, which a section handles with ``@store_change_handler``)."""

from __future__ import annotations

from typing import ClassVar

from textual.containers import Vertical

from ....text import safe
from ...widgets.safe import Label
from ...worker_failures import ReportsFailedWorkers


class AdminPane(Vertical, ReportsFailedWorkers):
    """One section of the Admin mode (the right-hand side)."""

    #: The section's name in the menu.
    TITLE = ""
    #: The store topics polled while the section is in front.
    TOPICS: ClassVar[tuple[str, ...]] = ()

    def __init__(self, section: str) -> None:
        super().__init__(id=f"pane-{section}", classes="admin-pane")
        self.section = section
        self.loaded = False
        #: loaded before the service answered (it could only say "not connected"): loaded
        #: again once it does
        self.early = False

    def activate(self) -> None:
        """The section came to the front: load it the first time."""
        if not self.loaded:
            self.loaded = True
            session = getattr(self.app, "session", None)
            self.early = session is None or session.live.connection.link != "live"
            self.reload()

    def connected(self) -> None:
        """The service answers now: read a section loaded before it did again."""
        if self.loaded and self.early:
            self.early = False
            self.reload()

    def reload(self) -> None:
        """Read the section again from the service (sections override)."""

    def focus_main(self) -> None:
        """Put the cursor in the section's main list."""
        main = self.query(".admin-main")
        if main:
            main.first().focus()

    def set_caption(self, text: str) -> None:
        """The line above the section's list."""
        self.query_one(f"#{self.section}-caption", Label).update(safe(text))

    def caption(self) -> Label:
        """The caption line, to compose at the top of the section."""
        return Label("Loading…", id=f"{self.section}-caption", classes="pane-caption")
