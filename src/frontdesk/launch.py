"""Putting a console together: a session for a profile, for the script flags, or for the demo.

The composition root's working parts (the ``cli`` package parses arguments and calls these). Nothing
here waits on the network: the app paints first, then the session signs in.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from .config.api_key import scrub_secret_environment
from .settings import ConfigError, KeyNotFound, Settings, data_dir, read_key_file

if TYPE_CHECKING:
    from .api.client import ApiClient
    from .demo_access import DemoAccess
    from .sandbox.server import SandboxServer

#: who the demo console signs in as (the seeded demo agent; a test keeps them equal)
DEMO_IDENTITY = "demo.agent@acme-demo.example"


class Target:
    """Where the console connects, and as whom.

    The key is either known (``key``: from the environment, a key file, a login just made)
    or read when the console connects (``read_key``: the keyring, which takes a while to load
    and may hang or ask to be unlocked — never before the first frame).

    A plain class rather than a dataclass: it is made before the first frame, where a
    dataclass's generated methods cost their compilation; its repr never shows the key.
    """

    __slots__ = ("base_url", "check", "demo", "gateway", "identity", "integrations_url", "key",
                 "profile", "read_key", "reread", "wait_ready")

    def __init__(self, profile: str, base_url: str, integrations_url: str | None,
                 key: str | None, identity: str, *,
                 read_key: Callable[[], str] | None = None, demo: bool = False,
                 reread: Callable[[], str] | None = None,
                 wait_ready: Callable[[], None] | None = None,
                 check: Callable[[], str | None] | None = None,
                 gateway: bool = False) -> None:
        self.profile = profile
        self.base_url = base_url
        self.integrations_url = integrations_url
        self.key = key
        self.identity = identity
        self.read_key = read_key
        #: the demo's own sandbox (the palette offers its URL and key, for curl)
        self.demo = demo
        #: reads the key again from where it is kept (the keyring, a key file); None when
        #: it cannot change while the console runs (the environment, a key given at sign-in)
        self.reread = reread
        #: waits until the service can answer (the demo's sandbox, started beside the
        #: console)
        self.wait_ready = wait_ready
        #: asks the service whether it takes the key and knows the identity: one sentence
        #: when it does not (run once the first frame is on screen; the console then ends
        #: with it)
        self.check = check
        #: ``base_url`` is a team gateway: the key is a member's, and the gateway says who
        #: the member is and their role
        self.gateway = gateway

    def __repr__(self) -> str:
        return (f"Target(profile={self.profile!r}, base_url={self.base_url!r}, "
                f"identity={self.identity!r})")

    def api_key(self) -> str:
        """The API key (reads it when it is not known yet; raises ``ConfigError`` with the
        fix when it cannot be read)."""
        if self.key is None:
            if self.read_key is None:
                raise KeyNotFound("no API key was given")
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


def demo_port_file() -> Path:
    """Where the demo notes the port its sandbox listened on (kept across ``--reset``)."""
    return data_dir() / "demo.port"


def demo_port() -> int:
    """The port of the demo's sandbox: the one it had last time when nobody holds it now,
    so that curl commands and scripts written against the demo keep working from one start
    to the next; else a free one, noted for the next start."""
    path = demo_port_file()
    try:
        last = int(path.read_text("ascii").strip())
    except (OSError, ValueError):
        last = 0
    if 1024 <= last <= 65535:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
            try:
                sock.bind(("127.0.0.1", last))
            except OSError:
                pass
            else:
                return last
    port = free_port()
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{port}\n", "ascii")
    return port


def local_store_path(profile: str) -> Path:
    """The console's local database for a profile (drafts, outbox, cache)."""
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in profile) or "default"
    return data_dir() / f"console-{safe}.db"


