"""A local store filled once from the seeded organisation, for consoles that start warm.

A returning agent's console starts from its local store: the conversations it has seen, the
agents, queues and tags, people's names, the rows' tags and last messages. Console tests start
the same way: the first console of a test process that wants it has a local store filled by a
real first fill against a fresh copy of ``seeded_db`` (the same seed, the sandbox's clock at
the same frozen moment), and every console after it starts from a copy of that file.

A copy is laid only while the sandbox is still exactly the seeded organisation (nothing
written to it, no fault switched on, its clock at the frozen moment), and only for a profile
that has no local store yet: a test that changes the service before its console starts gets
the empty store, and its console learns everything from the service as before. A warm
console goes on from the poll cursor the fill kept: it asks the service only what changed since
(in a frozen sandbox, the few conversations active in the seconds before NOW), not for Mine and
Queue again.
"""

from __future__ import annotations

import asyncio
import shutil
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.live import LiveStore
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.store.topics import HOURS, INBOX

#: what tells one organisation from another, read from the sandbox's database
_SHAPE = ("SELECT (SELECT count(*) FROM conversations), (SELECT max(id) FROM conversations), "
          "(SELECT count(*) FROM messages), (SELECT count(*) FROM users)")


@dataclass
class LocalTemplate:
    """The seeded organisation's local store as one agent's first fill left it (made on first
    use), and the rule for when a console may start from a copy of it."""

    seeded_db: Path
    folder: Path
    start_sandbox: Callable[..., SandboxServer]
    now: datetime
    identity: str = DEMO_AGENT_EMAIL
    _path: Path | None = None
    _shape: tuple[int, ...] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def lay(self, target: Path, sandbox: SandboxServer, identity: str) -> bool:
        """Copy the filled store to ``target`` when a console there may start from it:
        ``identity`` is the template's, ``target`` does not exist yet, and ``sandbox`` is
        still the seeded organisation. Whether it was copied."""
        if identity != self.identity or target.exists() or not self.fits(sandbox):
            return False
        source = self.path()
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        shutil.copyfile(source, target)
        target.chmod(0o600)
        return True

    def fits(self, sandbox: SandboxServer) -> bool:
        """Whether ``sandbox`` is still the organisation the template was filled from:
        nothing written to its database since it started, no fault on, its clock at the
        frozen moment, listening."""
        if sandbox.faults.active or sandbox.clock.now() != self.now or sandbox._server is None:
            return False
        changes, shape = sandbox.call(_state)
        return changes == 0 and shape == self._seeded_shape()

    def path(self) -> Path:
        """The filled local store (filled now, once, if it is not yet)."""
        with self._lock:
            if self._path is None:
                self._path = self._fill()
            return self._path

    def _seeded_shape(self) -> tuple[int, ...]:
        if self._shape is None:
            self.path()
        assert self._shape is not None
        return self._shape

    def _fill(self) -> Path:
        """A first fill on a fresh copy of the seeded organisation, on a thread of its own
        (the caller may be a test's running event loop)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        db = self.folder / "sandbox.db"
        shutil.copyfile(self.seeded_db, db)
        target = self.folder / "local.db"
        server = self.start_sandbox(db)
        failure: list[BaseException] = []

        def run() -> None:
            try:
                asyncio.run(self._first_fill(server, target))
            except BaseException as error:  # handed to the caller below
                failure.append(error)

        try:
            self._shape = server.call(_state)[1]
            thread = threading.Thread(target=run, name="local-template")
            thread.start()
            thread.join()
        finally:
            server.close()
        if failure:
            raise failure[0]
        return target

    async def _first_fill(self, server: SandboxServer, target: Path) -> None:
        """Sign in, poll until the inbox is complete (every record, tag, preview and name),
        then close, which keeps what the next start paints from."""
        client = ApiClient(server.base_url, server.key, server.integrations_url,
                           pacer=Pacer(enabled=False))
        session = Session(client=client, local=LocalStore(target), settings=Settings(),
                          profile="template", identity=self.identity)
        session.live = LiveStore(sleep=_no_timer)
        inbox = session.inbox
        try:
            await session.start()
            # the service's clock read before the polls below: the poll cursor the store
            # keeps for the next start is one read from it
            await session.live.refresh(HOURS)
            for _ in range(500):
                version = inbox.version
                inbox.showing(list(inbox.rows))  # as if every row had been on screen
                await session.live.refresh(INBOX)
                complete = (inbox.filled and inbox.settled and not session.directory._pending
                            and all(cid in inbox.tags for cid in inbox.rows)
                            and inbox.closed_known)  # Closed's records kept too
                if complete and inbox.version == version:
                    break
            else:
                raise AssertionError("the template's inbox never came complete")
        finally:
            await session.close()


def _state(ctx: SandboxContext) -> tuple[int, tuple[int, ...]]:
    """Rows written since the sandbox started, and the organisation's shape."""
    conn = ctx.db.conn
    return conn.total_changes, tuple(conn.execute(_SHAPE).fetchone())


async def _no_timer(delay: float) -> None:
    """The template's polls run only when asked (a refresh, a poke), never on a timer."""
    await asyncio.get_running_loop().create_future()
