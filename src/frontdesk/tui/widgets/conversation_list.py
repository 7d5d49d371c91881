"""The inbox's conversation list: a virtual list on Textual's Line API.

Tens of thousands of rows must build, filter and scroll without a widget per row, so the list
keeps plain data (the conversations of the view, in order) and paints only the lines on
screen (``render_line``), each built straight from segments and cached until the rows, the
width or the styles change. A cursor step repaints two lines.

Every string from the service (names, subjects, previews, tags, queue names) passes through
:func:`frontdesk.text.one_line` and is painted as a plain segment, never parsed as markup.

Filtering (``/``) is a case-insensitive substring match, word by word, over a search string
per row (id, state, channel, requester, subject, preview, tags, queue, assignee). The strings
exist only while a filter is wanted (the filter line opened, or a filter typed): built in
slices between frames from then on, kept in step with the rows while the filter is in use,
and dropped when it is closed — a hundred thousand of them weigh more than the rows
themselves. A keystroke that extends the filter narrows the previous matches instead of
scanning every row again.
"""

from __future__ import annotations

import asyncio
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events, work
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...channels import SILENT_CHANNELS, channel_icon, channel_name
from ...heap import give_back
from ...text import one_line
from ..clock import now
from ..registry import owns_bindings

if TYPE_CHECKING:
    from ...store.rows import InboxRow

__all__ = ["ConversationList", "Layout", "RowLookups", "channel_label", "layout_for",
           "state_glyph"]

STATE_GLYPHS: Final = {"Open": "●", "Pending": "◐", "AwaitingPending": "◑", "Closed": "○"}
TITLES: Final = {"state": "", "channel": "Channel", "id": "#", "requester": "Requester",
                 "subject": "Subject / last message", "queue": "Queue",
                 "assignee": "Assignee", "tags": "Tags", "age": "Age",
                 "followup": "Follow-up"}
#: what marks a row whose conversation has a draft (after its id)
DRAFT_MARK: Final = "✎"
#: width of the last column: the age, or (in the Pending view) the follow-up time
LAST_WIDTHS: Final = {"age": 6, "followup": 11}
_PENDING: Final = frozenset({"Pending", "AwaitingPending"})
_STATE_CLASSES: Final = {"Open": "open", "Pending": "pending", "AwaitingPending": "pending",
                         "Closed": "closed"}


def state_glyph(state: str | None) -> str:
    """``●`` Open, ``◐`` Pending, ``◑`` AwaitingPending, ``○`` Closed, ``·`` unknown."""
    return STATE_GLYPHS.get(state or "", "·")


@lru_cache(maxsize=64)
def channel_label(channel: str) -> str:
    """A channel's display name with its mark (unknown ones cleaned and cut)."""
    name = channel_name(channel)
    if name is None:
        return one_line(channel, 9)
    icon = channel_icon(name)
    return f"{icon} {name}" if icon else name


@lru_cache(maxsize=64)
def _channel_word(channel: str) -> str:
    """A channel as a filter finds it: its display name (unknown ones cleaned and cut)."""
    return channel_name(channel) or one_line(channel, 9)


class _Strings(NamedTuple):
    """Search strings of a set of rows, with the tag ids and previews they were made of."""

    rows: Sequence[InboxRow]
    texts: list[str]
    tags: list[tuple[str, ...]]
    previews: list[str]


def silent_text(channel: str) -> str:
    """What a row without subject or messages says: ``Phone call, no messages``."""
    name = channel_name(channel) or channel
    return f"{name} call, no messages" if channel == "PstnPhone" else f"{name}, no messages"


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


def followup_text(until: datetime | None, reference: datetime) -> str:
    """``14:00`` today, ``Tue 14:00`` within a week, ``12 Mar`` later, ``due`` once passed,
    ``—`` when not known (local time)."""
    if until is None:
        return "—"
    if until <= reference:
        return "due"
    local, here = until.astimezone(), reference.astimezone()
    if local.date() == here.date():
        return local.strftime("%H:%M")
    if (local.date() - here.date()).days < 7:
        return local.strftime("%a %H:%M")
    return local.strftime("%d %b")


