"""Hostile requests at a running gateway: schemathesis over its own OpenAPI document
(``/gateway/v1/*``) and over the service's API through it, and hand-made requests the
generators do not send (odd paths, encodings, headers): never a 5xx."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import (
    ignored_auth,
    negative_data_rejection,
    positive_data_acceptance,
)

from frontdesk.sandbox.server import SandboxServer
from gateway_harness import DEMO_AGENT_EMAIL, RunningGateway, running_gateway

EXAMPLES = 2  # per operation of the service, beside schemathesis' coverage phase


@pytest.fixture(scope="module")
def hostile(seeded_db: Path, sandbox_scratch: Path,
            sandbox_starter: Callable[..., SandboxServer]) -> Iterator[tuple[RunningGateway,
                                                                             str]]:
    """A gateway for the module, and an admin's personal key."""
    folder = Path(tempfile.mkdtemp(prefix="gw-hostile-", dir=sandbox_scratch))
    shutil.copyfile(seeded_db, folder / "sandbox.db")
    sandbox = sandbox_starter(folder / "sandbox.db")
    try:
        with running_gateway(sandbox, folder) as gateway:
            yield gateway, gateway.add_member(DEMO_AGENT_EMAIL, "admin")
    finally:
        sandbox.close()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def http() -> Iterator[requests.Session]:
    """One keep-alive session for every generated request (no proxies: loopback)."""
    with requests.Session() as session:
        session.trust_env = False
        yield session


@pytest.fixture(scope="module")
def own_schema(hostile: tuple[RunningGateway, str]) -> Any:
    """The gateway's own OpenAPI document: /gateway/v1/*."""
    return schemathesis.openapi.from_url(hostile[0].base_url + "/openapi.json")


@pytest.fixture(scope="module")
def service_schema(hostile: tuple[RunningGateway, str]) -> Any:
    """The service's OpenAPI document (the sandbox's), to send its operations through the
    gateway."""
    return schemathesis.openapi.from_url(hostile[0].sandbox.base_url + "/openapi.json")


# but for the change stream, which never ends (tests/gateway/test_change_feed.py reads it)
own = schemathesis.pytest.from_fixture("own_schema").exclude(path="/gateway/v1/changes")
service = schemathesis.pytest.from_fixture("service_schema")


@own.parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_gateways_own_api_answers_as_documented(
        case: Any, hostile: tuple[RunningGateway, str], http: requests.Session) -> None:
    gateway, key = hostile
    case.call_and_validate(base_url=gateway.base_url, session=http,
                           headers={"Authorization": key},
                           excluded_checks=[positive_data_acceptance, ignored_auth])


@pytest.mark.slow
@service.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_services_api_through_the_gateway_never_fails_with_a_5xx(
        case: Any, hostile: tuple[RunningGateway, str], http: requests.Session) -> None:
    # the same checks the sandbox's own battery leaves out (tests/sandbox/test_openapi_fuzz.py
    # says why); what the gateway must add is no 5xx of its own
    gateway, key = hostile
    case.call_and_validate(base_url=gateway.base_url, session=http,
                           headers={"Authorization": key},
                           excluded_checks=[positive_data_acceptance, negative_data_rejection,
                                            ignored_auth])


HOSTILE_PATHS = [
    "/v1/", "/v1//tags", "/v1/tags/", "/v1/../gateway/v1/audit", "/v1/%2e%2e/gateway/v1/me",
    "/v1/tags/%2F..%2F", "/v1/conversations/%00", "/v1/conversations/" + "9" * 5000,
    "/v1/tags?pageLimit=-1", "/v1/tags?pageKey=%ff%fe", "/v1/agents?email=%00",
    "/integrations/v1/", "/integrations/v1/endpoints/%2e%2e", "/gateway/v1/nothing",
    "/v1/conversations/1/messages?" + "a=1&" * 2000, "/v1/endusers/\u00e9\u0301",
]


def test_hand_made_hostile_requests_get_no_5xx(hostile: tuple[RunningGateway, str]) -> None:
    gateway, key = hostile
    with gateway.client(key) as member:
        answers = [member.get(path) for path in HOSTILE_PATHS]
        for method in ("POST", "PUT", "PATCH", "DELETE"):
            answers.append(member.request(method, "/v1/conversations/1/claim",
                                          content=b"\xff\xfe{", headers={
                                              "Content-Type": "application/json"}))
            answers.append(member.request(method, "/v1/tags", content=b"[]" * 1000,
                                          headers={"Content-Type": "text/plain"}))
        answers.append(member.post("/v1/conversations/1/notes", json=[{"agentId": 1}]))
        answers.append(member.get("/v1/tags", headers={b"X-Frontdesk-Priority": b"\xff" * 50}))
        answers.append(member.request("OPTIONS", "/v1/tags"))
        answers.append(member.request("HEAD", "/gateway/v1/health"))
    agent_id = gateway.agent_ids()[1]
    agent_key = gateway.add_member(agent_id, "agent")
    other = gateway.agent_ids()[2]
    deep = b"[" * 100_000 + b"]" * 100_000
    open_one = gateway.sandbox.query(
        "SELECT id FROM conversations WHERE state = 'Open' ORDER BY id LIMIT 1")[0]["id"]
    with gateway.client(agent_key) as agent:
        for body, kind in ((deep, "application/json"),
                           (b'{"agentId": "%s", "agentId": "%s", "message": "x"}'
                            % (agent_id.encode(), other.encode()), "application/json"),
                           (b"\xef\xbb\xbf" + b'{"agentId": "%s", "message": "x"}'
                            % other.encode(), "application/json"),
                           (b"agentId=" + other.encode() + b"&message=x",
                            "application/x-www-form-urlencoded"),
                           (b'{"agentId": {"$ne": null}, "message": "x"}', "application/json"),
                           (b'{"data": [1, "x", null, {"agentId": 7}]}', "application/json")):
            for path in (f"/v1/conversations/{open_one}/notes",
                         f"/v1/conversations/{open_one}/notes/bulk"):
                answer = agent.post(path, content=body, headers={"Content-Type": kind})
                answers.append(answer)  # never a note written in another agent's name
                assert answer.status_code in (400, 403), (path, body[:60], answer.text)
        nested = agent.put("/v1/conversations/1/claim", content=deep,
                           headers={"Content-Type": "application/json"})
        assert nested.status_code == 400
        answers.append(nested)
    for key_header in (b"fdg_" + b"\xff" * 100, b"a b", b"x" * 10_000, b"\xc3\xa9"):
        with httpx2.Client(base_url=gateway.base_url, timeout=60) as stranger:
            answers.append(stranger.get("/v1/tags", headers={b"Authorization": key_header}))
    bad = [(a.request.method, str(a.request.url)[:80], a.status_code) for a in answers
           if a.status_code >= 500]
    assert bad == []
    assert all(a.headers.get("content-type", "").startswith("application/json")
               for a in answers if a.status_code >= 400 and a.request.method != "HEAD")
