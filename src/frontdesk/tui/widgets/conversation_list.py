"""The inbox's conversation list: a virtual list on Textual's Line API.

Tens of thousands of rows must build, filter and scroll without a widget per row, so the list
keeps plain data (the conversations of the view, in order) and paints only the lines on
screen. A cursor step repaints two lines. The list holds the rows, the cursor and the filter
here; what a row's cells say and the columns' widths are in ``conversation_cells``. Two
collaborators it owns do the rest: ``painter`` (:class:`~.conversation_lines.RowPainter`)
paints the lines and keeps them painted, ``search``
(:class:`~.conversation_filter.RowSearch`) keeps the rows' search strings for the filter.
One class of some 590 lines: its rows, cursor, filter and scroll are one state.
"""

from __future__ import annotations

import asyncio
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from rich.style import Style
from textual import events, work
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...heap import give_back
from ...store.inbox_rows import RowView
from ..clock import now
from ..registry import owns_bindings
from ..worker_failures import ReportsFailedWorkers
from .conversation_cells import plain_wait
from .conversation_filter import LARGE, SEARCH_SLICE, RowSearch, SearchStrings
from .conversation_lines import RowPainter

if TYPE_CHECKING:
    from ...store.rows import InboxRow

__all__ = ["ConversationList", "RowLookups"]


class RowLookups(NamedTuple):
    """How a row's conversation becomes text: names, tags, previews, times.

    The inbox screen builds this from the session's directory and inbox; the benchmark from
    synthetic data. Every function is called only for rows on screen (and, for the search
    strings, once per set of rows when a filter is typed).
    """

    name: Callable[[str | None], str]
    queue_name: Callable[[str | None], str]
    #: a conversation's tag ids, as the store keeps them (the same object until they change)
    tag_ids: Callable[[int], tuple[str, ...]]
    tag_names: Callable[[int], Sequence[str]]
    #: the last message's text, as the store keeps it (the same object until it changes)
    preview: Callable[[int], str]
    when: Callable[[InboxRow], datetime]
    ago: Callable[[datetime], str]
    #: changes when names, queues or tags may read differently (search strings are rebuilt)
    generation: Callable[[], object]
    #: until when a Pending conversation waits (None: not known here)
    followup: Callable[[int], datetime | None] = lambda _cid: None
    #: whether a conversation has a draft reply (marked after its id)
    has_draft: Callable[[int], bool] = lambda _cid: False
    #: the colours of a conversation's tags (``#rrggbb`` or None), in ``tag_names`` order
    tag_colors: Callable[[int], Sequence[str | None]] = lambda _cid: ()
    #: whether a conversation is marked for an action on many (``✓`` in its leading cell)
    marked: Callable[[int], bool] = lambda _cid: False
    #: who wrote the last message ("customer" or "agent") and when (None: not known here)
    turn: Callable[[int], tuple[str, datetime] | None] = lambda _cid: None
    #: whether the customer wrote after what was read here
    unread: Callable[[int], bool] = lambda _cid: False
    #: how long a customer who wrote at a moment has waited at another, in seconds (the
    #: organisation's open hours, or plain time)
    waited: Callable[[datetime, datetime], float] = plain_wait


