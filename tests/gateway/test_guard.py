"""The guard on a running gateway: every role against every operation of the service, and an
agent acting only as themselves on every operation that names an agent."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx2
import pytest

from frontdesk.api.operations import OPERATION_TABLE, Operation
from frontdesk.api.roles import ROLE_TABLE, Role
from frontdesk.gateway.guard import AGENT_FIELDS
from gateway_harness import DEMO_AGENT_EMAIL, RunningGateway

#: An id no resource has: allowed operations reach the service and change nothing there.
NOBODY = "00000000-0000-4000-8000-000000000000"


@pytest.fixture(scope="module")
def clients(shared_gateway: RunningGateway) -> Iterator[dict[Role, httpx2.Client]]:
    """A client per role: the demo agent is the agent, two colleagues the others."""
    ids = shared_gateway.agent_ids()
    keys = {Role.AGENT: shared_gateway.add_member(DEMO_AGENT_EMAIL, Role.AGENT),
            Role.SUPERVISOR: shared_gateway.add_member(ids[1], Role.SUPERVISOR),
            Role.ADMIN: shared_gateway.add_member(ids[2], Role.ADMIN)}
    made = {role: shared_gateway.client(key) for role, key in keys.items()}
    yield made
    for client in made.values():
        client.close()


def _url(op: Operation, own_agent: str) -> str:
    prefix = "/integrations" if op.interface == "integrations" else ""
    path = op.path
    if op.name == "agents.set_working_channel":  # the one an agent may do to an agent
        path = path.replace("{agentId}", own_agent)
    return prefix + re.sub(r"\{[^}]+\}", "999999", path)


def test_every_role_may_do_what_the_table_allows_and_is_refused_the_rest(
        shared_gateway: RunningGateway, clients: dict[Role, httpx2.Client]) -> None:
    own = shared_gateway.agent(DEMO_AGENT_EMAIL)["id"]
    allowed = {role: 0 for role in Role}
    for op in OPERATION_TABLE:
        needed = ROLE_TABLE[op.name]
        for role, client in clients.items():
            body = None if op.method == "GET" else b"{}"
            answer = client.request(op.method, _url(op, own), content=body,
                                    headers={"Content-Type": "application/json"})
            assert answer.status_code < 500, (op.label, role, answer.text)
            if role.allows(needed):
                allowed[role] += 1
                assert answer.status_code not in (401, 403), (op.label, role, answer.text)
            else:
                assert answer.status_code == 403, (op.label, role)
                refusal = answer.json()
                assert refusal["requiredRole"] == needed.value
                assert refusal["message"] == (f"{op.label} needs the {needed.value} role "
                                              f"(you are a{'' if role is Role.SUPERVISOR else 'n'} "
                                              f"{role.value})")
    assert allowed[Role.AGENT] < allowed[Role.SUPERVISOR] < allowed[Role.ADMIN]
    assert allowed[Role.ADMIN] == len(OPERATION_TABLE)


def _body_naming(field_name: tuple[str, ...], each: str | None, who: str) -> dict[str, object]:
    inner: dict[str, object] = {field_name[-1]: who}
    for key in reversed(field_name[:-1]):
        inner = {key: inner}
    return {each: [inner]} if each else inner


def test_an_agent_may_name_only_themselves_in_every_field_that_names_an_agent(
        shared_gateway: RunningGateway, clients: dict[Role, httpx2.Client]) -> None:
    own = shared_gateway.agent(DEMO_AGENT_EMAIL)["id"]
    other = shared_gateway.agent_ids()[3]
    by_name = {op.name: op for op in OPERATION_TABLE}
    for name, fields in AGENT_FIELDS.items():
        op = by_name[name]
        assert ROLE_TABLE[name] is Role.AGENT
        for field in fields:
            if field.where == "path":
                url = _url(op, other)
                answers = [clients[role].request(op.method, url, json={"channel": "chat"})
                           for role in (Role.AGENT, Role.SUPERVISOR)]
            else:
                url = _url(op, own)
                answers = [clients[role].request(op.method, url,
                                                 json=_body_naming(field.name, field.each,
                                                                   other))
                           for role in (Role.AGENT, Role.SUPERVISOR)]
                naming_self = clients[Role.AGENT].request(
                    op.method, url, json=_body_naming(field.name, field.each, own))
                assert naming_self.status_code != 403, name
            refused, supervisor = answers
            assert refused.status_code == 403, name
            assert refused.json()["requiredRole"] == "supervisor"
            assert "act only as yourself" in refused.json()["message"]
            assert supervisor.status_code != 403, name


def test_an_optional_agent_field_left_out_is_filled_with_the_member(
        shared_gateway: RunningGateway, clients: dict[Role, httpx2.Client]) -> None:
    own = shared_gateway.agent(DEMO_AGENT_EMAIL)["id"]
    conversation = shared_gateway.sandbox.query(
        "SELECT id FROM conversations WHERE state = 'Open' ORDER BY id LIMIT 1")[0]["id"]
    note = clients[Role.AGENT].post(f"/v1/conversations/{conversation}/notes",
                                    json={"message": "seen"})
    assert note.status_code in (200, 201), note.text
    notes = clients[Role.ADMIN].get(f"/v1/conversations/{conversation}/notes").json()["data"]
    assert [n["authorId"] for n in notes if n["message"] == "seen"] == [own]
    not_json = clients[Role.AGENT].post(f"/v1/conversations/{conversation}/notes",
                                        content=b"{not json", headers={
                                            "Content-Type": "application/json"})
    assert not_json.status_code == 400


def test_an_agent_acts_on_their_own_or_unassigned_conversations_only(
        shared_gateway: RunningGateway, clients: dict[Role, httpx2.Client]) -> None:
    own = shared_gateway.agent(DEMO_AGENT_EMAIL)["id"]

    def one(where: str) -> int:
        rows = shared_gateway.sandbox.query(
            f"SELECT id FROM conversations WHERE state = 'Open' AND {where} ORDER BY id "
            "LIMIT 1", (own,))
        return int(rows[0]["id"])

    colleagues = one("assigned_agent_id IS NOT NULL AND assigned_agent_id != ?")
    mine = one("(assigned_agent_id IS NULL OR assigned_agent_id = ?)")
    agent, supervisor = clients[Role.AGENT], clients[Role.SUPERVISOR]
    for path, body in ((f"/v1/conversations/{colleagues}/close", {}),
                       (f"/v1/conversations/{colleagues}/claim",
                        {"agentId": own, "force": True})):
        refused = agent.put(path, json=body)
        assert refused.status_code == 403 and refused.json()["requiredRole"] == "supervisor"
        assert "assigned to another agent" in refused.json()["message"]
    helped = agent.post(f"/v1/conversations/{colleagues}/notes", json={"message": "a hand"})
    assert helped.status_code < 300  # helping on a colleague's conversation is an agent's
    claimed = agent.put(f"/v1/conversations/{mine}/claim", json={"agentId": own, "force": True})
    assert claimed.status_code < 300, claimed.text
    assert agent.put(f"/v1/conversations/{mine}/close", json={}).status_code < 300
    assert supervisor.put(f"/v1/conversations/{colleagues}/close", json={}).status_code < 300