class Layout(NamedTuple):
    """Which columns a width has room for, and how wide each is."""

    width: int
    columns: tuple[tuple[str, int], ...]


#: optional columns, in the order they are given room
_OPTIONAL: Final = (("queue", 12, 18), ("assignee", 12, 18), ("tags", 14, 30))
_SUBJECT_MIN: Final = 20
_SUBJECT_COMFORT: Final = 48
#: rows whose search strings are built between two frames
SEARCH_SLICE: Final = 2_000
#: rows from which a build is followed by giving freed memory back (after its frame)
LARGE: Final = 10_000


def layout_for(width: int, id_width: int, hidden: frozenset[str] = frozenset(),
               last: str = "age") -> Layout:
    """Columns for a list ``width`` cells wide: the essentials always, then queue, assignee
    and tags (unless ``hidden``) while the subject keeps room, then the spare cells shared
    out; ``last`` is the age, or the follow-up time."""
    fixed = [("state", 1), ("channel", 9), ("id", id_width), ("requester", 16)]
    widths = dict(fixed)
    age = LAST_WIDTHS[last]

    def used(cols: dict[str, int]) -> int:
        # one leading blank, one blank between columns, then subject and age
        return 1 + sum(cols.values()) + len(cols) + 1 + age

    optional: list[tuple[str, int, int]] = []
    for key, least, most in _OPTIONAL:
        if key in hidden:
            continue
        trial = {**widths, key: least}
        if width - used(trial) >= _SUBJECT_MIN:
            widths = trial
            optional.append((key, least, most))
    subject = max(5, width - used(widths))
    spare = subject - _SUBJECT_COMFORT
    if spare > 0:
        for key, least, most in [("requester", 16, 24), *optional]:
            grow = min(spare, most - least)
            widths[key] += grow
            spare -= grow
        subject = max(5, width - used(widths))
    order = ["state", "channel", "id", "requester", "subject", "queue", "assignee", "tags",
             last]
    columns = {**widths, "subject": subject, last: age}
    return Layout(width, tuple((key, columns[key]) for key in order if key in columns))


@lru_cache(maxsize=8192)
def _fit(text: str, width: int) -> str:
    """``text`` on one line, exactly ``width`` cells as the terminal renders it: cut (with an
    ellipsis) or padded. Remembered, as names, queues and channels repeat from row to row."""
    shown = one_line(text, width)
    if shown.isascii():
        return shown.ljust(width)
    cells = cell_len(shown)
    if cells > width:  # a character measured differently: cut by Rich's measure
        shown = set_cell_size(shown, width)
        cells = cell_len(shown)
    return shown + " " * (width - cells)


def _tag_segments(names: Sequence[str], colors: Sequence[str | None], width: int,
                  style: Style) -> list[Segment]:
    """Tag names in their colours, exactly ``width`` cells (cut with an ellipsis)."""
    from ..tag_colors import tags_text

    text = tags_text(names, colors, width)
    text.pad_right(width - text.cell_len)
    out: list[Segment] = []
    plain = text.plain
    cuts = sorted({0, len(plain), *(s.start for s in text.spans), *(s.end for s in text.spans)})
    for start, end in pairwise(cuts):
        piece = plain[start:end]
        if not piece:
            continue
        extra = [span.style for span in text.spans if span.start <= start and end <= span.end]
        piece_style = style
        for found in extra:
            if isinstance(found, Style):
                piece_style = piece_style + found
        out.append(Segment(piece, piece_style))
    return out


