"""The messages of one conversation: a scrolling list that mounts only what is near the view.

A thread can hold tens of thousands of messages; a widget per message for all of them would
take seconds to open.  :class:`ThreadView` keeps every :class:`Message` record in a plain
list and mounts a :class:`MessageView` only for a *window* of them: the newest
:attr:`ThreadView.WINDOW` when a thread opens (scrolled to the bottom), then batches of
:attr:`ThreadView.BATCH` older (or newer) messages as the user scrolls near an edge of the
window.  When the window grows past :attr:`ThreadView.MAX_MOUNTED` widgets, the far side is
unmounted again, so the number of widgets stays bounded however far the user travels.
Opening a thread is O(n) cheap bookkeeping (a list and an id index) plus a constant amount
of widget work, so 10,000 messages open about as fast as 50.

Scroll position is kept by *anchoring*, applied where Textual lays the children out
(:meth:`ThreadView.arrange`), so no frame ever shows a jump:

* pinned to the bottom (the thread just opened, or the user is at the newest message): every
  layout keeps the view at the bottom, so new messages scroll into view;
* pinned to the top after ``g``;
* otherwise the message at the top of the view keeps its place on screen when messages are
  mounted or unmounted above it (older batches, trimming) or change height.

Local echoes of messages still in the outbox (:meth:`ThreadView.add_pending`) are shown after
the real messages, dimmed with their status, and replaced by the real message when it
arrives with the same ``external_id``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar, Literal

from textual import events
from textual.app import ScreenStackError
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.dom import NoScreen
from textual.geometry import Size
from textual.layout import DockArrangeResult
from textual.message import Message as TextualMessage
from textual.widget import AwaitMount, Widget

from frontdesk.api.models.messages import Message
from frontdesk.heap import give_back
from frontdesk.store.message_rows import MessageRows
from frontdesk.tui.widgets.message_view import MessageView

from .safe import Static

__all__ = ["NewMessagesIndicator", "ThreadView"]

Pin = Literal["top", "bottom"] | None


@dataclass
class _Echo:
    """A local echo: a message still in the outbox, shown until the real one arrives."""

    key: str
    message: Message
    status: str
    failed: bool


class NewMessagesIndicator(Static):
    """The "↓ N new" line, docked at the bottom while new messages are out of view."""

    class Pressed(TextualMessage):
        """The indicator was clicked: jump to the newest message."""

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Pressed())


class ThreadView(VerticalScroll):
    """A conversation's messages, newest at the bottom, mounted in a window near the view.

    ``names`` resolves author ids to display names; ``clock`` gives "now" for relative times
    (inject a fixed clock for tests and snapshots).
    """

    DEFAULT_CSS = """
    ThreadView {
        height: 1fr;
    }
    ThreadView > NewMessagesIndicator {
        dock: bottom;
        display: none;
    }
    ThreadView > NewMessagesIndicator.-visible {
        display: block;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "next_message", "Next", id="thread.next"),
        Binding("k,up", "previous_message", "Previous", id="thread.previous"),
        Binding("g", "first", "Oldest", id="thread.first"),
        Binding("G", "last", "Newest", id="thread.last"),
        Binding("home", "home", "Top", show=False, id="thread.home"),
        Binding("end", "end", "Bottom", show=False, id="thread.end"),
        Binding("pageup", "page_up", "Page up", show=False, id="thread.page_up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="thread.page_down"),
    ]

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
    #: Relative times ("5 min ago") are refreshed this often (seconds).
    TIME_REFRESH: ClassVar[float] = 30.0

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
        self._echoes: list[_Echo] = []
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

    # ------------------------------------------------------------------ public --

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

    @property
    def unseen(self) -> int:
        """New messages that arrived while the view was not at the bottom."""
        return self._unseen

    @property
    def pinned_to_bottom(self) -> bool:
        """Whether the view follows the newest message (new ones scroll into view)."""
        return self._pin == "bottom"

    @property
    def focused_message(self) -> Message | None:
        """The message whose widget has focus, if any."""
        index = self._focused_index()
        return None if index is None else self.message_views[index].message

    def set_messages(self, messages: Sequence[Message]) -> AwaitMount:
        """Show a new thread (replacing everything, local echoes included), at its newest.

        Only the newest :attr:`WINDOW` messages are mounted; returns the (optional)
        awaitable of that mount.  Nothing is done per message beyond copying the list: the
        id index (for duplicates and echoes) is built after the first frame.  Should the
        list hold the same id twice, the first occurrence is kept then.
        """
        self._messages = MessageRows.of(messages)
        self._index = None
        self._external = None
        self._echoes = []
        self._unseen = 0
        self._update_indicator()
        total = len(self._messages)
        await_mount = self._reset_window(max(0, total - self._opening_size()), total, "bottom")
        if self.is_attached:
            self.call_after_refresh(self._ids)
            if total >= 1_000:  # the answer's parsing is over: its memory goes back
                self.call_after_refresh(give_back)
        return await_mount

    def reconcile(self, messages: Sequence[Message]) -> AwaitMount:
        """The whole thread, read after a part of it was shown (the newest few, known before
        the service answered): the widgets of the messages shown are kept, newer ones are
        appended and older ones mounted above as the window grows (no flicker, no message
        twice). When the shown messages are not one run of ``messages`` (one was removed
        meanwhile), the thread is shown afresh."""
        rows = MessageRows.of(messages)
        shown = self._messages.ids
        ids = rows.ids
        start = ids.index(shown[0]) if shown and shown[0] in ids else -1
        if (start < 0 or self._echoes or self._lo != 0 or self._hi != len(shown)
                or ids[start:start + len(shown)] != shown or len(set(ids)) != len(ids)):
            return self.set_messages(messages)
        newer = rows[start + len(shown):]
        self._messages = rows.head(start + len(shown))
        self._index = None
        self._external = None
        self._lo, self._hi = start, start + len(shown)
        await_mount = self.append(newer) if newer else AwaitMount(self, [])
        if self.is_attached:
            # What the view shows stays as it is; older messages go above it only as many as
            # fill it, the rest of the window once that is painted (never a batch of them
            # between the service's answer and its frame)
            missing = self._opening_size() - (self._hi - self._lo)
            if missing > 0 and self._lo > 0:
                self._extend_top(missing)
            else:
                self.call_after_refresh(self._schedule_edges)
            if len(rows) >= 1_000:  # the answer's parsing is over: its memory goes back
                self.call_after_refresh(give_back)
        return await_mount

    def append(self, messages: Iterable[Message]) -> AwaitMount:
        """New messages, added at the bottom without re-rendering the others.

        A message whose id is already shown is ignored; one whose ``external_id`` matches a
        local echo takes the echo's place.  The view follows only if it was at the bottom;
        otherwise "↓ N new" is shown.
        """
        ids = self._ids()
        at_end = self._hi == len(self._messages)
        first_echo = self._echo_views[0] if self._echo_views and at_end else None
        new_views: list[MessageView] = []
        replaced: list[MessageView] = []
        refocus: MessageView | None = None
        focused = self._focused_widget()
        for message in messages:
            if message.id in ids:
                continue
            ids[message.id] = len(self._messages)
            self._messages.append(message)
            if self._external is not None and message.external_id:
                self._external.setdefault(message.external_id, message.id)
            echo_index = self._echo_index(message.external_id)
            if echo_index is not None:
                del self._echoes[echo_index]
                if at_end and echo_index < len(self._echo_views):
                    replaced.append(self._echo_views.pop(echo_index))
            if at_end:
                view = self._make_view(message)
                new_views.append(view)
                self._hi += 1
                if replaced and replaced[-1] is focused and echo_index is not None:
                    refocus = view
            if echo_index is None and (not at_end or self._pin != "bottom"):
                self._unseen += 1  # (one's own message arriving is not news)
        self._update_indicator()
        if not new_views:
            self._unmount(replaced)
            return AwaitMount(self, [])
        self._views.extend(new_views)
        if first_echo is not None:
            await_mount = self.mount_all(new_views, before=first_echo)
        else:
            await_mount = self.mount_all(new_views)
        self._unmount(replaced)
        if refocus is not None:
            self._focus_after(await_mount, refocus)
        return await_mount

    def add_pending(
        self, local_echo: Message, status: str = "sending…", *, failed: bool = False
    ) -> AwaitMount:
        """Show a message still in the outbox at the bottom, dimmed, with its status.

        It is matched to the real message by ``external_id`` (its ``id`` when it has none).
        Adding an echo again only updates its status; an echo whose message already arrived
        is ignored.
        """
        key = local_echo.external_id or local_echo.id
        if local_echo.id in self._ids() or key in self._external_ids():
            return AwaitMount(self, [])
        for echo in self._echoes:
            if echo.key == key:
                self.set_pending_status(key, status, failed=failed)
                return AwaitMount(self, [])
        echo = _Echo(key, local_echo, status, failed)
        self._echoes.append(echo)
        if not self.is_attached:
            self._deferred = True
            return AwaitMount(self, [])
        if self._hi != len(self._messages):
            return AwaitMount(self, [])
        view = self._make_echo_view(echo)
        self._echo_views.append(view)
        return self.mount(view)

    def set_pending_status(self, key: str, status: str, *, failed: bool = False) -> None:
        """Change the status shown for the local echo ``key`` ("sending…", "failed: …")."""
        for position, echo in enumerate(self._echoes):
            if echo.key == key:
                echo.status, echo.failed = status, failed
                if position < len(self._echo_views):
                    self._echo_views[position].set_status(status, failed=failed)
                return

    def remove_pending(self, key: str) -> None:
        """Stop showing the local echo ``key`` (the outbox item was dropped)."""
        position = self._echo_index(key)
        if position is None:
            return
        del self._echoes[position]
        if position < len(self._echo_views):
            self._unmount([self._echo_views.pop(position)])

    def refresh_names(self) -> None:
        """Show the authors' names of the mounted messages again where they changed (names
        resolved after the messages were shown)."""
        for view in self.message_views:
            view.refresh_author()

    def refresh_times(self) -> None:
        """Update the relative times of the mounted messages (only those that changed)."""
        for view in self.message_views:
            view.refresh_time()

    def _opening_size(self) -> int:
        """How many of the newest messages the first frame of a thread mounts."""
        height = self.size.height  # once laid out; else the terminal's, a bound of it
        if not height:
            try:
                height = self.app.size.height
            except Exception:  # no app yet: built outside a running console
                height = 0
        return min(self.WINDOW, max(self.FIRST, height // 3))

    # ------------------------------------------------------------- lifecycle --

    def compose(self) -> Iterable[Widget]:
        yield self._indicator

    def on_mount(self) -> None:
        self.set_interval(self.TIME_REFRESH, self.refresh_times)
        if self._deferred:
            self._deferred = False
            total = len(self._messages)
            self._reset_window(self._lo, total, self._pin)

    def on_new_messages_indicator_pressed(self, event: NewMessagesIndicator.Pressed) -> None:
        event.stop()
        self.action_last()

    # ------------------------------------------------------------------ window --

    def _make_view(self, message: Message) -> MessageView:
        return MessageView(message, names=self._names, clock=self._clock)

    def _make_echo_view(self, echo: _Echo) -> MessageView:
        return MessageView(
            echo.message,
            names=self._names,
            clock=self._clock,
            status=echo.status,
            failed=echo.failed,
        )

    def _echo_index(self, key: str | None) -> int | None:
        if not key:
            return None
        for position, echo in enumerate(self._echoes):
            if echo.key == key:
                return position
        return None

    def _ids(self) -> dict[str, int]:
        """The id index of the messages, built on first use after :meth:`set_messages`.

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

    def _external_ids(self) -> dict[str, str]:
        """External ids of the real messages (built on first use: echoes are rare)."""
        if self._external is None:
            rows = self._messages
            self._external = {
                external: message_id
                for external, message_id in zip(rows.external_ids, rows.ids, strict=True)
                if external
            }
        return self._external

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
        self._echo_views = [self._make_echo_view(e) for e in self._echoes] if at_end else []
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
            self._echo_views = [self._make_echo_view(echo) for echo in self._echoes]
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
            if view.is_attached and not view._pruning:
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

    # ---------------------------------------------------------------- scrolling --

    def arrange(self, size: Size, optimal: bool = False) -> DockArrangeResult:
        """Lay out the children, then keep the view where the reader expects it.

        Called by the compositor before it positions the children with ``scroll_y``, so the
        scroll position set here is used in the very same frame (no visible jump).
        """
        result = super().arrange(size, optimal)
        if optimal or not size.height or result is self._arrangement:
            return result
        previous, self._arrangement = self._arrangement, result
        scroll_y: float | None = None
        if self._pin == "bottom":
            scroll_y = max(0, result.total_region.bottom - size.height)
        elif self._pin == "top":
            scroll_y = 0
        elif previous is not None:
            scroll_y = self._anchored_scroll(previous, result)
        if scroll_y is not None and scroll_y != self.scroll_y:
            self.set_reactive(Widget.scroll_y, scroll_y)
            self.set_reactive(Widget.scroll_target_y, scroll_y)
            if self.show_vertical_scrollbar:
                self.vertical_scrollbar.set_reactive(
                    type(self.vertical_scrollbar).position, scroll_y
                )
                self.vertical_scrollbar.refresh()
        self._schedule_edges()
        return result

    def _anchored_scroll(
        self, previous: DockArrangeResult, result: DockArrangeResult
    ) -> float | None:
        """The scroll position that keeps the top visible message where it was."""
        new_regions = {
            placement.widget: placement.region
            for placement in result.placements
            if not placement.fixed
        }
        top = self.scroll_y
        for placement in previous.placements:
            if placement.fixed or placement.region.bottom <= top:
                continue
            region = new_regions.get(placement.widget)
            if region is None:
                continue
            delta = region.y - placement.region.y
            return top + delta if delta else None
        return None

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        at_end = self._hi == len(self._messages)
        if at_end and new_value >= self.max_scroll_y:
            self._pin = "bottom"
            if self._unseen:
                self._unseen = 0
                self._update_indicator()
        elif self._pin == "bottom" or (self._pin == "top" and new_value > 0):
            self._pin = None
        self._schedule_edges()

    def _update_indicator(self) -> None:
        self._indicator.update(f"↓ {self._unseen} new" if self._unseen else "")
        self._indicator.set_class(self._unseen > 0, "-visible")

    # ------------------------------------------------------------------ actions --

    def _visible_range(self) -> tuple[int, int] | None:
        """Indices (in :attr:`message_views`) of the first and last views in the viewport."""
        if self._arrangement is None:
            return None
        views = self.message_views
        positions = {view: position for position, view in enumerate(views)}
        top = self.scroll_y
        bottom = top + self.scrollable_content_region.height
        first = last = None
        for placement in self._arrangement.placements:
            position = positions.get(placement.widget)  # type: ignore[call-overload]
            if position is None:
                continue
            region = placement.region
            if region.bottom > top and region.y < bottom:
                if first is None:
                    first = position
                last = position
        if first is None or last is None:
            return None
        return first, last

    def _focus_view(self, view: MessageView) -> None:
        view.focus(scroll_visible=False)
        view.scroll_visible(animate=False)

    def action_next_message(self) -> None:
        """Focus the next (newer) message, mounting more below when needed."""
        views = self.message_views
        current = self._focused_index()
        if current is None:
            self._focus_default(views)
        elif current + 1 < len(views):
            self._focus_view(views[current + 1])
        else:
            last = views[current]
            await_mount = self._extend_bottom()
            if await_mount is not None:
                views = self.message_views  # trimming may have shifted the indices
                position = views.index(last) + 1
                if position < len(views):
                    self._focus_after(await_mount, views[position])

    def action_previous_message(self) -> None:
        """Focus the previous (older) message, mounting an older batch when needed."""
        views = self.message_views
        current = self._focused_index()
        if current is None:
            self._focus_default(views)
        elif current > 0:
            self._focus_view(views[current - 1])
        else:
            before = len(self._views)
            await_mount = self._extend_top()
            if await_mount is not None:
                added = len(self._views) - before
                self._focus_after(await_mount, self.message_views[max(0, added - 1)])
            else:
                self.scroll_home(animate=False)

    def _focus_default(self, views: list[MessageView]) -> None:
        """With no message focused, j/k focus the newest message in view."""
        if not views:
            return
        visible = self._visible_range()
        self._focus_view(views[visible[1]] if visible is not None else views[-1])

    def action_first(self) -> None:
        """Go to the oldest message (``g``)."""
        if self._lo > 0:
            await_mount = self._reset_window(0, min(len(self._messages), self.WINDOW), "top")
            if self._views:
                self._focus_after(await_mount, self._views[0])
            return
        self._pin = "top" if self.max_scroll_y > 0 else self._pin
        self.scroll_home(animate=False, immediate=True)
        if self._views:
            self._views[0].focus(scroll_visible=False)

    def action_last(self) -> None:
        """Go to the newest message (``G``) and follow new ones again."""
        self._go_bottom(focus=True)

    def action_end(self) -> None:
        """Scroll to the newest message without moving the focus."""
        self._go_bottom(focus=False)

    def _go_bottom(self, *, focus: bool) -> None:
        self._unseen = 0
        self._update_indicator()
        total = len(self._messages)
        if self._hi < total:
            await_mount = self._reset_window(max(0, total - self.WINDOW), total, "bottom")
            views = self.message_views
            if focus and views:
                self._focus_after(await_mount, views[-1])
            return
        self._pin = "bottom"
        self.scroll_end(animate=False, immediate=True)
        views = self.message_views
        if focus and views:
            views[-1].focus(scroll_visible=False)

    def action_home(self) -> None:
        """Scroll to the top of what is mounted; at the top, mount the older batch."""
        if self.scroll_y <= 0 and self._lo > 0:
            self._extend_top()
        else:
            self.scroll_home(animate=False)
