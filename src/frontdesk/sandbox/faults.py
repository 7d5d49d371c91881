"""Fault switches: make the sandbox misbehave on purpose, for tests and ``--chaos`` demos.

Each switch applies to requests whose method and path match (``methods`` and
``path_prefix``; empty means every request) and either to the next ``count`` matching
requests or, with ``rate``, to a random share of them. Refused connections are a switch of the
server (``SandboxServer.refuse_connections``), since an HTTP application cannot refuse a
connection it has already accepted.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from typing import Literal

Garbage = Literal["html", "truncated", "unknown_type", "wrong_types", "huge", "slow_drip"]


@dataclass
class Fault:
    """One active fault.

    kind:
      * ``latency``: wait ``seconds`` before answering;
      * ``status``: answer ``status`` (e.g. 503) without running the request;
      * ``rate_limit``: answer 429 with ``Retry-After: seconds`` without running the request;
      * ``drop``: run the request (the write is committed), then drop the connection before
        the response body is sent;
      * ``garbage``: run the request, then answer a broken body of the ``garbage`` kind.
    """

    kind: Literal["latency", "status", "rate_limit", "drop", "garbage"]
    count: int | None = 1
    rate: float | None = None
    seconds: float = 0.0
    status: int = 503
    garbage: Garbage = "html"
    methods: tuple[str, ...] = ()
    path_prefix: str = ""

    def matches(self, method: str, path: str) -> bool:
        """Whether this fault applies to a request."""
        if self.methods and method not in self.methods:
            return False
        return path.startswith(self.path_prefix)


@dataclass
class Faults:
    """The fault switches of one sandbox. Thread-safe: tests flip them from their own thread."""

    seed: int = 0
    _faults: list[Fault] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    fired: int = 0

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    @property
    def active(self) -> bool:
        """Whether any fault is switched on (checked first, so an idle sandbox pays nothing)."""
        return bool(self._faults)

    def add(self, fault: Fault) -> Fault:
        """Switch a fault on."""
        with self._lock:
            self._faults.append(fault)
        return fault

    def latency(self, seconds: float, **kw: object) -> Fault:
        """Delay matching responses by ``seconds``."""
        return self.add(Fault("latency", seconds=seconds, **kw))  # type: ignore[arg-type]

    def fail(self, status: int = 503, **kw: object) -> Fault:
        """Answer matching requests with ``status``."""
        return self.add(Fault("status", status=status, **kw))  # type: ignore[arg-type]

    def rate_limit(self, retry_after: float = 1.0, **kw: object) -> Fault:
        """Answer matching requests with 429 and ``Retry-After``: a 429 storm."""
        return self.add(Fault("rate_limit", seconds=retry_after, **kw))  # type: ignore[arg-type]

    def drop_after_commit(self, **kw: object) -> Fault:
        """Commit matching writes, then drop the connection before the response."""
        return self.add(Fault("drop", **kw))  # type: ignore[arg-type]

    def garbage(self, kind: Garbage = "html", **kw: object) -> Fault:
        """Answer matching requests with a broken body."""
        return self.add(Fault("garbage", garbage=kind, **kw))  # type: ignore[arg-type]

    def clear(self) -> None:
        """Switch every fault off."""
        with self._lock:
            self._faults.clear()

    def chaos(self) -> None:
        """The ``--chaos`` demo mix: some latency, a few 503s, 429s and dropped responses."""
        self.add(Fault("latency", count=None, rate=0.3, seconds=0.4))
        self.add(Fault("status", count=None, rate=0.03, status=503))
        self.add(Fault("rate_limit", count=None, rate=0.02, seconds=1.0))
        self.add(Fault("drop", count=None, rate=0.02, methods=("POST", "PUT", "PATCH")))

    def take(self, method: str, path: str) -> list[Fault]:
        """The faults that fire for this request (consuming counted ones)."""
        fired: list[Fault] = []
        with self._lock:
            for fault in list(self._faults):
                if not fault.matches(method, path):
                    continue
                if fault.rate is not None and self._rng.random() >= fault.rate:
                    continue
                fired.append(fault)
                if fault.count is not None:
                    fault.count -= 1
                    if fault.count <= 0:
                        self._faults.remove(fault)
            self.fired += len(fired)
        return fired
