"""``frontdesk web``: the console in a browser tab, served on this machine only.

Textual's own ``textual-serve`` runs one console process per browser tab, with Textual's web
driver speaking to the page over a WebSocket. The console holds the user's API key, so the
server is guarded as such a thing must be:

- it listens on 127.0.0.1 only (there is no option to listen elsewhere);
- the page opens only with the run's secret token (printed once, in the address to open),
  which the page then keeps as a same-site, HTTP-only cookie: another user of the machine,
  who can reach 127.0.0.1 but not this terminal, gets 403;
- the WebSocket that drives the console is refused unless its ``Host`` is this server
  (against DNS rebinding), its ``Origin`` is this server's page (against another web site
  open in the same browser driving the console: browsers let any page open a WebSocket to
  127.0.0.1) and it carries the token's cookie.
"""

from __future__ import annotations

import argparse
import logging
import secrets
import shlex
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .common import Fail, parse

if TYPE_CHECKING:
    from aiohttp import web

#: the only address the server listens on
HOST = "127.0.0.1"
#: the cookie the page keeps the run's token in
TOKEN_COOKIE = "frontdesk_web"

log = logging.getLogger("frontdesk.web")


def web_main(argv: Sequence[str]) -> int:
    """``frontdesk web [--port P] [-- CONSOLE OPTIONS]``: serve the console to a browser tab."""
    parser = argparse.ArgumentParser(
        prog="frontdesk web",
        description="Open the console in a browser tab on this machine (127.0.0.1 only): "
        "each tab runs its own console with your profile, as `frontdesk` would in a "
        "terminal. Needs the web extra: pip install 'frontdesk[web]'.",
        epilog="Options after `--` go to the console, e.g. `frontdesk web -- --profile work` "
        "or `frontdesk web -- demo`.")
    parser.add_argument("--port", type=int, default=0,
                        help="port on 127.0.0.1 (default: a free one)")
    parser.add_argument("console", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    args = parse(parser, argv)
    console_args = list(args.console)
    if console_args[:1] == ["--"]:
        console_args = console_args[1:]
    if not 0 <= args.port <= 65535:
        raise Fail(2, f"--port {args.port} is not a port (0 to 65535)")
    try:
        from textual_serve.server import Server
    except ImportError:
        raise Fail(1, "the browser console needs the web extra: "
                   "pip install 'frontdesk[web]' (or uv tool install 'frontdesk[web]')") from None
    from ..launch import free_port

    port = args.port or free_port()
    command = shlex.join([sys.executable, "-m", "frontdesk", *console_args])
    server = _guarded(Server)(command, port, secrets.token_urlsafe(32))
    server.serve()
    return 0


def _guarded(base: type[Any]) -> type[Any]:
    """textual-serve's server class with the guards the module docstring lists (made here,
    so that ``frontdesk --help`` and the other commands never import aiohttp)."""
    from hmac import compare_digest

    from aiohttp import web

    class GuardedServer(base):  # type: ignore[misc]
        """textual-serve's server, on 127.0.0.1 only, opened with the run's token."""

        def __init__(self, command: str, port: int, token: str) -> None:
            super().__init__(command, host=HOST, port=port, title="frontdesk")
            self.token = token
            self.origin = f"http://{HOST}:{port}"

        def initialize_logging(self) -> None:
            """Only what goes wrong, on standard error (not every request of the page)."""
            logging.basicConfig(level=logging.WARNING, format="frontdesk web: %(message)s")

        async def on_startup(self, app: web.Application) -> None:
            """Say where to open the console, once, with the token."""
            print(f"Open {self.origin}/?token={self.token} in your browser "
                  "(this machine only; Ctrl+C stops).", flush=True)

        def _same_host(self, request: web.Request) -> bool:
            return request.host == f"{HOST}:{self.port}"

        def _has_token(self, offered: str | None) -> bool:
            return offered is not None and compare_digest(offered.encode(), self.token.encode())

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            """The page, for the holder of the token (who then keeps it as a cookie)."""
            offered = request.query.get("token") or request.cookies.get(TOKEN_COOKIE)
            if not self._same_host(request) or not self._has_token(offered):
                return _refused("Open the address `frontdesk web` printed, with its token.")
            response: web.StreamResponse = await super().handle_index(request)
            response.set_cookie(TOKEN_COOKIE, self.token, httponly=True, samesite="Strict",
                                path="/")
            return response

        async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
            """The console's connection, only from this server's own page."""
            if not (self._same_host(request)
                    and request.headers.get("Origin") == self.origin
                    and self._has_token(request.cookies.get(TOKEN_COOKIE))):
                log.warning("refused a console connection from origin %r",
                            request.headers.get("Origin"))
                return _refused("This console opens only from its own page.")
            answer: web.StreamResponse = await super().handle_websocket(request)
            return answer

    def _refused(text: str) -> web.Response:
        return web.Response(status=403, text=text)

    return GuardedServer
