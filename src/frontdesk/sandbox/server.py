"""Run the sandbox on a loopback port in a background thread (the demo and the tests).

    with SandboxServer(seed=7) as sandbox:
        sandbox.base_url, sandbox.key           # talk to it over HTTP
        sandbox.faults.fail(503, count=2)       # make it misbehave
        sandbox.clock.advance(3600)             # with a ManualClock
        sandbox.run_pending()                   # do due asynchronous work now
        sandbox.call(lambda ctx: ...)           # read its database on its own thread
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import socket
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, TypeVar

import uvicorn

from . import webhooks, worker
from .app import create_app
from .clock import Clock
from .context import SandboxContext
from .faults import Faults
from .keys import new_key as new_key  # where the sandbox has always offered it

T = TypeVar("T")

log = logging.getLogger("frontdesk.sandbox")

#: Seconds ``run_pending`` waits at most for webhook deliveries in flight (each is bounded
#: by its own timeout; this only keeps a test from hanging on a bug).
SETTLE_TIMEOUT = 60.0
#: How many passes ``run_pending`` makes at most while its own work makes more work due.
_ROUNDS = 5


def _new_loop() -> asyncio.AbstractEventLoop:
    """uvloop's event loop when it is installed (a dependency on CPython outside Windows), else
    asyncio's."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    loop: asyncio.AbstractEventLoop = uvloop.new_event_loop()
    return loop