@owns_bindings
class ConversationList(ScrollView, can_focus=True):
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
        "conversation-list--closed", "conversation-list--empty",
    }
    DEFAULT_CSS = """
    ConversationList { overflow-x: hidden; overflow-y: auto; }
    """

    class Highlighted(Message):
        """The cursor moved to another conversation (None: the list is empty)."""

        def __init__(self, conversation_id: int | None) -> None:
            super().__init__()
            self.conversation_id = conversation_id

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
        self._rows: list[InboxRow] = []
        #: changes with every change of the rows (a search-string build in slices checks it)
        self._serial = 0
        #: the rows' ids, in the same order (found by a C-level ``index``, not a loop)
        self._ids: list[int] = []
        #: positions in ``_rows`` shown, ascending (a range when nothing is filtered out)
        self._visible: Sequence[int] = range(0)
        #: one lowercase string per row (None: not built, or not wanted)
        self._search: list[str] | None = None
        #: what each of those strings was made of beside its row: the tag ids and preview
        #: objects (the same objects until they change), in the same order
        self._search_tags: list[tuple[str, ...]] = []
        self._search_previews: list[str] = []
        #: the strings of the rows shown before the last change of rows (rows, strings,
        #: tags, previews), reused for the rows that did not change while new ones are made
        self._reuse: _Strings | None = None
        self._reuse_at: dict[int, int] | None = None
        self._reuse_next = 0
        #: whether the search strings are wanted (a filter is in use or its line is open)
        self._search_wanted = False
        self._generation: object = None
        self._needle = ""
        self._cursor = -1
        self._id_width = 6
        self._hidden: frozenset[str] = frozenset()
        self._last = "age"
        self._layout: Layout | None = None
        self._strips: LRUCache[tuple[int, bool], Strip] = LRUCache(512)
        self._styles: dict[str, Style] | None = None
        self._minute = ""
        self.builds = 0
        #: rows changed in place (:meth:`update_rows`), without a build
        self.updates = 0

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
    def search_strings(self) -> int:
        """How many rows have their search string made (0: none kept)."""
        return len(self._search) if self._search is not None else 0

    @property
    def filter_text(self) -> str:
        """The filter in effect (folded)."""
        return self._needle

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
        return [self._rows[i].id for i in self._visible]

    def set_rows(self, rows: Sequence[InboxRow], *, keep: int | None = None) -> None:
        """Show these conversations (in this order), keeping the filter; the cursor stays on
        ``keep`` (default: the highlighted conversation) when it is still shown, else on the
        same position."""
        keep_id = self.highlighted_id if keep is None else keep
        position = self._cursor
        old_rows = self._rows
        self._rows = list(rows)
        self._serial += 1
        self._ids = [row.id for row in rows]
        if self._search is not None:  # made again for the new rows, reusing the unchanged
            self._reuse = _Strings(old_rows, self._search, self._search_tags,
                                   self._search_previews)
            self._reuse_at = None
        self._search = None
        self._strips.clear()
        self.builds += 1
        generation = self.lookups.generation()
        if generation != self._generation:
            self._generation = generation
            self._reuse = self._reuse_at = None
        self._settle(keep_id, position)
        if max(len(old_rows), len(self._rows)) >= LARGE and self.is_mounted:
            self.call_after_refresh(give_back)  # the old rows, the view's sorting

    def update_rows(self, changes: Mapping[int, InboxRow | None],
                    key: Callable[[InboxRow], Any], *, names: bool = False) -> None:
        """Change a few conversations in place: each id's old line goes, its new row (None:
        it left the view) goes where ``key`` puts it in the descending order the rows are in.
        Only these conversations' lines and search strings are made again; the cursor stays
        on the highlighted conversation as with :meth:`set_rows`. ``names``: names may read
        differently (every line and search string is made again)."""
        generation = self.lookups.generation()
        if names or generation != self._generation:
            # names may read differently now: search strings and lines are made afresh
            self._generation = generation
            self._forget_strings()
            self._strips.clear()
        keep_id = self.highlighted_id
        position = self._cursor
        rows = self._rows
        ids = self._ids
        self._serial += 1
        search, tags, previews = self._search, self._search_tags, self._search_previews
        look = self.lookups
        strips = self._strips
        for cid, row in changes.items():
            strips.discard((cid, False))
            strips.discard((cid, True))
            try:
                at = ids.index(cid)
            except ValueError:
                at = -1
            if at >= 0:
                del rows[at], ids[at]
                if search is not None:
                    del search[at], tags[at], previews[at]
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
            ids.insert(low, cid)
            if search is not None:
                row_tags, preview = look.tag_ids(cid), look.preview(cid)
                search.insert(low, self._search_text(row, row_tags, preview))
                tags.insert(low, row_tags)
                previews.insert(low, preview)
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
        if self._search is None and self._search_wanted and self.is_mounted:
            self._prepare_search()

    def prepare_search(self) -> None:
        """A filter is about to be typed (its line opened): make the search strings in
        slices between frames from now on, so the first keystroke only scans."""
        self._search_wanted = True
        if self._search is None and self.is_mounted:
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
        self._search = None
        self._search_tags, self._search_previews = [], []
        self._reuse = self._reuse_at = None

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
        search = self._search_strings()
        candidates: Sequence[int] = (self._visible if previous and needle.startswith(previous)
                                     else range(len(self._rows)))
        words = needle.split()
        if len(words) == 1:
            self._visible = [i for i in candidates if needle in search[i]]
        else:
            self._visible = [i for i in candidates if all(w in search[i] for w in words)]

    # ------------------------------------------------------------------ search strings

    @work(exclusive=True, exit_on_error=False, group="search-strings")
    async def _prepare_search(self) -> None:
        """Build the search strings in slices between frames, so the first filter keystroke
        only scans (the work is lost if the rows change meanwhile)."""
        rows, serial = self._rows, self._serial
        built = _Strings(rows, [], [], [])
        for start in range(0, len(rows), SEARCH_SLICE):
            if self._serial != serial or self._search is not None:
                return
            self._strings_for(built, start, start + SEARCH_SLICE)
            await asyncio.sleep(0)
        if self._serial == serial and self._search is None:
            self._keep_strings(built)

    def _search_strings(self) -> list[str]:
        """One lowercase string per row, built at once if the slices are not done."""
        search = self._search
        if search is None:
            built = _Strings(self._rows, [], [], [])
            self._strings_for(built, 0, len(self._rows))
            self._keep_strings(built)
            search = built.texts
        return search

    def _keep_strings(self, built: _Strings) -> None:
        self._search = built.texts
        self._search_tags, self._search_previews = built.tags, built.previews
        self._reuse = self._reuse_at = None

    def _strings_for(self, built: _Strings, start: int, stop: int) -> None:
        """Add the search strings of ``built.rows[start:stop]`` to ``built``: those of rows
        unchanged since the strings before the last change of rows (the same row, tags and
        preview objects) are reused, the others made. The old rows are walked alongside (most
        keep their order); an index of them is made only when the orders part."""
        look = self.lookups
        tag_ids, preview_of, make = look.tag_ids, look.preview, self._search_text
        add_text, add_tags, add_preview = (built.texts.append, built.tags.append,
                                           built.previews.append)
        reuse = self._reuse
        if reuse is None:
            for row in built.rows[start:stop]:
                cid = row.id
                row_tags, preview = tag_ids(cid), preview_of(cid)
                add_text(make(row, row_tags, preview))
                add_tags(row_tags)
                add_preview(preview)
            return
        old_rows, old_texts, old_tags, old_previews = reuse
        count = len(old_rows)
        # where the walk over the old rows is: past the old row of the last new row
        walk = self._reuse_next if start else 0
        for row in built.rows[start:stop]:
            cid = row.id
            row_tags, preview = tag_ids(cid), preview_of(cid)
            known = walk if walk < count and old_rows[walk].id == cid else None
            if known is None:
                at = self._reuse_at
                if at is None:
                    at = self._reuse_at = {old.id: n for n, old in enumerate(old_rows)}
                known = at.get(cid)
            if known is not None:
                walk = known + 1
                if old_rows[known] is row and old_tags[known] is row_tags \
                        and old_previews[known] is preview:
                    add_text(old_texts[known])
                    add_tags(row_tags)
                    add_preview(preview)
                    continue
            add_text(make(row, row_tags, preview))
            add_tags(row_tags)
            add_preview(preview)
        self._reuse_next = walk

    def _search_text(self, conversation: InboxRow, tags: tuple[str, ...], preview: str
                     ) -> str:
        """A row's searchable text (``tags``, ``preview``: its tag ids and last message as
        the store keeps them). The channel by its name, without its mark: one character
        outside Latin-1 would make the whole string two or four bytes a character."""
        look = self.lookups
        cid = conversation.id
        name = look.name
        queue, agent = conversation.queue_id, conversation.agent_id
        tag_text = " ".join(look.tag_names(cid)) if tags else ""
        return (f"#{cid} {conversation.state} {_channel_word(conversation.channel)} "
                f"{name(conversation.requester_id)} {conversation.subject or ''} "
                f"{preview} {tag_text} "
                f"{look.queue_name(queue) if queue is not None else ''} "
                f"{name(agent) if agent is not None else ''}").lower()

    def _position_of(self, conversation_id: int, near: int = -1) -> int:
        """Where a conversation is shown (-1: not shown); looks near ``near`` first, where it
        usually still is after an update."""
        rows, visible = self._rows, self._visible
        if 0 <= near < len(visible):
            for position in range(max(0, near - 8), min(len(visible), near + 9)):
                if rows[visible[position]].id == conversation_id:
                    return position
        if len(visible) == len(rows):
            try:
                return self._ids.index(conversation_id)
            except ValueError:
                return -1
        for position, index in enumerate(visible):
            if rows[index].id == conversation_id:
                return position
        return -1

    def _after_change(self, cursor: int) -> None:
        self._cursor = cursor  # lines are cached by conversation and cursor: all still hold
        self.virtual_size = Size(0, len(self._visible) + 1)
        self._scroll_to_cursor()
        self.refresh()
        self.post_message(self.Highlighted(self.highlighted_id))

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

    # ------------------------------------------------------------------ painting

    def on_mount(self) -> None:
        self._minute = now().strftime("%Y%m%d%H%M")
        self.set_interval(30, self._tick_ages)
        if self._rows and self._search is None:
            self._prepare_search()

    def _tick_ages(self) -> None:
        """Ages are shown in minutes: repaint the rows when the minute changed."""
        marker = now().strftime("%Y%m%d%H%M")
        if marker != self._minute:
            self._minute = marker
            self._strips.clear()
            self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None
        self._strips.clear()

    def on_resize(self, _event: events.Resize) -> None:
        self._layout = None
        self._strips.clear()
        self._scroll_to_cursor()

    @property
    def hidden_columns(self) -> frozenset[str]:
        """Optional columns not shown (``queue``, ``assignee``, ``tags``): a view whose
        rows all have the same value there gives the room to the subject."""
        return self._hidden

    @hidden_columns.setter
    def hidden_columns(self, hidden: frozenset[str]) -> None:
        if hidden != self._hidden:
            self._hidden = hidden
            self._layout = None
            self._strips.clear()
            self.refresh()

    @property
    def last_column(self) -> str:
        """The last column: ``age``, or ``followup`` (until when a Pending one waits)."""
        return self._last

    @last_column.setter
    def last_column(self, last: str) -> None:
        if last != self._last and last in LAST_WIDTHS:
            self._last = last
            self._layout = None
            self._strips.clear()
            self.refresh()

    def _widen_ids(self, width: int) -> None:
        """A longer id came on screen: widen the id column (it never narrows again)."""
        if width > self._id_width:
            self._id_width = width
            self._layout = None
            self._strips.clear()
            self.refresh()

    def _current_layout(self) -> Layout:
        width = self.scrollable_content_region.width
        layout = self._layout
        if layout is None or layout.width != width:
            layout = self._layout = layout_for(width, self._id_width, self._hidden, self._last)
        return layout

    def _palette(self) -> dict[str, Style]:
        styles = self._styles
        if styles is None:
            full = self.get_component_rich_style
            styles = {"base": self.rich_style, "cursor": full("conversation-list--cursor")}
            for name in ("header", "dim", "preview", "tags", "open", "pending", "closed",
                         "empty"):
                # the foreground only (blended on the list's background), so a column keeps
                # the cursor's background
                style = full(f"conversation-list--{name}")
                styles[name] = Style(color=style.color, bold=style.bold, italic=style.italic,
                                     underline=style.underline, dim=style.dim)
            self._styles = styles
        return styles

    def render_line(self, y: int) -> Strip:
        """Line 0 is the column titles; the others are rows from the scroll position."""
        layout = self._current_layout()
        styles = self._palette()
        if y == 0:
            return self._header(layout, styles)
        position = round(self.scroll_y) + y - 1
        if not 0 <= position < len(self._visible):
            if y == 1 and not self._visible:
                return self._message_line(layout, styles)
            return Strip.blank(layout.width, styles["base"])
        row = self._rows[self._visible[position]]
        key = (row.id, position == self._cursor)
        strip = self._strips.get(key)
        if strip is None:
            strip = self._row_strip(row, layout, styles, key[1])
            self._strips[key] = strip
        return strip

    def _header(self, layout: Layout, styles: dict[str, Style]) -> Strip:
        style = styles["base"] + styles["header"]
        parts = [" "]
        for key, width in layout.columns:
            title = TITLES[key]
            parts.append(title.rjust(width)[:width] if key in LAST_WIDTHS
                         else _fit(title, width))
            parts.append(" ")
        return Strip([Segment("".join(parts), style)]).crop_extend(0, layout.width, style)

    def _message_line(self, layout: Layout, styles: dict[str, Style]) -> Strip:
        text = self.empty_text
        if self._needle and self._rows:
            text = f"Nothing matches “{self._needle}” — esc clears the filter."
        style = styles["base"] + styles["empty"]
        line = "  " + one_line(text, max(0, layout.width - 2))
        return Strip([Segment(line, style)]).crop_extend(0, layout.width, style)

    def _row_strip(self, row: InboxRow, layout: Layout, styles: dict[str, Style],
                   is_cursor: bool) -> Strip:
        look = self.lookups
        base = styles["cursor"] if is_cursor else styles["base"]
        dim = base + styles["dim"]
        segments: list[Segment] = []
        append = segments.append
        blank = Segment(" ", base)
        for key, width in layout.columns:
            append(blank)  # the leading blank, then one between columns (none after the last)
            if key == "state":
                state = row.state or ""
                glyph_style = styles.get(_STATE_CLASSES.get(state, "dim"), styles["dim"])
                append(Segment(state_glyph(state), base + glyph_style))
            elif key == "channel":
                append(Segment(_fit(channel_label(row.channel), width), dim))
            elif key == "id":
                label = f"#{row.id}{DRAFT_MARK if look.has_draft(row.id) else ''}"
                if len(label) > width:
                    self._widen_ids(len(label))
                append(Segment(_fit(label, width), base))
            elif key == "requester":
                append(Segment(_fit(look.name(row.requester_id), width), base))
            elif key == "subject":
                subject = row.subject
                preview = "" if subject and subject.strip() else look.preview(row.id)
                if subject and subject.strip():
                    append(Segment(_fit(subject, width), base))
                elif not preview and row.channel in SILENT_CHANNELS:
                    append(Segment(_fit(silent_text(row.channel), width), dim))
                else:
                    append(Segment(_fit(preview, width), base + styles["preview"]))
            elif key == "queue":
                queue = row.queue_id
                append(Segment(_fit(look.queue_name(queue) if queue else "", width), dim))
            elif key == "assignee":
                agent = row.agent_id
                append(Segment(_fit(look.name(agent) if agent else "", width), dim))
            elif key == "tags":
                names = look.tag_names(row.id)
                colors = look.tag_colors(row.id) if names else ()
                if any(colors):
                    segments.extend(_tag_segments(names, colors, width, base + styles["tags"]))
                else:
                    append(Segment(_fit(", ".join(names), width), base + styles["tags"]))
            elif key == "age":
                age = one_line(look.ago(look.when(row)), width)
                append(Segment(age.rjust(width) if age.isascii() else _fit(age, width), dim))
            elif key == "followup":
                until = look.followup(row.id) if row.state in _PENDING else None
                shown = followup_text(until, now()) if row.state in _PENDING else ""
                style = base + styles["pending"] if until is not None else dim
                append(Segment(_fit(shown, width).rstrip().rjust(width), style))
        total = sum(width + 1 for _key, width in layout.columns)
        if total == layout.width:  # every cell is fitted exactly: no measuring needed
            return Strip(segments, total)
        return Strip(segments).crop_extend(0, layout.width, base)
