"""A webhook receiver on a loopback port: ``frontdesk sandbox listen`` prints each event it
gets; tests use the same receiver to check what the sandbox delivers.

It answers 200 to every POST, or the statuses it was told to fail with first
(``fail_next``), keeps each request (headers, body, whether its signature holds when it
knows the secret), and calls ``on_event`` for each one, on its own thread.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, TextIO

from ..api.models.webhooks import SIGNATURE_HEADER, TOLERANCE, verify
from .webhooks import EVENT_HEADER

MAX_BODY = 5_000_000
#: Seconds a delivery may take to arrive whole (a sender that drips is cut off).
READ_TIMEOUT = 10.0


@dataclass(frozen=True)
class Received:
    """One request the receiver got."""

    path: str
    headers: dict[str, str]
    body: bytes
    status: int
    #: whether the signature holds and is recent enough (None: no secret to check it with)
    signed: bool | None

    @property
    def event(self) -> str:
        """The kind of event, from its header."""
        return self.headers.get(EVENT_HEADER.lower(), "")

    def payload(self) -> Any:
        """The body read as JSON (None when it is not JSON)."""
        try:
            return json.loads(self.body)
        except ValueError:
            return None


class Receiver:
    """An HTTP server on ``host:port`` (0: any free port) that takes webhook deliveries."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, *, secret: str | None = None,
                 tolerance: float | None = None,
                 on_event: Callable[[Received], None] | None = None) -> None:
        self.secret = secret
        #: how old a signature may be, in seconds (None: any age, as tests on a sandbox
        #: clock of their own need)
        self.tolerance = tolerance
        self.on_event = on_event
        self.received: list[Received] = []
        self._failures: list[int] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            timeout = READ_TIMEOUT

            def do_POST(self) -> None:
                length = _length(self.headers.get("Content-Length"))
                if length is None or length > MAX_BODY:
                    self.close_connection = True
                    self.send_error(400 if length is None else 413,
                                    "a body of a known length up to 5 MB is needed")
                    return
                try:
                    body = self.rfile.read(length)
                except TimeoutError:
                    self.close_connection = True
                    return
                headers = {k.lower(): v for k, v in self.headers.items()}
                status = receiver._take(self.path, headers, body)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                """Quiet: what arrives is reported through ``on_event``."""

        self._server = ThreadingHTTPServer((host, port), Handler)
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The URL to subscribe with."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/hook"

    def fail_next(self, status: int = 500, count: int = 1) -> None:
        """Answer the next ``count`` deliveries with ``status``."""
        with self._lock:
            self._failures.extend([status] * count)

    def events(self) -> list[str]:
        """The kinds of event received, in order."""
        with self._lock:
            return [r.event for r in self.received]

    def _take(self, path: str, headers: dict[str, str], body: bytes) -> int:
        signed = None
        if self.secret is not None:
            signed = verify(self.secret, headers.get(SIGNATURE_HEADER.lower(), ""), body,
                            tolerance=self.tolerance)
        with self._lock:
            status = self._failures.pop(0) if self._failures else 200
            received = Received(path, headers, body, status, signed)
            self.received.append(received)
        if self.on_event is not None:
            self.on_event(received)
        return status

    def start(self) -> Receiver:
        """Serve in a background thread."""
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True,
                                        name="frontdesk-webhook-receiver")
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the port."""
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(5)

    def __enter__(self) -> Receiver:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def _length(value: str | None) -> int | None:
    """A request's ``Content-Length`` as a count of bytes; None when it is missing, negative
    or not a number."""
    if value is None or not value.strip().isdigit():
        return None
    return int(value.strip())


def describe(received: Received) -> str:
    """One line for a person: the event, its conversation, the signature check."""
    payload = received.payload() or {}
    data = payload.get("data") if isinstance(payload, dict) else None
    conversation = data.get("conversation") if isinstance(data, dict) else None
    csid = conversation.get("csid") if isinstance(conversation, dict) else None
    when = payload.get("event_timestamp", "") if isinstance(payload, dict) else ""
    check = {None: "unchecked", True: "signature ok", False: "SIGNATURE BAD"}[received.signed]
    answer = "" if received.status == 200 else f"  (answered {received.status})"
    what = received.event or "(no event header)"
    line = f"{when}  {what:<34} csid {csid}  {check}{answer}"
    return "".join(ch if ch.isprintable() else "?" for ch in line)[:300]


def run(host: str, port: int, secret: str | None, *, show_body: bool, out: TextIO,
        stop: threading.Event, tolerance: float | None = TOLERANCE) -> None:
    """Receive until ``stop`` is set, printing a line per event (and its body)."""

    def show(received: Received) -> None:
        print(describe(received), file=out, flush=True)
        if show_body:
            payload = received.payload()
            text = json.dumps(payload, indent=2, ensure_ascii=True) if payload is not None \
                else repr(received.body[:2000])
            print(text, file=out, flush=True)

    with Receiver(host, port, secret=secret, tolerance=tolerance, on_event=show) as receiver:
        print(f"listening for webhook deliveries at {receiver.url}"
              + ("" if secret else "  (give --secret-file to check signatures)"), file=out,
              flush=True)
        while not stop.wait(0.5):
            pass