class _Server(uvicorn.Server):
    """uvicorn's server, stopping as soon as it is asked to.

    uvicorn looks whether to stop ten times a second, and once stopping gives open connections
    a tenth of a second before it waits for them: a fifth of a second of nothing per stop, which
    the tests, with a sandbox of their own each, would pay a thousand times. Here a stop wakes
    the server at once, and connections still answering are waited for in short steps, within
    the same grace period and with the same end (tasks still running after it are cancelled)."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._wake: asyncio.Event | None = None
        self._running: asyncio.AbstractEventLoop | None = None

    def exit_soon(self) -> None:
        """Ask the server to stop, from any thread; it starts shutting down at once."""
        self.should_exit = True
        loop, wake = self._running, self._wake
        if loop is not None and wake is not None:
            with contextlib.suppress(RuntimeError):  # the loop has already finished
                loop.call_soon_threadsafe(wake.set)

    async def main_loop(self) -> None:
        self._wake = asyncio.Event()
        self._running = asyncio.get_running_loop()
        counter = 0
        while not await self.on_tick(counter):
            counter = (counter + 1) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), 0.1)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for connection in list(self.server_state.connections):
            connection.shutdown()
        try:
            await asyncio.wait_for(self._drain(), timeout=self.config.timeout_graceful_shutdown)
        except TimeoutError:
            for task in self.server_state.tasks:
                task.cancel(msg="Task cancelled, timeout graceful shutdown exceeded")
        if not self.force_exit:
            await self.lifespan.shutdown()

    async def _drain(self) -> None:
        """Until every connection has closed and every request task has ended."""
        while self.server_state.connections or self.server_state.tasks:  # noqa: ASYNC110
            await asyncio.sleep(0.005)
        for server in self.servers:
            await server.wait_closed()


class SandboxServer:
    """A sandbox served by uvicorn on a loopback port, in a background thread."""

    def __init__(
        self,
        db_path: Path | str | None = None,
        *,
        keys: list[str] | None = None,
        seed: int | None = None,
        empty: bool = False,
        scale: Literal["small", "large"] = "small",
        simulator: bool = False,
        simulator_speed: float = 1.0,
        rate_limit: bool = True,
        clock: Clock | None = None,
        faults: Faults | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        work_delay: float = 0.5,
        run_worker: bool = True,
    ) -> None:
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if db_path is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="frontdesk-sandbox-")
            db_path = Path(self._tmp.name) / "sandbox.db"
        self.db_path = Path(db_path)
        self.keys = keys or [new_key()]
        self.seed = seed
        self.empty = empty
        self.scale = scale
        self.simulator = simulator
        self.simulator_speed = simulator_speed
        self.rate_limit = rate_limit
        self.clock = clock or Clock()
        self.faults = faults or Faults()
        self.host = host
        self.port = port
        self.work_delay = work_delay
        self.run_worker = run_worker
        self._thread: threading.Thread | None = None
        self._server: _Server | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._app: Any = None
        self._socket: socket.socket | None = None

    # ------------------------------------------------------------------ addresses

    @property
    def key(self) -> str:
        """The first API key."""
        return self.keys[0]

    def set_keys(self, keys: list[str]) -> None:
        """Accept only ``keys`` from now on (a key revoked, a new one issued), while running."""
        self.keys = list(keys)
        if self._app is not None:
            self.ctx.keys = tuple(keys)

    @property
    def base_url(self) -> str:
        """The base URL of the main interface (paths start with ``/v1``)."""
        return f"http://{self.host}:{self.port}"

    @property
    def integrations_url(self) -> str:
        """The base URL of the deprecated endpoint-listing interface."""
        return self.base_url + "/integrations"

    @property
    def ctx(self) -> SandboxContext:
        """The running sandbox's context (use ``call`` to touch its database)."""
        ctx: SandboxContext = self._app.state.sandbox
        return ctx

    # ------------------------------------------------------------------ life cycle

    def prepare(self) -> None:
        """Create and seed the database if it is new (done by ``start`` too)."""
        from . import seed as seeding

        seeding.ensure_seeded(self.db_path, seed=self.seed, empty=self.empty, scale=self.scale,
                              now=self.clock.now())

    def start(self) -> SandboxServer:
        """Seed if needed, then serve in a background thread; returns once it accepts."""
        self.prepare()
        self._app = create_app(
            self.db_path, self.keys, self.clock, self.faults,
            rate_limit=self.rate_limit, run_worker=self.run_worker, work_delay=self.work_delay,
        )
        self._serve()
        return self

    def _serve(self) -> None:
        # IPPROTO_TCP (not 0) so asyncio turns Nagle's algorithm off: uvicorn writes headers
        # and body apart, and with Nagle on every answer waits for a delayed ACK (~40 ms).
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self.port))
        self.port = sock.getsockname()[1]
        sock.listen(2048)
        sock.set_inheritable(True)
        self._socket = sock
        config = uvicorn.Config(
            self._app, log_level="warning", access_log=False, lifespan="on", log_config=None,
            timeout_keep_alive=30, timeout_graceful_shutdown=2,
        )
        server = _Server(config)
        self._server = server
        started = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = _new_loop()
            asyncio.set_event_loop(loop)
            self._loop = loop

            async def main() -> None:
                tasks: list[asyncio.Task[None]] = []
                serving = asyncio.create_task(server.serve(sockets=[sock]))
                while not server.started and not serving.done():  # noqa: ASYNC110
                    await asyncio.sleep(0.005)
                if self.simulator:
                    from .simulator import Simulator

                    sim = Simulator(self.ctx, speed=self.simulator_speed)
                    tasks.append(asyncio.create_task(sim.run()))
                started.set()
                try:
                    await serving
                finally:
                    for task in tasks:
                        task.cancel()
                        with contextlib.suppress(asyncio.CancelledError, Exception):
                            await task

            try:
                loop.run_until_complete(main())
            except BaseException as exc:  # pragma: no cover - reported to the caller
                failure.append(exc)
                started.set()
            finally:
                loop.close()

        self._thread = threading.Thread(target=run, name="frontdesk-sandbox", daemon=True)
        self._thread.start()
        started.wait(30)
        if failure:
            raise RuntimeError(f"the sandbox did not start: {failure[0]!r}")

    def _halt(self) -> None:
        if self._server is not None:
            self._server.exit_soon()
        if self._thread is not None:
            # however busy the machine: until the server has stopped, its open connections
            # are still served (a test that refuses connections relies on none being)
            self._thread.join(120)
            if self._thread.is_alive():
                raise RuntimeError("the sandbox did not stop serving within 120 s")
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.close()
        self._server = None
        self._thread = None
        self._socket = None
        self._loop = None

    def stop(self) -> None:
        """Stop serving, let the webhook deliveries being sent finish (those not started are
        queued again), and close the database."""
        self._halt()
        if self._app is not None:
            ctx: SandboxContext = self._app.state.sandbox
            unsent = ctx.deliveries.close()
            try:
                with ctx.db.tx():
                    webhooks.record_finished(ctx)
                    webhooks.requeue(ctx, unsent)
            except Exception:  # stopping goes on: the database is closed all the same
                log.exception("the webhook deliveries in flight were not recorded")
            ctx.db.close()
            self._app = None

    def close(self) -> None:
        """Stop, and remove the temporary database if the server made one."""
        self.stop()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def restart(self) -> None:
        """Stop and start again on the same port and database: nothing may be lost."""
        self.stop()
        self.start()

    def refuse_connections(self) -> None:
        """Stop listening: connections to the port are refused (the data stays)."""
        self._halt()

    def accept_connections(self) -> None:
        """Listen again on the same port after ``refuse_connections``."""
        if self._thread is None:
            self._serve()

    def __enter__(self) -> SandboxServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # ------------------------------------------------------------------ on its thread

    def call(self, fn: Callable[[SandboxContext], T]) -> T:
        """Run ``fn(ctx)`` on the sandbox's own thread (where its database lives)."""
        if self._loop is None:
            return fn(self.ctx)

        async def run() -> T:
            return fn(self.ctx)

        future: Future[T] = asyncio.run_coroutine_threadsafe(run(), self._loop)
        return future.result(30)

    def run_pending(self, *, everything: bool = False) -> int:
        """Do due asynchronous work now (all queued work with ``everything``), and return
        once every webhook delivery it started has come back and is in the delivery log, and
        no work it made is due (a follow-up that expired queues its event's delivery)."""

        def record(ctx: SandboxContext) -> int:
            with ctx.db.tx():
                return webhooks.record_finished(ctx)

        done = 0
        for round_ in range(_ROUNDS):
            whole = everything and round_ == 0
            done += self.call(functools.partial(worker.run_due, everything=whole))
            if not self.ctx.deliveries.settle(SETTLE_TIMEOUT):
                log.warning("webhook deliveries still in flight after %s s", SETTLE_TIMEOUT)
            done += self.call(record)
            if not self.call(worker.due_count):
                break
        return done

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        """Rows of a query on the sandbox's database, as dicts (for test assertions)."""
        return self.call(lambda ctx: [dict(r) for r in ctx.db.all(sql, params)])
