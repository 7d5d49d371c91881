"""A full disk says nothing on the terminal through the log file: a record the file cannot take
is dropped, closing the file that cannot be flushed is quiet, and a bug reported on a full disk
is one line (``cli/logs.py``). The log file is made ``/dev/full``, which answers every write
with ENOSPC, as a full disk does."""

from __future__ import annotations

import importlib
import logging
import os
from pathlib import Path

import pytest

from frontdesk.cli.logs import LOG_FILE, file_logging, log_unexpected
from frontdesk.settings import log_dir

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")


def full_log_file() -> Path:
    folder = log_dir()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    (folder / LOG_FILE).symlink_to("/dev/full")
    return folder / LOG_FILE


def test_logging_on_a_full_disk_prints_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    full_log_file()
    with file_logging():
        log = logging.getLogger("frontdesk.store")
        for n in range(50):
            log.warning("local cache not saved: %s", n)
        log.error("failed", exc_info=OSError(28, "No space left on device"))
    assert log_unexpected(RuntimeError("a bug"), None) in (True, False)
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert logging.raiseExceptions  # put back as it was


def test_a_bug_on_a_full_disk_is_one_line(capfd: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    cli_main = importlib.import_module("frontdesk.cli.main")

    full_log_file()

    def broken(args: list[str]) -> int:
        with file_logging():  # as the console runs: records the full disk cannot take
            for n in range(20):
                logging.getLogger("frontdesk.store").warning("draft not saved: %s", n)
        raise RuntimeError("a bug")

    monkeypatch.setattr(cli_main, "console_main", broken)
    code = cli_main.main(["--base-url", "http://127.0.0.1:9"])
    out, err = capfd.readouterr()
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "unexpected error (RuntimeError)" in err