@owns_bindings
class ConversationList(ScrollView, ReportsFailedWorkers, can_focus=True):
    """Conversations, one line each, under a header line of column titles."""

    HELP_NAME = "Conversation list"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Open", id="inbox.open"),
        Binding("j,down", "cursor_down", "Next", id="inbox.cursor_down", show=False),
        Binding("k,up", "cursor_up", "Previous", id="inbox.cursor_up", show=False),
        Binding("g,home", "cursor_first", "First", id="inbox.cursor_first", show=False),
        Binding("G,end", "cursor_last", "Last", id="inbox.cursor_last", show=False),
        Binding("pagedown", "cursor_page_down", "Page down", id="inbox.page_down",
                show=False),
        Binding("pageup", "cursor_page_up", "Page up", id="inbox.page_up", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "conversation-list--header", "conversation-list--cursor",
        "conversation-list--dim", "conversation-list--preview", "conversation-list--tags",
        "conversation-list--open", "conversation-list--pending",
        "conversation-list--closed", "conversation-list--empty", "conversation-list--late",
        "conversation-list--marked",
    }
    DEFAULT_CSS = """
    ConversationList { overflow-x: hidden; overflow-y: auto; }
    ConversationList > .conversation-list--marked { color: $accent; text-style: bold; }
    """

    class Highlighted(Message):
        """The cursor moved to another conversation (None: the list is empty)."""

        def __init__(self, conversation_id: int | None) -> None:
            super().__init__()
            self.conversation_id = conversation_id

    class Shown(Message):
        """The rows on screen changed (scrolled, resized, other rows): their ids, in order
        (the inbox reads the tags and text of those alone)."""

        def __init__(self, conversation_ids: tuple[int, ...]) -> None:
            super().__init__()
            self.conversation_ids = conversation_ids

    class Selected(Message):
        """``enter`` (or a click on the highlighted row): open this conversation."""

        def __init__(self, conversation_id: int) -> None:
            super().__init__()
            self.conversation_id = conversation_id

    def __init__(self, lookups: RowLookups, *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.lookups = lookups
        self.empty_text = "No conversations here."
        #: the rows: a list, or a store's view (:class:`~frontdesk.store.inbox_rows.RowView`:
        #: its rows made as they are read, 4 bytes a row)
        self._rows: list[InboxRow] | RowView = []
        #: changes with every change of the rows (a search-string build in slices checks it)
        self._serial = 0
        #: a list's ids, in the same order (found by a C-level ``index``, not a loop); None
        #: for a view, which finds its ids itself
        self._ids: list[int] | None = []
        #: positions in ``_rows`` shown, ascending (a range when nothing is filtered out)
        self._visible: Sequence[int] = range(0)
        #: the rows' search strings, for the filter (made only while one is wanted)
        self.search = RowSearch(lookups)
        #: whether the search strings are wanted (a filter is in use or its line is open)
        self._search_wanted = False
        self._generation: object = None
        self._needle = ""
        self._cursor = -1
        #: paints the lines (and keeps them painted until they change)
        self.painter = RowPainter(lookups, self.refresh)
        self._styles: dict[str, Style] | None = None
        self._minute = ""
        self.builds = 0
        #: rows changed in place (:meth:`update_rows`), without a build
        self.updates = 0
        #: the ids of the rows on screen as last told (:class:`Shown`)
        self._window: tuple[int, ...] = ()

    # ------------------------------------------------------------------ data

    @property
    def row_count(self) -> int:
        """Rows shown (after the filter)."""
        return len(self._visible)

    @property
    def total_count(self) -> int:
        """Rows of the view (before the filter)."""
        return len(self._rows)

    @property
    def cursor(self) -> int:
        """Position of the cursor among the shown rows (-1: none)."""
        return self._cursor

    @property
    def highlighted(self) -> InboxRow | None:
        """The conversation under the cursor."""
        if 0 <= self._cursor < len(self._visible):
            return self._rows[self._visible[self._cursor]]
        return None

    @property
    def highlighted_id(self) -> int | None:
        """The id of the conversation under the cursor."""
        row = self.highlighted
        return row.id if row is not None else None

    def shown_ids(self) -> list[int]:
        """Ids of the rows shown, in order (tests and the palette)."""
        id_at = self._id_at
        return [id_at(i) for i in self._visible]

    def window_ids(self) -> tuple[int, ...]:
        """Ids of the rows on screen now (from the scroll position, the header line aside)."""
        top = max(0, round(self.scroll_y))
        height = max(1, self.scrollable_content_region.height - 1) if self.is_mounted else 0
        id_at, visible = self._id_at, self._visible
        return tuple(id_at(visible[position])
                     for position in range(top, min(len(visible), top + height)))

    def _id_at(self, at: int) -> int:
        """The id of the row at ``at`` of the rows (a view's without making the row)."""
        ids = self._ids
        if ids is not None:
            return ids[at]
        rows = self._rows
        assert isinstance(rows, RowView)
        return rows.id_at(at)

    def _index_of(self, conversation_id: int) -> int:
        """Where a conversation is among the rows (-1: not there)."""
        ids = self._ids
        if ids is None:
            rows = self._rows
            assert isinstance(rows, RowView)
            return rows.index_of(conversation_id)
        try:
            return ids.index(conversation_id)
        except ValueError:
            return -1

    def _tell_window(self) -> None:
        """Post :class:`Shown` when the rows on screen are not those last told."""
        window = self.window_ids()
        if window != self._window:
            self._window = window
            self.post_message(self.Shown(window))

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """Scrolled: other rows may be on screen."""
        super().watch_scroll_y(old_value, new_value)
        if round(old_value) != round(new_value):
            self._tell_window()

    def set_rows(self, rows: Sequence[InboxRow], *, keep: int | None = None) -> None:
        """Show these conversations (in this order), keeping the filter; the cursor stays on
        ``keep`` (default: the highlighted conversation) when it is still shown, else on the
        same position."""
        keep_id = self.highlighted_id if keep is None else keep
        position = self._cursor
        old_rows = self._rows
        if isinstance(rows, RowView):  # a store's view: kept as its slots, a copy of its own
            self._rows, self._ids = rows.copy(), None
        else:
            self._rows = list(rows)
            self._ids = [row.id for row in rows]
        self._serial += 1
        self.search.rows_replaced(old_rows)  # made again, reusing the unchanged rows' strings
        self.painter.clear()
        self.builds += 1
        generation = self.lookups.generation()
        if generation != self._generation:
            self._generation = generation
            self.search.names_changed()
        self._settle(keep_id, position)
        if max(len(old_rows), len(self._rows)) >= LARGE and self.is_mounted:
            self.call_after_refresh(give_back)  # the old rows, the view's sorting

    def update_rows(self, changes: Mapping[int, InboxRow | None],
                    key: Callable[[InboxRow], Any], *, names: bool = False) -> None:
        """Change a few conversations in place: each id's old line goes, its new row (None:
        it left the view) goes where ``key`` puts it in the descending order the rows are in
        (every old line goes before any new row is placed: a store's view reads a row as it
        is now, so a changed row not yet moved would mislead the bisection).
        Only these conversations' lines and search strings are made again; the cursor stays
        on the highlighted conversation as with :meth:`set_rows`. ``names``: names may read
        differently (every line and search string is made again)."""
        generation = self.lookups.generation()
        if names or generation != self._generation:
            # names may read differently now: search strings and lines are made afresh
            self._generation = generation
            self._forget_strings()
            self.painter.clear()
        keep_id = self.highlighted_id
        position = self._cursor
        rows = self._rows
        ids = self._ids
        self._serial += 1
        search = self.search
        painter = self.painter
        for cid in changes:
            painter.forget((cid,))
            at = self._index_of(cid)
            if at >= 0:
                del rows[at]
                if ids is not None:
                    del ids[at]
                search.remove(at)
        for cid, row in changes.items():
            if row is None:
                continue
            moment = key(row)
            low, high = 0, len(rows)
            while low < high:
                middle = (low + high) // 2
                if key(rows[middle]) > moment:
                    low = middle + 1
                else:
                    high = middle
            rows.insert(low, row)
            if ids is not None:
                ids.insert(low, cid)
            search.insert(low, row, rows)
        self.updates += 1
        self._settle(keep_id, position)

    def _settle(self, keep_id: int | None, position: int) -> None:
        """After new rows: filter them again and put the cursor back on ``keep_id`` (else on
        the same position)."""
        needle, self._needle = self._needle, ""
        self._visible = range(len(self._rows))
        if needle:
            self._apply_filter(needle)
        cursor = -1
        if keep_id is not None:
            cursor = self._position_of(keep_id, near=position)
        if cursor < 0 and self._visible:
            cursor = min(max(position, 0), len(self._visible) - 1)
        self._after_change(cursor)
        if self.search.texts is None and self._search_wanted and self.is_mounted:
            self._prepare_search()

    # ------------------------------------------------------------------ painting

    def repaint_rows(self, conversation_ids: Iterable[int]) -> None:
        """These conversations' lines read differently now (a mark came or went): paint
        them again."""
        self.painter.forget(conversation_ids)
        self.refresh()

    def _tick_ages(self) -> None:
        """Ages are shown in minutes: repaint the rows when the minute changed."""
        marker = now().strftime("%Y%m%d%H%M")
        if marker != self._minute:
            self._minute = marker
            self.painter.clear()
            self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None
        self.painter.clear()

    @property
    def hidden_columns(self) -> frozenset[str]:
        """Optional columns not shown (``queue``, ``assignee``, ``tags``): a view whose
        rows all have the same value there gives the room to the subject."""
        return self.painter.hidden

    @hidden_columns.setter
    def hidden_columns(self, hidden: frozenset[str]) -> None:
        if self.painter.hide(hidden):
            self.refresh()

    @property
    def last_column(self) -> str:
        """The last column: ``age``, or ``followup`` (until when a Pending one waits)."""
        return self.painter.last

    @last_column.setter
    def last_column(self, last: str) -> None:
        if self.painter.end_with(last):
            self.refresh()

    def _palette(self) -> dict[str, Style]:
        styles = self._styles
        if styles is None:
            full = self.get_component_rich_style
            styles = {"base": self.rich_style, "cursor": full("conversation-list--cursor")}
            for name in ("header", "dim", "preview", "tags", "open", "pending", "closed",
                         "empty", "marked", "late"):
                # the foreground only (blended on the list's background), so a column keeps
                # the cursor's background
                style = full(f"conversation-list--{name}")
                styles[name] = Style(color=style.color, bold=style.bold, italic=style.italic,
                                     underline=style.underline, dim=style.dim)
            self._styles = styles
        return styles

    def render_line(self, y: int) -> Strip:
        """Line 0 is the column titles; the others are rows from the scroll position."""
        painter = self.painter
        layout = painter.layout(self.scrollable_content_region.width)
        styles = self._palette()
        if y == 0:
            return painter.header(layout, styles)
        position = round(self.scroll_y) + y - 1
        if not 0 <= position < len(self._visible):
            if y == 1 and not self._visible:
                text = self.empty_text
                if self._needle and self._rows:
                    text = f"Nothing matches “{self._needle}” — esc clears the filter."
                return painter.message(text, layout, styles)
            return Strip.blank(layout.width, styles["base"])
        return painter.row(self._rows[self._visible[position]], position == self._cursor,
                           layout, styles)

    # ------------------------------------------------------------------ filter

    @property
    def search_strings(self) -> int:
        """How many rows have their search string made (0: none kept)."""
        return self.search.count

    @property
    def filter_text(self) -> str:
        """The filter in effect (folded)."""
        return self._needle

    def prepare_search(self) -> None:
        """A filter is about to be typed (its line opened): make the search strings in
        slices between frames from now on, so the first keystroke only scans."""
        self._search_wanted = True
        if self.search.texts is None and self.is_mounted:
            self._prepare_search()

    def drop_search(self) -> None:
        """The filter is closed: forget the search strings (made again when it reopens)."""
        self._search_wanted = False
        had = self.search_strings
        self._forget_strings()
        if had >= LARGE and self.is_mounted:
            self.call_after_refresh(give_back)

    def _forget_strings(self) -> None:
        self._serial += 1  # a build in slices under way is dropped
        self.search.forget()

    def set_filter(self, text: str) -> None:
        """Show only rows whose text contains every word of ``text`` (case-insensitive)."""
        needle = " ".join(text.lower().split())
        if needle == self._needle:
            return
        if needle:
            self._search_wanted = True
        kept = self._visible[self._cursor] if 0 <= self._cursor < len(self._visible) else -1
        self._apply_filter(needle)
        # shown rows stay in view order, so the kept row is found by bisection
        cursor = bisect_left(self._visible, kept) if kept >= 0 else 0
        if not (cursor < len(self._visible) and self._visible[cursor] == kept):
            cursor = 0
        self._after_change(cursor if self._visible else -1)

    def _apply_filter(self, needle: str) -> None:
        previous = self._needle
        self._needle = needle
        if not needle:
            self._visible = range(len(self._rows))
            return
        search = self.search.strings(self._rows)
        candidates: Sequence[int] = (self._visible if previous and needle.startswith(previous)
                                     else range(len(self._rows)))
        words = needle.split()
        if len(words) == 1:
            self._visible = [i for i in candidates if needle in search[i]]
        else:
            self._visible = [i for i in candidates if all(w in search[i] for w in words)]

    @work(exclusive=True, exit_on_error=False, group="search-strings")
    async def _prepare_search(self) -> None:
        """Build the search strings in slices between frames, so the first filter keystroke
        only scans (the work is lost if the rows change meanwhile)."""
        rows, serial, search = self._rows, self._serial, self.search
        built = SearchStrings.begun(rows)
        for start in range(0, len(rows), SEARCH_SLICE):
            if self._serial != serial or search.texts is not None:
                return
            search.add(built, start, start + SEARCH_SLICE)
            await asyncio.sleep(0)
        if self._serial == serial and search.texts is None:
            search.keep(built)

    def _position_of(self, conversation_id: int, near: int = -1) -> int:
        """Where a conversation is shown (-1: not shown); looks near ``near`` first, where it
        usually still is after an update."""
        rows, visible = self._rows, self._visible
        if 0 <= near < len(visible):
            for position in range(max(0, near - 8), min(len(visible), near + 9)):
                if self._id_at(visible[position]) == conversation_id:
                    return position
        if len(visible) == len(rows):
            return self._index_of(conversation_id)
        at = self._index_of(conversation_id)  # shown rows stay in order: bisection
        position = bisect_left(visible, at) if at >= 0 else len(visible)
        return position if position < len(visible) and visible[position] == at else -1

    def _after_change(self, cursor: int) -> None:
        self._cursor = cursor  # lines are cached by conversation and cursor: all still hold
        self.virtual_size = Size(0, len(self._visible) + 1)
        self._scroll_to_cursor()
        self.refresh()
        self.post_message(self.Highlighted(self.highlighted_id))
        self._tell_window()

    # ------------------------------------------------------------------ cursor

    def move_to(self, conversation_id: int) -> bool:
        """Put the cursor on a conversation if it is shown."""
        position = self._position_of(conversation_id)
        if position >= 0:
            self._move(position)
        return position >= 0

    def _move(self, position: int) -> None:
        if not self._visible:
            return
        position = min(max(position, 0), len(self._visible) - 1)
        if position == self._cursor:
            return
        old = self._cursor
        self._cursor = position
        if old >= 0:
            self.refresh_line(old + 1)
        self.refresh_line(position + 1)
        self._scroll_to_cursor()
        self.post_message(self.Highlighted(self.highlighted_id))

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height - 2)

    def _scroll_to_cursor(self) -> None:
        if self._cursor < 0:
            return
        rows_shown = max(1, self.scrollable_content_region.height - 1)
        top = round(self.scroll_y)
        if self._cursor < top:
            top = self._cursor
        elif self._cursor > top + rows_shown - 1:
            top = self._cursor - rows_shown + 1
        if top != round(self.scroll_y):
            self.scroll_to(y=top, animate=False)

    def action_cursor_down(self) -> None:
        """Next conversation."""
        self._move(self._cursor + 1)

    def action_cursor_up(self) -> None:
        """Previous conversation."""
        self._move(self._cursor - 1)

    def action_cursor_first(self) -> None:
        """First conversation."""
        self._move(0)

    def action_cursor_last(self) -> None:
        """Last conversation."""
        self._move(len(self._visible) - 1)

    def action_cursor_page_down(self) -> None:
        """A page further down."""
        self._move(self._cursor + self._page())

    def action_cursor_page_up(self) -> None:
        """A page further up."""
        self._move(self._cursor - self._page())

    def action_select(self) -> None:
        """Open the highlighted conversation."""
        conversation_id = self.highlighted_id
        if conversation_id is not None:
            self.post_message(self.Selected(conversation_id))

    def on_click(self, event: events.Click) -> None:
        """A click highlights a row; a click on the highlighted row opens it."""
        offset = event.get_content_offset(self)
        if offset is None or offset.y < 1:
            return
        position = round(self.scroll_y) + offset.y - 1
        if not 0 <= position < len(self._visible):
            return
        if position == self._cursor or event.chain > 1:
            self._move(position)
            self.action_select()
        else:
            self._move(position)

    # ------------------------------------------------------------------ mounted

    def on_resize(self, _event: events.Resize) -> None:
        """Another size: the columns are laid out again, the cursor kept in view, and other
        rows may be on screen (told once the size holds)."""
        self.painter.resized()
        self._scroll_to_cursor()
        self.call_after_refresh(self._tell_window)

    def on_mount(self) -> None:
        self._minute = now().strftime("%Y%m%d%H%M")
        self.set_interval(30, self._tick_ages)
        # rows given before mounting: their search strings only if a filter is wanted already
        # (a hundred thousand of them weigh more than the rows)
        if self._rows and self.search.texts is None and self._search_wanted:
            self._prepare_search()
