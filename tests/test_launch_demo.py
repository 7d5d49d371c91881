"""The demo's target is made without loading the sandbox (it starts after the first frame);
its sandbox keeps its port from one start to the next."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from frontdesk import launch
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL

SRC = Path(__file__).resolve().parents[1] / "src"


def test_the_demo_signs_in_as_the_seeded_demo_agent() -> None:
    assert launch.DEMO_IDENTITY == DEMO_AGENT_EMAIL


def test_the_first_demo_makes_its_key_without_loading_the_sandbox(tmp_path: Path) -> None:
    """A fresh machine's first ``frontdesk demo``: its key is made and kept before the first
    frame, the sandbox's server (FastAPI, uvicorn) loads only after it."""
    probe = """
import sys
import pytest

from frontdesk import launch
db_path, _ = launch.demo_paths()
key = launch._demo_key(db_path)
loaded = [m for m in ("fastapi", "uvicorn", "frontdesk.sandbox.server") if m in sys.modules]
print(key.startswith("sbx_"), loaded, launch._demo_key(db_path) == key)
"""
    env = {**os.environ, "FRONTDESK_HOME": str(tmp_path / "home"), "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, env=env,
                          timeout=60, check=False)
    assert done.stdout.decode().split() == ["True", "[]", "True"], done.stderr.decode()[-2000:]


def test_the_demo_sandbox_waits_for_the_first_frame_however_long_and_not_past_the_end(
    tmp_path: Path,
) -> None:
    """The demo's sandbox starts only once the first frame is painted, with no deadline that
    would let FastAPI and uvicorn load beside a slow frame; a console that ends before its
    first frame ends the demo at once, with the sandbox never loaded."""
    probe = """
import sys, threading
from frontdesk import launch
stopping = threading.Event()
stopping.set()
print(launch._first_frame_or_stop(stopping))
with launch.demo_sandbox():
    pass
print([m for m in ("fastapi", "uvicorn", "frontdesk.sandbox.server") if m in sys.modules])
from frontdesk.startup import FIRST_FRAME
FIRST_FRAME.set()
print(launch._first_frame_or_stop(threading.Event()))
"""
    env = {**os.environ, "FRONTDESK_HOME": str(tmp_path / "home"), "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, env=env,
                          timeout=60, check=False)
    assert done.stdout.decode().split() == ["False", "[]", "True"], done.stderr.decode()[-2000:]


def test_the_demo_keeps_its_port_from_one_start_to_the_next(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FRONTDESK_HOME", str(tmp_path / "home"))
    first = launch.demo_port()
    assert launch.demo_port() == first  # the next start: the same address
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", first))
        taken.listen(1)
        other = launch.demo_port()  # someone holds it: another port, noted
        assert other != first
    assert launch.demo_port() == other
