"""Notes among a long thread's compact rows: placed by time without reading every message
into a model, and no copy at all when the thread has no notes."""

from __future__ import annotations

import json

from frontdesk.api.models import InternalNote
from frontdesk.api.resources.messages import WireMessage
from frontdesk.store.message_rows import MessageRows
from frontdesk.tui.thread_notes import NOTE_PREFIX, with_notes


def wire(n: int) -> WireMessage:
    raw = {"id": f"m{n}", "authorId": "a1", "createdAt": f"2026-01-01T10:{n:02d}:00Z",
           "attributes": {"_type": "ChatAttributes", "direction": "Inbound",
                          "content": {"_type": "Text", "value": f"body {n}"}}}
    return WireMessage(f"m{n}", "a1", None, json.dumps(raw))


def note(n: int, minute: int, second: int = 30) -> InternalNote:
    return InternalNote.model_validate({
        "id": f"n{n}", "authorId": "a2", "csid": 1, "message": f"note {n}",
        "createdAt": f"2026-01-01T10:{minute:02d}:{second:02d}Z"})


def test_notes_go_among_compact_rows_in_time_order() -> None:
    rows = MessageRows.of_wires([wire(n) for n in range(40)])
    assert with_notes(rows, []) is rows  # nothing to place: the rows themselves
    notes = [note(3, 39), note(1, 0, 0), note(2, 12), note(4, 59)]
    placed = with_notes(rows, notes)
    assert isinstance(placed, MessageRows)
    # the same places as the walk over models (a tuple of them)
    expected = [m.id for m in with_notes(tuple(rows), notes)]
    assert placed.ids == expected
    assert expected.index(f"{NOTE_PREFIX}n1") == 1  # m0 is as old: the note follows it
    assert expected.index(f"{NOTE_PREFIX}n2") == expected.index("m12") + 1
    assert expected[-1] == f"{NOTE_PREFIX}n4"
    assert placed[expected.index(f"{NOTE_PREFIX}n3")].attributes.direction == "Internal"
    # the messages themselves are still the rows' wire strings (no model kept per message)
    fresh = MessageRows.of_wires([wire(n) for n in range(40)])
    again = with_notes(fresh, notes)
    assert isinstance(again, MessageRows) and again.ids == expected
    assert len(fresh._cache) <= 4 * 7  # a few bisection steps per note, not 40 models
