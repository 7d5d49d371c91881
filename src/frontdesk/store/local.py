"""The durable local half of the store: one SQLite file per profile in the user's data directory.

What it keeps, and why:

* **drafts** — the composer's text and attachments per conversation, saved on every keystroke,
  so a reply survives quitting, a crash, a killed process or a power cut (docs/quality.md, check 9);
* **the outbox** — replies kept until the service confirms them (the table lives here so an
  enqueue and the deletion of its draft share one transaction; :mod:`.outbox` drives it);
* **the working set** — every conversation opened, created, claimed or seen, as its wire JSON
  and as the inbox's compact row (a short JSON array), so the next start shows them before
  the first request returns — from the rows alone, without parsing a record;
* **snapshots** — the last picture of each screen (any JSON value under a key), for the same
  reason;
* **names** — user id → display name, so rows show people rather than UUIDs while offline.

Durability: WAL journal with ``synchronous=FULL`` — every committed write is on disk before the
call returns, which is what makes drafts and the outbox survive a power cut, not only a killed
process. A draft save is one UPSERT in autocommit mode (well under a millisecond on an ordinary
disk: the WAL makes a commit one sequential append plus one fsync).

Threading: one connection, meant to be used from the thread that runs the asyncio loop (the
app's). Every call is short and blocking; a re-entrant lock guards the connection, so a call
made from another thread by mistake is safe, only slower.

Recovery: a file that is not a database or is damaged is moved aside as
``<name>.corrupt-<timestamp>`` (with its WAL, kept, never deleted) and a fresh database is
created; the drafts and unsent replies that can still be read from the old file are copied into
the fresh one. The reason, where the old file went and what was recovered are logged and kept in
:attr:`LocalStore.recovery`, which the console shows. A file written by a newer frontdesk is
never moved: :class:`NewerLocalStore` says which version wrote it (a downgrade must not lose
pending replies). Other failures (a missing permission, a full disk) raise
:class:`LocalStoreError`.

Privacy: the data directory is made 0700 and the database files (with the WAL and shared-memory
files) 0600 — they hold customer conversations, drafts and unsent replies.

Full disk: a draft or an outbox write that does not reach the disk raises
:class:`LocalWriteError` (the conversation stays in :attr:`LocalStore.unsaved_drafts` until a
save succeeds); a cache write (working set, snapshots, names) that fails is skipped. Either way
:attr:`LocalStore.disk_problem` says what is wrong until a write succeeds again, and
:attr:`LocalStore.on_disk_problem` is told of each change.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .local_schema import MIGRATIONS, SCHEMA_VERSION
from .rows import InboxRow, digest_of

if TYPE_CHECKING:  # the models load after the first frame, not with the local store
    from frontdesk.api.models import Conversation

__all__ = [
    "Draft",
    "LocalStore",
    "LocalStoreError",
    "LocalWriteError",
    "NewerLocalStore",
]

log = logging.getLogger("frontdesk.store")

#: the read marks' row that is no conversation (ids start at 1): the read floor, the moment
#: before which every message counts as read (:meth:`LocalStore.read_floor`)
READ_FLOOR_ID = 0
#: SQLite's page cache, in KiB (its default is 2,000): the console's reads are by key and a
#: poll's writes are a few rows, and the file's pages stay in the system's own cache, so a
#: larger one mostly holds what a first fill of a hundred thousand records wrote
CACHE_KIB = 512

# SQLite primary result codes that mean "this file is not a usable database".
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26


class LocalStoreError(Exception):
    """The local database cannot be used (not because it is damaged): permissions, disk full."""


class NewerLocalStore(LocalStoreError):
    """The local database was written by a newer frontdesk: it is left exactly as it is."""


class LocalWriteError(LocalStoreError):
    """A write did not reach the disk (full, read-only, failing); nothing was changed."""


#: SQLite primary result codes of a write that could not reach the disk.
_SQLITE_IOERR = 10
_SQLITE_FULL = 13
_SQLITE_READONLY = 8
_SQLITE_CANTOPEN = 14
_DISK_CODES = (_SQLITE_IOERR, _SQLITE_FULL, _SQLITE_READONLY, _SQLITE_CANTOPEN)


class _Unusable(Exception):
    """Internal: the file must be moved aside; the message says why."""


class _DiskTrouble(Exception):
    """Internal: the file could not be opened because the disk cannot be written."""


class _Newer(Exception):
    """Internal: the file's schema is newer than this code knows."""

    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.version = version


