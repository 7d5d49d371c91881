"""Putting a console together: a session for a profile, for the script flags, or for the demo.

The composition root's working parts (``cli.py`` parses arguments and calls these). Nothing
here waits on the network: the app paints first, then the session signs in.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import config

if TYPE_CHECKING:
    from .api.client import ApiClient


@dataclass
class Target:
    """Where the console connects, and as whom.

    The key is either known (``key``: from the environment, a key file, a login just made)
    or read when the console connects (``read_key``: the keyring, which takes a while to load
    and may hang or ask to be unlocked — never before the first frame).
    """

    profile: str
    base_url: str
    integrations_url: str | None
    key: str | None = field(repr=False)
    identity: str
    read_key: Callable[[], str] | None = field(default=None, repr=False, compare=False)
    #: reads the key again from where it is kept (the keyring, a key file); None when it
    #: cannot change while the console runs (the environment, a key given at sign-in)
    reread: Callable[[], str] | None = field(default=None, repr=False, compare=False)

    def api_key(self) -> str:
        """The API key (reads it when it is not known yet; raises ``ConfigError`` with the
        fix when it cannot be read)."""
        if self.key is None:
            if self.read_key is None:
                raise config.KeyNotFound("no API key was given")
            self.key = self.read_key()
        return self.key

    def fresh_key(self) -> str | None:
        """The key as it is kept now, when it differs from the one in use (``frontdesk
        login`` in another terminal, a changed key file); None when it is the same or
        cannot be read again. Blocks on the keyring: call it off the UI thread."""
        read = self.reread or self.read_key
        if read is None:
            return None
        key = read().strip()
        if not key or key == self.key:
            return None
        self.key = key
        return key


def free_port(host: str = "127.0.0.1") -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def local_store_path(profile: str) -> Path:
    """The console's local database for a profile (drafts, outbox, cache)."""
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in profile) or "default"
    return config.data_dir() / f"console-{safe}.db"


def connect(target: Target, settings: config.Settings) -> ApiClient:
    """The client for ``target``: loads the HTTP stack and the models and reads the key.

    The session calls this on a worker thread once the first frame is painted.
    """
    from .api.client import ApiClient, pacer_for

    return ApiClient(target.base_url, target.api_key(), target.integrations_url,
                     pacer=pacer_for(settings.rate.rate, settings.rate.burst))


def run_console(target: Target, settings: config.Settings) -> int:
    """Open the console on ``target`` until the user quits.

    Only what the first frame needs is loaded before it: the local store, the session's
    stores (built from the local snapshot) and the inbox screen. The client, the models and
    the key follow on a worker thread (:func:`connect`).
    """
    from .startup import hold_gc

    hold_gc()  # released by the app once its first frame is painted
    from .store.local import LocalStore
    from .store.session import Session
    from .tui.app import FrontdeskApp

    config.scrub_secret_environment()  # nothing the console starts inherits the key
    local = LocalStore(local_store_path(target.profile))
    session = Session(connect=lambda: connect(target, settings), local=local,
                      settings=settings, profile=target.profile, identity=target.identity,
                      new_key=target.fresh_key)
    app = FrontdeskApp(session, keys=dict(settings.keys))
    app.run()
    return app.return_code or 0  # a crash (Textual's crash screen) is a failing exit


def demo_paths() -> tuple[Path, Path]:
    """The demo's sandbox database and the demo console's local database."""
    folder = config.data_dir() / "demo"
    return folder / "sandbox.db", local_store_path("demo")


def reset_demo() -> None:
    """Forget the demo organisation and the demo console's local data."""
    for path in demo_paths():
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                Path(str(path) + suffix).unlink()
    shutil.rmtree(config.data_dir() / "demo", ignore_errors=True)


@contextlib.contextmanager
def demo_sandbox(*, chaos: bool = False, seed: int = 1) -> Iterator[Target]:
    """A seeded, lively sandbox in a background thread; yields where to connect.

    The server starts (and seeds, the first time) while the console is already painting.
    """
    from .sandbox.seed import DEMO_AGENT_EMAIL
    from .sandbox.server import SandboxServer, new_key

    db_path, _ = demo_paths()
    port = free_port()
    key = new_key()
    server = SandboxServer(db_path, keys=[key], seed=seed, simulator=True, port=port)
    if chaos:
        server.faults.chaos()
    starter = threading.Thread(target=server.start, name="frontdesk-demo-sandbox", daemon=True)
    starter.start()
    try:
        yield Target("demo", server.base_url, server.integrations_url, key, DEMO_AGENT_EMAIL)
    finally:
        starter.join(60)
        server.stop()
