"""A list answer read item by item with each item's text (what a thread's read keeps): the
same items and texts however the answer is cut into chunks and spaced, and the same refusals
for what is not such an answer."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from frontdesk.api.listing import ItemTooLarge, NotJson, TextItems, read_listing

ITEMS = ['{"id": "a", "n": 1}', '{"id":"b","deep":{"x":[1,2,{"y":"]},{"}]}}',
         '"text, with ] and , inside"', '12345', '{"id": "c\\u00e9", "t": "caf\u00e9"}',
         '[]', 'null', '-1.5e3']


def chunked(body: bytes, size: int) -> AsyncIterator[bytes]:
    async def chunks() -> AsyncIterator[bytes]:
        for at in range(0, len(body), size):
            yield body[at:at + size]
    return chunks()


def with_text(item: Any, text: str) -> tuple[Any, str]:
    return item, text


@pytest.mark.parametrize("size", [1, 2, 3, 7, 16, 64, 1 << 20])
@pytest.mark.parametrize("spacing", [",", " , ", ",\n  ", "\t,"])
async def test_items_and_texts_whatever_the_chunks_and_spaces(size: int, spacing: str) -> None:
    body = ('{"meta": {"n": 1}, "data": [ ' + spacing.join(ITEMS) + ' ] , "more": [1]}')
    got = await read_listing(chunked(body.encode(), size), TextItems(with_text),
                             max_item=1000)
    assert got["meta"] == {"n": 1} and got["more"] == [1]
    assert [text for _, text in got["data"]] == ITEMS
    assert [item for item, _ in got["data"]] == [json.loads(text) for text in ITEMS]


@pytest.mark.parametrize("size", [1, 5, 1 << 20])
@pytest.mark.parametrize("body", [
    '{"data": [{"a": 1} {"b": 2}]}',      # no comma
    '{"data": [{"a": 1},]}',              # a trailing comma
    '{"data": [{"a": 1}, {"b": 2}',       # cut off
    '{"data": [{"a": 1}, {"b": }]}',      # not a value
    '{"data": [{"a": 1}]} trailing',      # more after the end
])
async def test_what_is_not_such_an_answer_is_refused(size: int, body: str) -> None:
    with pytest.raises(NotJson):
        await read_listing(chunked(body.encode(), size), TextItems(with_text), max_item=1000)


async def test_an_item_too_large_is_refused() -> None:
    body = '{"data": [{"a": 1}, {"long": "' + "x" * 200 + '"}, {"b": 2}]}'
    with pytest.raises(ItemTooLarge):
        await read_listing(chunked(body.encode(), 1 << 20), TextItems(with_text),
                           max_item=100)