class Draft(NamedTuple):
    """An unsent reply being written in a conversation's composer.

    ``attachments`` are the composer's attachment entries as given (e.g. ``{"url": …,
    "prettyName": …}``); ``updated_at`` is the wall-clock time (seconds since the epoch) of
    the last save.
    """

    conversation_id: int
    text: str
    attachments: list[dict[str, str]]
    updated_at: float = 0.0


# --------------------------------------------------------------------------- schema


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the database up to :data:`SCHEMA_VERSION` in one transaction; returns the old version.

    Raises :class:`_Unusable` when the file was written by a newer schema than this code knows,
    since guessing at a future layout could lose the user's drafts.
    """
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise _Newer(version)
    if version < 0:
        raise _Unusable(f"unknown schema version {version}")
    if version == SCHEMA_VERSION:
        return version
    conn.execute("BEGIN IMMEDIATE")
    try:
        for step in MIGRATIONS[version:]:
            step(conn)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return version


# --------------------------------------------------------------------------- the store


class LocalStore:
    """The profile's local database: drafts, outbox, working set, snapshots and names.

    ``path`` is chosen by the caller, normally ``config.data_dir() / f"{profile}.db"``; its
    directory is created if needed. After construction :attr:`recovery` is ``None``, or says
    why the previous file was moved aside and where it went.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.recovery: str | None = None
        #: what keeps writes from reaching the disk now ("disk full"), None when they do
        self.disk_problem: str | None = None
        #: called with :attr:`disk_problem` each time it changes
        self.on_disk_problem: Callable[[str | None], None] | None = None
        #: conversations whose draft could not be saved (their last save failed)
        self.unsaved_drafts: set[int] = set()
        self._lock = threading.RLock()
        self._depth = 0
        _private_directory(self.path.parent)
        try:
            try:
                self._conn = self._open()
            except _DiskTrouble as trouble:
                # A full disk cannot take the WAL's shared-memory file: open with the index
                # in memory, say so, and let the first write that succeeds clear it.
                self._conn = self._open(exclusive=True)
                self._disk("disk full" if "full" in str(trouble) else "cannot write to disk")
                log.warning("%s opened on a disk that cannot be written: %s", self.path,
                            trouble)
        except _Newer as exc:
            from frontdesk import __version__

            raise NewerLocalStore(
                f"The local database {self.path} was written by a newer frontdesk (schema "
                f"{exc.version}; frontdesk {__version__} reads up to {SCHEMA_VERSION}): run "
                "that newer frontdesk, it is left untouched.") from None
        except _Unusable as exc:
            moved = self._move_aside(str(exc))
            self._conn = self._fresh()
            recovered = self._salvage(moved)
            self.recovery = (
                f"The local database {self.path} could not be used ({exc}); it was moved to "
                f"{moved} (kept) and a fresh one was created"
                + (f"; recovered {recovered} from it." if recovered else "."))
            log.warning("%s", self.recovery)

    def _fresh(self) -> sqlite3.Connection:
        try:
            return self._open()
        except (_Unusable, _Newer) as again:  # pragma: no cover - a fresh file is usable
            raise LocalStoreError(f"Cannot create a fresh {self.path}: {again}") from None

    # ------------------------------------------------------------------ opening

    def _open(self, *, exclusive: bool = False) -> sqlite3.Connection:
        """Connect, set the durability pragmas, migrate, and touch every table once.

        ``exclusive``: keep the WAL index in memory instead of the shared-memory file (one
        process at a time), for a disk too full to create that file."""
        _private_file(self.path, create=True)
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                   timeout=5.0)
        except sqlite3.Error as exc:
            raise LocalStoreError(f"Cannot open {self.path}: {exc}") from exc
        try:
            conn.execute("PRAGMA busy_timeout = 5000")
            if exclusive:
                conn.execute("PRAGMA locking_mode = EXCLUSIVE")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                log.warning("%s: journal mode is %s, not WAL", self.path, mode)
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            migrate(conn)
            for table in ("drafts", "outbox", "working_set", "snapshots", "names"):
                conn.execute(f"SELECT count(*) FROM {table}").fetchone()
        except (_Unusable, _Newer):
            conn.close()
            raise
        except sqlite3.DatabaseError as exc:
            conn.close()
            code = getattr(exc, "sqlite_errorcode", None)
            primary = code & 0xFF if isinstance(code, int) else None
            if primary in (_SQLITE_CORRUPT, _SQLITE_NOTADB) or not isinstance(
                exc, sqlite3.OperationalError
            ):
                raise _Unusable(str(exc)) from exc
            if "no such table" in str(exc) or "no such column" in str(exc):
                raise _Unusable(f"unexpected layout: {exc}") from exc
            if (primary in _DISK_CODES or "disk is full" in str(exc)) and not exclusive:
                raise _DiskTrouble(str(exc)) from exc
            raise LocalStoreError(f"Cannot use {self.path}: {exc}") from exc
        for suffix in ("-wal", "-shm"):  # SQLite gives them the database's mode; make sure
            _private_file(self.path.with_name(self.path.name + suffix), create=False)
        return conn

    def _move_aside(self, reason: str) -> Path:
        """Rename the unusable file (and its WAL) out of the way; returns where it went."""
        stamp = time.strftime("%Y%m%dT%H%M%S")
        target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        serial = 1
        while target.exists():
            serial += 1
            target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{serial}")
        try:
            self.path.replace(target)
            wal = self.path.with_name(self.path.name + "-wal")
            if wal.exists():
                wal.replace(target.with_name(target.name + "-wal"))
            self.path.with_name(self.path.name + "-shm").unlink(missing_ok=True)
        except OSError as exc:
            raise LocalStoreError(
                f"{self.path} cannot be used ({reason}) and cannot be moved aside: {exc}"
            ) from exc
        return target

    def _salvage(self, old: Path) -> str:
        """Copy the drafts and unsent replies that can still be read from the moved file
        into the fresh database; says what was recovered ("2 drafts and 1 unsent reply")."""
        try:
            source = sqlite3.connect(f"{old.as_uri()}?mode=ro", uri=True)
        except sqlite3.Error:
            return ""
        drafts: list[tuple[Any, ...]] = []
        replies: list[tuple[Any, ...]] = []
        with contextlib.closing(source):
            with contextlib.suppress(sqlite3.Error):
                drafts = source.execute(
                    "SELECT conversation_id, text, attachments, updated_at FROM drafts"
                ).fetchall()
            with contextlib.suppress(sqlite3.Error):
                replies = source.execute(
                    "SELECT conversation_id, external_id, payload, attempts, last_error, "
                    "created_at, updated_at FROM outbox WHERE state != 'sent' ORDER BY id"
                ).fetchall()
        kept_drafts = kept_replies = 0
        with self._lock:
            for row in drafts:
                with contextlib.suppress(sqlite3.Error, ValueError, TypeError):
                    self._conn.execute(
                        "INSERT OR IGNORE INTO drafts (conversation_id, text, attachments, "
                        "updated_at) VALUES (?, ?, ?, ?)",
                        (int(row[0]), str(row[1]), str(row[2] or "[]"), float(row[3] or 0)))
                    kept_drafts += 1
            for row in replies:
                with contextlib.suppress(sqlite3.Error, ValueError, TypeError):
                    self._conn.execute(
                        "INSERT OR IGNORE INTO outbox (conversation_id, external_id, payload, "
                        "state, attempts, last_error, created_at, updated_at) "
                        "VALUES (?, ?, ?, 'pending', ?, ?, ?, ?)",
                        (int(row[0]), str(row[1]), str(row[2]), int(row[3] or 0), row[4],
                         float(row[5] or 0), float(row[6] or 0)))
                    kept_replies += 1
        parts = []
        if kept_drafts:
            parts.append(f"{kept_drafts} draft" + ("s" if kept_drafts != 1 else ""))
        if kept_replies:
            parts.append(f"{kept_replies} unsent repl" + ("ies" if kept_replies != 1 else "y"))
        return " and ".join(parts)

    # ------------------------------------------------------------------ writing

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """One write: a write that cannot reach the disk becomes :class:`LocalWriteError`
        and sets :attr:`disk_problem`; a write that succeeds clears it."""
        try:
            yield
        except sqlite3.OperationalError as exc:
            code = getattr(exc, "sqlite_errorcode", None)
            primary = code & 0xFF if isinstance(code, int) else None
            if primary not in _DISK_CODES and "disk" not in str(exc) \
                    and "readonly" not in str(exc):
                raise
            problem = "disk full" if primary == _SQLITE_FULL or "full" in str(exc) \
                else "cannot write to disk"
            self._disk(problem)
            raise LocalWriteError(f"{problem}: {exc}") from None
        if self._depth == 0:
            self._disk(None)

    def probe(self) -> None:
        """While writes fail, try a tiny one (the session calls this on each poll), so the
        problem clears as soon as space returns even if nothing else is written."""
        if self.disk_problem is not None:
            self.save_snapshot("disk-probe", time.time())

    def _disk(self, problem: str | None) -> None:
        if problem == self.disk_problem:
            return
        self.disk_problem = problem
        if self.on_disk_problem is not None:
            try:
                self.on_disk_problem(problem)
            except Exception:
                log.exception("disk problem listener failed")

    def close(self) -> None:
        """Close the connection (SQLite checkpoints the WAL). The store is unusable afterwards."""
        with self._lock:
            try:
                self._conn.close()
            except sqlite3.Error as exc:  # a full disk cannot checkpoint; the WAL stays
                log.warning("closing %s: %s", self.path, exc)

    def __enter__(self) -> LocalStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ transactions

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed when the block ends, rolled back if it raises.

        Nested use joins the outer transaction, so the outbox can enqueue a reply and delete
        its draft (through :meth:`delete_draft`) atomically.
        """
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self._conn
                finally:
                    self._depth -= 1
                return
            with self._writing():
                self._conn.execute("BEGIN IMMEDIATE")
                self._depth = 1
                try:
                    yield self._conn
                    self._conn.execute("COMMIT")
                except BaseException:
                    self._depth = 0
                    with contextlib.suppress(sqlite3.Error):
                        self._conn.execute("ROLLBACK")
                    raise
                self._depth = 0

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run one statement (autocommit, or inside the current transaction); returns its rows.

        For the store's own modules (the outbox); the rest of the app uses the named methods.
        A statement that writes and cannot reach the disk raises :class:`LocalWriteError`.
        """
        with self._lock:
            if sql.lstrip()[:6].upper() in ("SELECT", "PRAGMA"):
                rows: list[tuple[Any, ...]] = self._conn.execute(sql, params).fetchall()
                return rows
            with self._writing():
                rows = self._conn.execute(sql, params).fetchall()
            return rows

    # ------------------------------------------------------------------ drafts

    def save_draft(self, conversation_id: int, text: str,
                   attachments: list[dict[str, str]] | None = None) -> None:
        """Keep the composer's content; called on every keystroke, so it is one UPSERT.

        An empty text with no attachments deletes the draft.
        """
        if not text and not attachments:
            self.delete_draft(conversation_id)
            return
        encoded = json.dumps(attachments or [], separators=(",", ":"), ensure_ascii=False)
        with self._lock:
            try:
                with self._writing():
                    self._conn.execute(
                        "INSERT INTO drafts (conversation_id, text, attachments, updated_at) "
                        "VALUES (?, ?, ?, ?) ON CONFLICT (conversation_id) DO UPDATE SET "
                        "text = excluded.text, attachments = excluded.attachments, "
                        "updated_at = excluded.updated_at",
                        (conversation_id, text, encoded, time.time()),
                    )
            except LocalWriteError:
                self.unsaved_drafts.add(conversation_id)
                raise
            self.unsaved_drafts.discard(conversation_id)

    def draft(self, conversation_id: int) -> Draft | None:
        """The conversation's draft, or None."""
        with self._lock:
            row = self._conn.execute(
                "SELECT conversation_id, text, attachments, updated_at FROM drafts "
                "WHERE conversation_id = ?", (conversation_id,),
            ).fetchone()
        return None if row is None else _draft(row)

    def drafts(self) -> list[Draft]:
        """Every draft, most recently edited first."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT conversation_id, text, attachments, updated_at FROM drafts "
                "ORDER BY updated_at DESC, conversation_id"
            ).fetchall()
        return [_draft(row) for row in rows]

    def unsent_count(self) -> int:
        """How many replies and notes wait in the outbox (pending, being sent or refused):
        the status bar's figure, read here so that the first frame tells it before the
        outbox itself is made (:attr:`Session.outbox <frontdesk.store.session.Session.outbox>`
        comes after it)."""
        with self._lock:
            row = self._conn.execute(
                "SELECT count(*) FROM outbox WHERE state != 'sent'").fetchone()
        return int(row[0])

    def draft_ids(self) -> set[int]:
        """The conversations that have a draft (for the inbox's marks)."""
        with self._lock:
            rows = self._conn.execute("SELECT conversation_id FROM drafts").fetchall()
        return {int(row[0]) for row in rows}

    def delete_draft(self, conversation_id: int) -> None:
        """Forget the conversation's draft (nothing happens when there is none)."""
        with self._lock:
            try:
                with self._writing():
                    self._conn.execute("DELETE FROM drafts WHERE conversation_id = ?",
                                       (conversation_id,))
            except LocalWriteError:
                self.unsaved_drafts.add(conversation_id)
                raise
            self.unsaved_drafts.discard(conversation_id)

    # ------------------------------------------------------------------ working set

    def remember(self, conversations: Iterable[Conversation], source: str) -> int:
        """Store each conversation's wire JSON (and its inbox row), stamped now and with where
        it was seen.

        ``source`` says how it entered the working set (``"opened"``, ``"created"``,
        ``"claimed"``, ``"inbox"``…). One transaction, one ``executemany``; returns the count.
        """
        rows: list[tuple[int, str, str]] = []
        for item in conversations:
            wire = item.model_dump_json(exclude_none=True)
            rows.append((item.id, wire, InboxRow.of(item, digest_of(wire)).compact()))
        return self.remember_rows(rows, source)

    def remember_wires(self, records: Iterable[tuple[int, str]], source: str) -> int:
        """:meth:`remember` for records already written as wire JSON (id, JSON text)."""
        rows: list[tuple[int, str, str | None]] = []
        for conversation_id, wire in records:
            try:
                row: str | None = InboxRow.from_wire(json.loads(wire), digest_of(wire)).compact()
            except (ValueError, TypeError, KeyError, AttributeError):
                row = None  # kept as given; the inbox skips what it cannot read
            rows.append((conversation_id, wire, row))
        return self.remember_rows(rows, source)

    def remember_rows(self, records: Iterable[tuple[int, str, str | None]], source: str) -> int:
        """:meth:`remember` for (id, wire JSON, compact inbox row) already made. Returns how
        many were written: 0 when the disk refused them (a cache write: skipped, said by
        :attr:`disk_problem`), so that a caller keeps in memory what is not on disk."""
        now = time.time()
        rows = [(conversation_id, wire, row, source, now)
                for conversation_id, wire, row in records]
        if not rows:
            return 0
        written = 0
        with _cache():
            with self.transaction() as conn:
                conn.executemany(
                    "INSERT INTO working_set (conversation_id, record, row, source, seen_at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (conversation_id) DO UPDATE SET "
                    "record = excluded.record, row = excluded.row, source = excluded.source, "
                    "seen_at = excluded.seen_at",
                    rows,
                )
            written = len(rows)  # committed
        return written

    def working_set_rows(self, limit: int | None = None, offset: int = 0
                         ) -> list[tuple[int, str | None, str | None]]:
        """The remembered conversations as (id, compact row, wire JSON when there is no
        row), most recently seen first (at most ``limit``, after the first ``offset``): what
        the inbox paints its first frame from, without the models."""
        found = self._recent("row", limit, offset)  # the rows' own index: no record read
        older = [cid for cid, row in found if row is None]
        wires: dict[int, str] = {}
        for start in range(0, len(older), 500):  # kept before rows were: their records
            chunk = older[start:start + 500]
            marks = ",".join("?" * len(chunk))
            with self._lock:
                wires.update(self._conn.execute(
                    f"SELECT conversation_id, record FROM working_set "
                    f"WHERE conversation_id IN ({marks})", chunk).fetchall())
        return [(int(cid), row, wires.get(cid) if row is None else None) for cid, row in found]

    def working_set_rows_with(self, text: str) -> list[tuple[int, str]]:
        """The remembered conversations whose compact row contains ``text`` (say, an id as
        JSON writes it): (id, compact row), most recently seen first — a quick way to the
        first frame's own view wherever its rows are in the rows' index (the caller checks
        the field)."""
        with self._lock:
            found = self._conn.execute(
                "SELECT conversation_id, row FROM working_set WHERE instr(row, ?) > 0 "
                "ORDER BY seen_at DESC, conversation_id DESC", (text,)).fetchall()
        return [(int(cid), str(row)) for cid, row in found]

    def working_set_rows_of(self, conversation_ids: list[int]) -> list[tuple[int, str]]:
        """The compact rows of these remembered conversations: (id, compact row), most
        recently seen first (those without a row are left out)."""
        found: list[tuple[int, str, float]] = []
        for start in range(0, len(conversation_ids), 500):
            chunk = conversation_ids[start:start + 500]
            marks = ",".join("?" * len(chunk))
            with self._lock:
                found += self._conn.execute(
                    f"SELECT conversation_id, row, seen_at FROM working_set "
                    f"WHERE conversation_id IN ({marks}) AND row IS NOT NULL", chunk).fetchall()
        found.sort(key=lambda item: (item[2], item[0]), reverse=True)
        return [(int(cid), str(row)) for cid, row, _ in found]

    def working_set_last_seen(self) -> float | None:
        """When the most recently seen conversation was remembered (None: none is)."""
        with self._lock:
            last = self._conn.execute("SELECT max(seen_at) FROM working_set").fetchone()[0]
        return None if last is None else float(last)

    def working_set_seen_after(self, when: float) -> int:
        """How many remembered conversations were seen after ``when`` (as
        :meth:`working_set_last_seen` gives it)."""
        with self._lock:
            return int(self._conn.execute("SELECT count(*) FROM working_set WHERE seen_at > ?",
                                          (when,)).fetchone()[0])

    def working_set_wires(self, limit: int | None = None) -> list[tuple[int, str]]:
        """The remembered conversations as (id, wire JSON), most recently seen first (at most
        ``limit``)."""
        return [(int(cid), str(record)) for cid, record in self._recent("record", limit)]

    def _recent(self, columns: str, limit: int | None, offset: int = 0
                ) -> list[tuple[Any, ...]]:
        """``conversation_id, <columns>`` of the working set, most recently seen first."""
        sql = f"SELECT conversation_id, {columns} FROM working_set " \
              "ORDER BY seen_at DESC, conversation_id DESC"
        params: tuple[Any, ...] = ()
        if limit is not None or offset:
            sql += " LIMIT ? OFFSET ?"
            params = (max(limit, 0) if limit is not None else -1, max(offset, 0))
        with self._lock:
            return list(self._conn.execute(sql, params).fetchall())

    def working_set(self, limit: int | None = None) -> list[Conversation]:
        """The remembered conversations, most recently seen first (at most ``limit``).

        Records that no longer parse (a model changed under an old cache) are skipped.
        """
        out: list[Conversation] = []
        for conversation_id, record in self.working_set_wires(limit):
            parsed = _conversation(conversation_id, record)
            if parsed is not None:
                out.append(parsed)
        return out

    def remembered(self, conversation_id: int) -> Conversation | None:
        """One remembered conversation (None when it is not kept or no longer parses)."""
        with self._lock:
            row = self._conn.execute("SELECT record FROM working_set WHERE conversation_id = ?",
                                     (conversation_id,)).fetchone()
        return _conversation(conversation_id, str(row[0])) if row is not None else None

    def forget(self, conversation_id: int) -> None:
        """Drop a conversation from the working set."""
        with self._lock, _cache(), self._writing():
            self._conn.execute("DELETE FROM working_set WHERE conversation_id = ?",
                               (conversation_id,))

    # ------------------------------------------------------------------ read marks

    def mark_read(self, conversation_id: int, message_id: str, created_at: datetime) -> None:
        """Remember the newest message seen in a conversation (one UPSERT; an older message
        than the one kept changes nothing)."""
        moment = created_at.astimezone(UTC).isoformat()
        with self._lock, _cache(), self._writing():
            self._conn.execute(
                "INSERT INTO read_marks (conversation_id, message_id, created_at) "
                "VALUES (?, ?, ?) ON CONFLICT (conversation_id) DO UPDATE SET "
                "message_id = excluded.message_id, created_at = excluded.created_at "
                "WHERE excluded.created_at > read_marks.created_at",
                (conversation_id, message_id, moment),
            )

    def read_marks(self) -> dict[int, datetime]:
        """Per conversation, when the newest message seen was written (rows that do not
        parse are skipped; the floor, :meth:`read_floor`, is not among them)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT conversation_id, created_at FROM read_marks "
                "WHERE conversation_id != ?", (READ_FLOOR_ID,)).fetchall()
        marks: dict[int, datetime] = {}
        for cid, raw in rows:
            try:
                moment = datetime.fromisoformat(str(raw))
            except ValueError:
                continue
            if moment.tzinfo is not None:
                marks[int(cid)] = moment
        return marks

    def read_floor(self) -> datetime | None:
        """The moment of the first start that kept read state: every message written
        before it counts as read (None: not set yet)."""
        with self._lock:
            row = self._conn.execute("SELECT created_at FROM read_marks "
                                     "WHERE conversation_id = ?", (READ_FLOOR_ID,)).fetchone()
        if row is None:
            return None
        try:
            moment = datetime.fromisoformat(str(row[0]))
        except ValueError:
            return None
        return moment if moment.tzinfo is not None else None

    def set_read_floor(self, when: datetime) -> None:
        """Keep the first start's moment (:meth:`read_floor`); one already kept stays."""
        with self._lock, _cache(), self._writing():
            self._conn.execute(
                "INSERT INTO read_marks (conversation_id, message_id, created_at) "
                "VALUES (?, '', ?) ON CONFLICT (conversation_id) DO NOTHING",
                (READ_FLOOR_ID, when.astimezone(UTC).isoformat()))

    # ------------------------------------------------------------------ snapshots

    def save_snapshot(self, key: str, value: Any) -> None:
        """Keep the last picture of a screen under ``key``; ``value`` must be JSON-able."""
        encoded = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        with self._lock, _cache(), self._writing():
            self._conn.execute(
                "INSERT INTO snapshots (key, value, saved_at) VALUES (?, ?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
                "saved_at = excluded.saved_at",
                (key, encoded, time.time()),
            )

    def snapshot(self, key: str) -> Any | None:
        """The value saved under ``key``, or None (also when it cannot be decoded)."""
        with self._lock:
            row = self._conn.execute("SELECT value FROM snapshots WHERE key = ?",
                                     (key,)).fetchone()
        if row is None:
            return None
        try:
            return json.loads(row[0])
        except ValueError:
            return None

    # ------------------------------------------------------------------ names

    def remember_names(self, mapping: dict[str, str]) -> None:
        """Store display names by user id (replacing older ones)."""
        if not mapping:
            return
        with _cache(), self.transaction() as conn:
            conn.executemany(
                "INSERT INTO names (user_id, name) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET name = excluded.name",
                list(mapping.items()),
            )

    def names(self) -> dict[str, str]:
        """Every remembered display name, by user id."""
        with self._lock:
            rows = self._conn.execute("SELECT user_id, name FROM names").fetchall()
        return {str(user_id): str(name) for user_id, name in rows}


@contextmanager
def _cache() -> Iterator[None]:
    """A cache write: one that cannot reach the disk is skipped (and logged), never an error;
    the cache is filled again by the next poll."""
    try:
        yield
    except LocalWriteError as exc:
        log.warning("local cache not saved: %s", exc)


def _private_directory(folder: Path) -> None:
    """Create ``folder`` (and its parents) and make it readable by its owner only: it holds
    customer conversations, drafts and unsent replies."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise LocalStoreError(
            f"Cannot create the data directory {folder}: {exc.strerror or exc}") from None
    if os.name == "posix":
        with contextlib.suppress(OSError):  # not ours to change (a shared mount): best effort
            if folder.stat().st_mode & 0o077:
                folder.chmod(0o700)


def _private_file(path: Path, *, create: bool) -> None:
    """Make ``path`` 0600 (creating it empty with that mode when ``create``), so the files
    SQLite makes beside it inherit the mode too."""
    if os.name != "posix":
        return
    if create:
        try:
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        except FileExistsError:
            pass
        except OSError as exc:
            raise LocalStoreError(f"Cannot open {path}: {exc.strerror or exc}") from None
    with contextlib.suppress(OSError):
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)


def _conversation(conversation_id: int, record: str) -> Conversation | None:
    """A conversation from its kept wire JSON; None (logged) when it no longer parses."""
    from pydantic import ValidationError

    from frontdesk.api.models import Conversation

    try:
        return Conversation.model_validate_json(record)
    except ValidationError as exc:
        log.warning("cached conversation %s does not parse: %s", conversation_id,
                    exc.error_count())
        return None


def _draft(row: tuple[Any, ...]) -> Draft:
    """A draft from its row; unreadable attachments become none rather than an error."""
    conversation_id, text, attachments, updated_at = row
    try:
        decoded = json.loads(attachments)
    except ValueError:
        decoded = []
    items = [
        {str(k): str(v) for k, v in entry.items()}
        for entry in (decoded if isinstance(decoded, list) else [])
        if isinstance(entry, dict)
    ]
    return Draft(int(conversation_id), str(text), items, float(updated_at))
