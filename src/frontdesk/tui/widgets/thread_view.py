"""The messages of one conversation: a scrolling list that mounts only what is near the view.

:class:`ThreadView` is what the thread screen shows. Its parts, each in its own module:

* :mod:`.thread_window` — every message kept compact, widgets only for a window of them near
  the view, mounted in batches as the user nears an edge and unmounted far from it;
* :mod:`.thread_anchoring` — the view pinned to the newest (or oldest) message, or anchored on
  the message at its top, in the very frame the children are laid out (no visible jump);
* :mod:`.thread_echoes` — replies still in the outbox, shown dimmed after the messages until
  the real ones arrive with the same ``external_id``;
* :mod:`.thread_keys` — ``j``/``k``, ``g``/``G``, home, end;
* :mod:`.new_messages_indicator` — "↓ N new" while new messages are out of view.

Opening a thread does nothing per message before its first frame: the rows handed over are
kept as they are, only the newest messages that fill the view are mounted, and the id index
and the rest of the window follow once that frame is painted — so 10,000 messages open as
fast as 50.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widget import AwaitMount, Widget

from frontdesk.api.models.messages import Message
from frontdesk.heap import give_back
from frontdesk.store.message_rows import MessageRows
from frontdesk.tui.widgets.message_view import MessageView

from .new_messages_indicator import NewMessagesIndicator
from .thread_anchoring import ThreadAnchoring
from .thread_echoes import ThreadEchoes
from .thread_keys import ThreadKeys

__all__ = ["NewMessagesIndicator", "ThreadView"]


class ThreadView(ThreadKeys, ThreadEchoes, ThreadAnchoring):
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

    #: Relative times ("5 min ago") are refreshed this often (seconds).
    TIME_REFRESH: ClassVar[float] = 30.0

    # ------------------------------------------------------------------ public --

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
        added below and older ones mounted above as the window grows (no flicker, no message
        twice). When the shown messages are not one run of ``messages`` (one was removed
        meanwhile), the thread is shown afresh.

        Like :meth:`set_messages`, nothing is done per message of the thread before the
        frame: the shown run is looked for from the newest message back, and the id index
        (which drops a duplicate, showing the window afresh) is built once it is painted."""
        rows = MessageRows.of(messages)
        shown = self._messages
        count = len(shown)
        start = _run_start(rows, shown)
        if start < 0 or self._echoes or self._lo != 0 or self._hi != count:
            return self.set_messages(messages)
        newer = rows[start + count:]
        self._messages = rows
        self._index = None
        self._external = None
        self._lo = start
        self._hi = len(rows)
        views = [self._make_view(message) for message in newer]
        self._views.extend(views)
        if views and self._pin != "bottom":
            self._unseen += len(views)
            self._update_indicator()
        await_mount = self.mount_all(views) if views else AwaitMount(self, [])
        if self.is_attached:
            # What the view shows stays as it is; older messages go above it only as many as
            # fill it, the rest of the window once that is painted (never a batch of them
            # between the service's answer and its frame)
            missing = self._opening_size() - (self._hi - self._lo)
            if missing > 0 and self._lo > 0:
                self._extend_top(missing)
            else:
                self.call_after_refresh(self._schedule_edges)
            self.call_after_refresh(self._ids)
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

    def refresh_names(self) -> None:
        """Show the authors' names of the mounted messages again where they changed (names
        resolved after the messages were shown)."""
        for view in self.message_views:
            view.refresh_author()

    def refresh_times(self) -> None:
        """Update the relative times of the mounted messages (only those that changed)."""
        for view in self.message_views:
            view.refresh_time()

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


def _run_start(rows: MessageRows, run: MessageRows) -> int:
    """Where ``run`` (a few messages, by id) starts in ``rows``, looked for from the newest
    message back (the run is the newest few, or close to them); -1 when it is not there."""
    count = len(run)
    if not count:
        return -1
    first = run.id_at(0)
    for start in range(len(rows) - count, -1, -1):
        if rows.id_at(start) == first:
            if all(rows.id_at(start + at) == run.id_at(at) for at in range(1, count)):
                return start
            return -1
    return -1
