"""The window of a thread view: which of its messages have widgets, and mounting them.

A thread can hold tens of thousands of messages; a widget per message for all of them would
take seconds to open. :class:`ThreadWindow` keeps every message in a compact
:class:`~frontdesk.store.message_rows.MessageRows` and mounts a :class:`MessageView` only for
a *window* ``[lo, hi)`` of them: the newest when a thread opens, then batches of
:attr:`ThreadWindow.BATCH` older (or newer) messages as the user nears an edge of the window.
When the window grows past :attr:`ThreadWindow.MAX_MOUNTED` widgets, the far side is
unmounted again, so the number of widgets stays bounded however far the user travels.

The id index (duplicates, echoes) is built on first use, after the first frame; the local
echoes (:mod:`.thread_echoes`) are mounted after the messages when the window reaches the end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar, Literal

from textual.app import ScreenStackError
from textual.containers import VerticalScroll
from textual.dom import NoScreen
from textual.layout import DockArrangeResult
from textual.widget import AwaitMount, Widget

from frontdesk.api.models.messages import Message
from frontdesk.store.message_rows import MessageRows
from frontdesk.tui.widgets.message_view import MessageView

from .new_messages_indicator import NewMessagesIndicator

if TYPE_CHECKING:
    from .thread_echoes import Echo

__all__ = ["Pin", "ThreadWindow"]

#: where the view is held: at the oldest message (after ``g``), the newest, or anchored
Pin = Literal["top", "bottom"] | None


class ThreadWindow(VerticalScroll):
    """A scrolling list of a thread's messages with widgets for a window of them.

    ``names`` resolves author ids to display names; ``clock`` gives "now" for relative times.
    """

    #: Messages mounted when a thread opens (the newest ones): the first frame gets only
    #: what can fill the view (:meth:`_opening_size`), the rest of the window follows as a
    #: batch above once it is painted, so a thread over a slow service is on screen sooner.
    WINDOW: ClassVar[int] = 40
    #: Messages mounted for the first frame at least (a third of the view's height if more:
    #: a message takes three lines or more, its author and time, its text, a margin).
    FIRST: ClassVar[int] = 12
    #: Messages mounted at once when the user nears an edge of the window.
    BATCH: ClassVar[int] = 40
    #: Beyond this many mounted messages, the side away from the view is unmounted.
    MAX_MOUNTED: ClassVar[int] = 120

    def __init__(
        self,
        *,
        names: Callable[[str], str] | None = None,
        clock: Callable[[], datetime] | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._names = names
        self._clock = clock
        self._messages = MessageRows()  # compact: models only for what is mounted
        self._index: dict[str, int] | None = {}  # id -> position; None until rebuilt
        self._external: dict[str, str] | None = None  # external id -> message id, lazily
        self._echoes: list[Echo] = []
        self._lo = 0
        self._hi = 0
        self._views: list[MessageView] = []  # mounted, for self._messages[self._lo:self._hi]
        self._echo_views: list[MessageView] = []  # mounted when the window reaches the end
        self._pin: Pin = "bottom"
        self._unseen = 0
        self._busy = 0
        self._edges_scheduled = False
        self._arrangement: DockArrangeResult | None = None
        self._deferred = False
        self._indicator = NewMessagesIndicator("")
        #: the first message not read before the thread was opened: a "New" divider above it
        self.first_new_id: str | None = None

    @property
    def messages(self) -> Sequence[Message]:
        """Every message of the thread, oldest first (do not modify)."""
        return self._messages

    @property
    def window(self) -> tuple[int, int]:
        """The ``[start, end)`` range of :attr:`messages` that is mounted."""
        return (self._lo, self._hi)

    @property
    def message_views(self) -> list[MessageView]:
        """The mounted message widgets, in order (local echoes last)."""
        return [*self._views, *self._echo_views]

    def _opening_size(self) -> int:
        """How many of the newest messages the first frame of a thread mounts."""
        height = self.size.height  # once laid out; else the terminal's, a bound of it
        if not height:
            try:
                height = self.app.size.height
            except Exception:  # no app yet: built outside a running console
                height = 0
        return min(self.WINDOW, max(self.FIRST, height // 3))

    def _make_view(self, message: Message) -> MessageView:
        view = MessageView(message, names=self._names, clock=self._clock)
        if self.first_new_id is not None and message.id == self.first_new_id:
            view.add_class("-first-new")
            view.border_title = "New"
        return view

    def _ids(self) -> dict[str, int]:
        """The id index of the messages, built on first use after a thread is set.

        Duplicate ids (a thread should have none) are dropped here, keeping the first; the
        window is then mounted afresh at the newest messages.
        """
        if self._index is None:
            ids = self._messages.ids
            index = {message_id: position for position, message_id in enumerate(ids)}
            if len(index) != len(ids):
                firsts: list[int] = []
                index = {}
                for position, message_id in enumerate(ids):
                    if message_id not in index:
                        index[message_id] = len(firsts)
                        firsts.append(position)
                unique = self._messages.select(firsts)
                self._messages = unique
                self._index = index  # before the reset, which may look it up
                total = len(unique)
                self._reset_window(max(0, total - self.WINDOW), total, "bottom")
            self._index = index
        return self._index

    def _focused_widget(self) -> Widget | None:
        try:
            return self.screen.focused
        except (NoScreen, ScreenStackError):  # not on a screen yet
            return None

    def _focused_index(self) -> int | None:
        focused = self._focused_widget()
        if not isinstance(focused, MessageView) or focused.parent is not self:
            return None
        try:
            return self.message_views.index(focused)
        except ValueError:
            return None

    def _unmount(self, views: Sequence[MessageView]) -> None:
        """Remove views; hidden at once so no frame lays them out while they go."""
        if not views:
            return
        if self._focused_widget() in views:
            self.focus(scroll_visible=False)
        for view in views:
            view.display = False
        self.remove_children(views)

    def _reset_window(self, lo: int, hi: int, pin: Pin) -> AwaitMount:
        """Mount exactly ``messages[lo:hi]`` (and the echoes when ``hi`` is the end)."""
        self._pin = pin
        self._lo, self._hi = lo, hi
        if not self.is_attached:
            self._deferred = True
            return AwaitMount(self, [])
        self._unmount([*self._views, *self._echo_views])
        self._views = [self._make_view(message) for message in self._messages[lo:hi]]
        at_end = hi == len(self._messages)
        self._echo_views = [echo.view(self._names, self._clock) for echo in self._echoes
                            ] if at_end else []
        return self._track(self.mount_all([*self._views, *self._echo_views]))

    def _extend_top(self, count: int | None = None) -> AwaitMount | None:
        """Mount the batch of messages just above the window (``count`` of them, else
        :attr:`BATCH`); trim its bottom if too long."""
        if self._lo == 0 or self._busy:
            return None
        lo = max(0, self._lo - (count or self.BATCH))
        views = [self._make_view(message) for message in self._messages[lo : self._lo]]
        mounted = self._views or self._echo_views
        before = mounted[0] if mounted else None
        self._views[0:0] = views
        self._lo = lo
        if before is None:
            await_mount = self.mount_all(views)
        else:
            await_mount = self.mount_all(views, before=before)
        self._trim_bottom()
        return self._track(await_mount)

    def _extend_bottom(self) -> AwaitMount | None:
        """Mount the batch of messages just below the window; trim its top if too long."""
        total = len(self._messages)
        if self._hi >= total or self._busy:
            return None
        hi = min(total, self._hi + self.BATCH)
        views = [self._make_view(message) for message in self._messages[self._hi : hi]]
        self._views.extend(views)
        self._hi = hi
        if hi == total:
            self._echo_views = [echo.view(self._names, self._clock) for echo in self._echoes]
            views = [*views, *self._echo_views]
        await_mount = self.mount_all(views)
        self._trim_top()
        return self._track(await_mount)

    def _trim_bottom(self) -> None:
        excess = len(self._views) - self.MAX_MOUNTED
        if excess <= 0 or self._pin == "bottom":
            return
        focused = self._focused_index()
        if focused is not None:
            excess = min(excess, len(self._views) - focused - 1)
        if excess <= 0:
            return
        gone = self._views[-excess:]
        del self._views[-excess:]
        self._hi -= excess
        gone.extend(self._echo_views)
        self._echo_views = []
        self._unmount(gone)

    def _trim_top(self) -> None:
        excess = len(self._views) - self.MAX_MOUNTED
        if excess <= 0 or self._pin == "top":
            return
        focused = self._focused_index()
        if focused is not None:
            excess = min(excess, focused)
        if excess <= 0:
            return
        gone = self._views[:excess]
        del self._views[:excess]
        self._lo += excess
        self._unmount(gone)

    def _track(self, await_mount: AwaitMount) -> AwaitMount:
        """Hold off further batches until this mount is done, then look at the edges again."""
        self._busy += 1

        async def done() -> None:
            try:
                await await_mount
            finally:
                self._busy -= 1
            self.call_after_refresh(self._schedule_edges)

        self.call_next(done)
        return await_mount

    def _focus_after(self, await_mount: AwaitMount, view: MessageView) -> None:
        """Focus ``view`` once mounted, scrolling it into view without animation."""

        async def focus() -> None:
            await await_mount
            # a view trimmed or replaced meanwhile is on its way out: it takes no focus
            if view.is_attached and (view in self._views or view in self._echo_views):
                view.focus(scroll_visible=False)
                view.scroll_visible(animate=False)

        self.call_next(focus)

    def _schedule_edges(self) -> None:
        if not self._edges_scheduled:
            self._edges_scheduled = True
            self.call_later(self._check_edges)

    def _check_edges(self) -> None:
        """Near the top (bottom) of the window with more beyond it: mount the next batch."""
        self._edges_scheduled = False
        if self._busy or not self._views or not self.is_attached:
            return
        height = max(1, self.scrollable_content_region.height)
        if self._lo > 0 and self.scroll_y < height:
            self._extend_top()
        elif self._hi < len(self._messages) and self.scroll_y > self.max_scroll_y - height:
            self._extend_bottom()

    def _update_indicator(self) -> None:
        """Show how many new messages arrived out of view ("↓ N new")."""
        self._indicator.show_count(self._unseen)
