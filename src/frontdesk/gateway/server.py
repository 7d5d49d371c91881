"""Run the gateway on uvicorn: in the foreground (``frontdesk gateway serve``) or in a
background thread on a loopback port (the tests and the benchmark).

    with GatewayServer(config) as gateway:
        gateway.base_url                  # the service's API, through the gateway
        gateway.restart()                 # same port, same database
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from types import TracebackType

import uvicorn

from .app import GatewayApp, GatewayConfig, create_app

__all__ = ["GatewayServer", "serve"]

#: Seconds a stopping gateway gives the requests in flight to finish (a write under way is
#: completed and audited, not dropped).
GRACE = 30


class _Uvicorn(uvicorn.Server):
    """uvicorn, ending the consoles' change streams as it starts to stop (an open stream
    would otherwise hold the stop for the whole grace period)."""

    def __init__(self, config: uvicorn.Config, app: GatewayApp) -> None:
        super().__init__(config)
        self._app = app

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        feed = self._app.gateway.feed
        if feed is not None:
            feed.close()
        await super().shutdown(sockets)


def _config(app: GatewayApp, **options: object) -> uvicorn.Config:
    return uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="on", log_config=None,
        timeout_keep_alive=30, timeout_graceful_shutdown=GRACE, server_header=False,
        **options,  # type: ignore[arg-type]
    )


def serve(config: GatewayConfig, host: str, port: int, *, tls_cert: str | None = None,
          tls_key: str | None = None) -> None:
    """Serve ``config`` on ``host:port`` until interrupted (TLS when both files are given)."""
    options: dict[str, object] = {"host": host, "port": port}
    if tls_cert and tls_key:
        options.update(ssl_certfile=tls_cert, ssl_keyfile=tls_key)
    app = create_app(config)
    _Uvicorn(_config(app, **options), app).run()


class GatewayServer:
    """A gateway served on a loopback port in a background thread."""

    def __init__(self, config: GatewayConfig, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.config = config
        self.host = host
        self.port = port
        self.app: GatewayApp | None = None
        """The app being served (its ``state.gateway`` for tests that look inside)."""
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None

    @property
    def base_url(self) -> str:
        """The base URL of the service's main interface through the gateway."""
        return f"http://{self.host}:{self.port}"

    @property
    def integrations_url(self) -> str:
        """The base URL of the deprecated endpoint listing through the gateway."""
        return self.base_url + "/integrations"

    def bind(self) -> GatewayServer:
        """Take the port now, before serving (a port of 0 becomes a free one): its URL is
        then known to build the configuration on (a public URL for webhooks). ``start``
        binds when this was not called."""
        if self._socket is None:
            # IPPROTO_TCP so asyncio turns Nagle's algorithm off (headers and body go apart)
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.port))
            self.port = sock.getsockname()[1]
            self._socket = sock
        return self

    def start(self) -> GatewayServer:
        """Serve in a background thread; returns once it accepts connections."""
        sock = self.bind()._socket
        assert sock is not None
        sock.listen(2048)
        self.app = create_app(self.config)
        server = _Uvicorn(_config(self.app), self.app)
        self._server = server
        started = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            async def main() -> None:
                serving = asyncio.create_task(server.serve(sockets=[sock]))
                while not server.started and not serving.done():  # noqa: ASYNC110
                    await asyncio.sleep(0.005)
                started.set()
                await serving

            try:
                asyncio.run(main())
            except BaseException as exc:  # pragma: no cover - reported to the caller
                failure.append(exc)
            finally:
                started.set()

        self._thread = threading.Thread(target=run, name="frontdesk-gateway", daemon=True)
        self._thread.start()
        started.wait(60)
        if failure or not server.started:
            raise RuntimeError(f"the gateway did not start: {failure[:1]!r}")
        return self

    def stop(self) -> None:
        """Stop serving after the requests in flight have finished."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(GRACE + 30)
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.close()
        self._server = self._thread = self._socket = None

    def restart(self) -> None:
        """Stop and start again on the same port and database."""
        self.stop()
        self.start()

    def __enter__(self) -> GatewayServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
