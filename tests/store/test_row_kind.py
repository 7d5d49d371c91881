"""An inbox row keeps its state, channel, queue and agent as one tuple shared by every row
alike, and a customer's rows share one string of their id: a row is a tuple of five, its
fields read back as made, however it was made."""

from __future__ import annotations

import copy
import pickle
from datetime import UTC, datetime

from frontdesk.store.rows import InboxRow, rows_from_compact

MOMENT = datetime(2026, 3, 1, 10, 30, tzinfo=UTC)


def test_rows_alike_share_their_kind_and_requester() -> None:
    # strings made at run time (not the interpreter's constants), as parsed JSON gives them
    state, channel, queue, agent, who = ("".join(part) for part in (
        ("Op", "en"), ("Em", "ail"), ("q", "-1"), ("a", "-1"), ("r", "-1")))
    first = InboxRow(1, state, channel, who, "Hi", queue, agent, MOMENT, 5)
    second = InboxRow(2, "".join(("Op", "en")), "".join(("Em", "ail")),
                      "".join(("r", "-1")), None, "".join(("q", "-1")),
                      "".join(("a", "-1")), MOMENT, 6)
    assert len(first) == 5 and first.kind is second.kind
    assert first.requester_id is second.requester_id
    assert (first.state, first.channel, first.queue_id, first.agent_id) == (
        "Open", "Email", "q-1", "a-1")
    assert first.channel is "Email"  # noqa: F632 — interned: the same as the code's constant
    (read,) = rows_from_compact([second.compact()])
    assert read == second and read is not None and read.kind is second.kind
    assert read.requester_id is second.requester_id
    assert InboxRow.from_compact(first.compact()).kind is first.kind


def test_fields_of_the_kind_change_alone_and_rows_copy_whole() -> None:
    row = InboxRow(7, "Open", "Sms", "r", None, None, "a1", MOMENT, 9)
    moved = row._replace(state="Pending", queue_id="q2")
    assert (moved.state, moved.channel, moved.queue_id, moved.agent_id, moved.id,
            moved.digest, moved.when) == ("Pending", "Sms", "q2", "a1", 7, 9, MOMENT)
    assert (row.state, row.queue_id) == ("Open", None)
    assert moved.kind is InboxRow(8, "Pending", "Sms", "x", None, "q2", "a1", MOMENT).kind
    assert copy.deepcopy(moved) == pickle.loads(pickle.dumps(moved)) == moved
    assert row._replace() == row
    try:
        row._replace(colour="red")
    except ValueError:
        pass
    else:
        raise AssertionError("an unknown field was taken")
