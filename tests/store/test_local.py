"""The local database: drafts, working set, snapshots, names, durability and recovery."""

from __future__ import annotations

import sqlite3
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from crash_writer import DRAFT_CONVERSATION, Writer
from pydantic import TypeAdapter

from frontdesk.api.models import Conversation
from frontdesk.settings import data_dir
from frontdesk.store.local import (
    Draft,
    LocalStore,
    LocalStoreError,
    LocalWriteError,
    NewerLocalStore,
    migrate,
)
from frontdesk.store.local_schema import MIGRATIONS, SCHEMA_VERSION
from frontdesk.store.outbox import Outbox, OutboxItem
from full_disk import FullDiskStore

AGENT = "4c1b1b3e-2a65-4f33-9e55-0d1c55a9b1a2"


def conversation(conversation_id: int, **extra: object) -> dict[str, object]:
    """A conversation as the service sends it."""
    return {
        "id": conversation_id, "_type": "ChatConversation", "requesterId": AGENT,
        "channel": "WidgetChat", "createdAt": "2026-01-05T08:00:00.000Z", "state": "Open",
        **extra,
    }


@pytest.fixture
def db_path() -> Path:
    """Where the app would keep the profile's database (under the test's FRONTDESK_HOME)."""
    return data_dir() / "work.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[LocalStore]:
    with LocalStore(db_path) as opened:
        yield opened


# --------------------------------------------------------------------------- opening


def test_fresh_database_is_durable_and_versioned(store: LocalStore, db_path: Path) -> None:
    assert db_path.exists()
    assert store.recovery is None
    assert store.execute("PRAGMA journal_mode") == [("wal",)]
    assert store.execute("PRAGMA synchronous") == [(2,)]  # FULL
    assert store.execute("PRAGMA user_version") == [(SCHEMA_VERSION,)]


def test_migrate_from_nothing_and_reopen_keeps_data(db_path: Path, tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "bare.db", isolation_level=None)
    assert migrate(conn) == 0
    assert migrate(conn) == SCHEMA_VERSION
    conn.close()
    with LocalStore(db_path) as first:
        first.save_draft(3, "kept")
    with LocalStore(db_path) as second:
        assert second.recovery is None
        assert second.draft(3) is not None


