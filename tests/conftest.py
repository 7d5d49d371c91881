"""Fixtures shared by every test: real sandboxes over loopback, an in-memory keyring.

* ``sandbox``: a sandbox on a fresh copy of the seeded demo organisation (seed 7), a manual
  clock fixed at ``NOW``, no rate limit, no simulator.
* ``limited_sandbox``: the same with the service's rate budget enforced.
* ``empty_sandbox``: an organisation with only its endpoints, attributes and schedules.
* ``local_template``: a returning agent's local store, filled once from the seeded
  organisation (``tests/local_template.py``).
"""

from __future__ import annotations

import gc
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import httpx2
import keyring
import pytest
from keyring.backend import KeyringBackend

from frontdesk.api.tls import shared_tls_context
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.seed import ensure_seeded
from frontdesk.sandbox.server import SandboxServer
from local_template import LocalTemplate
from pilot_waits import install as install_pilot_waits

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

# Textual's pilot waits for the console to settle rather than for the process to fall quiet.
install_pilot_waits()

# Local times on screen (snapshots) must not depend on the machine's zone.
os.environ["TZ"] = "UTC"
time.tzset()

SEED = 7
#: How long a test's plain HTTP client waits for an answer: only a guard against a hung
#: sandbox, far beyond what any answer takes even on a machine busy with other work (the
#: first GET /openapi.json builds the whole schema, seconds of CPU).
PATIENCE = 120.0


class MemoryKeyring(KeyringBackend):
    """A keyring that lives in memory for the test run: the user's is never touched."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # keyring's constructor is unannotated
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.store.pop((service, username), None)


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """Every test: its own FRONTDESK_HOME, no key in the environment, an in-memory keyring."""
    monkeypatch.setenv("FRONTDESK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("FRONTDESK_API_KEY", raising=False)
    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    yield
    keyring.set_keyring(previous)


def _template(factory: pytest.TempPathFactory, name: str, *, empty: bool) -> Path:
    path = factory.mktemp(name) / "sandbox.db"
    ensure_seeded(path, seed=None if empty else SEED, empty=empty, now=NOW)
    return path


@pytest.fixture(scope="session")
def seeded_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seeded demo organisation, built once per test process."""
    return _template(tmp_path_factory, "seeded", empty=False)


@pytest.fixture(scope="session")
def empty_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The empty organisation, built once per test process."""
    return _template(tmp_path_factory, "empty", empty=True)


def _copy(template: Path, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, target)
    return target


#: where the machine keeps files in memory (tmpfs), when it has such a place
MEMORY = Path("/dev/shm")


@pytest.fixture(scope="session")
def sandbox_scratch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Where this test process's sandboxes keep their copies of a seeded database: in memory
    where the machine allows (each copy is some 14 MB, written for one test and gone after
    it: on disk, a run wrote gigabytes the disk of a shared machine had to take), else the
    run's temporary folder. Removed at the end of the run."""
    if MEMORY.is_dir() and os.access(MEMORY, os.W_OK):
        folder = Path(tempfile.mkdtemp(prefix="frontdesk-tests-", dir=MEMORY))
    else:
        folder = tmp_path_factory.mktemp("sandboxes")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def copied_sandbox(template: Path, scratch: Path, **options: object) -> Iterator[SandboxServer]:
    """A sandbox on a fresh copy of ``template`` in ``scratch``; the copy is deleted as soon
    as the sandbox closes."""
    folder = Path(tempfile.mkdtemp(prefix="sb-", dir=scratch))
    try:
        server = start_sandbox(_copy(template, folder / "sandbox.db"), **options)
        try:
            yield server
        finally:
            server.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def start_sandbox(db: Path, **options: object) -> SandboxServer:
    """A sandbox on ``db`` with a manual clock at NOW (options as for SandboxServer)."""
    options.setdefault("clock", ManualClock(NOW))
    options.setdefault("rate_limit", False)
    server = SandboxServer(db, **options)  # type: ignore[arg-type]
    return server.start()


