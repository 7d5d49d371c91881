"""Read a long list answer item by item, as it streams in.

A thread's messages come in one unpaged answer, ``{"data": [ … ]}``, whose size only the
service bounds (a customer can fill their own thread with long messages). Rather than hold
the whole body and refuse it past a size, :func:`read_listing` decodes the stream as it
arrives: the ``data`` array's items one at a time, each handed to ``each`` (which may shorten
it) before the next is read, so only one item's text is held undecoded at a time. Only one
item is bounded (``max_item`` characters); the whole answer is not. A caller that keeps an
item's JSON text (:class:`TextItems`) gets it beside the item, as it was read: no need to
write it again.

The standard library's JSON scanner does the decoding (``raw_decode`` on one value at a
time); this module only walks the top-level object around the array.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import AsyncIterator, Callable
from typing import Any, Final, NamedTuple

__all__ = ["ItemTooLarge", "NotJson", "TextItems", "read_listing"]

_WHITESPACE: Final = " \t\n\r"
_SKIP_WHITESPACE: Final = re.compile(r"[ \t\n\r]*")
#: What :meth:`_Reader.value_now` answers when the value is not all there yet.
_MISSING: Final = object()
#: Read at least this much more before trying to decode a cut-off value again.
_STEP: Final = 64 * 1024


class NotJson(ValueError):
    """The answer is not the JSON object it should be; ``head`` is its first characters."""

    def __init__(self, reason: str, head: str) -> None:
        super().__init__(reason)
        self.head = head


class ItemTooLarge(ValueError):
    """One item of the list is larger than ``max_item`` characters."""


class TextItems(NamedTuple):
    """What to do with each item of a list answer when its JSON text is wanted too:
    ``each(item, text)``, ``text`` being the item's characters exactly as the answer has
    them (in place of ``each(item)``)."""

    each: Callable[[Any, str], Any]


class _Reader:
    """The decoded text of the stream, read on demand; ``pos`` is where parsing is."""

    def __init__(self, chunks: AsyncIterator[bytes], max_item: int) -> None:
        self._chunks = chunks
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self.max_item = max_item
        self.text = ""
        self.pos = 0
        #: where the value last decoded starts in :attr:`text`
        self.start = 0
        self.done = False
        self.head = ""

    async def fill(self, need: int) -> None:
        """Have at least ``need`` characters after ``pos`` (or all there is)."""
        parts = [self.text[self.pos:]]
        size = len(parts[0])
        while size < need and not self.done:
            chunk = await anext(self._chunks, None)
            if chunk is None:
                decoded = self._decoder.decode(b"", final=True)
                self.done = True
            else:
                decoded = self._decoder.decode(chunk)
            if decoded:
                parts.append(decoded)
                size += len(decoded)
                if len(self.head) < 200:
                    self.head += decoded[:200]
        self.text = "".join(parts)
        self.pos = 0

    async def peek(self) -> str:
        """The next character that is not white space ('' at the end)."""
        while True:
            text, pos = self.text, self.pos
            while pos < len(text) and text[pos] in _WHITESPACE:
                pos += 1
            self.pos = pos
            if pos < len(text):
                return text[pos]
            if self.done:
                return ""
            await self.fill(1)

    async def expect(self, chars: str) -> str:
        """Take the next character, one of ``chars``."""
        found = await self.peek()
        if not found or found not in chars:
            shown = repr(found) if found else "the end"
            raise NotJson(f"expected one of {chars!r}, found {shown}", self.head)
        self.pos += 1
        return found

    def value_now(self, decoder: json.JSONDecoder) -> Any:
        """The next value if it is all in what was read (else :data:`_MISSING`): most items
        of a list are, and this is the fast path for them (the decoder's C scanner called
        directly, white space skipped only where there is some)."""
        text = self.text
        pos = self.pos
        if pos < len(text) and text[pos] in _WHITESPACE:
            pos = _SKIP_WHITESPACE.match(text, pos).end()  # type: ignore[union-attr]
        try:
            found, end = decoder.scan_once(text, pos)  # type: ignore[attr-defined]
        except (StopIteration, json.JSONDecodeError):
            return _MISSING
        if end >= len(text) and not self.done:
            return _MISSING
        if end - pos > self.max_item:
            raise ItemTooLarge(f"an item is larger than {self.max_item} characters")
        self.start = pos
        self.pos = end
        return found

    def char_now(self, chars: str) -> str | None:
        """The next character if it is read and one of ``chars`` (taken), else None."""
        text = self.text
        pos = self.pos
        if pos < len(text) and text[pos] in _WHITESPACE:
            pos = _SKIP_WHITESPACE.match(text, pos).end()  # type: ignore[union-attr]
        if pos < len(text) and text[pos] in chars:
            self.pos = pos + 1
            return text[pos]
        return None

    async def value(self, decoder: json.JSONDecoder) -> Any:
        """Decode the next value, reading more until it is whole."""
        await self.peek()
        tried = -1
        while True:
            available = len(self.text) - self.pos
            try:
                found, end = decoder.raw_decode(self.text, self.pos)
            except json.JSONDecodeError as exc:
                if self.done:
                    raise NotJson(str(exc), self.head) from None
                error: Exception | None = exc
            else:
                if end - self.pos > self.max_item:
                    raise ItemTooLarge(f"an item is larger than {self.max_item} characters")
                if end < len(self.text) or self.done:
                    self.start = self.pos
                    self.pos = end
                    return found
                error = None  # a number may go on in the next chunk
            if available > self.max_item:
                raise ItemTooLarge(f"an item is larger than {self.max_item} characters")
            if available <= tried:
                raise NotJson(str(error or "cut off"), self.head)
            tried = available
            await self.fill(max(2 * available, available + _STEP))


async def _text_items(reader: _Reader, decoder: json.JSONDecoder,
                      each: Callable[[Any, str], Any], items: list[Any]) -> None:
    """The array's items (its ``[`` taken) to its ``]``, each handed to ``each`` with its
    text: what :meth:`_Reader.value_now` and :meth:`_Reader.char_now` do for each item,
    done here in one loop over the items wholly read (a long thread has thousands, and
    two calls of the reader's per item were a fifth of its reading); an item cut off, or
    anything but a comma right after one, goes the reader's general way."""
    scan = decoder.scan_once  # type: ignore[attr-defined]
    skip = _SKIP_WHITESPACE.match
    append = items.append
    max_item = reader.max_item
    while True:
        text, pos, done = reader.text, reader.pos, reader.done
        size = len(text)
        while True:
            if pos < size and text[pos] in _WHITESPACE:
                pos = skip(text, pos).end()  # type: ignore[union-attr]
            try:
                item, end = scan(text, pos)
            except (StopIteration, json.JSONDecodeError):
                break
            if end >= size and not done:  # a number may go on in the next chunk
                break
            if end - pos > max_item:
                raise ItemTooLarge(f"an item is larger than {max_item} characters")
            append(each(item, text[pos:end]))
            if end < size and text[end] == ",":
                pos = end + 1
                continue
            reader.pos = end
            if (reader.char_now(",]") or await reader.expect(",]")) == "]":
                return
            text, pos, done = reader.text, reader.pos, reader.done
            size = len(text)
        reader.pos = pos
        item = await reader.value(decoder)
        append(each(item, reader.text[reader.start:reader.pos]))
        if (reader.char_now(",]") or await reader.expect(",]")) == "]":
            return


async def read_listing(chunks: AsyncIterator[bytes],
                       each: Callable[[Any], Any] | TextItems, *,
                       max_item: int, key: str = "data") -> dict[str, Any]:
    """The JSON object in ``chunks``, its ``key`` array read item by item through ``each``
    (with each item's JSON text when it is :class:`TextItems`).

    Other members are decoded whole (they are small: ``meta`` and the like). Raises
    :class:`NotJson` for anything that is not such an object, and :class:`ItemTooLarge`
    for one value larger than ``max_item`` characters.
    """
    reader = _Reader(chunks, max_item)
    decoder = json.JSONDecoder()
    out: dict[str, Any] = {}
    await reader.expect("{")
    if await reader.peek() == "}":
        reader.pos += 1
        return out
    while True:
        name = await reader.value(decoder)
        if not isinstance(name, str):
            raise NotJson("expected a member name", reader.head)
        await reader.expect(":")
        if name == key and await reader.peek() == "[":
            reader.pos += 1
            items: list[Any] = []
            if await reader.peek() == "]":
                reader.pos += 1
            elif isinstance(each, TextItems):
                await _text_items(reader, decoder, each.each, items)
            else:
                while True:
                    item = reader.value_now(decoder)
                    if item is _MISSING:
                        item = await reader.value(decoder)
                    items.append(each(item))
                    if (reader.char_now(",]") or await reader.expect(",]")) == "]":
                        break
            out[name] = items
        else:
            out[name] = await reader.value(decoder)
        if await reader.expect(",}") == "}":
            break
    if await reader.peek():
        raise NotJson("more after the answer's end", reader.head)
    return out
