"""The organisation's key never leaves the gateway, and members' keys are guarded: absent from
every byte a member can read and from the logs, whatever goes wrong; wrong keys held back per
source; the database private to its owner."""

from __future__ import annotations

import logging
import stat

import httpx2
import pytest

from frontdesk.gateway.app import MAX_REQUEST_BYTES
from frontdesk.gateway.attempts import FREE_FAILURES, FailedAttempts
from gateway_harness import DEMO_AGENT_EMAIL, RunningGateway


def _bytes(answer: httpx2.Response) -> bytes:
    head = "".join(f"{name}: {value}\n" for name, value in answer.headers.multi_items())
    return head.encode() + answer.content


def test_the_organisations_key_is_in_no_answer_and_no_log_whatever_happens(
        gateway: RunningGateway, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    org = gateway.sandbox.key
    key = gateway.add_member(DEMO_AGENT_EMAIL, "admin")
    seen: list[httpx2.Response] = []
    with gateway.client(key) as member, gateway.client(None) as anonymous:
        seen += [member.get("/v1/tags"), member.get("/v1/agents?pageLimit=2"),
                 member.get("/integrations/v1/endpoints"), member.get("/v1/nothing"),
                 member.post("/v1/tags", content=b"{broken", headers={
                     "Content-Type": "application/json"}),
                 member.post("/v1/tags", content=b"x" * (MAX_REQUEST_BYTES + 1)),
                 member.get("/gateway/v1/me"), member.get("/gateway/v1/audit"),
                 anonymous.get("/v1/tags"), anonymous.get("/gateway/v1/health"),
                 anonymous.get("/openapi.json")]
        gateway.sandbox.faults.fail(500, count=1)
        seen.append(member.get("/v1/tags"))
        gateway.sandbox.refuse_connections()
        try:
            seen += [member.get("/v1/tags"), member.post("/v1/tags", json={"name": "t"})]
        finally:
            gateway.sandbox.accept_connections()
        gateway.sandbox.set_keys(["a-new-organisation-key"])  # the gateway's key is dead
        refused = member.get("/v1/tags")
        seen.append(refused)
    assert refused.status_code == 502 and "organisation key" in refused.json()["message"]
    assert {a.status_code for a in seen} >= {200, 400, 401, 404, 413, 500, 502, 503}
    for answer in seen:
        assert org.encode() not in _bytes(answer), answer.request.url
        assert key.encode() not in _bytes(answer), answer.request.url
    assert org not in caplog.text and key not in caplog.text
    assert "/v1/tags" in caplog.text  # the logs were captured at all


def test_wrong_keys_are_held_back_per_source_and_a_right_key_still_works(
        gateway: RunningGateway) -> None:
    key = gateway.add_member(DEMO_AGENT_EMAIL, "agent")
    attempts = gateway.state.attempts
    with gateway.client("fdg_guess") as guesser, gateway.client(key) as member:
        for _ in range(FREE_FAILURES + 1):
            assert guesser.get("/v1/tags").status_code == 401
        assert attempts.failures("127.0.0.1") == FREE_FAILURES + 1
        assert member.get("/v1/tags").status_code == 200
    assert attempts.failures("127.0.0.1") == 0


def test_the_held_back_time_grows_to_a_cap_and_a_quiet_spell_forgets_it() -> None:
    now = [0.0]
    attempts = FailedAttempts(clock=lambda: now[0])
    delays = [attempts.failed("10.0.0.1") for _ in range(FREE_FAILURES + 8)]
    assert delays[:FREE_FAILURES] == [0.0] * FREE_FAILURES
    assert delays[FREE_FAILURES:FREE_FAILURES + 3] == [0.25, 0.5, 1.0]
    assert max(delays) == delays[-1] == 5.0
    assert attempts.failed("10.0.0.2") == 0.0  # another source pays nothing
    now[0] = 10_000.0
    assert attempts.failed("10.0.0.1") == 0.0


def test_the_database_and_its_files_are_private(gateway: RunningGateway) -> None:
    key = gateway.add_member(DEMO_AGENT_EMAIL, "admin")
    with gateway.client(key) as member:
        assert member.post("/v1/tags", json={"name": "audited"}).status_code < 300
    folder = gateway.db.parent
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    files = list(folder.iterdir())
    assert gateway.db in files
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
        assert key.encode() not in path.read_bytes()