def connect(target: Target, settings: Settings) -> ApiClient:
    """The client for ``target``: loads the HTTP stack and the models and reads the key.

    The session calls this on a worker thread once the first frame is painted.
    """
    from .api.client import ApiClient, pacer_for
    from .api.transport import DEFAULT_TIMEOUT, GATEWAY_TIMEOUT

    if target.wait_ready is not None:
        target.wait_ready()
    return ApiClient(target.base_url, target.api_key(), target.integrations_url,
                     pacer=pacer_for(settings.rate.rate, settings.rate.burst),
                     timeout=GATEWAY_TIMEOUT if target.gateway else DEFAULT_TIMEOUT)


def run_console(target: Target, settings: Settings) -> int:
    """Open the console on ``target`` until the user quits.

    Only what the first frame needs is loaded before it: the local store, the session's
    stores (built from the local snapshot) and the inbox screen. The client, the models and
    the key follow on a worker thread (:func:`connect`), and so does the target's key check:
    raises :class:`~frontdesk.keycheck.KeyRefused` when the service refused the key.
    """
    from .startup import hold_gc

    hold_gc()  # released by the app once its first frame is painted
    from .store.local import LocalStore
    from .store.session import Session
    from .tui.app import FrontdeskApp

    scrub_secret_environment()  # nothing the console starts inherits the key
    local = LocalStore(local_store_path(target.profile))
    session = Session(connect=lambda: connect(target, settings), local=local,
                      settings=settings, profile=target.profile, identity=target.identity,
                      new_key=target.fresh_key, gateway=target.gateway)
    access = None
    if target.demo and target.key is not None:
        from .demo_access import DemoAccess

        access = DemoAccess(target.base_url, target.integrations_url or "", target.key)
    app = FrontdeskApp(session, keys=dict(settings.keys), sandbox_access=access,
                       alerts=settings.alerts,
                       key_check=target.check)
    with terminal_input():
        app.run()
    if app.key_refusal is not None:
        from .keycheck import KeyRefused

        raise KeyRefused(app.key_refusal)
    return app.return_code or 0


@contextlib.contextmanager
def terminal_input() -> Iterator[None]:
    """Keys come from a terminal, even when standard input is not one.

    Textual reads keys from ``sys.__stdin__``; a pipe or ``/dev/null`` there is at its end at
    once, and its reader then wakes without pause, burning a core. So while the console runs,
    keys are read from the controlling terminal (``/dev/tty``) as other terminal programs do,
    or, without one, from a pipe that never ends (no keys, no spinning). A driver chosen by
    the environment (a browser tab's, :func:`startup.driver_from_environment`) reads its own
    standard input, which is left alone.
    """
    from .startup import driver_from_environment

    original = sys.__stdin__
    if driver_from_environment():
        yield
        return
    try:
        if original is not None and os.isatty(original.fileno()):
            yield
            return
    except (OSError, ValueError):
        pass
    keep: list[int] = []
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        fd, writer = os.pipe()
        keep.append(writer)
    replacement = open(fd, encoding="utf-8", closefd=True)  # noqa: SIM115 - closed below
    sys.__stdin__ = replacement  # type: ignore[misc]  # what Textual reads keys from
    try:
        yield
    finally:
        sys.__stdin__ = original  # type: ignore[misc]
        replacement.close()
        for writer in keep:
            os.close(writer)  # a crash (Textual's crash screen) is a failing exit


def demo_url_file() -> Path:
    """Where a running demo notes its sandbox's base URL (removed when it stops)."""
    return data_dir() / "demo" / "sandbox.url"


def running_demo() -> DemoAccess | None:
    """The demo sandbox running now (its URL file is there and its port answers), or None."""
    from urllib.parse import urlsplit

    from .demo_access import DemoAccess
    from .sandbox.key_file import key_file_for

    db_path, _ = demo_paths()
    try:
        base_url = demo_url_file().read_text("utf-8").strip()
        key = read_key_file(key_file_for(db_path)).splitlines()[0].strip()
        parts = urlsplit(base_url)
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80),
                                      timeout=0.5):
            pass
    except (OSError, ValueError, ConfigError, IndexError):
        return None
    return DemoAccess(base_url, base_url + "/integrations", key)


