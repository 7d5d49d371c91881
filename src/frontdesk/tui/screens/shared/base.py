"""What every mode screen shares: the status bar, the footer, and live topics it watches.

A screen names the store topics it shows in ``TOPICS``; they poll while the screen is shown
and pause when it is not (the header's topics always run). While it is in front, the app posts
it every change of the store as a ``StoreChanged`` message (``tui/store_changed.py``), which
a screen that shows one handles with ``@store_change_handler``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from rich.cells import cell_len
from textual import events, on
from textual.app import ComposeResult
from textual.dom import NoScreen
from textual.screen import Screen
from textual.widgets import Footer

from ...offered import offered
from ...textual_private import FooterKey
from ...widgets.status_bar import StatusBar
from ...worker_failures import ReportsFailedWorkers

if TYPE_CHECKING:
    from ...app import FrontdeskApp


#: terminal widths below which the footer packs its keys closer (so they all fit)
COMPACT_FOOTER_BELOW = 140
#: terminal widths from which the footer shows the palette's key
PALETTE_KEY_FROM = 100
#: keys the footer shows first whatever the width (Back / Close / Cancel, Help, Quit): the
#: screen's other keys take the room that is left, in their order
KEPT_KEYS = frozenset({"escape", "question_mark", "ctrl+q"})


class FittedFooter(Footer):
    """The footer, showing only the keys that fit whole (the others are in the help and
    the palette) rather than cutting the last one in the middle of a word. The way out
    (Back, Close or Cancel), Help and Quit are always among them (``KEPT_KEYS``); the
    screen's own keys fill what room is left, then the focused widget's (the keys stay in
    their order on the line). Widths are counted from the
    keys' text, as the footer's styles lay them out, so the choice does not wait for a
    layout."""

    #: what the keys shown were built from (a recompose that would build the same is skipped)
    _shown: tuple[Any, ...] | None = None

    def _showing(self) -> tuple[Any, ...]:
        """What the keys would be built from: every active binding with its state and the
        key it is shown as, and whether the palette's key is shown."""
        display = self.app.get_key_display
        return (self.show_command_palette, tuple(
            (binding, enabled, tooltip, display(binding))
            for _, binding, enabled, tooltip in self.screen.active_bindings.values()))

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            self._shown = self._showing()
        compact = self.compact
        for widget in super().compose():
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                # built with the footer's look (the palette's key keeps its own): a key
                # starts compact and is told otherwise once mounted, each change restyling
                # it (two restylings a key, ~30 keys)
                widget.set_reactive(FooterKey.compact, compact)
                widget.set_class(compact, "-compact", update=False)
            yield widget

    async def recompose(self) -> None:
        # Focus moving between widgets with the same keys (a thread's messages mounting, a
        # list taking focus) announces new bindings each time: building ~30 keys again is
        # the larger part of opening a screen, so only keys that differ are rebuilt.
        if not getattr(self.app, "first_frame_shown", True):
            # the console's first frame is sent as it was composed, before the keys built
            # now could show in it: they are built once it is on screen (the app asks then)
            return
        if self._bindings_ready and self.is_attached and self._shown == self._showing():
            return
        if self.is_attached and getattr(self.screen, "footer_held", False):
            return  # the screen asks again once what it waits for is on screen
        await super().recompose()
        self._fit()

    def on_resize(self, _event: events.Resize) -> None:
        self._fit()

    def _width(self, key: FooterKey) -> int:
        """Cells a key takes, its margin included."""
        keys, words = cell_len(key.key_display), cell_len(key.description)
        if self.compact:  # "k Words" and a margin of one
            return keys + (1 + words if words else 0) + 1
        return keys + 2 + (words + 1 if words else 0)  # " k " "Words "

    def _fit(self) -> None:
        try:
            screen = self.screen
        except NoScreen:  # resized on its way out: no keys to choose
            return
        room = self.app.size.width
        keys: list[FooterKey] = []
        for key in self.query_children(FooterKey):
            if key.has_class("-command-palette"):
                room -= self._width(key) + 1  # its border
            else:
                keys.append(key)
        # the last key's margin may go past the edge
        used = -1 if self.compact else 0
        for key in keys:
            if key.key in KEPT_KEYS:
                key.display = True
                used += self._width(key)
        # then the screen's main actions (``FOOTER_FIRST``), its other keys, and last the
        # focused widget's
        rank: dict[str, int] = {}
        first = set(getattr(screen, "FOOTER_FIRST", ()))
        for name, (namespace, binding, *_) in screen.active_bindings.items():
            rank[name] = 0 if binding.id in first else 1 if namespace is screen else 2
        rest = [key for key in keys if key.key not in KEPT_KEYS]
        for key in sorted(rest, key=lambda key: rank.get(key.key, 2)):
            width = self._width(key)
            key.display = used + width <= room
            if key.display:
                used += width


