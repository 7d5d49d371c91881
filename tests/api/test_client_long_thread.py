"""A long thread read as the console reads it (``list_wires_if_changed``): every message is
still checked against the model, however long the answer (one read as it streams in), and
what does not fit is left out or kept safe exactly as in a short one.

The service is a tiny HTTP server on loopback (the exact sandbox never writes such
messages): thousands of ordinary messages with the hostile ones among them.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

import pytest
from test_client_lenient import ONCE, USER, TinyService

from frontdesk.api import ApiClient, Pacer, UnexpectedResponse
from frontdesk.api.bodies import STREAM_AFTER_BYTES
from frontdesk.api.models import Message

#: ordinary messages in the thread (its answer well past what is read whole)
COUNT = 6_000


def ordinary(n: int) -> str:
    """The n-th ordinary message, in the form the service writes its messages."""
    return json.dumps({
        "id": f"o{n}", "authorId": USER,
        "createdAt": f"2021-12-01T12:{n // 60 % 60:02d}:{n % 60:02d}.{n % 1000:03d}Z[GMT]",
        "attributes": {"_type": "ChatAttributes", "direction": "Inbound",
                       "content": {"_type": "Text", "value": f"message {n} — ça va? " * 6},
                       "isAutomated": False, "attachments": []}}, ensure_ascii=False)


#: the hostile ones, by where they go in the thread
HOSTILE = {
    # no author: does not fit, left out
    1_000: '{"id": "h1", "createdAt": "2021-12-01T12:46:38Z[GMT]", "attributes": {}}',
    # a time with a zone before the "Z[GMT]": does not read, left out
    2_000: ('{"id": "h2", "authorId": "' + USER + '", '
            '"createdAt": "2021-12-01T12:46:38+02:00Z[GMT]", "attributes": {"_type": "x"}}'),
    # a lone surrogate escaped (JSON, but not for the model's parser): kept, readable
    3_000: ('{"id": "h3", "authorId": "' + USER + '", "createdAt": "2021-12-01T12:46:37Z", '
            '"attributes": {"_type": "ChatAttributes", "content": {"_type": "Text", '
            '"value": "a\\ud800b"}}}'),
    # escapes and a control sequence, spaced as a service may space it: kept as written
    4_000: ('{ "id" : "h4", "authorId": "' + USER + '", '
            '"createdAt": "2021-12-01T12:46:36.581Z[GMT]",\n'
            '   "attributes": {"_type": "ChatAttributes", "content": {"_type": "Text",'
            ' "value": "caf\\u00e9 \\u001b[31m ✓"}}, "mood": [1.50, null] }'),
    # a zone-less time and a time in a zone: read as today (UTC)
    5_000: ('{"id": "h5", "authorId": "' + USER + '", "createdAt": "2021-12-01T12:46:35.935", '
            '"attributes": {"_type": "x"}}'),
    5_001: ('{"id": "h6", "authorId": "' + USER + '", '
            '"createdAt": " 2021-12-01T14:46:35+02:00 ", "attributes": {"_type": "x"}}'),
}


def thread() -> list[str]:
    """The thread's messages, oldest first, each as the answer writes it."""
    texts = [ordinary(n) for n in range(COUNT)]
    for at in sorted(HOSTILE, reverse=True):
        texts.insert(at, HOSTILE[at])
    return texts


async def test_a_long_thread_leaves_out_and_keeps_safe_as_a_short_one(
    caplog: pytest.LogCaptureFixture,
) -> None:
    texts = thread()
    body = ('{"data": [' + ",".join(texts) + '], "meta": {}}').encode()
    assert len(body) > 2 * STREAM_AFTER_BYTES  # read as it streams in
    with TinyService({"/v1/conversations/7/messages": (200, body)}) as service:
        async with ApiClient(service.url, "k", pacer=Pacer(enabled=False),
                             retry=ONCE) as api:
            with caplog.at_level(logging.WARNING, logger="frontdesk.api"):
                wires, _ = await api.messages.list_wires_if_changed(7, None)
    assert wires is not None
    assert f"left out 2 of {len(texts)}" in caplog.text
    kept = {wire.id: wire for wire in wires}
    assert len(wires) == len(texts) - 2 and "h1" not in kept and "h2" not in kept
    # every message kept is its text exactly as written (but the one made readable) and
    # reads back as the model reads that text
    written = {json.loads(text)["id"]: text for text in texts}
    for wire in wires:
        if wire.id != "h3":
            assert wire.wire == written[wire.id]
            assert Message.model_validate_json(wire.wire).id == wire.id
        assert wire.author_id == USER
    lone = Message.model_validate_json(kept["h3"].wire)
    assert lone.attributes.body is not None and lone.attributes.body.value == "a?b"
    escaped = Message.model_validate_json(kept["h4"].wire)
    assert escaped.attributes.body is not None
    assert escaped.attributes.body.value == "café \x1b[31m ✓"
    assert escaped.created_at == datetime(2021, 12, 1, 12, 46, 36, 581000, tzinfo=UTC)
    assert Message.model_validate_json(kept["h5"].wire).created_at == datetime(
        2021, 12, 1, 12, 46, 35, 935000, tzinfo=UTC)
    assert Message.model_validate_json(kept["h6"].wire).created_at == datetime(
        2021, 12, 1, 12, 46, 35, tzinfo=UTC)
    last = Message.model_validate_json(kept[f"o{COUNT - 1}"].wire)
    assert last.created_at == datetime(2021, 12, 1, 12, 39, 59, 999000, tzinfo=UTC)
    assert last.created_at.tzinfo is UTC


async def test_a_long_thread_of_which_nothing_fits_is_refused() -> None:
    unfit = '{"id": "u", "createdAt": "2021-12-01T12:46:38Z[GMT]", "attributes": {}}'
    body = ('{"data": [' + ",".join([unfit] * 20_000) + ']}').encode()
    assert len(body) > STREAM_AFTER_BYTES
    with TinyService({"/v1/conversations/7/messages": (200, body)}) as service:
        async with ApiClient(service.url, "k", pacer=Pacer(enabled=False),
                             retry=ONCE) as api:
            with pytest.raises(UnexpectedResponse, match="expected shape"):
                await api.messages.list_wires_if_changed(7, None)
