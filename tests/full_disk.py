"""A local store on a disk that fills up and empties again, for the tests of what the store and
the console do about a full disk (the store itself has no switch for it).

:class:`FullDiskStore` answers as SQLite answers on a full disk ("database or disk is full")
at the two places the store reaches the disk: every write, which passes through
:meth:`LocalStore._writing` (so the store's own reading of SQLite's error is what turns it into
:class:`~frontdesk.store.local.LocalWriteError` and ``disk_problem``), and opening, where a full
disk cannot take the WAL's shared-memory file (``LocalStore._open`` then says so as it does,
and the store opens with that index in memory). SQLite's own SQLITE_FULL, from a real limit, is
``tests/store/test_local.py::test_a_really_full_database_is_a_write_error``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from frontdesk.store.local import LocalStore, _DiskTrouble

#: what SQLite says when a write does not fit on the disk
FULL = "database or disk is full"


class FullDiskStore(LocalStore):
    """A :class:`LocalStore` whose disk is full while :attr:`full` is set.

    ``full`` at construction: the store is opened on a full disk.
    """

    def __init__(self, path: Path, *, full: bool = False) -> None:
        #: the disk is full now: set it to fill the disk, clear it when space returns
        self.full = full
        super().__init__(path)

    def __enter__(self) -> FullDiskStore:  # ``with FullDiskStore(…) as store`` keeps ``full``
        return self

    def _open(self, *, exclusive: bool = False) -> sqlite3.Connection:
        """On a full disk the shared-memory file cannot be made: opening fails as
        ``LocalStore._open`` says it does then; with that index in memory
        (``exclusive``) it opens, as on a real full disk."""
        if self.full and not exclusive:
            raise _DiskTrouble(FULL)
        return super()._open(exclusive=exclusive)

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """Every write fails with SQLite's own error while the disk is full (before it
        changes anything), and the store reads that error as it would on a real disk."""
        with super()._writing():
            if self.full:
                raise sqlite3.OperationalError(FULL)
            yield