@pytest.fixture(scope="session")
def sandbox_starter() -> Callable[..., SandboxServer]:
    """``start_sandbox``, for tests that start their own: this file cannot be imported by
    its name from every folder (tests/tui has a conftest of the same name)."""
    return start_sandbox


@pytest.fixture(scope="session")
def local_template(seeded_db: Path, tmp_path_factory: pytest.TempPathFactory) -> LocalTemplate:
    """The seeded organisation's local store after the demo agent's first fill (a returning
    agent's store): filled once per test process, when the first test starts from it."""
    return LocalTemplate(seeded_db, tmp_path_factory.mktemp("local-template"), start_sandbox,
                         NOW)


@pytest.fixture
def sandbox(seeded_db: Path, sandbox_scratch: Path) -> Iterator[SandboxServer]:
    """A running sandbox on a fresh copy of the seeded organisation."""
    with copied_sandbox(seeded_db, sandbox_scratch) as server:
        yield server


@pytest.fixture
def limited_sandbox(seeded_db: Path, sandbox_scratch: Path) -> Iterator[SandboxServer]:
    """A running sandbox that enforces the service's rate budget."""
    with copied_sandbox(seeded_db, sandbox_scratch, rate_limit=True) as server:
        yield server


@pytest.fixture
def empty_sandbox(empty_db: Path, sandbox_scratch: Path) -> Iterator[SandboxServer]:
    """A running sandbox on a fresh copy of the empty organisation."""
    with copied_sandbox(empty_db, sandbox_scratch) as server:
        yield server


@pytest.fixture
def http(sandbox: SandboxServer) -> Iterator[httpx2.Client]:
    """A plain HTTP client signed in to ``sandbox`` (for tests of the sandbox itself)."""
    with httpx2.Client(base_url=sandbox.base_url, headers={"Authorization": sandbox.key},
                      timeout=PATIENCE, verify=shared_tls_context()) as client:
        yield client


@pytest.fixture
def empty_http(empty_sandbox: SandboxServer) -> Iterator[httpx2.Client]:
    """A plain HTTP client signed in to ``empty_sandbox``."""
    with httpx2.Client(base_url=empty_sandbox.base_url,
                      headers={"Authorization": empty_sandbox.key},
                      timeout=PATIENCE, verify=shared_tls_context()) as client:
        yield client


#: Allocations between two collections of the youngest generation in a test process
#: (CPython's default is 700).
YOUNG_COLLECTION = 10_000


def pytest_collection_finish(session: pytest.Session) -> None:
    """The test process's collector set for the heap of a test process. Once every test
    module is imported (Textual, FastAPI, schemathesis, hypothesis) the process holds some
    230,000 objects, none of them garbage, and every full collection walked them all again:
    a fifth of the suite's CPU went to the collector. They are frozen once collected (no
    collection walks them again), and the youngest generation is collected every
    :data:`YOUNG_COLLECTION` allocations, so that fewer short-lived objects outlive it and full
    collections fall due far less often. Garbage is still collected, a little later; the
    consoles and sandboxes the tests start as processes keep CPython's settings."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, middle, old)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` (a single item of ten seconds or more) run first, dealt out
    one by one to the workers: a long item started last would leave one worker finishing
    alone while the others wait, and all of them at the head of the list would go to the
    first worker alone (pytest-xdist hands each worker an equal run of the list, in order,
    before any stealing)."""
    workers = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    rest = [item for item in items if item.get_closest_marker("slow") is None]
    ordered: list[pytest.Item] = []
    left = len(items)
    for worker in range(workers):
        share = left // (workers - worker)  # as the worksteal scheduler first shares
        mine = slow[worker::workers][:share]
        ordered.extend(mine)
        take = share - len(mine)
        ordered.extend(rest[:take])
        del rest[:take]
        left -= share
    ordered.extend(rest)
    taken = {id(item) for item in ordered}
    ordered.extend(item for item in slow if id(item) not in taken)
    items[:] = ordered
