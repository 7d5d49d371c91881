"""client.gateway and what the client reads of a team gateway's answers: a role refusal is a
typed ``Forbidden`` naming the role, the service's own 403 stays a refused key, and a service
without a gateway in front says so (``/gateway/v1/me`` is not the service's)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from frontdesk.api import ApiClient, NotFound, Pacer, Priority
from frontdesk.api.errors import Forbidden, Unauthorized, error_from_response
from frontdesk.api.operations import GATEWAY_OPERATION_TABLE, OPERATIONS, operation
from frontdesk.api.transport import _priority_word
from frontdesk.sandbox.server import SandboxServer
from frontdesk.store import signin
from frontdesk.store.errors import Refusal, Refused
from gateway_harness import DEMO_AGENT_EMAIL, running_gateway

JSON = "application/json"


def test_a_role_refusal_is_forbidden_and_names_the_role() -> None:
    body = (b'{"message": "conversations.close needs the supervisor role (you are an agent)",'
            b' "requiredRole": "supervisor"}')
    error = error_from_response(403, body, JSON, "PUT /v1/conversations/{conversationId}/close")
    assert isinstance(error, Forbidden) and not isinstance(error, Unauthorized)
    assert error.required_role == "supervisor"
    assert error.message == "Needs the supervisor role"
    assert "you are an agent" in error.detail
    assert "Needs the supervisor role" in str(error)
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.required_role, copy.message) == ("supervisor", "Needs the supervisor role")
    # the service's own 403 (a key not allowed) is still a refused key
    plain = error_from_response(403, b'{"message": "Forbidden"}', JSON)
    assert isinstance(plain, Unauthorized)
    # hostile text in the role is cleaned to one short line
    hostile = error_from_response(
        403, b'{"message": "x", "requiredRole": "\\u001b[31msuper\\nvisor' + b"x" * 200 + b'"}',
        JSON)
    assert isinstance(hostile, Forbidden) and hostile.required_role is not None
    assert "\x1b" not in hostile.message and "\n" not in hostile.message
    assert len(hostile.required_role) <= 40
    # a role that is not text is no role refusal
    assert isinstance(error_from_response(403, b'{"requiredRole": 3}', JSON), Unauthorized)


def test_the_gateway_operations_are_not_the_service_s() -> None:
    names = {op.name for op in GATEWAY_OPERATION_TABLE}
    assert names == {"gateway.health", "gateway.me", "gateway.audit", "gateway.changes"}
    assert not {op.key for op in GATEWAY_OPERATION_TABLE} & set(OPERATIONS)
    assert operation("gateway.me").path == "/gateway/v1/me"


def test_priority_words() -> None:
    assert _priority_word(Priority.INTERACTIVE) == "interactive"
    assert _priority_word(Priority.VISIBLE) == "interactive"
    assert _priority_word(Priority.BACKGROUND) == "background"


async def test_a_service_without_a_gateway_is_said_to_be_none(sandbox: SandboxServer) -> None:
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False)) as client:
        with pytest.raises(NotFound):
            await client.gateway.me()
        # the priority header is harmless to the service: every call still works
        organisation = await client.organization.get(priority=Priority.BACKGROUND)
    assert organisation.name == "Acme Demo"
    with pytest.raises(Refused) as refused:
        await signin.verify_member(sandbox.base_url, sandbox.key)
    assert "is not a team gateway" in refused.value.reason
    assert refused.value.kind is Refusal.SERVICE
    with pytest.raises(Refused) as wrong:
        await signin.verify_member(sandbox.base_url, "sbx_not-a-key")
    assert "refused the key" in wrong.value.reason
    assert "sbx_not-a-key" not in wrong.value.reason


async def test_the_gateway_resource_through_a_real_gateway(sandbox: SandboxServer,
                                                           tmp_path: Path) -> None:
    with running_gateway(sandbox, tmp_path) as gateway:
        agent = gateway.agent(DEMO_AGENT_EMAIL)
        key = gateway.add_member(DEMO_AGENT_EMAIL, "agent")
        async with ApiClient(gateway.base_url, key, pacer=Pacer(enabled=False)) as client:
            health = await client.gateway.health()
            assert (health.status, health.upstream) == ("ok", "ok")
            me = await client.gateway.me()
            assert (me.agent_id, me.email, me.role) == (agent["id"], agent["email"], "agent")
            # the member's role refused by the gateway: typed, naming the role
            with pytest.raises(Forbidden) as refused:
                await client.tags.create("made-by-an-agent")
            assert refused.value.required_role == "supervisor"
            assert refused.value.message == "Needs the supervisor role"
            tags = await client.tags.list()  # the key is still good
            assert tags
        member = await signin.verify_member(gateway.base_url, key)
        assert member.member_id == me.member_id
        admin_key = gateway.add_member(gateway.agent_ids()[1], "admin")
        async with ApiClient(gateway.base_url, key, pacer=Pacer(enabled=False)) as client:
            with pytest.raises(Forbidden) as not_admin:  # the audit is an admin's
                await client.gateway.audit_page()
            assert not_admin.value.required_role == "admin"
        async with ApiClient(gateway.base_url, admin_key, pacer=Pacer(enabled=False)) as admin:
            await admin.tags.create("made-by-an-admin")
            page = await admin.gateway.audit_page(member=agent["email"], page_size=10)
            assert [(e.email, e.operation, e.status, e.state) for e in page.items] == [
                (agent["email"], "tags.create", 403, "refused")]
            everyone = [e async for e in admin.gateway.audit(page_size=1)]  # page by page
            assert [e.operation for e in everyone] == ["tags.create", "tags.create"]
            assert everyone[0].at >= everyone[1].at and everyone[0].status == 200
