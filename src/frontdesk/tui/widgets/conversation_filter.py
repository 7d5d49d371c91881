"""The conversation list's filter (``/``) and the search strings it scans.

Filtering is a case-insensitive substring match, word by word, over a search string per row
(id, state, channel, requester, subject, preview, tags, queue, assignee). The strings exist
only while a filter is wanted (the filter line opened, or a filter typed): built in slices
between frames from then on, kept in step with the rows while the filter is in use, and
dropped when it is closed — a hundred thousand of them weigh more than the rows themselves.
A keystroke that extends the filter narrows the previous matches instead of scanning every
row again. The strings are :class:`RowSearch`'s, a collaborator the list owns (``search``);
the list keeps the filter itself and builds the strings between frames.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Final, NamedTuple

from ...channels import channel_name
from ...store.inbox_rows import RowView
from ...text import one_line

if TYPE_CHECKING:
    from ...store.rows import InboxRow
    from .conversation_list import RowLookups

__all__ = ["LARGE", "SEARCH_SLICE", "RowSearch", "SearchStrings"]

#: rows whose search strings are built between two frames
SEARCH_SLICE: Final = 2_000
#: rows from which a build is followed by giving freed memory back (after its frame)
LARGE: Final = 10_000


@lru_cache(maxsize=64)
def _channel_word(channel: str) -> str:
    """A channel as a filter finds it: its display name (unknown ones cleaned and cut)."""
    return channel_name(channel) or one_line(channel, 9)


class SearchStrings(NamedTuple):
    """Search strings of a set of rows, with the tag ids and previews they were made of,
    and, for the rows of a store's view (:class:`~frontdesk.store.inbox_rows.RowView`,
    whose rows are made as they are read, never the same object twice), what each row was
    made of then (its token)."""

    rows: Sequence[InboxRow]
    texts: list[str]
    tags: list[tuple[str, ...]]
    previews: list[str]
    tokens: array[int] | None = None

    @classmethod
    def begun(cls, rows: Sequence[InboxRow]) -> SearchStrings:
        """None made yet, for these rows."""
        return cls(rows, [], [], [], array("Q") if isinstance(rows, RowView) else None)


def _id_at(rows: Sequence[InboxRow], at: int) -> int:
    """The id of the row at ``at`` (a view's without making the row)."""
    return rows.id_at(at) if isinstance(rows, RowView) else rows[at].id


def _by_token(old: SearchStrings, new: SearchStrings) -> bool:
    """Whether a row of ``new`` is told unchanged from one of ``old`` by their tokens (two
    views of one store's rows, whose rows are never the same object twice), else by being
    the same object."""
    old_rows, new_rows = old.rows, new.rows
    return old.tokens is not None and new.tokens is not None \
        and isinstance(old_rows, RowView) and isinstance(new_rows, RowView) \
        and old_rows.table is new_rows.table


class RowSearch:
    """The search strings of a list's rows (one lowercase string each, with the tag ids and
    the preview it was made of), kept in step with the rows while a filter is in use and
    reused, row by row, when the rows are replaced by others mostly the same."""

    def __init__(self, lookups: RowLookups) -> None:
        self._lookups = lookups
        #: one lowercase string per row (None: not built, or not wanted)
        self.texts: list[str] | None = None
        #: what each of those strings was made of beside its row: the tag ids and preview
        #: objects (the same objects until they change), in the same order
        self._tags: list[tuple[str, ...]] = []
        self._previews: list[str] = []
        #: what each row was made of (a store's view's rows only: :class:`SearchStrings`)
        self._tokens: array[int] | None = None
        #: the strings of the rows shown before the last change of rows (rows, strings,
        #: tags, previews), reused for the rows that did not change while new ones are made
        self._reuse: SearchStrings | None = None
        self._reuse_at: dict[int, int] | None = None
        self._reuse_next = 0

    @property
    def count(self) -> int:
        """How many rows have their search string made (0: none kept)."""
        return len(self.texts) if self.texts is not None else 0

    def forget(self) -> None:
        """Drop every string (and what could be reused): they are made afresh if wanted."""
        self.texts = None
        self._tags, self._previews, self._tokens = [], [], None
        self._reuse = self._reuse_at = None

    def rows_replaced(self, old_rows: Sequence[InboxRow]) -> None:
        """The list shows other rows now: the strings are made again for them, reusing those
        of the rows unchanged."""
        if self.texts is not None:
            self._reuse = SearchStrings(old_rows, self.texts, self._tags, self._previews,
                                        self._tokens)
            self._reuse_at = None
        self.texts = None

    def names_changed(self) -> None:
        """Names (or tags' names) may read differently: nothing kept is reused."""
        self._reuse = self._reuse_at = None

    def remove(self, at: int) -> None:
        """The row at ``at`` left the list (its string too, when they are kept)."""
        if self.texts is not None:
            del self.texts[at], self._tags[at], self._previews[at]
            if self._tokens is not None:
                del self._tokens[at]

    def insert(self, at: int, row: InboxRow, rows: Sequence[InboxRow]) -> None:
        """``row`` was put at ``at`` of ``rows`` (its string made, when they are kept)."""
        if self.texts is not None:
            look = self._lookups
            row_tags, preview = look.tag_ids(row.id), look.preview(row.id)
            self.texts.insert(at, self._search_text(row, row_tags, preview))
            self._tags.insert(at, row_tags)
            self._previews.insert(at, preview)
            if self._tokens is not None and isinstance(rows, RowView):
                self._tokens.insert(at, rows.token_at(at))

    def strings(self, rows: Sequence[InboxRow]) -> list[str]:
        """One lowercase string per row of ``rows``, made at once if not all are yet."""
        texts = self.texts
        if texts is None:
            built = SearchStrings.begun(rows)
            self.add(built, 0, len(rows))
            self.keep(built)
            texts = built.texts
        return texts

    def keep(self, built: SearchStrings) -> None:
        """The strings made (by slices, or at once) are the rows' from now on."""
        self.texts = built.texts
        self._tags, self._previews, self._tokens = built.tags, built.previews, built.tokens
        self._reuse = self._reuse_at = None

    def add(self, built: SearchStrings, start: int, stop: int) -> None:
        """Add the search strings of ``built.rows[start:stop]`` to ``built``: those of rows
        unchanged since the strings before the last change of rows (the same row, tags and
        preview objects) are reused, the others made. The old rows are walked alongside (most
        keep their order); an index of them is made only when the orders part."""
        look = self._lookups
        tag_ids, preview_of, make = look.tag_ids, look.preview, self._search_text
        add_text, add_tags, add_preview = (built.texts.append, built.tags.append,
                                           built.previews.append)
        rows, tokens = built.rows, built.tokens
        stop = min(stop, len(rows))
        if tokens is not None and isinstance(rows, RowView):
            tokens.extend(rows.token_at(at) for at in range(start, stop))
        reuse = self._reuse
        if reuse is None:
            for row in rows[start:stop]:
                cid = row.id
                row_tags, preview = tag_ids(cid), preview_of(cid)
                add_text(make(row, row_tags, preview))
                add_tags(row_tags)
                add_preview(preview)
            return
        old_rows, old_texts, old_tags, old_previews, old_tokens = reuse
        count = len(old_rows)
        # a view's ids are read without making its rows; its rows are told by their tokens
        old_ids = old_rows.id_at if isinstance(old_rows, RowView) else None
        by_token = _by_token(reuse, built)
        # where the walk over the old rows is: past the old row of the last new row
        walk = self._reuse_next if start else 0
        for at, row in enumerate(rows[start:stop], start):
            cid = row.id
            row_tags, preview = tag_ids(cid), preview_of(cid)
            known = walk if walk < count and (
                old_rows[walk].id if old_ids is None else old_ids(walk)) == cid else None
            if known is None:
                index = self._reuse_at
                if index is None:
                    index = self._reuse_at = {_id_at(old_rows, n): n for n in range(count)}
                known = index.get(cid)
            if known is not None:
                walk = known + 1
                if old_tags[known] is row_tags and old_previews[known] is preview and (
                        old_tokens[known] == tokens[at]  # type: ignore[index]
                        if by_token else old_rows[known] is row):
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
        look = self._lookups
        cid = conversation.id
        name = look.name
        queue, agent = conversation.queue_id, conversation.agent_id
        tag_text = " ".join(look.tag_names(cid)) if tags else ""
        return (f"#{cid} {conversation.state} {_channel_word(conversation.channel)} "
                f"{name(conversation.requester_id)} {conversation.subject or ''} "
                f"{preview} {tag_text} "
                f"{look.queue_name(queue) if queue is not None else ''} "
                f"{name(agent) if agent is not None else ''}").lower()
