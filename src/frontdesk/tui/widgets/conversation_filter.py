"""The conversation list's filter (``/``) and the search strings it scans.

Filtering is a case-insensitive substring match, word by word, over a search string per row
(id, state, channel, requester, subject, preview, tags, queue, assignee). The strings exist
only while a filter is wanted (the filter line opened, or a filter typed): built in slices
between frames from then on, kept in step with the rows while the filter is in use, and
dropped when it is closed — a hundred thousand of them weigh more than the rows themselves.
A keystroke that extends the filter narrows the previous matches instead of scanning every
row again. :class:`ConversationFilter` is a part of
:class:`~frontdesk.tui.widgets.conversation_list.ConversationList`, which holds the rows.
"""

from __future__ import annotations

import asyncio
from bisect import bisect_left
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Final, NamedTuple

from textual import work
from textual.scroll_view import ScrollView

from ...channels import channel_name
from ...heap import give_back
from ...text import one_line
from ..worker_failures import ReportsFailedWorkers

if TYPE_CHECKING:
    from ...store.rows import InboxRow
    from .conversation_list import RowLookups

__all__ = ["LARGE", "SEARCH_SLICE", "ConversationFilter", "SearchStrings"]

#: rows whose search strings are built between two frames
SEARCH_SLICE: Final = 2_000
#: rows from which a build is followed by giving freed memory back (after its frame)
LARGE: Final = 10_000


@lru_cache(maxsize=64)
def _channel_word(channel: str) -> str:
    """A channel as a filter finds it: its display name (unknown ones cleaned and cut)."""
    return channel_name(channel) or one_line(channel, 9)


class SearchStrings(NamedTuple):
    """Search strings of a set of rows, with the tag ids and previews they were made of."""

    rows: Sequence[InboxRow]
    texts: list[str]
    tags: list[tuple[str, ...]]
    previews: list[str]


class ConversationFilter(ScrollView, ReportsFailedWorkers):
    """The list's filter and search strings (a part of ``ConversationList``)."""

    lookups: RowLookups
    _rows: list[InboxRow]
    _serial: int
    _visible: Sequence[int]
    _search: list[str] | None
    _search_tags: list[tuple[str, ...]]
    _search_previews: list[str]
    _reuse: SearchStrings | None
    _reuse_at: dict[int, int] | None
    _reuse_next: int
    _search_wanted: bool
    _needle: str
    _cursor: int

    if TYPE_CHECKING:
        def _after_change(self, cursor: int) -> None: ...

    @property
    def search_strings(self) -> int:
        """How many rows have their search string made (0: none kept)."""
        return len(self._search) if self._search is not None else 0

    @property
    def filter_text(self) -> str:
        """The filter in effect (folded)."""
        return self._needle

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
        built = SearchStrings(rows, [], [], [])
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
            built = SearchStrings(self._rows, [], [], [])
            self._strings_for(built, 0, len(self._rows))
            self._keep_strings(built)
            search = built.texts
        return search

    def _keep_strings(self, built: SearchStrings) -> None:
        self._search = built.texts
        self._search_tags, self._search_previews = built.tags, built.previews
        self._reuse = self._reuse_at = None

    def _strings_for(self, built: SearchStrings, start: int, stop: int) -> None:
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