class ModeScreen(Screen[None], ReportsFailedWorkers):
    """A screen of one mode (Inbox, Queues, Team, People, Admin)."""

    MODE_NAME: ClassVar[str] = ""
    TOPICS: ClassVar[tuple[str, ...]] = ()
    HELP_TEXT: ClassVar[str] = ""
    #: the footer waits to build its keys (a few dozen widgets and a layout of the whole
    #: screen) until :meth:`release_footer`: a screen whose first content is on its way sets
    #: this, so that building them never delays that content's frame
    footer_held: bool = False
    #: the operation each restricted action performs (action → ``"tags.create"``): an
    #: action the member's role may not perform is not offered (``tui/offered.py``)
    NEEDS: ClassVar[Mapping[str, str]] = {}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """An action the member's role may not perform is not offered (nor its key)."""
        return offered(self, self.NEEDS, action)

    #: ids of the bindings the footer keeps before the screen's other keys when not all fit
    #: (after the way out, Help and Quit, which it always keeps)
    FOOTER_FIRST: ClassVar[tuple[str, ...]] = ()

    def release_footer(self) -> None:
        """Let the footer build its keys now (idempotent)."""
        if self.footer_held:
            self.footer_held = False
            for footer in self.query(FittedFooter):
                footer.call_later(footer.recompose)  # run as the footer (its keys bind to it)

    def after_first_frame(self) -> None:
        """The console's first frame, which this screen showed, is on the terminal: build
        what the screen left until then (nothing unless a screen says)."""

    @property
    def fd(self) -> FrontdeskApp:
        """The app, typed."""
        from ...app import FrontdeskApp

        app = self.app
        assert isinstance(app, FrontdeskApp)
        return app

    def compose(self) -> ComposeResult:
        self._size_classes()
        yield StatusBar(id="status")
        yield from self.compose_body()
        width = self.app.size.width
        yield FittedFooter(compact=width < COMPACT_FOOTER_BELOW,
                           show_command_palette=width >= PALETTE_KEY_FROM)

    def _size_classes(self) -> None:
        """The screen's breakpoint classes (``-narrow``, ``-roomy``) for the terminal's size,
        set before its widgets are built, as Textual sets them at the screen's first resize:
        its widgets are then styled once as they mount, not once more for the new classes."""
        app = self.app
        width, height = app.size
        classes: dict[str, bool] = {}
        for dimension, breakpoints in (
                (width, self.HORIZONTAL_BREAKPOINTS if self.HORIZONTAL_BREAKPOINTS is not None
                 else app.HORIZONTAL_BREAKPOINTS),
                (height, self.VERTICAL_BREAKPOINTS if self.VERTICAL_BREAKPOINTS is not None
                 else app.VERTICAL_BREAKPOINTS)):
            reached = [(edge, name) for edge, name in breakpoints or [] if dimension >= edge]
            for _, name in breakpoints or []:
                classes[name] = bool(reached) and name == max(reached)[1]
        if classes:
            self.update_classes(classes, animate=False)

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

    _topics_watched: bool = False
    #: the screen has been shown before
    _resumed: bool = False

    @on(events.ScreenResume)
    def _first_shown(self, event: events.ScreenResume) -> None:
        """Shown for the first time, right after it was mounted: its widgets were styled as
        they mounted, and every change of style since reached them, so Textual need not
        style them all again (handled before Textual's own handler, a base class's)."""
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def on_screen_resume(self) -> None:
        status = self.query_one(StatusBar)
        status.mode = self.MODE_NAME
        self.fd.paint_status(status)
        session = self.fd.session
        if session is not None and not self._topics_watched:
            # Textual may resume a screen twice when a mode first opens: watch once.
            self._topics_watched = True
            for topic in self.TOPICS:
                session.live.watch(topic)

    def on_screen_suspend(self) -> None:
        session = self.fd.session
        if session is not None and self._topics_watched:
            self._topics_watched = False
            for topic in self.TOPICS:
                session.live.unwatch(topic)


class LiveModal:
    """A mix-in for a modal that shows a live store topic: while it is in front, the app
    posts it the store's changes as ``StoreChanged`` messages (as it does to a mode
    screen)."""
