"""What a member may do: the role an operation needs, and acting only as oneself.

:func:`check` is asked before every request goes upstream. The role comes from
:data:`~frontdesk.api.roles.ROLE_TABLE`; an operation missing from it is refused to everyone.
A member with the agent role may then act only as their own agent: every field of a request
that names an agent (:data:`AGENT_FIELDS`, gathered from every operation of OPERATION_TABLE
and the vendor's OpenAPI) must name the member's agent, and an optional one left out is
filled in with it, so the service records the member and not the organisation's key. The
body that was checked is the body sent: a member's JSON is parsed once and sent as
re-serialised, so a duplicated key cannot say one thing to the guard and another upstream.
Supervisors and admins may name any agent. An agent acts on their own or unassigned
conversations only (:data:`ASSIGNEE_OPERATIONS`): the app reads the conversation's assignee
first, and :func:`check_assignee` decides.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from frontdesk.api.operations import Operation
from frontdesk.api.roles import Role, required_role

from .members import Member

__all__ = ["AGENT_FIELDS", "ASSIGNEE_OPERATIONS", "UNREADABLE", "AgentField", "Checked",
           "Forbidden", "Unreadable", "article", "asks_assignee", "check", "check_assignee",
           "read_json"]


@dataclass(frozen=True, slots=True)
class AgentField:
    """A place in a request that names an agent.

    ``where`` is the path parameter or the body; ``name`` the parameter's name or the body's
    keys from the top (``("message", "agentId")``); ``each`` names a list whose every item
    holds the field (``data``); ``fill`` means the field is optional and the gateway fills it
    in with the member's agent when it is left out.
    """

    where: Literal["path", "body"]
    name: tuple[str, ...]
    fill: bool = False
    each: str | None = None


_AGENT_ID = AgentField("body", ("agentId",))
_FILL_AGENT_ID = AgentField("body", ("agentId",), fill=True)
_FILL_USER_ID = AgentField("body", ("userId",), fill=True)

#: Operation name → every field of it that names an agent (ratings.offer's ``userId`` is the
#: customer, not an agent). Operations an agent may not perform at all (importing, team and
#: queue membership, creating or changing agents) name agents too; the role check refuses them
#: first, so they are not listed here.
AGENT_FIELDS: Mapping[str, tuple[AgentField, ...]] = MappingProxyType({
    "conversations.claim": (_AGENT_ID,),
    "conversations.close": (_FILL_USER_ID,),
    "conversations.reopen": (_FILL_USER_ID,),
    "conversations.followup": (_FILL_USER_ID,),
    "conversations.transfer": (_FILL_USER_ID,),
    # an outbound message names its agent; an inbound one (the customer's) names none
    "conversations.create": (AgentField("body", ("message", "agentId")),),
    "messages.add": (_AGENT_ID,),
    "notes.add": (_FILL_AGENT_ID,),
    "notes.bulk_add": (AgentField("body", ("agentId",), fill=True, each="data"),),
    "ratings.offer": (_FILL_AGENT_ID,),
    "agents.set_working_channel": (AgentField("path", ("agentId",)),),
})


#: What an agent does to a conversation as a whole: on one assigned to another agent, it
#: needs the supervisor role (acting on others' conversations); so does a claim that takes a
#: conversation over from a colleague (``force``). Messages, notes and tags stay open to every
#: agent: a colleague may help on a conversation without taking it.
ASSIGNEE_OPERATIONS = frozenset({"conversations.close", "conversations.reopen",
                                 "conversations.transfer", "conversations.followup"})


#: What :func:`read_json` returns for a body that is not JSON.
UNREADABLE: Any = object()


def read_json(body: bytes, *, empty: Any = None) -> Any:
    """``body`` parsed as JSON (``empty`` when it is blank); UNREADABLE when it is not JSON,
    nested too deeply included."""
    if not body.strip():
        return empty
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return UNREADABLE


class Unreadable(Exception):
    """A body the guard must read and cannot: 400 with ``message``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Forbidden(Exception):
    """A request the member may not make: 403 with ``message`` (and the role it needs)."""

    def __init__(self, message: str, needed: Role | None) -> None:
        super().__init__(message)
        self.message = message
        self.needed = needed


