"""A thread's messages, kept compact: what a thread of ten thousand messages holds in memory.

A :class:`~frontdesk.api.models.Message` model costs a few kilobytes (nested attributes,
content, contacts…); a long thread holds thousands of them while only the few dozen near the
view are shown. :class:`MessageRows` keeps each message as its wire JSON (one string) with
the fields a thread looks up for every message — its id, author and external id — and gives
a full model only when one is asked for (``rows[i]``), read back from the JSON and kept in a
small cache for as long as it is used again and again (the mounted window, the newest one).

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

__all__ = ["MessageRows"]

#: full models kept at once (the mounted window of a thread view is at most 120 and a few)
CACHED = 256


class MessageRows(Sequence["Message"]):
    """A thread's messages, oldest first: wire JSON per message, models on demand."""

    __slots__ = ("_cache", "_items", "authors", "external_ids", "ids")

    def __init__(self) -> None:
        #: per message its wire JSON, or the model itself when it came as one
        self._items: list[str | Message] = []
        self._cache: OrderedDict[int, Message] = OrderedDict()
        #: the messages' ids, authors and external ids, in the same order
        self.ids: list[str] = []
        self.authors: list[str] = []
        self.external_ids: list[str | None] = []

    @classmethod
    def of_wires(cls, wires: Iterable[WireMessage]) -> MessageRows:
        """The rows of messages read as wire JSON (the client's ``list_wires_if_changed``)."""
        rows = cls()
        for wire in wires:
            rows._items.append(wire.wire)
            rows.ids.append(wire.id)
            rows.authors.append(wire.author_id)
            rows.external_ids.append(wire.external_id)
        return rows

    @classmethod
    def of(cls, messages: Iterable[Message]) -> MessageRows:
        """Rows holding these messages: a copy of ``messages`` when it is rows already (the
        wire strings shared), else the models as they are."""
        if isinstance(messages, MessageRows):
            return messages.copy()
        rows = cls()
        for message in messages:
            rows.append(message)
        return rows

    def copy(self) -> MessageRows:
        """Another rows object with the same messages (the strings and models shared)."""
        rows = MessageRows()
        rows._items = list(self._items)
        rows.ids = list(self.ids)
        rows.authors = list(self.authors)
        rows.external_ids = list(self.external_ids)
        return rows

    def select(self, positions: Iterable[int]) -> MessageRows:
        """The messages at these positions, in that order."""
        rows = MessageRows()
        rows.add_from(self, positions)
        return rows

    def add_from(self, source: MessageRows, positions: Iterable[int]) -> None:
        """Add ``source``'s messages at these positions at the end (their strings shared,
        no model read)."""
        for at in positions:
            self._items.append(source._items[at])
            self.ids.append(source.ids[at])
            self.authors.append(source.authors[at])
            self.external_ids.append(source.external_ids[at])

    def inserted(self, entries: Iterable[tuple[int, Message]]) -> MessageRows:
        """Another rows object with each ``(position, model)`` of ``entries`` placed before
        the message now at ``position`` (``len(self)``: at the end); positions in order."""
        rows = MessageRows()
        start = 0
        for position, message in entries:
            rows._items += self._items[start:position]
            rows.ids += self.ids[start:position]
            rows.authors += self.authors[start:position]
            rows.external_ids += self.external_ids[start:position]
            rows.append(message)
            start = position
        rows._items += self._items[start:]
        rows.ids += self.ids[start:]
        rows.authors += self.authors[start:]
        rows.external_ids += self.external_ids[start:]
        return rows

    def append(self, message: Message) -> None:
        """Add a message (as a model) at the end."""
        self._items.append(message)
        self.ids.append(message.id)
        self.authors.append(message.author_id)
        self.external_ids.append(message.external_id)

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> Message: ...

    @overload
    def __getitem__(self, index: slice) -> list[Message]: ...

    def __getitem__(self, index: int | slice) -> Message | list[Message]:
        if isinstance(index, slice):
            return [self._model(at) for at in range(*index.indices(len(self._items)))]
        if index < 0:
            index += len(self._items)
        if not 0 <= index < len(self._items):
            raise IndexError("message index out of range")
        return self._model(index)

    def __iter__(self) -> Iterator[Message]:
        for at in range(len(self._items)):
            yield self._model(at)

    def _model(self, at: int) -> Message:
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
            if self.ids != other.ids:
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