def demo_paths() -> tuple[Path, Path]:
    """The demo's sandbox database and the demo console's local database."""
    folder = data_dir() / "demo"
    return folder / "sandbox.db", local_store_path("demo")


def reset_demo() -> None:
    """Forget the demo organisation and the demo console's local data."""
    for path in demo_paths():
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                Path(str(path) + suffix).unlink()
    shutil.rmtree(data_dir() / "demo", ignore_errors=True)


def _first_frame_or_stop(stopping: threading.Event) -> bool:
    """Wait, however long it takes, until the console's first frame is painted (True) or the
    demo is ending without one (False). The sandbox must never compete with the first frame:
    on a loaded machine, or at the first start after an install that compiled no bytecode, the
    frame can take seconds, and FastAPI and uvicorn loading beside it would slow it further."""
    from .startup import FIRST_FRAME

    while not FIRST_FRAME.wait(0.05):
        if stopping.is_set():
            return False
    return True


@contextlib.contextmanager
def demo_sandbox(*, chaos: bool = False, seed: int = 1) -> Iterator[Target]:
    """A seeded, lively sandbox in a background thread; yields where to connect.

    The server (FastAPI, uvicorn, and the seeding the first time) is loaded and started on
    its thread once the console's first frame is painted (:data:`startup.FIRST_FRAME`),
    however long that takes, and never if the console ends before it; the console connects
    once it answers.
    """
    import logging

    from .sandbox.key_file import key_file_for

    db_path, _ = demo_paths()
    port = demo_port()
    key = _demo_key(db_path)
    base_url = f"http://127.0.0.1:{port}"
    ready = threading.Event()
    stopping = threading.Event()
    servers: list[SandboxServer] = []

    def serve() -> None:
        try:
            if not _first_frame_or_stop(stopping):
                return
            # logged here, not before the first frame: its record opens the log file
            logging.getLogger("frontdesk.demo").warning(
                "demo sandbox at %s; its API key is in %s (`frontdesk locate` shows both)",
                base_url, key_file_for(db_path))
            if stopping.is_set():
                return
            from .sandbox.server import SandboxServer

            server = SandboxServer(db_path, keys=[key], seed=seed, simulator=True, port=port)
            if chaos:
                server.faults.chaos()
            servers.append(server)
            server.start()
        except Exception:  # the console says it cannot connect; the log says why
            logging.getLogger("frontdesk.demo").exception("the demo sandbox did not start")
        finally:
            ready.set()

    starter = threading.Thread(target=serve, name="frontdesk-demo-sandbox", daemon=True)
    starter.start()
    noted = _note_demo_url(base_url)
    try:
        yield Target("demo", base_url, base_url + "/integrations", key, DEMO_IDENTITY,
                     demo=True, wait_ready=lambda: _wait(ready))
    finally:
        stopping.set()
        if noted:
            with contextlib.suppress(OSError):
                demo_url_file().unlink()
        starter.join(60)
        for server in servers:
            server.stop()


def _wait(ready: threading.Event) -> None:
    """Wait for the demo's sandbox to answer (or to have failed to start)."""
    ready.wait(120)


def _demo_key(db_path: Path) -> str:
    """The demo sandbox's key: the same every time, for a script or a profile (kept beside
    its database); a fresh one when it cannot be kept."""
    import logging

    from .sandbox.key_file import key_file_for, stable_key

    try:
        kept = key_file_for(db_path)
        if kept.exists():  # the usual case: read without loading the sandbox
            found = read_key_file(kept).splitlines()[0].strip()
            if found:
                return found
        return stable_key(db_path)
    except (OSError, IndexError, ConfigError) as error:
        logging.getLogger("frontdesk.demo").warning("the demo's key cannot be kept: %s", error)
        from .sandbox.keys import new_key

        return new_key()


def _note_demo_url(base_url: str) -> bool:
    """Write the demo sandbox's base URL where ``frontdesk locate`` finds it (0600)."""
    path = demo_url_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(base_url + "\n")
    except OSError:
        return False
    return True
