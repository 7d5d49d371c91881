"""The key check that runs while the console loads: the same answers as the sign-in's, with
the standard library alone; only a clear refusal stops a start."""

from __future__ import annotations

import asyncio
import subprocess
import sys

from frontdesk.keycheck import KeyCheck, check_key
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.store import signin
from frontdesk.store.errors import Refused


def _refusal(url: str, key: str, identity: str) -> str:
    """What the sign-in says when it refuses."""
    try:
        asyncio.run(signin.verify(url, None, key, identity))
    except Refused as refusal:
        return refusal.reason
    raise AssertionError("the sign-in did not refuse")


def test_the_check_says_what_verify_says(sandbox: SandboxServer) -> None:
    url, key = sandbox.base_url, sandbox.key
    assert check_key(url, key, DEMO_AGENT_EMAIL, 5) is None
    agent = sandbox.query("SELECT id FROM users WHERE email = ?", (DEMO_AGENT_EMAIL,))
    assert check_key(url, key, str(agent[0]["id"]), 5) is None
    nobody_id = "00000000-0000-4000-8000-000000000000"
    for identity in ("nobody@example.com", nobody_id, "just-a-name"):
        said = check_key(url, key, identity, 5)
        assert said is not None
        assert said == _refusal(url, key, identity)
    refused = KeyCheck(url, "sbx_wrong", DEMO_AGENT_EMAIL, 5).result()
    assert refused is not None and "refused" in refused and "sbx_wrong" not in refused
    assert refused == _refusal(url, "sbx_wrong", DEMO_AGENT_EMAIL)


def test_no_clear_answer_lets_the_console_open(sandbox: SandboxServer) -> None:
    assert check_key("http://127.0.0.1:9", "sbx_x", DEMO_AGENT_EMAIL, 5) is None
    assert check_key("not a url", "sbx_x", DEMO_AGENT_EMAIL, 5) is None
    sandbox.faults.fail(503)
    try:
        assert check_key(sandbox.base_url, sandbox.key, DEMO_AGENT_EMAIL, 5) is None
        sandbox.faults.clear()
        sandbox.faults.garbage("html")
        assert check_key(sandbox.base_url, sandbox.key, DEMO_AGENT_EMAIL, 5) is None
    finally:
        sandbox.faults.clear()


def test_the_check_loads_neither_the_http_stack_nor_the_models() -> None:
    code = ("import sys, frontdesk.keycheck as k; "
            "k.check_key('http://127.0.0.1:9', 'sbx_x', 'me@example.com', 1); "
            "print(sorted(m for m in ('httpx2', 'pydantic', 'frontdesk.api.client') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_an_address_that_is_not_the_service_stops_the_start(sandbox: SandboxServer) -> None:
    key = sandbox.key
    agent = sandbox.query("SELECT id FROM users WHERE email = ?", (DEMO_AGENT_EMAIL,))
    wrong = sandbox.base_url + "/v1"  # a path too many: every route of the service is a 404
    line = (f"No Conversation Service at {wrong} (it answered 404 to GET /v1/agents): "
            "check the address.")
    for identity in (DEMO_AGENT_EMAIL, str(agent[0]["id"])):
        assert check_key(wrong, key, identity, 5) == line
        assert _refusal(wrong, key, identity) == line
    # A user name and password in the address are never shown.
    secret = wrong.replace("http://", "http://me:hunter2@")
    said = check_key(secret, key, DEMO_AGENT_EMAIL, 5)
    assert said is not None and "hunter2" not in said and "No Conversation Service" in said
    # Answers that are not the service's JSON (a web page where the service should be).
    sandbox.faults.garbage("html", count=None)
    try:
        said = check_key(sandbox.base_url, key, DEMO_AGENT_EMAIL, 5)
        assert said == (f"No Conversation Service at {sandbox.base_url} (it answered something "
                        "that is not the service's JSON to GET /v1/agents): check the address.")
        assert _refusal(sandbox.base_url, key, DEMO_AGENT_EMAIL) == said
    finally:
        sandbox.faults.clear()
