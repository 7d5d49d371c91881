"""The role table covers every operation of the service, and roles are ordered by rights."""

from __future__ import annotations

from frontdesk.api.operations import OPERATION_TABLE
from frontdesk.api.roles import ROLE_TABLE, Role, required_role


def test_every_operation_has_a_least_role() -> None:
    names = {op.name for op in OPERATION_TABLE}
    missing = sorted(names - set(ROLE_TABLE))
    assert missing == []
    assert set(ROLE_TABLE) == names


def test_roles_are_ordered_by_rights() -> None:
    assert Role.ADMIN.allows(Role.SUPERVISOR) and Role.ADMIN.allows(Role.AGENT)
    assert Role.SUPERVISOR.allows(Role.AGENT) and Role.SUPERVISOR.allows(Role.SUPERVISOR)
    assert not Role.AGENT.allows(Role.SUPERVISOR)
    assert not Role.SUPERVISOR.allows(Role.ADMIN)
    assert [r.value for r in Role] == ["agent", "supervisor", "admin"]


def test_an_operation_not_in_the_table_needs_a_role_nobody_has() -> None:
    assert required_role("conversations.close") is Role.AGENT
    assert required_role("analytics.records") is Role.SUPERVISOR
    assert required_role("webhooks.get") is Role.ADMIN
    assert required_role("no.such_operation") is None
