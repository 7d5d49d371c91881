"""The one predicate of what a gateway member may do: from the role table, nothing else."""

from __future__ import annotations

from frontdesk.api.models import GatewayMember
from frontdesk.api.operations import OPERATION_TABLE
from frontdesk.api.roles import ROLE_TABLE
from frontdesk.store.member import Membership


def member(role: str) -> GatewayMember:
    return GatewayMember.model_validate({
        "memberId": "m-1", "agentId": "4c1b1b3e-2a65-4f33-9e55-0d1c55a9b1a2",
        "email": "a@example.com", "name": None, "role": role})


def test_without_a_gateway_everything_is_allowed() -> None:
    plain = Membership(gateway=False, cached={"role": "agent"})
    assert plain.role is None and plain.role_name == ""
    assert all(plain.may(op.name) for op in OPERATION_TABLE)
    assert plain.may("webhooks.delete") and plain.may("no.such_operation")


def test_each_role_may_what_the_table_allows() -> None:
    seen = Membership(gateway=True)
    assert seen.role_name == "" and not seen.may("tags.create")  # an agent's until told
    for role in ("agent", "supervisor", "admin"):
        seen.learn(member(role))
        allowed = {name for name in ROLE_TABLE if seen.may(name)}
        assert allowed == {name for name, least in ROLE_TABLE.items()
                           if seen.role is not None and seen.role.allows(least)}
    seen.learn(member("agent"))
    assert seen.may("conversations.claim") and seen.may("messages.add")
    assert not seen.may("analytics.records") and not seen.may("webhooks.list")
    assert not seen.may("gateway.audit") and seen.may("gateway.me")
    assert not seen.may("no.such_operation")
    seen.learn(member("supervisor"))
    assert seen.may("analytics.records") and seen.may("activity_log.list")
    assert not seen.may("tags.delete") and not seen.may("gateway.audit")
    seen.learn(member("admin"))
    assert seen.may("gateway.audit") and seen.may("webhooks.delete")


def test_an_unknown_role_is_an_agent_s_and_the_role_is_kept() -> None:
    seen = Membership(gateway=True)
    seen.learn(member("\x1b[31mowner"))
    assert seen.role_name == "agent" and not seen.may("tags.create")
    seen.learn(member("supervisor"))
    again = Membership(gateway=True, cached=seen.wire())
    assert again.role_name == "supervisor" and again.email == "a@example.com"
    assert Membership(gateway=True, cached={"role": "root"}).role_name == ""