def test_a_first_version_store_gains_inbox_rows_and_keeps_its_records(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(db_path, isolation_level=None)
    MIGRATIONS[0](conn)
    conn.execute("PRAGMA user_version = 1")
    wire = ('{"id":5,"_type":"EmailConversation","requesterId":"' + AGENT + '",'
            '"channel":"Email","createdAt":"2026-01-05T08:00:00.000Z","state":"Open"}')
    conn.execute("INSERT INTO working_set VALUES (5, ?, 'seen', 1)", (wire,))
    conn.close()
    with LocalStore(db_path) as store:
        assert store.execute("PRAGMA user_version") == [(SCHEMA_VERSION,)]
        assert store.working_set_rows() == [(5, None, wire)]  # read from the record
        [kept] = store.working_set()
        store.remember([kept], "seen")
        [(cid, row, none)] = store.working_set_rows()
        assert cid == 5 and row is not None and none is None


def test_store_modules_do_not_import_the_ui_or_the_sandbox() -> None:
    code = ("import sys, frontdesk.store.local, frontdesk.store.outbox\n"
            "bad = [m for m in sys.modules if m.split('.')[0] == 'textual'"
            " or m.startswith(('frontdesk.tui', 'frontdesk.sandbox'))]\n"
            "assert not bad, bad\n")
    subprocess.run([sys.executable, "-c", code], check=True)


# --------------------------------------------------------------------------- drafts


def test_draft_round_trip_and_delete_on_empty(store: LocalStore) -> None:
    assert store.draft(5) is None
    store.save_draft(5, "Hello")
    store.save_draft(5, "Hello there", [{"url": "https://example.com/a.png",
                                          "prettyName": "a.png"}])
    store.save_draft(6, "Other")
    draft = store.draft(5)
    assert isinstance(draft, Draft)
    assert (draft.conversation_id, draft.text) == (5, "Hello there")
    assert draft.attachments == [{"url": "https://example.com/a.png", "prettyName": "a.png"}]
    assert draft.updated_at > 0
    assert [d.conversation_id for d in store.drafts()] == [6, 5]  # most recent first

    store.save_draft(5, "", [{"url": "https://example.com/a.png"}])  # attachments alone stay
    assert store.draft(5) is not None
    store.save_draft(5, "")  # empty: gone
    assert store.draft(5) is None
    store.delete_draft(6)
    store.delete_draft(6)  # twice is harmless
    assert store.drafts() == []


def test_a_draft_saved_per_keystroke_keeps_one_row(store: LocalStore) -> None:
    """The composer saves on every keystroke: each save replaces the row (bench `local`
    times it)."""
    for n in range(200):
        store.save_draft(9, "x" * n)
    draft = store.draft(9)
    assert draft is not None and len(draft.text) == 199
    assert store.execute("SELECT count(*) FROM drafts") == [(1,)]


def test_draft_survives_kill_9(db_path: Path) -> None:
    with Writer("drafts", db_path) as writer:
        writer.wait_for(lambda line: line == "saved 50")
        rest = writer.kill()
    printed = [int(line.split()[1]) for line in rest if line.startswith("saved ")]
    last = printed[-1] if printed else 50
    with LocalStore(db_path) as reopened:
        assert reopened.recovery is None
        draft = reopened.draft(DRAFT_CONVERSATION)
    assert draft is not None
    saved = int(draft.text.split()[1])
    # Everything reported is on disk; the kill may have come after one more save.
    assert saved in (last, last + 1)
    assert draft.attachments == [{"url": f"https://example.com/{saved}.png"}]


# --------------------------------------------------------------------------- working set


def test_working_set_upsert_order_limit_and_forget(store: LocalStore) -> None:
    first = [Conversation.model_validate(conversation(i)) for i in (1, 2, 3)]
    assert store.remember(first, "inbox") == 3
    assert store.remember([], "inbox") == 0
    # Seen again later, with a new state: replaced, and now the most recent.
    again = Conversation.model_validate(conversation(1, state="Closed"))
    store.remember([again], "opened")
    cached = store.working_set()
    assert [c.id for c in cached] == [1, 3, 2]
    assert cached[0].state == "Closed"
    assert [c.id for c in store.working_set(limit=2)] == [1, 3]
    store.forget(3)
    assert [c.id for c in store.working_set()] == [1, 2]


def test_read_marks_and_the_read_floor_survive_a_reopening(db_path: Path) -> None:
    """The read floor (the first start's moment) is kept once, never moved by a later start,
    and is not a conversation's mark; a mark only ever moves forward."""
    first = datetime(2026, 1, 5, 9, tzinfo=UTC)
    with LocalStore(db_path) as store:
        assert store.read_floor() is None
        store.set_read_floor(first)
        store.set_read_floor(first + timedelta(days=1))  # a later start: the first stays
        store.mark_read(7, "m2", first + timedelta(minutes=2))
        store.mark_read(7, "m1", first + timedelta(minutes=1))  # older: changes nothing
    with LocalStore(db_path) as store:
        assert store.read_floor() == first
        assert store.read_marks() == {7: first + timedelta(minutes=2)}


def test_working_set_is_lenient(store: LocalStore) -> None:
    odd = Conversation.model_validate(
        conversation(8, _type="HologramConversation", channel="Hologram", futureField={"a": 1})
    )
    store.remember([odd], "seen")
    store.execute("INSERT INTO working_set (conversation_id, record, source, seen_at) "
                  "VALUES (9, '{\"not\": \"a conversation\"}', 'x', 0)")
    cached = store.working_set()
    assert [c.id for c in cached] == [8]  # the unreadable row is skipped, not an error
    assert cached[0].type == "HologramConversation"
    assert cached[0].wire()["futureField"] == {"a": 1}


def test_remember_100k_conversations(store: LocalStore) -> None:
    body = "[" + ",".join(
        f'{{"id":{i},"_type":"ChatConversation","requesterId":"{AGENT}",'
        '"channel":"WidgetChat","createdAt":"2026-01-05T08:00:00.000Z","state":"Open"}'
        for i in range(1, 100_001)
    ) + "]"
    records = TypeAdapter(list[Conversation]).validate_json(body)
    assert store.remember(records, "inbox") == 100_000  # bench `local` times it
    assert store.execute("SELECT count(*) FROM working_set") == [(100_000,)]
    assert len(store.working_set(limit=50)) == 50


# --------------------------------------------------------------------------- snapshots, names


def test_snapshots(store: LocalStore) -> None:
    assert store.snapshot("inbox") is None
    store.save_snapshot("inbox", {"rows": [1, 2, 3], "title": "Mine ✓"})
    store.save_snapshot("inbox", {"rows": [4]})
    store.save_snapshot("queues", [None, 1.5, "x"])
    assert store.snapshot("inbox") == {"rows": [4]}
    assert store.snapshot("queues") == [None, 1.5, "x"]
    with pytest.raises(TypeError):
        store.save_snapshot("bad", object())


def test_names(store: LocalStore) -> None:
    assert store.names() == {}
    store.remember_names({"u1": "Ada", "u2": "Grace"})
    store.remember_names({"u2": "Grace Hopper"})
    store.remember_names({})
    assert store.names() == {"u1": "Ada", "u2": "Grace Hopper"}


# --------------------------------------------------------------------------- recovery


def _aside(db_path: Path) -> list[Path]:
    """The databases moved aside (each with its WAL and shared-memory files, if any)."""
    return sorted(p for p in db_path.parent.iterdir()
                  if ".corrupt-" in p.name and not p.name.endswith(("-wal", "-shm")))


def test_garbage_file_is_moved_aside(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    junk = b"this is not a database, it is a shopping list\n" * 200
    db_path.write_bytes(junk)
    with LocalStore(db_path) as store:
        assert store.recovery is not None
        assert "moved to" in store.recovery and str(db_path) in store.recovery
        store.save_draft(1, "fresh start")
        assert store.draft(1) is not None
    moved = _aside(db_path)
    assert len(moved) == 1 and moved[0].read_bytes() == junk
    assert moved[0].name.startswith("work.db.corrupt-")


async def _never_sent(item: OutboxItem) -> None:
    raise AssertionError("these tests never run the outbox")


def test_database_from_a_newer_version_is_refused_and_left_untouched(db_path: Path) -> None:
    with LocalStore(db_path) as store:
        store.save_draft(1, "written by the future")
        store.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = db_path.read_bytes()
    with pytest.raises(NewerLocalStore) as refused:
        LocalStore(db_path)
    said = str(refused.value)
    assert len(said.splitlines()) == 1 and "newer frontdesk" in said
    assert f"schema {SCHEMA_VERSION + 1}" in said and str(db_path) in said
    assert db_path.read_bytes() == before and _aside(db_path) == []
    conn = sqlite3.connect(db_path)  # the pending work is still there for the newer version
    assert conn.execute("SELECT text FROM drafts").fetchall() == [("written by the future",)]
    conn.close()


def test_a_damaged_store_is_kept_and_its_drafts_and_unsent_replies_recovered(
        db_path: Path) -> None:
    with LocalStore(db_path) as store:
        store.save_draft(7, "half a reply")
        Outbox(store, _never_sent).enqueue(8, {"content": "an unsent reply", "agent_id": AGENT})
        store.execute("CREATE TABLE drafts_v9 (x)")  # a layout this code does not know …
        store.execute("DROP TABLE names")           # … with a table it needs missing
    with LocalStore(db_path) as store:
        assert store.recovery is not None
        assert "moved to" in store.recovery
        assert "recovered 1 draft and 1 unsent reply" in store.recovery
        assert store.draft(7) is not None and store.draft(7).text == "half a reply"  # type: ignore[union-attr]
        [item] = Outbox(store, _never_sent).items()
        assert (item.conversation_id, item.payload["content"]) == (8, "an unsent reply")
    [moved] = _aside(db_path)
    assert moved.stat().st_size > 0  # kept, never deleted


def test_local_store_is_private(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True, mode=0o755)
    db_path.parent.chmod(0o755)
    with LocalStore(db_path) as store:
        store.save_draft(1, "customer data")
        for path in (db_path, db_path.with_name(db_path.name + "-wal"),
                     db_path.with_name(db_path.name + "-shm")):
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert stat.S_IMODE(db_path.parent.stat().st_mode) == 0o700
    db_path.chmod(0o644)  # an older frontdesk's file is made private on the next start
    with LocalStore(db_path):
        assert stat.S_IMODE(db_path.stat().st_mode) == 0o600


def test_a_full_disk_is_said_and_passes(db_path: Path) -> None:
    seen: list[str | None] = []
    with FullDiskStore(db_path) as store:
        store.on_disk_problem = seen.append
        store.save_draft(1, "kept")
        store.full = True
        with pytest.raises(LocalWriteError, match="disk full"):
            store.save_draft(1, "not kept")
        assert store.unsaved_drafts == {1} and store.disk_problem == "disk full"
        store.save_snapshot("inbox", [1])  # a cache write is skipped, never an error
        store.remember_names({AGENT: "Ada"})
        assert store.snapshot("inbox") is None
        with pytest.raises(LocalWriteError):
            Outbox(store, _never_sent).enqueue(1, {"content": "not kept", "agent_id": AGENT})
        assert store.draft(1) is not None and store.draft(1).text == "kept"  # type: ignore[union-attr]
        store.full = False  # space returns
        store.probe()  # what each poll does: a tiny write clears the problem
        assert store.disk_problem is None
        store.save_draft(1, "kept again")
        assert store.unsaved_drafts == set() and store.disk_problem is None
        assert seen == ["disk full", None]


def test_a_store_opened_on_a_full_disk_says_so_and_recovers(db_path: Path) -> None:
    """On a full disk SQLite cannot create the WAL's shared-memory file and the open fails;
    the store opens with that index in memory instead, says writes fail, and clears that as
    soon as one succeeds."""
    with LocalStore(db_path) as store:
        store.save_draft(1, "kept")
    with FullDiskStore(db_path, full=True) as store:  # the disk is full …
        assert store.disk_problem == "disk full"
        assert store.draft(1) is not None and store.draft(1).text == "kept"  # type: ignore[union-attr]
        with pytest.raises(LocalWriteError):
            store.save_draft(2, "not yet")
        store.full = False  # … until space returns
        store.probe()  # what each poll does: a tiny write clears the problem
        assert store.disk_problem is None
        store.save_draft(2, "written after")
    with LocalStore(db_path) as store:
        assert store.draft(2) is not None and store.disk_problem is None


def test_a_really_full_database_is_a_write_error(db_path: Path) -> None:
    with LocalStore(db_path) as store:
        pages = store.execute("PRAGMA page_count")[0][0]
        store.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own SQLITE_FULL
        with pytest.raises(LocalWriteError, match="disk full"):
            store.save_draft(1, "x" * 100_000)
        assert store.unsaved_drafts == {1}
        # skipped, no error, and said: nothing written
        assert store.remember_wires([(5, "{}" + " " * 100_000)], "inbox") == 0
        assert store.disk_problem == "disk full"


def test_wrong_layout_is_moved_aside(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    conn.execute("CREATE TABLE something_else (x)")
    conn.close()
    with LocalStore(db_path) as store:
        assert store.recovery is not None and "no such table" in store.recovery
    assert len(_aside(db_path)) == 1


def test_unusable_location_is_an_error_not_a_move(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(LocalStoreError):
        LocalStore(blocker / "work.db")
    assert blocker.read_text() == "x"


def test_use_from_another_thread_is_safe(store: LocalStore) -> None:
    errors: list[BaseException] = []

    def type_elsewhere() -> None:
        try:
            for n in range(200):
                store.save_draft(2, f"other {n}")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    worker = threading.Thread(target=type_elsewhere)
    worker.start()
    for n in range(200):
        store.save_draft(1, f"here {n}")
    worker.join()
    assert errors == []
    assert {d.conversation_id: d.text for d in store.drafts()} == {1: "here 199", 2: "other 199"}
