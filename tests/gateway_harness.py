"""A real gateway in front of a real sandbox, over loopback: importable by its name from
every test folder (the fixtures built on it are in tests/gateway/conftest.py).

    with running_gateway(sandbox, tmp_path) as gateway:
        key = gateway.add_member("demo.agent@…", "agent")   # the member's personal key
        ApiClient(gateway.base_url, key, gateway.integrations_url)

A member sends ``Authorization: <personal key>``, as to the service.

``running_gateway(sandbox, tmp_path, public_url=OWN_URL, feed_interval=…)`` hears the
sandbox's webhooks: its public URL is its own loopback address (its port is taken before it
starts, and kept across restarts), which is where the sandbox delivers (loopback only).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx2

from frontdesk.api.roles import Role
from frontdesk.api.secrets import ApiKey
from frontdesk.api.tls import shared_tls_context
from frontdesk.gateway.app import Gateway, GatewayConfig
from frontdesk.gateway.members import Members
from frontdesk.gateway.server import GatewayServer
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.seed.names import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer

__all__ = ["DEMO_AGENT_EMAIL", "OWN_URL", "PATIENCE", "RunningGateway", "customer_writes",
           "running_gateway"]

#: How long a test's plain HTTP client waits for an answer (a guard against a hang only).
PATIENCE = 120.0
#: ``public_url=OWN_URL``: the gateway's public URL is its own loopback address.
OWN_URL = "<the gateway's own loopback URL>"


class RunningGateway:
    """A gateway served on loopback in front of ``sandbox``, with its database at ``db``.

    Like the tests' sandboxes, it paces nothing unless told to (``rate=10, burst=4`` are the
    service's budget), and it runs no change feed unless given ``feed_interval``."""

    def __init__(self, sandbox: SandboxServer, db: Path, **options: Any) -> None:
        options.setdefault("rate", 100_000.0)
        options.setdefault("burst", 100_000)
        # no change feed unless asked for: its searches (POSTs) would take a fault switched
        # on for a member's request
        options.setdefault("feed_interval", None)
        self.sandbox = sandbox
        self.db = db
        self.config = GatewayConfig(upstream_url=sandbox.base_url,
                                    integrations_url=sandbox.integrations_url,
                                    upstream_key=ApiKey(sandbox.key), db=db, **options)
        self.server = GatewayServer(self.config)
        if self.config.public_url == OWN_URL:
            self.server.bind()  # the port, known before the gateway starts
            self.config = replace(self.config, public_url=self.server.base_url)
            self.server.config = self.config
        self.members = Members(db)

    @property
    def base_url(self) -> str:
        """The service's main interface through the gateway (paths start with ``/v1``)."""
        return self.server.base_url

    @property
    def integrations_url(self) -> str:
        """The deprecated endpoint listing through the gateway."""
        return self.server.integrations_url

    def agent(self, who: str) -> dict[str, Any]:
        """The sandbox's agent whose email or id is ``who`` (id, email, display_name)."""
        rows = self.sandbox.query(
            "SELECT id, email, display_name FROM users WHERE kind = 'agent' "
            "AND (id = ? OR lower(email) = lower(?))", (who, who))
        assert rows, f"the sandbox has no agent {who!r}"
        return rows[0]

    def agent_ids(self) -> list[str]:
        """Every agent of the sandbox's organisation, the demo agent first."""
        rows = self.sandbox.query(
            "SELECT id FROM users WHERE kind = 'agent' "
            "ORDER BY lower(email) = lower(?) DESC, id", (DEMO_AGENT_EMAIL,))
        return [row["id"] for row in rows]

    def add_member(self, who: str, role: Role | str = Role.AGENT) -> str:
        """Make the agent ``who`` (email or id) a member with ``role``; their personal key."""
        agent = self.agent(who)
        _, key = self.members.add(agent["id"], agent["email"], agent["display_name"],
                                  Role(role))
        return key

    def client(self, key: str | None, **options: Any) -> httpx2.Client:
        """A plain HTTP client on the gateway, signed in with ``key`` (None: no key)."""
        headers = {} if key is None else {"Authorization": key}
        options.setdefault("verify", shared_tls_context())  # the process's one TLS context
        return httpx2.Client(base_url=self.base_url, headers=headers, timeout=PATIENCE,
                            **options)

    @property
    def state(self) -> Gateway:
        """The running gateway's shared state (its pacer, audit, members)."""
        assert self.server.app is not None, "the gateway is not running"
        state: Gateway = self.server.app.state.gateway
        return state

    def with_options(self, **options: Any) -> GatewayConfig:
        """This gateway's configuration with ``options`` changed (for a second gateway)."""
        return replace(self.config, **options)

    def start(self) -> RunningGateway:
        self.server.start()
        return self

    def stop(self) -> None:
        self.server.stop()

    def restart(self) -> None:
        """Stop (after the requests in flight) and start again on the same port and db."""
        self.server.restart()


@contextmanager
def running_gateway(sandbox: SandboxServer, folder: Path, **options: Any
                    ) -> Iterator[RunningGateway]:
    """A gateway in front of ``sandbox`` with its database in ``folder``, for the block."""
    gateway = RunningGateway(sandbox, folder / "gateway" / "gateway.db", **options).start()
    try:
        yield gateway
    finally:
        gateway.stop()


def customer_writes(sandbox: SandboxServer, conversation: int, text: str) -> None:
    """A customer writes into ``conversation``, straight to the service (as the channel would),
    a minute after the change feed's last look on the service's (manual) clock."""
    clock = sandbox.clock
    assert isinstance(clock, ManualClock)
    clock.advance(60)  # after the feed's last look, on the service's clock
    with httpx2.Client(base_url=sandbox.base_url, headers={"Authorization": sandbox.key},
                      timeout=PATIENCE, verify=shared_tls_context()) as http:
        said = http.post(f"/v1/conversations/{conversation}/messages", json={
            "_type": "Inbound", "content": {"_type": "Text", "value": text}})
        assert said.status_code < 300, said.text
