"""``frontdesk sandbox serve`` as a real process: it prints what a client needs, answers with
the printed key, and stops cleanly on SIGINT or SIGTERM; ``reset`` and usage errors."""

from __future__ import annotations

import os
import queue
import re
import signal
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from frontdesk import cli
from frontdesk.sandbox import cli as sandbox_cli
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL

STARTUP_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0


class Served:
    """A ``frontdesk sandbox serve`` process and the lines it has printed."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "frontdesk", "sandbox", "serve", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, **(env or {})})
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def wait_for(self, text: str) -> None:
        """Read printed lines until one contains ``text`` (or the process ends)."""
        while True:
            line = self.lines.get(timeout=STARTUP_TIMEOUT)
            if line is None:
                stderr = self.process.stderr.read() if self.process.stderr else ""
                raise AssertionError(f"serve ended early: {self.seen} {stderr}")
            self.seen.append(line)
            if text in line:
                return

    def value(self, label: str) -> list[str]:
        """The values printed after ``label`` (e.g. every ``API key``)."""
        return [m.group(1) for line in self.seen
                if (m := re.match(rf"\s+{re.escape(label)}\s+(\S+)", line))]

    def stop(self, signum: int) -> int:
        self.process.send_signal(signum)
        return self.process.wait(timeout=STOP_TIMEOUT)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


@pytest.fixture
def served() -> Iterator[list[Served]]:
    """Started processes, killed at the end whatever happened."""
    started: list[Served] = []
    yield started
    for process in started:
        process.kill()


def test_serve_prints_what_a_client_needs_and_stops_on_sigint(
        served: list[Served], tmp_path: Path) -> None:
    process = Served("--port", "0", "--no-simulator")
    served.append(process)
    process.wait_for("Press Ctrl-C to stop.")
    base = process.value("base URL")[0]
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+", base) and not base.endswith(":0")
    assert process.value("integrations URL") == [base + "/integrations"]
    [key] = process.value("API key")
    assert any(f'curl -H "Authorization: {key}" {base}/v1/tags' in line
               for line in process.seen)
    # which agent the console signs in as, and how
    assert process.value("sign in as") == [DEMO_AGENT_EMAIL]
    assert any(f"frontdesk login --base-url {base} --as {DEMO_AGENT_EMAIL}" in line
               for line in process.seen)
    answer = httpx2.get(base + "/v1/tags", headers={"Authorization": key}, timeout=10)
    assert answer.status_code == 200
    assert len(answer.json()["data"]) > 10  # the demo organisation, seed 1
    assert httpx2.get(base + "/v1/tags", headers={"Authorization": "wrong"},
                     timeout=10).status_code == 401
    # the default database lives in the user data directory ($FRONTDESK_HOME/data here)
    assert (Path(os.environ["FRONTDESK_HOME"]) / "data" / "sandbox.db").exists()
    assert process.stop(signal.SIGINT) == 0


def test_serve_with_given_keys_stops_on_sigterm(served: list[Served], tmp_path: Path) -> None:
    db = tmp_path / "own" / "sandbox.db"
    process = Served("--port", "0", "--no-simulator", "--empty", "--db", str(db),
                     "--api-key", "first-key", "--api-key", "second-key", "--no-rate-limit")
    served.append(process)
    process.wait_for("Press Ctrl-C to stop.")
    assert process.value("API key") == ["first-key", "second-key"]
    base = process.value("base URL")[0]
    for key in ("first-key", "second-key"):
        answer = httpx2.get(base + "/v1/tags", headers={"Authorization": key}, timeout=10)
        assert answer.status_code == 200 and answer.json()["data"] == []
    assert db.exists()
    assert process.stop(signal.SIGTERM) == 0


def test_a_database_keeps_its_key_and_keys_stay_out_of_ps(
        served: list[Served], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "own" / "sandbox.db"
    options = ("--port", "0", "--no-simulator", "--empty", "--db", str(db), "--no-rate-limit")

    def run(*extra: str, env: dict[str, str] | None = None) -> tuple[list[str], str]:
        process = Served(*options, *extra, env=env)
        served.append(process)
        process.wait_for("Press Ctrl-C to stop.")
        keys, base = process.value("API key"), process.value("base URL")[0]
        for key in keys:
            answer = httpx2.get(base + "/v1/tags", headers={"Authorization": key}, timeout=10)
            assert answer.status_code == 200
        command_line = Path(f"/proc/{process.process.pid}/cmdline")
        if command_line.exists():
            assert not any(key in command_line.read_text() for key in keys)
        assert process.stop(signal.SIGTERM) == 0
        return keys, "\n".join(process.seen)

    [first], banner = run()
    kept = db.with_name("sandbox.db.key")
    assert kept.read_text().strip() == first and f"key kept in       {kept}" in banner
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert run()[0] == [first]  # a restart keeps the key a saved profile holds
    assert run(env={"FRONTDESK_SANDBOX_KEYS": "env-one, env-two"})[0] == ["env-one", "env-two"]
    key_file = tmp_path / "keys"
    key_file.write_text("file-one\nfile-two\n")
    key_file.chmod(0o600)
    assert run("--api-key-file", str(key_file))[0] == ["file-one", "file-two"]
    key_file.chmod(0o644)
    capsys.readouterr()
    # refused before it serves: the same entry point, called here
    assert sandbox_cli.main(["serve", *options, "--api-key-file", str(key_file)]) == 1
    refused = capsys.readouterr().err
    assert "chmod 600" in refused and len(refused.strip().splitlines()) == 1
    assert sandbox_cli.main(["reset", "--db", str(db)]) == 0
    assert not kept.exists()  # a new database, a new key


def test_reset_deletes_the_database_and_its_journal(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "sandbox.db"
    for path in (db, tmp_path / "sandbox.db-wal", tmp_path / "sandbox.db-shm"):
        path.write_text("x")
    keep = tmp_path / "other.db"
    keep.write_text("x")
    assert cli.main(["sandbox", "reset", "--db", str(db)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]
    assert "removed" in capsys.readouterr().out
    assert sandbox_cli.main(["reset", "--db", str(db)]) == 0
    assert "nothing to remove" in capsys.readouterr().out


def test_reset_defaults_to_the_user_data_directory() -> None:
    default = Path(os.environ["FRONTDESK_HOME"]) / "data" / "sandbox.db"
    assert sandbox_cli.default_db() == default
    default.parent.mkdir(parents=True)
    default.write_text("x")
    assert sandbox_cli.main(["reset"]) == 0
    assert not default.exists()


@pytest.mark.parametrize("argv", [
    [],
    ["serve", "--port", "http"],
    ["serve", "--port", "70000"],
    ["serve", "--seed", "1", "--empty"],
    ["serve", "--scale", "huge"],
    ["serve", "--speed", "0"],
    ["serve", "--bogus"],
    ["launch"],
])
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert sandbox_cli.main(argv) == 2
    assert "usage" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--help"], ["serve", "--help"], ["reset", "--help"]])
def test_help_everywhere(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert sandbox_cli.main(argv) == 0
    assert "usage: frontdesk sandbox" in capsys.readouterr().out


def test_the_entry_point_imports_nothing_heavy() -> None:
    code = ("import sys, frontdesk.cli, frontdesk.__main__; "
            "print(sorted(m for m in ('fastapi', 'uvicorn', 'textual', 'httpx2') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    assert out.strip() == "[]"