@dataclass(frozen=True, slots=True)
class Checked:
    """A request the member may make, and the body to send (filled in where needed)."""

    body: bytes
    rewritten: bool


def article(role: Role) -> str:
    """``an agent``, ``a supervisor``, ``an admin``: how a refusal names the member's
    role."""
    return f"an {role.value}" if role.value[:1] in "aeiou" else f"a {role.value}"


def check(member: Member, operation: Operation, params: Mapping[str, str],
          body: bytes) -> Checked:
    """Whether ``member`` may perform ``operation`` with ``params`` and ``body``; Forbidden
    otherwise."""
    needed = required_role(operation.name)
    if needed is None:
        raise Forbidden(f"{operation.label} is not open to any role at this gateway", None)
    if not member.role.allows(needed):
        raise Forbidden(f"{operation.label} needs the {needed.value} role (you are "
                        f"{article(member.role)})", needed)
    fields = AGENT_FIELDS.get(operation.name, ())
    if member.role is not Role.AGENT or not fields:
        return Checked(body, False)
    for field in fields:
        if field.where == "path" and not _same(params.get(field.name[0]), member):
            raise _acting_for_another(operation, field)
    body_fields = [f for f in fields if f.where == "body"]
    if not body_fields:
        return Checked(body, False)
    document = read_json(body, empty={})
    if document is UNREADABLE:
        # what the guard cannot read it cannot vouch for (a lenient parser upstream might
        # find an agent in it): refused as the service refuses a body it cannot read
        raise Unreadable("Invalid value in request: the body is not JSON")
    if not isinstance(document, dict):
        return Checked(body, False)  # names nobody: the service answers its own 400
    for field in body_fields:
        for holder in _holders(document, field):
            _check_field(holder, field, member, operation)
    return Checked(json.dumps(document, ensure_ascii=False).encode(), True)


def asks_assignee(member: Member, operation: Operation, body: bytes) -> bool:
    """Whether the gateway must know the conversation's assignee before ``member`` may
    perform ``operation`` (an agent closing, reopening, transferring, following up, or
    claiming with ``force``)."""
    if member.role is not Role.AGENT:
        return False
    if operation.name in ASSIGNEE_OPERATIONS:
        return True
    if operation.name != "conversations.claim":
        return False
    document = read_json(body, empty={})
    return isinstance(document, dict) and document.get("force") is True


def check_assignee(member: Member, operation: Operation, assignee: str | None) -> None:
    """Forbidden when the conversation is assigned to an agent other than ``member``'s."""
    if assignee is not None and assignee.strip().lower() != member.agent_id.lower():
        raise Forbidden(f"{operation.label}: the conversation is assigned to another agent, "
                        "and acting on others' conversations needs the supervisor role (you "
                        "are an agent)", Role.SUPERVISOR)


def _holders(document: dict[str, Any], field: AgentField) -> list[dict[str, Any]]:
    """The objects that hold ``field``'s last key (none where the body has no such part)."""
    tops: list[Any] = [document]
    if field.each is not None:
        items = document.get(field.each)
        tops = items if isinstance(items, list) else []
    holders: list[dict[str, Any]] = []
    for top in tops:
        node: Any = top
        for key in field.name[:-1]:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, dict):
            holders.append(node)
    return holders


def _check_field(holder: dict[str, Any], field: AgentField, member: Member,
                 operation: Operation) -> None:
    key = field.name[-1]
    if key not in holder or holder[key] is None:
        if field.fill:
            holder[key] = member.agent_id
        return
    if not _same(holder[key], member):
        raise _acting_for_another(operation, field)


def _same(value: object, member: Member) -> bool:
    return isinstance(value, str) and value.strip().lower() == member.agent_id.lower()


def _acting_for_another(operation: Operation, field: AgentField) -> Forbidden:
    where = ".".join(((field.each + "[]",) if field.each else ()) + field.name)
    return Forbidden(f"{operation.label}: as an agent you act only as yourself, and "
                     f"{where} names another agent (acting for others needs the supervisor "
                     "role)", Role.SUPERVISOR)
