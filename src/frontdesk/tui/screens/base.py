"""What every mode screen shares: the status bar, the footer, and live topics it watches.

A screen names the store topics it shows in ``TOPICS``; they poll while the screen is shown
and pause when it is not (the header's topics always run).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer

from ..widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from ..app import FrontdeskApp


class ModeScreen(Screen[None]):
    """A screen of one mode (Inbox, Queues, Team, People, Admin)."""

    MODE_NAME: ClassVar[str] = ""
    TOPICS: ClassVar[tuple[str, ...]] = ()
    HELP_TEXT: ClassVar[str] = ""

    @property
    def fd(self) -> FrontdeskApp:
        """The app, typed."""
        from ..app import FrontdeskApp

        app = self.app
        assert isinstance(app, FrontdeskApp)
        return app

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        yield from self.compose_body()
        yield Footer()

    def compose_body(self) -> ComposeResult:
        """The screen's own widgets, between the status bar and the footer."""
        return iter(())

    def on_mount(self) -> None:
        self.fd.paint_status(self.query_one(StatusBar))
        self.call_after_refresh(self.fd.first_frame_painted)

    _watching: bool = False

    def on_screen_resume(self) -> None:
        status = self.query_one(StatusBar)
        status.mode = self.MODE_NAME
        self.fd.paint_status(status)
        session = self.fd.session
        if session is not None and not self._watching:
            # Textual may resume a screen twice when a mode first opens: watch once.
            self._watching = True
            for topic in self.TOPICS:
                session.live.watch(topic)

    def on_screen_suspend(self) -> None:
        session = self.fd.session
        if session is not None and self._watching:
            self._watching = False
            for topic in self.TOPICS:
                session.live.unwatch(topic)

    def on_store_change(self, topic: str, value: Any) -> None:
        """A topic changed: screens override to update their widgets (called on the loop)."""


class LiveModal:
    """A mix-in for a modal that shows a live store topic: the app hands it the changes."""

    def on_store_change(self, topic: str, value: Any) -> None:
        """A topic changed: modals override to update their widgets (called on the loop)."""
