"""Fixtures of the gateway's tests: a real sandbox behind a real gateway, over loopback.

* ``gateway``: a gateway in front of a fresh sandbox (the ``sandbox`` fixture) with its own
  database, for one test.
* ``shared_gateway``: the same, shared by the tests of one module (they must not depend on
  each other's writes).

Both are :class:`~gateway_harness.RunningGateway`: ``gateway.add_member(who, role)`` returns
the member's personal key. Tests elsewhere use ``gateway_harness.running_gateway`` directly.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from frontdesk.sandbox.server import SandboxServer
from gateway_harness import RunningGateway, running_gateway


@pytest.fixture
def gateway(sandbox: SandboxServer, tmp_path: Path) -> Iterator[RunningGateway]:
    """A gateway in front of a fresh sandbox, for one test."""
    with running_gateway(sandbox, tmp_path) as running:
        yield running


@pytest.fixture(scope="module")
def shared_gateway(seeded_db: Path, sandbox_scratch: Path,
                   sandbox_starter: Callable[..., SandboxServer]) -> Iterator[RunningGateway]:
    """A gateway in front of its own sandbox, shared by the tests of one module."""
    folder = Path(tempfile.mkdtemp(prefix="gw-", dir=sandbox_scratch))
    try:
        shutil.copyfile(seeded_db, folder / "sandbox.db")
        sandbox = sandbox_starter(folder / "sandbox.db")
        try:
            with running_gateway(sandbox, folder) as running:
                yield running
        finally:
            sandbox.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
