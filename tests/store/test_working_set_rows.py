"""The first frame reads the working set's rows from their own index, never the records."""

from __future__ import annotations

from pathlib import Path

from frontdesk.store.local import LocalStore

ROWS_QUERY = ("SELECT conversation_id, row FROM working_set "
              "ORDER BY seen_at DESC, conversation_id DESC LIMIT 10")


def test_rows_are_read_from_a_covering_index_and_older_records_still_read(
        tmp_path: Path) -> None:
    with LocalStore(tmp_path / "local.db") as local:
        plan = " ".join(str(step) for step in local.execute("EXPLAIN QUERY PLAN " + ROWS_QUERY))
        assert "COVERING INDEX" in plan
        local.remember_wires([(1, '{"id": 1}'), (2, '{"id": 2}')], "inbox")
        local.execute("UPDATE working_set SET row = '[2]' WHERE conversation_id = 2")
        found = dict((cid, (row, wire)) for cid, row, wire in local.working_set_rows())
        assert found == {1: (None, '{"id": 1}'), 2: ("[2]", None)}
