"""What every mode screen shares: the status bar, the footer, and live topics it watches.

A screen names the store topics it shows in ``TOPICS``; they poll while the screen is shown
and pause when it is not (the header's topics always run).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from ..widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from ..app import FrontdeskApp


#: terminal widths below which the footer packs its keys closer (so they all fit)
COMPACT_FOOTER_BELOW = 140
#: terminal widths from which the footer shows the palette's key
PALETTE_KEY_FROM = 120


class FittedFooter(Footer):
    """The footer, showing only the keys that fit whole (the others are in the help and
    the palette) rather than cutting the last one in the middle of a word."""

    async def recompose(self) -> None:
        await super().recompose()
        self._fit()

    def on_resize(self, _event: events.Resize) -> None:
        self._fit()

    def _keys(self) -> list[FooterKey]:
        return [key for key in self.query_children(FooterKey)
                if not key.has_class("-command-palette")]

    def _fit(self) -> None:
        for key in self._keys():
            key.display = True
        self.call_after_refresh(self._hide_overflow)

    def _hide_overflow(self) -> None:
        room = self.size.width - sum(key.outer_size.width
                                     for key in self.query_children(FooterKey)
                                     if key.has_class("-command-palette"))
        left = self.region.x
        for key in self._keys():
            if key.region.right - left > room:
                key.display = False


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
        width = self.app.size.width
        yield FittedFooter(compact=width < COMPACT_FOOTER_BELOW,
                           show_command_palette=width >= PALETTE_KEY_FROM)

    def compose_body(self) -> ComposeResult:
        """The screen's own widgets, between the status bar and the footer."""
        return iter(())

    def on_resize(self, event: events.Resize) -> None:
        """Pack the footer's keys closer on a narrow terminal (and leave out the palette's
        key there, for the screen's own keys: ``ctrl+p`` works everywhere all the same)."""
        for footer in self.query(Footer):
            footer.compact = event.size.width < COMPACT_FOOTER_BELOW
            footer.show_command_palette = event.size.width >= PALETTE_KEY_FROM

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
