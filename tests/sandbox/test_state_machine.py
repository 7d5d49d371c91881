"""Random sequences of conversation and tag operations against the sandbox, over HTTP, checked
step by step against a small model of the state machine (the contract's transitions)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

import httpx2
from factories_conversations import (
    advance,
    agent,
    create_chat,
    default_queue,
    enduser,
    inbound,
    outbound,
    queue,
)
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from frontdesk.sandbox.db import iso
from frontdesk.sandbox.server import SandboxServer

# No shrinking: a failure already prints its whole run, and shrinking HTTP steps takes minutes.
PHASES = [Phase.explicit, Phase.reuse, Phase.generate]
SETTINGS = settings(max_examples=15, stateful_step_count=20, deadline=None, phases=PHASES,
                    suppress_health_check=[HealthCheck.too_slow])


@dataclass
class Model:
    """What the model expects of one conversation."""

    state: str = "Open"
    agent: str | None = None
    queue: str | None = None
    followup_until: datetime | None = None
    tags: set[str] = field(default_factory=set)


def make_machine(  # noqa: C901 - the rules of the class below count as this function's branches
    sandbox: SandboxServer, http: httpx2.Client
) -> type[RuleBasedStateMachine]:
    """The machine class, bound to one running sandbox shared by every example."""
    agents = [agent(sandbox) for _ in range(3)]
    queues = [queue(sandbox) for _ in range(2)]
    home = default_queue(sandbox)
    requester = enduser(sandbox)

    class ConversationMachine(RuleBasedStateMachine):
        conversations = Bundle("conversations")
        tags = Bundle("tags")

        def __init__(self) -> None:
            super().__init__()
            self.model: dict[int, Model] = {}
            self.tag_state: dict[str, str] = {}
            self.made = 0

        # ------------------------------------------------------------ helpers

        def put(self, cid: int, action: str, body: object | None = None) -> int:
            response = http.put(f"/v1/conversations/{cid}/{action}", json=body)
            assert response.status_code < 500, response.text
            return response.status_code

        def reopened(self, conv: Model) -> None:
            conv.state, conv.agent, conv.queue, conv.followup_until = "Open", None, home, None

        # ------------------------------------------------------------ conversations

        @initialize()
        def start(self) -> None:
            """Nothing to set up: the people and queues exist for every example."""

        @rule(target=conversations, author=st.none() | st.sampled_from(agents))
        def create(self, author: str | None) -> int:
            message = inbound() if author is None else outbound(author)
            cid = create_chat(http, requester, message)
            self.model[cid] = (Model(queue=home) if author is None
                               else Model(agent=author))
            return cid

        @rule(cid=conversations, who=st.sampled_from(agents),
              force=st.none() | st.booleans())
        def claim(self, cid: int, who: str, force: bool | None) -> None:
            conv = self.model[cid]
            body: dict[str, object] = {"agentId": who}
            if force is not None:
                body["force"] = force
            status = self.put(cid, "claim", body)
            if conv.agent not in (None, who) and force is False:
                assert status == 409
                return
            assert status == 204
            if conv.agent != who:
                conv.agent, conv.queue = who, None
                if conv.state == "Closed":
                    conv.state = "Open"

        @rule(cid=conversations, target_queue=st.sampled_from(queues))
        def transfer(self, cid: int, target_queue: str) -> None:
            conv = self.model[cid]
            assert self.put(cid, "transfer/queue", {"queueId": target_queue}) == 204
            conv.agent, conv.queue = None, target_queue
            if conv.state == "Closed":
                conv.state = "Open"

        @rule(cid=conversations, minutes=st.integers(1, 120))
        def followup(self, cid: int, minutes: int) -> None:
            conv = self.model[cid]
            until = sandbox.clock.now() + timedelta(minutes=minutes)
            status = self.put(cid, "followup", {"timestamp": iso(until)})
            if conv.state == "Closed":
                assert status == 400
                return
            assert status == 204
            conv.state, conv.followup_until = "Pending", until

        @rule(cid=conversations, by=st.none() | st.sampled_from(agents))
        def close(self, cid: int, by: str | None) -> None:
            conv = self.model[cid]
            assert self.put(cid, "close", None if by is None else {"userId": by}) == 204
            conv.state, conv.queue, conv.followup_until = "Closed", None, None

        @rule(cid=conversations)
        def reopen(self, cid: int) -> None:
            conv = self.model[cid]
            assert self.put(cid, "reopen") == 204
            if conv.state == "Closed":
                self.reopened(conv)
            elif conv.state == "Pending":
                conv.state, conv.followup_until = "Open", None

        @rule(cid=conversations)
        def customer_writes(self, cid: int) -> None:
            conv = self.model[cid]
            response = http.post(f"/v1/conversations/{cid}/messages", json=inbound("again"))
            assert response.status_code == 200, response.text
            if conv.state == "Closed":
                self.reopened(conv)
            elif conv.state == "Pending":
                conv.state, conv.followup_until = "Open", None

        @rule(cid=conversations, who=st.sampled_from(agents))
        def agent_writes(self, cid: int, who: str) -> None:
            response = http.post(f"/v1/conversations/{cid}/messages", json=outbound(who))
            assert response.status_code == 200, response.text

        @rule(minutes=st.integers(1, 90))
        def time_passes(self, minutes: int) -> None:
            now = advance(sandbox, minutes * 60)
            sandbox.run_pending()
            for conv in self.model.values():
                if conv.state == "Pending" and conv.followup_until is not None \
                        and conv.followup_until <= now:
                    conv.state, conv.followup_until = "Open", None

        # ------------------------------------------------------------ tags

        @rule(target=tags)
        def new_tag(self) -> str:
            self.made += 1  # never reuse a name: creating an existing name returns that tag
            response = http.post("/v1/tags", json={"name": f"t-{self.made}-{id(self) % 100_000}"})
            assert response.status_code == 200, response.text
            tag_id: str = response.json()["data"]["id"]
            self.tag_state[tag_id] = response.json()["data"]["state"]
            return tag_id

        @rule(cid=conversations, tag_id=tags)
        def tag(self, cid: int, tag_id: str) -> None:
            response = http.put(f"/v1/conversations/{cid}/tags/{tag_id}")
            if self.tag_state[tag_id] == "Active":
                assert response.status_code == 204, response.text
                self.model[cid].tags.add(tag_id)
            else:
                assert response.status_code == 400, response.text

        @rule(cid=conversations, tag_id=tags)
        def untag(self, cid: int, tag_id: str) -> None:
            response = http.delete(f"/v1/conversations/{cid}/tags/{tag_id}")
            assert response.status_code == 204, response.text
            self.model[cid].tags.discard(tag_id)

        @rule(tag_id=tags, active=st.booleans())
        def switch_tag(self, tag_id: str, active: bool) -> None:
            action = "activate" if active else "deactivate"
            assert http.patch(f"/v1/tags/{tag_id}/{action}").status_code == 204
            self.tag_state[tag_id] = "Active" if active else "Inactive"

        @rule(tag_id=consumes(tags))
        def delete_tag(self, tag_id: str) -> None:
            assert http.delete(f"/v1/tags/{tag_id}").status_code == 204
            del self.tag_state[tag_id]
            for conv in self.model.values():
                conv.tags.discard(tag_id)

        # ------------------------------------------------------------ checks

        @invariant()
        def database_agrees(self) -> None:
            if not self.model:
                return
            ids = list(self.model)
            marks = ", ".join("?" for _ in ids)
            rows = sandbox.query(
                f"SELECT id, state, assigned_agent_id, queue_id FROM conversations "
                f"WHERE id IN ({marks})", tuple(ids))
            tagged = sandbox.query(
                f"SELECT conversation_id, tag_id FROM conversation_tags "
                f"WHERE conversation_id IN ({marks})", tuple(ids))
            for row in rows:
                conv = self.model[row["id"]]
                assert (row["state"], row["assigned_agent_id"], row["queue_id"]) == \
                    (conv.state, conv.agent, conv.queue), row["id"]
                assert {t["tag_id"] for t in tagged if t["conversation_id"] == row["id"]} \
                    == conv.tags

        def teardown(self) -> None:
            """The API tells the same story as the database, for every conversation."""
            for cid, conv in self.model.items():
                record = http.get(f"/v1/conversations/{cid}").json()["data"]
                assert record["state"] == conv.state
                assert (record.get("assignment") or {}).get("agentId") == conv.agent
                assert (record.get("queue") or {}).get("id") == conv.queue
                tags = http.get(f"/v1/conversations/{cid}/tags").json()["data"]
                assert {t["id"] for t in tags} == conv.tags

    return ConversationMachine


def test_conversations_follow_the_state_machine(sandbox: SandboxServer,
                                                http: httpx2.Client) -> None:
    run_state_machine_as_test(make_machine(sandbox, http), settings=SETTINGS)
