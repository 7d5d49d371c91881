"""The delivery threads: webhook POSTs made off the sandbox's request path.

A delivery waits up to ``TIMEOUT`` seconds for its receiver; made on the sandbox's event-loop
thread, one slow or dead receiver would hold every API request behind it. So the worker's job
only prepares an attempt (its URL, headers and exact body, on the sandbox's thread, where the
database lives) and hands it to a ``Sender``: a few threads that POST and keep each outcome
until the sandbox's thread takes it back (``finished``) and writes it to the delivery log.
The threads never touch the database.

One subscription's attempts go out one at a time in the order they were handed over (a
*lane* per subscription), so a receiver sees its events in the order they happened. Each
lane has a thread of its own while it has attempts (up to ``THREADS`` lanes at once), so a
slow receiver holds only its own lane: four subscriptions to a receiver that drips one byte a
second delay no other subscription's events. An attempt is bounded as a whole: it ends after
``TIMEOUT`` seconds however its receiver answers — slowly, a byte at a time, or not at all
(a deadline per read would let a dripping receiver hold it for as long as it drips).

``settle`` waits until nothing is in flight: what ``SandboxServer.run_pending`` waits for, so
tests see every due delivery done without waiting for time.
"""

from __future__ import annotations

import http.client
import io
import socket
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

#: Seconds one delivery attempt may take, whole: connecting, sending, the answer.
TIMEOUT = 3.0
#: How many receivers are posted to at once (a lane each).
THREADS = 32

Post = Callable[[str, dict[str, str], bytes, float], tuple[int, str]]


@dataclass(frozen=True)
class Attempt:
    """One delivery, ready to send: ``job`` is the worker's job it came from (which
    subscription, event and attempt), ``at`` when it was made on the sandbox's clock."""

    job: dict[str, Any]
    url: str
    headers: dict[str, str]
    body: bytes
    at: str


@dataclass(frozen=True)
class Outcome:
    """What came back from one attempt: the status (0 when nothing came back) and a short
    text."""

    attempt: Attempt
    code: int
    text: str


class _Deadline:
    """A connected socket whose every send and receive waits only for what is left of one
    deadline: the whole exchange ends by it, however the other end drips."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        self._sock = sock
        self._deadline = deadline

    def _arm(self) -> None:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the attempt's time is up")
        self._sock.settimeout(left)

    def sendall(self, data: bytes) -> None:
        self._arm()
        self._sock.sendall(data)

    def recv_into(self, buffer: Any, size: int = 0) -> int:
        self._arm()
        return self._sock.recv_into(buffer, size)

    def makefile(self, mode: str = "rb", *_: Any, **__: Any) -> io.BufferedReader:
        return io.BufferedReader(socket.SocketIO(self, "rb"))  # type: ignore[arg-type]

    def _decref_socketios(self) -> None:
        """What ``socket.SocketIO`` calls when it closes: the socket is closed with the
        connection."""

    def close(self) -> None:
        self._sock.close()


def post(url: str, headers: dict[str, str], body: bytes, timeout: float = TIMEOUT
         ) -> tuple[int, str]:
    """POST ``body`` to ``url``, the whole attempt bounded by ``timeout`` seconds: the status
    and a short text (0 and the reason when nothing came back). No redirect is followed."""
    deadline = time.monotonic() + timeout
    parts = urlsplit(url)
    connection: http.client.HTTPConnection
    if parts.scheme == "https":
        connection = http.client.HTTPSConnection(parts.hostname or "", parts.port,
                                                 timeout=timeout,
                                                 context=ssl.create_default_context())
    else:
        connection = http.client.HTTPConnection(parts.hostname or "", parts.port,
                                                timeout=timeout)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        connection.connect()
        connection.sock = _Deadline(connection.sock, deadline)
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(2000)
        return response.status, response.reason or str(response.status)
    except TimeoutError:
        return 0, f"No answer within {timeout:g} s"
    except (OSError, http.client.HTTPException, ValueError, UnicodeError) as exc:
        return 0, f"Not delivered: {type(exc).__name__}: {exc}"[:300]
    finally:
        connection.close()


class Sender:
    """Delivery threads fed with attempts, one lane per subscription (see the module)."""

    def __init__(self, send: Post = post, threads: int = THREADS,
                 timeout: float = TIMEOUT) -> None:
        self._send = send
        self._threads = threads
        self.timeout = timeout
        self._pool: ThreadPoolExecutor | None = None
        self._changed = threading.Condition()
        self._lanes: dict[str, deque[Attempt]] = {}
        self._outcomes: list[Outcome] = []
        self._in_flight = 0
        self._closed = False

    def submit(self, lane: str, attempt: Attempt) -> None:
        """Send ``attempt`` after the lane's earlier ones, on a delivery thread."""
        with self._changed:
            if self._closed:
                raise RuntimeError("the sandbox's deliveries are closed")
            self._in_flight += 1
            waiting = self._lanes.get(lane)
            if waiting is not None:  # a thread is draining this lane: it will send this too
                waiting.append(attempt)
                return
            self._lanes[lane] = deque([attempt])
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self._threads,
                                                thread_name_prefix="frontdesk-webhooks")
            pool = self._pool
        pool.submit(self._drain, lane)

    def _drain(self, lane: str) -> None:
        """Send a lane's attempts until it is empty (on a delivery thread). The lane goes
        away with its last attempt, under the lock, so ``submit`` either joins it or opens
        a new one."""
        with self._changed:
            attempt = self._lanes[lane][0]
        while True:
            try:
                code, text = self._send(attempt.url, attempt.headers, attempt.body,
                                        self.timeout)
            except Exception as exc:  # a bug in sending must not lose the attempt's record
                code, text = 0, f"Not delivered: {type(exc).__name__}"
            with self._changed:
                waiting = self._lanes[lane]
                waiting.popleft()
                self._outcomes.append(Outcome(attempt, code, text))
                self._in_flight -= 1
                self._changed.notify_all()
                if not waiting:
                    del self._lanes[lane]
                    return
                attempt = waiting[0]

    def finished(self) -> list[Outcome]:
        """The outcomes that came back since the last call (taken: each is given once)."""
        with self._changed:
            done, self._outcomes = self._outcomes, []
        return done

    @property
    def in_flight(self) -> int:
        """How many attempts were handed over and have not come back yet."""
        with self._changed:
            return self._in_flight

    def settle(self, timeout: float | None = None) -> bool:
        """Wait until every attempt handed over has come back; False if ``timeout`` seconds
        passed first."""
        with self._changed:
            return self._changed.wait_for(lambda: self._in_flight == 0, timeout)

    def close(self, timeout: float = TIMEOUT + 2) -> list[Attempt]:
        """Stop: the attempts being sent are waited for (at most ``timeout`` seconds), the
        ones not started yet are returned, to be queued again."""
        with self._changed:
            self._closed = True
            unsent: list[Attempt] = []
            for waiting in self._lanes.values():
                if not waiting:
                    continue
                sending = waiting.popleft()  # a lane's first attempt is being sent
                unsent.extend(waiting)
                waiting.clear()
                waiting.append(sending)
            self._in_flight -= len(unsent)
            pool = self._pool
        if pool is not None:
            self.settle(timeout)
            pool.shutdown(wait=False)
        return unsent
