"""Who is signed in through a team gateway, and what their role lets them do.

Without a gateway there is no role and everything is allowed, as the service's own key
allows. Through a gateway the member's role (``agent``, ``supervisor``, ``admin``) comes from
``/gateway/v1/me``; :meth:`Membership.may` says whether it allows an operation, by the
least role of :data:`~frontdesk.api.roles.ROLE_TABLE` (the gateway's own operations:
``api.operations.GATEWAY_LEAST_ROLES``), the one table the gateway enforces too. The
console asks this predicate (through the session) before offering a key, a palette command
or an Admin section, so what the role may not do is not offered. The role is kept in the
local store, so the first frame of the next start is already right.

The role table (and with it the operation table) is loaded only for a gateway's member: a
console signed in with the service's key never needs it, before its first frame or after.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..api.models import GatewayMember
    from ..api.roles import Role

__all__ = ["MEMBER_SNAPSHOT", "Membership"]

#: The local store's snapshot of the member (its wire form), read before the first frame.
MEMBER_SNAPSHOT = "member"
#: The role names, in increasing order of rights (``api.roles.Role``'s values).
_ROLE_NAMES = ("agent", "supervisor", "admin")


class Membership:
    """The gateway member of a session (or none): their role, and what it allows."""

    def __init__(self, *, gateway: bool, cached: Any = None) -> None:
        #: whether the session signs in through a team gateway
        self.gateway = gateway
        #: the member's role name as the gateway last said it ('' until known)
        self.role_name = ""
        #: the member's email at the gateway ('' until known)
        self.email = ""
        if gateway and isinstance(cached, dict):
            role = cached.get("role")
            if isinstance(role, str) and role in _ROLE_NAMES:
                self.role_name = role
            email = cached.get("email")
            self.email = email if isinstance(email, str) else ""

    def learn(self, member: GatewayMember) -> None:
        """The gateway said who the member is. A role this console does not know is read
        as the least one (an agent's): offering too little is safe, too much is not."""
        self.role_name = member.role if member.role in _ROLE_NAMES else _ROLE_NAMES[0]
        self.email = member.email

    def wire(self) -> dict[str, str]:
        """What the local store keeps of the member."""
        return {"role": self.role_name, "email": self.email}

    @property
    def role(self) -> Role | None:
        """The member's role; None without a gateway (the service's key: everything)."""
        if not self.gateway:
            return None
        from ..api.roles import Role

        return Role(self.role_name or _ROLE_NAMES[0])

    def may(self, operation: str) -> bool:
        """Whether the member may perform ``operation`` (a client method's dotted name,
        ``"tags.create"``). Always, without a gateway; through one, when the role is at
        least the operation's least role (an operation no role may perform: never). Until
        the gateway has said the role, the least one's rights."""
        role = self.role
        if role is None:
            return True
        from ..api.operations import GATEWAY_LEAST_ROLES
        from ..api.roles import Role, required_role

        own = GATEWAY_LEAST_ROLES.get(operation)
        needed = Role(own) if own is not None else required_role(operation)
        return needed is not None and role.allows(needed)
