"""The inbox's rows kept by column (``store/inbox_rows.py``): a table reads and writes as the
dict of rows it replaces, holds no object per row, and its views hold slots whose rows read
as the table has them now (a row taken out still reads, for a view made before)."""

from __future__ import annotations

import gc
import random
from datetime import UTC, datetime, timedelta

import pytest

from frontdesk.store.inbox_rows import PACK_AT, RowTable, RowView
from frontdesk.store.rows import InboxRow

NOW = datetime(2026, 3, 1, 10, 30, tzinfo=UTC)
STATES = ("Open", "Pending", "Closed", None)


def _row(cid: int, n: int, *, subject: str | None = "Hello") -> InboxRow:
    return InboxRow(cid, STATES[n % 4], ("Email", "Sms")[n % 2], f"r{n % 7}", subject,
                    (None, "q1", "q2")[n % 3], (None, "a1")[n % 2],
                    NOW - timedelta(seconds=n * 37), n * 7919)


def test_a_table_reads_and_writes_as_a_dict_of_rows() -> None:
    rng = random.Random(5)
    table, expected = RowTable(), dict[int, InboxRow]()
    # ids that follow each other, far apart, alike in their low bits, negative, large
    ids = [*range(1, 400), *(n << 20 for n in range(1, 300)), *(-n for n in range(1, 50)),
           *(2 ** 62 - n for n in range(30)), *range(10_000, 10_000 + PACK_AT)]
    for step in range(6_000):
        cid = rng.choice(ids)
        if rng.random() < 0.2:
            assert table.pop(cid, None) == expected.pop(cid, None)
        else:
            row = _row(cid, step, subject=None if step % 5 == 0 else f"S{step}")
            table[cid] = expected[cid] = row
    assert len(table) == len(expected) and set(table) == set(expected)
    assert table.packed  # past the first frame's rows: the columns are arrays
    assert dict(table.items()) == expected and sorted(table.values()) == sorted(expected.values())
    for cid in ids:
        assert (cid in table) is (cid in expected)
        assert table.get(cid) == expected.get(cid)
    strange: list[object] = ["1", None, 1.5]
    assert not any(key in table for key in strange)
    with pytest.raises(KeyError):
        del table[10 ** 15]
    with pytest.raises(ValueError):
        table[3] = _row(4, 1)  # a row is kept under its own id
    # the rows read back as written, field by field
    for cid, row in expected.items():
        read = table[cid]
        assert read == row and read.kind is row.kind and read.requester_id is row.requester_id
        assert (read.when, read.digest, read.micros) == (row.when, row.digest, row.micros)


def test_rows_keep_the_order_they_first_came_in() -> None:
    rows = [_row(cid, n) for n, cid in enumerate((50, 3, 900, 7))]
    table = RowTable(rows)
    table[3] = _row(3, 11)  # written again: in its place, as a dict keeps it
    assert list(table) == [50, 3, 900, 7] == [row.id for row in table.values()]
    assert table[3] == _row(3, 11)


def test_rows_are_kept_without_an_object_each() -> None:
    rows = [_row(cid, cid, subject=None) for cid in range(1, 20_001)]
    gc.collect()
    before = len(gc.get_objects())
    table = RowTable(rows)
    del rows
    gc.collect()
    assert len(table) == 20_000
    # a dict would hold 20,000 row tuples (and their ints); the table a few arrays and lists
    assert len(gc.get_objects()) - before < -19_000


@pytest.mark.parametrize("older", [0, PACK_AT])  # lists, then arrays
def test_views_are_slots_read_as_the_table_has_them_now(older: int) -> None:
    table = RowTable(_row(cid, cid) for cid in range(1, 11))
    for cid in range(100, 100 + older):  # rows older than those ten
        table[cid] = _row(cid, cid)
    assert table.packed is bool(older)
    view = table.ordered(table.slots())
    # the latest first (row 1 is the latest)
    assert [row.id for row in view][:10] == list(range(1, 11)) == view.ids()[:10]
    assert view[2] == table[3] and view[1:3] == [table[2], table[3]] and view.id_at(4) == 5
    before = view.token_at(0)
    table[1] = table[1]._replace(subject="Changed")
    assert view[0].subject == "Changed" and view.token_at(0) != before  # written again
    assert view.token_at(1) == view.copy().token_at(1)
    del table[2]
    assert 2 not in table and view[1].id == 2  # taken out: still read by the view
    assert view.index_of(2) == 1 and view.index_of(10) == 9 and view.index_of(99) == -1
    assert not older or view.index_of(100 + older - 1) == 9 + older
    mine = view.copy()
    del mine[1]
    mine.insert(0, table[5])
    assert mine.ids()[:10] == [5, 1, 3, 4, 5, 6, 7, 8, 9, 10] and len(view) == 10 + older
    with pytest.raises(KeyError):
        mine.insert(0, _row(99, 1))  # only rows of the table
    assert isinstance(table.view([]), RowView) and len(table.view([])) == 0


def test_views_choose_by_kind_and_time_and_order_by_recent_activity() -> None:
    table = RowTable(_row(cid, cid) for cid in range(1, 41))
    opened = table.slots(lambda kind: kind[0] == "Open")
    assert table.view(opened).ids() == [cid for cid in range(1, 41) if cid % 4 == 0]
    since = table[8].micros
    assert table.view(table.slots(lambda kind: kind[0] == "Open", since=since)).ids() == [4, 8]
    counts = table.kind_counts()
    assert sum(counts.values()) == 40
    assert sum(count for kind, count in counts.items() if kind[0] == "Open") == 10
    del table[4]
    counts = table.kind_counts()
    assert sum(counts.values()) == 39
    assert sum(count for kind, count in counts.items() if kind[0] == "Open") == 9
    assert 4 not in table.view(table.slots(lambda kind: kind[0] == "Open")).ids()
    # activity seen since puts a conversation first
    recent = {30: table[1].micros + 1}
    assert table.ordered(table.slots(), recent).ids()[:3] == [30, 1, 2]
    assert table.ordered(table.slots()).ids()[:2] == [1, 2]
