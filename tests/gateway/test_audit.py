"""The audit on a running gateway, and what a restart or an unreachable service does to it:
every write kept (pending before it goes upstream, done after), read by admins over HTTP and
by ``frontdesk gateway audit``; no member and no entry lost across a restart."""

from __future__ import annotations

import threading
import time

import pytest

from frontdesk.cli.main import main
from frontdesk.gateway.audit import Audit
from gateway_harness import DEMO_AGENT_EMAIL, PATIENCE, RunningGateway


def test_writes_are_audited_newest_first_and_only_admins_read_the_audit(
        gateway: RunningGateway, capsys: pytest.CaptureFixture[str]) -> None:
    agent_key = gateway.add_member(DEMO_AGENT_EMAIL, "agent")
    admin_key = gateway.add_member(gateway.agent_ids()[1], "admin")
    own = gateway.agent(DEMO_AGENT_EMAIL)["id"]
    conversation = gateway.sandbox.query(
        "SELECT id FROM conversations WHERE state = 'Open' AND assigned_agent_id IS NULL "
        "ORDER BY id LIMIT 1")[0]["id"]
    tag = gateway.sandbox.query("SELECT id FROM tags ORDER BY id LIMIT 1")[0]["id"]
    with gateway.client(agent_key) as agent, gateway.client(admin_key) as admin:
        assert agent.get(f"/v1/conversations/{conversation}").status_code == 200  # a read
        claim = agent.put(f"/v1/conversations/{conversation}/claim",
                          json={"agentId": own, "force": True})
        assert claim.status_code == 204, claim.text
        assert agent.delete(f"/v1/tags/{tag}").status_code == 403
        assert agent.put(f"/v1/conversations/{conversation}/tags/{tag}").status_code < 300
        refused = agent.get("/gateway/v1/audit")
        assert refused.status_code == 403 and refused.json()["requiredRole"] == "admin"
        page = admin.get("/gateway/v1/audit").json()
        assert [e["operation"] for e in page["data"]] == [
            "tags.tag_conversation", "tags.delete", "conversations.claim"]
        tagged, deleted, claimed = page["data"]
        assert claimed["memberId"] == tagged["memberId"] != ""
        assert claimed["email"] == DEMO_AGENT_EMAIL and claimed["role"] == "agent"
        assert claimed["method"] == "PUT"
        assert claimed["path"] == f"/v1/conversations/{conversation}/claim"
        assert claimed["targets"] == [str(conversation), own]
        assert (claimed["status"], claimed["state"]) == (204, "done")
        assert (deleted["status"], deleted["state"]) == (403, "refused")
        assert tagged["targets"] == [str(conversation), str(tag)]
        assert claimed["at"].endswith("Z") and claimed["at"] <= tagged["at"]
        first = admin.get("/gateway/v1/audit", params={"pageLimit": 2}).json()
        assert [e["id"] for e in first["data"]] == [tagged["id"], deleted["id"]]
        rest = admin.get(first["meta"]["next"]).json()
        assert [e["id"] for e in rest["data"]] == [claimed["id"]] and rest["meta"] == {}
        mine = admin.get("/gateway/v1/audit", params={"member": gateway.agent_ids()[1]})
        assert mine.json()["data"] == []
        assert admin.get("/gateway/v1/audit", params={"since": "2999-01-01"}).json()[
            "data"] == []
        for bad in ({"since": "yesterday"}, {"pageLimit": "0"}, {"pageKey": "x"},
                    {"member": "nobody@example.com"}):
            answer = admin.get("/gateway/v1/audit", params=bad)
            assert answer.status_code == 400 and answer.json()["message"], bad
    assert main(["gateway", "audit", "--db", str(gateway.db), "--member",
                 DEMO_AGENT_EMAIL]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and "conversations.claim" in lines[-1] and "204 done" in lines[-1]


def test_a_restart_keeps_members_and_entries_and_settles_what_was_left_pending(
        gateway: RunningGateway) -> None:
    key = gateway.add_member(DEMO_AGENT_EMAIL, "admin")
    with gateway.client(key) as member:
        assert member.post("/v1/tags", json={"name": "kept across restarts"}).status_code \
            in (200, 201)
    left = Audit(gateway.db)  # as a gateway killed while a write was upstream leaves it
    seq = left.begin(member_id="m", email="e", role="agent", operation="notes.add",
                     method="POST", path="/v1/conversations/1/notes", targets=["1"])
    left.close()
    gateway.restart()
    with gateway.client(key) as member:
        entries = member.get("/gateway/v1/audit").json()["data"]
    assert [(e["operation"], e["state"]) for e in entries] == [
        ("notes.add", "unknown"), ("tags.create", "done")]
    assert entries[0]["id"] == str(seq)


def test_an_unreachable_service_is_503_with_retry_after_until_it_is_back(
        gateway: RunningGateway) -> None:
    key = gateway.add_member(DEMO_AGENT_EMAIL, "admin")
    with gateway.client(key) as member, gateway.client(None) as anonymous:
        gateway.sandbox.refuse_connections()
        try:
            down = member.get("/v1/tags")
            assert down.status_code == 503 and int(down.headers["Retry-After"]) > 0
            assert down.json()["message"]
            write = member.post("/v1/tags", json={"name": "while down"})
            assert write.status_code == 503
            health = anonymous.get("/gateway/v1/health").json()["data"]
            assert health == {"status": "ok", "upstream": "down"}
        finally:
            gateway.sandbox.accept_connections()
        assert member.get("/v1/tags").status_code == 200
        assert anonymous.get("/gateway/v1/health").json()["data"]["upstream"] == "ok"
        entries = member.get("/gateway/v1/audit").json()["data"]
        assert [(e["operation"], e["status"], e["state"]) for e in entries] == [
            ("tags.create", 503, "failed")]


def test_a_write_in_flight_when_the_gateway_stops_is_finished_and_audited(
        gateway: RunningGateway) -> None:
    key = gateway.add_member(DEMO_AGENT_EMAIL, "admin")
    gateway.sandbox.faults.latency(0.5, methods=("POST",))  # the write is still upstream
    answers: list[int] = []

    def write() -> None:
        with gateway.client(key) as member:
            answers.append(member.post("/v1/tags", json={"name": "in flight"}).status_code)

    writer = threading.Thread(target=write)
    writer.start()
    deadline = time.monotonic() + PATIENCE
    while not gateway.state.audit.page(limit=1)[0]:  # until it is on its way upstream
        assert time.monotonic() < deadline, "the write never started"
        time.sleep(0.01)
    gateway.restart()
    writer.join(PATIENCE)
    assert answers == [200]
    with gateway.client(key) as member:
        entry = member.get("/gateway/v1/audit").json()["data"][0]
    assert (entry["operation"], entry["status"], entry["state"]) == ("tags.create", 200,
                                                                      "done")
    assert gateway.sandbox.query("SELECT name FROM tags WHERE name = 'in flight'")
