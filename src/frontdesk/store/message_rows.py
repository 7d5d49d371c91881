"""A thread's messages, kept compact: what a thread of ten thousand messages holds in memory.

A :class:`~frontdesk.api.models.Message` model costs a few kilobytes (nested attributes,
content, contacts…); a long thread holds thousands of them while only the few dozen near the
view are shown. :class:`MessageRows` keeps each message as its wire JSON (one string) with
the fields a thread looks up for every message — its id, author and external id — and gives
a full model only when one is asked for (``rows[i]``), read back from the JSON and kept in a
small cache for as long as it is used again and again (the mounted window, the newest one).

Nothing is done per message until a column is asked for: rows made from the client's answer
(:meth:`MessageRows.of_wires`) or from models (:meth:`MessageRows.of`) hold the list they were
given, as it is, and read ``rows[i]``, ``rows[a:b]`` and ``len(rows)`` from it. The columns
(:attr:`~MessageRows.ids`, :attr:`~MessageRows.authors`, :attr:`~MessageRows.external_ids`)
and the compact form (a string per message instead of its :class:`WireMessage`) are made on
the first call that needs them — for a thread that opens, after its first frame.

It is a read-only :class:`~collections.abc.Sequence` of ``Message`` to its readers, plus
:meth:`MessageRows.append` for the thread view that adds new messages. Models given as
models (a local echo, a test) are kept as they are.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, overload

if TYPE_CHECKING:
    from ..api.models import Message
    from ..api.resources.messages import WireMessage

    #: a message as it was handed over: the client's wire form, or a model
    Entry = WireMessage | Message

__all__ = ["MessageRows"]

#: full models kept at once (the mounted window of a thread view is at most 120 and a few)
CACHED = 256


class MessageRows(Sequence["Message"]):
    """A thread's messages, oldest first: wire JSON per message, models on demand."""

    __slots__ = ("_authors", "_cache", "_entries", "_external_ids", "_ids", "_items")

    def __init__(self) -> None:
        #: the messages as handed over, not yet split into columns (never changed in place:
        #: rows copied from these rows share the list); None once split
        self._entries: list[Entry] | None = None
        #: per message its wire JSON, or the model itself when it came as one
        self._items: list[str | Message] = []
        self._cache: OrderedDict[int, Message] = OrderedDict()
        self._ids: list[str] = []
        self._authors: list[str] = []
        self._external_ids: list[str | None] = []

    @classmethod
    def of_wires(cls, wires: Iterable[WireMessage]) -> MessageRows:
        """The rows of messages read as wire JSON (the client's ``list_wires_if_changed``).

        A list is kept as it is (it must not change afterwards): nothing is done per message
        until a column is asked for."""
        return cls._holding(wires)

    @classmethod
    def of(cls, messages: Iterable[Message]) -> MessageRows:
        """Rows holding these messages: a copy of ``messages`` when it is rows already (the
        wire strings shared), else the models as they are."""
        if isinstance(messages, MessageRows):
            return messages.copy()
        return cls._holding(list(messages))

    @classmethod
    def _holding(cls, entries: Iterable[Entry]) -> MessageRows:
        rows = cls()
        rows._entries = entries if type(entries) is list else list(entries)
        return rows

    # ------------------------------------------------------------------- columns --

    @property
    def ids(self) -> list[str]:
        """The messages' ids, in order (do not modify)."""
        self._split()
        return self._ids

    @property
    def authors(self) -> list[str]:
        """The messages' authors' ids, in order (do not modify)."""
        self._split()
        return self._authors

    @property
    def external_ids(self) -> list[str | None]:
        """The messages' external ids, in order (do not modify)."""
        self._split()
        return self._external_ids

    def id_at(self, position: int) -> str:
        """The id of the message at ``position`` (negative: from the end), without making
        the columns."""
        entries = self._entries
        if entries is not None:
            return entries[position].id
        return self._ids[position]

    def _split(self) -> None:
        """Make the columns and the compact form of the entries handed over, once."""
        entries = self._entries
        if entries is None:
            return
        self._entries = None
        self._ids = [entry.id for entry in entries]
        self._authors = [entry.author_id for entry in entries]
        self._external_ids = [entry.external_id for entry in entries]
        # a WireMessage is a tuple (its JSON kept), a model is kept as it is
        self._items = [entry.wire if isinstance(entry, tuple) else entry for entry in entries]

    def by_text(self) -> dict[str, WireMessage]:
        """The messages read as wire JSON, by their JSON text (what the client takes again
        as it was when a thread is read again: ``list_wires_if_changed(known=…)``)."""
        entries = self._entries
        if entries is not None:
            return {entry.wire: entry for entry in entries if isinstance(entry, tuple)}
        from ..api.resources.messages import WireMessage

        return {item: WireMessage(ident, author, external, item)
                for item, ident, author, external
                in zip(self._items, self._ids, self._authors, self._external_ids, strict=True)
                if isinstance(item, str)}

    # ------------------------------------------------------------- making others --

    def copy(self) -> MessageRows:
        """Another rows object with the same messages (the strings and models shared)."""
        if self._entries is not None:
            return MessageRows._holding(self._entries)  # never changed in place: shared
        rows = MessageRows()
        rows._items = list(self._items)
        rows._ids = list(self._ids)
        rows._authors = list(self._authors)
        rows._external_ids = list(self._external_ids)
        return rows

    def head(self, count: int) -> MessageRows:
        """The first ``count`` messages."""
        if self._entries is not None:
            return MessageRows._holding(self._entries[:count])
        rows = MessageRows()
        rows._items = self._items[:count]
        rows._ids = self._ids[:count]
        rows._authors = self._authors[:count]
        rows._external_ids = self._external_ids[:count]
        return rows

    def select(self, positions: Iterable[int]) -> MessageRows:
        """The messages at these positions, in that order."""
        rows = MessageRows()
        rows.add_from(self, positions)
        return rows

    def add_from(self, source: MessageRows, positions: Iterable[int]) -> None:
        """Add ``source``'s messages at these positions at the end (their strings shared,
        no model read)."""
        self._split()
        source._split()
        for at in positions:
            self._items.append(source._items[at])
            self._ids.append(source._ids[at])
            self._authors.append(source._authors[at])
            self._external_ids.append(source._external_ids[at])

    def inserted(self, entries: Iterable[tuple[int, Message]]) -> MessageRows:
        """Another rows object with each ``(position, model)`` of ``entries`` placed before
        the message now at ``position`` (``len(self)``: at the end); positions in order."""
        if self._entries is not None:
            held = self._entries
            out: list[Entry] = []
            start = 0
            for position, message in entries:
                out += held[start:position]
                out.append(message)
                start = position
            out += held[start:]
            return MessageRows._holding(out)
        rows = MessageRows()
        start = 0
        for position, message in entries:
            rows._items += self._items[start:position]
            rows._ids += self._ids[start:position]
            rows._authors += self._authors[start:position]
            rows._external_ids += self._external_ids[start:position]
            rows.append(message)
            start = position
        rows._items += self._items[start:]
        rows._ids += self._ids[start:]
        rows._authors += self._authors[start:]
        rows._external_ids += self._external_ids[start:]
        return rows

    def append(self, message: Message) -> None:
        """Add a message (as a model) at the end."""
        self._split()
        self._items.append(message)
        self._ids.append(message.id)
        self._authors.append(message.author_id)
        self._external_ids.append(message.external_id)

    # ------------------------------------------------------------------ reading --

    def __len__(self) -> int:
        entries = self._entries
        return len(entries if entries is not None else self._items)

    @overload
    def __getitem__(self, index: int) -> Message: ...

    @overload
    def __getitem__(self, index: slice) -> list[Message]: ...

    def __getitem__(self, index: int | slice) -> Message | list[Message]:
        count = len(self)
        if isinstance(index, slice):
            return [self._model(at) for at in range(*index.indices(count))]
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError("message index out of range")
        return self._model(index)

    def __iter__(self) -> Iterator[Message]:
        for at in range(len(self)):
            yield self._model(at)

    def _model(self, at: int) -> Message:
        entries = self._entries
        item: str | Entry
        if entries is not None:
            entry = entries[at]
            item = entry.wire if isinstance(entry, tuple) else entry
        else:
            item = self._items[at]
        if not isinstance(item, str):
            return item
        cache = self._cache
        model = cache.get(at)
        if model is not None:
            cache.move_to_end(at)
            return model
        from ..api.models import Message

        model = Message.model_validate_json(item)
        cache[at] = model
        if len(cache) > CACHED:
            cache.popitem(last=False)
        return model

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MessageRows):
            if len(self) != len(other) or self.ids != other.ids:
                return False
            return all(a == b if type(a) is type(b) else self._model(n) == other._model(n)
                       for n, (a, b) in enumerate(zip(self._items, other._items, strict=True)))
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self.ids))

    def __repr__(self) -> str:
        return f"MessageRows({len(self)} messages)"
