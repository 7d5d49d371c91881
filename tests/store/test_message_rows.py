"""A thread's messages kept compact: wire JSON per message, a full model only on demand."""

from __future__ import annotations

import json

from frontdesk.api.models import Message
from frontdesk.api.resources.messages import WireMessage
from frontdesk.store.message_rows import MessageRows


def wire(n: int, *, external: str | None = None) -> WireMessage:
    raw = {"id": f"m{n}", "authorId": "a1" if n % 2 else "a2", "externalId": external,
           "createdAt": f"2026-01-01T10:{n:02d}:00Z",
           "attributes": {"_type": "ChatAttributes", "direction": "Inbound",
                          "content": {"_type": "Text", "value": f"body {n}"}}}
    return WireMessage(f"m{n}", raw["authorId"], external,  # type: ignore[arg-type]
                       json.dumps(raw))


def test_rows_read_as_models_and_compare_by_value() -> None:
    rows = MessageRows.of_wires([wire(n, external="x3" if n == 3 else None) for n in range(6)])
    assert len(rows) == 6 and rows.ids == [f"m{n}" for n in range(6)]
    assert rows.authors[:2] == ["a2", "a1"] and rows.external_ids[3] == "x3"
    assert rows[-1].attributes.body is not None and rows[-1].attributes.body.value == "body 5"
    assert rows[-1] is rows[5]  # read once, kept while used
    assert [m.id for m in rows[2:4]] == ["m2", "m3"]
    assert [m.id for m in rows] == rows.ids
    again = MessageRows.of_wires([wire(n, external="x3" if n == 3 else None) for n in range(6)])
    assert again == rows and again != MessageRows.of_wires([wire(n) for n in range(6)])
    assert rows == list(rows)

    # a copy shares the strings and takes models appended as they are
    view = MessageRows.of(rows)
    echo = Message.model_validate_json(wire(9).wire)
    view.append(echo)
    assert len(view) == 7 and len(rows) == 6 and view[-1] is echo and view.ids[-1] == "m9"
    assert view.select([0, 6]).ids == ["m0", "m9"]
    assert MessageRows.of(list(view)) == view


def test_nothing_per_message_until_a_column_is_asked_for() -> None:
    wires = [wire(n, external="x3" if n == 3 else None) for n in range(8)]
    rows = MessageRows.of_wires(wires)
    # reading, copying, taking the first few and placing a note keep the list handed over
    assert len(rows) == 8 and rows[-1].id == "m7" and [m.id for m in rows[6:]] == ["m6", "m7"]
    view = MessageRows.of(rows)
    head = rows.head(5)
    note = Message.model_validate_json(wire(20).wire)
    placed = rows.inserted([(2, note)])
    assert rows._entries is wires and view._entries is wires
    assert head._entries is not None and placed._entries is not None
    # the same messages whichever form they are in
    split = MessageRows.of_wires(wires)
    assert split.ids == [f"m{n}" for n in range(8)] and split._entries is None
    assert split == rows and head == split.head(5) and head.ids == split.ids[:5]
    assert placed.ids == ["m0", "m1", "m20", *split.ids[2:]] == split.inserted([(2, note)]).ids
    assert placed.external_ids[4] == "x3" and placed[2] is note
    # a copy that takes a new message leaves the rows it came from as they were
    view.append(note)
    assert len(view) == 9 and len(rows) == 8
    assert view.ids[-1] == "m20" and rows.authors == split.authors


def test_rows_give_back_their_wires_by_text() -> None:
    wires = [wire(n, external="x1" if n == 1 else None) for n in range(4)]
    rows = MessageRows.of_wires(wires)
    assert rows.by_text() == {w.wire: w for w in wires}  # as handed over
    assert rows.ids  # split into columns: the same again, models appended left out
    rows.append(Message.model_validate_json(wire(7).wire))
    assert rows.by_text() == {w.wire: w for w in wires}
