"""Every operation of the sandbox refuses a missing or unknown key with 401 and `{"message"}`;
the deprecated listing also takes `Bearer <key>`, the main interface does not."""

from __future__ import annotations

import re

import httpx2
import pytest

from frontdesk.api.operations import OPERATION_TABLE
from frontdesk.sandbox.server import SandboxServer

PATIENCE = 120.0  # seconds a request may take on a busy machine
SAMPLE = {"conversationId": "1", "csid": "1", "id": "x"}
UUID = "4c1b1b3e-2a65-4f33-9e55-0d1c55a9b1a2"


def concrete(path: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: SAMPLE.get(m.group(1), UUID), path)


def url_of(sandbox: SandboxServer, interface: str, path: str) -> str:
    base = sandbox.integrations_url if interface == "integrations" else sandbox.base_url
    return base + concrete(path)


@pytest.mark.parametrize("header", [None, "wrong-key", "Bearer wrong-key", ""])
def test_every_operation_refuses_a_missing_or_unknown_key(sandbox: SandboxServer,
                                                          header: str | None) -> None:
    headers = {} if header is None else {"Authorization": header}
    with httpx2.Client(timeout=10) as client:
        for op in OPERATION_TABLE:
            response = client.request(op.method, url_of(sandbox, op.interface, op.path),
                                      headers=headers, json={})
            assert response.status_code == 401, (op.label, response.status_code)
            assert response.json()["message"], op.label


def test_the_right_key_gets_past_the_door_on_every_operation(sandbox: SandboxServer) -> None:
    with httpx2.Client(timeout=10, headers={"Authorization": sandbox.key}) as client:
        for op in OPERATION_TABLE:
            response = client.request(op.method, url_of(sandbox, op.interface, op.path),
                                      json={})
            assert response.status_code != 401, op.label
            assert response.status_code < 500, (op.label, response.text)


def test_bearer_works_only_on_the_deprecated_listing(sandbox: SandboxServer) -> None:
    bearer = {"Authorization": f"Bearer {sandbox.key}"}
    assert httpx2.get(sandbox.integrations_url + "/v1/endpoints", headers=bearer).status_code \
        == 200
    assert httpx2.get(sandbox.base_url + "/v1/tags", headers=bearer).status_code == 401


def test_the_openapi_document_is_public(sandbox: SandboxServer) -> None:
    # the document is built on the first ask: seconds of CPU on a busy machine
    response = httpx2.get(sandbox.base_url + "/openapi.json", timeout=PATIENCE)
    assert response.status_code == 200
    assert "ApiKeyAuth" in response.json()["components"]["securitySchemes"]
