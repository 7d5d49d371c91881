"""Rows read in bulk from the local store read as rows read one by one; a damaged one is
skipped alone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from frontdesk.store.rows import InboxRow, rows_from_compact


def test_bulk_rows_equal_single_rows_and_damage_stays_local() -> None:
    now = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    rows = [InboxRow(i, "Open" if i % 2 else None, "Email", f"req-{i}",
                     'a "quoted" \u202e subject' if i % 3 else None, None, f"a{i}",
                     now - timedelta(minutes=i), 2**63 - i) for i in range(1, 40)]
    texts = [row.compact() for row in rows]
    assert rows_from_compact(texts) == [InboxRow.from_compact(t) for t in texts] == rows
    damaged = [texts[0], "[1, 2]", "not json", '[1,"Open","Email","r",null,null,null,'
               '"2026-01-02T03:04:05",7]', texts[1]]
    assert rows_from_compact(damaged) == [rows[0], None, None, None, rows[1]]  # one by one
    parsed = [d for d in damaged if d != "not json"]  # all JSON: read at once, checked each
    assert rows_from_compact(parsed) == [rows[0], None, None, rows[1]]
    assert rows_from_compact([]) == []


def test_fields_of_other_types_are_converted_and_strings_shared() -> None:
    odd = '["7","Open","Email","r",null,null,"a1","2026-01-02T03:04:05+00:00","9"]'
    good = '[8,"Open","Email","r",null,"q1","a1","2026-01-02T03:04:05+00:00",10]'
    seven, eight = rows_from_compact([odd, good])
    assert seven is not None and eight is not None
    assert (seven.id, seven.digest, eight.id, eight.digest) == (7, 9, 8, 10)
    assert seven.channel is eight.channel and seven.agent_id is eight.agent_id  # interned
    assert rows_from_compact(['[9,"Open",{"x":1},"r",null,null,null,'
                              '"2026-01-02T03:04:05+00:00",1]']) == [
        InboxRow(9, "Open", "{'x': 1}", "r", None, None, None,
                 datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC), 1)]
