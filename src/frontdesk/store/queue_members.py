"""The one path for a queue's membership: who is in it, and changing it.

Admin (Queues), the Queues mode's member picker and the directory (which queues are mine)
all read and change members here, so a refusal reads the same everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ..api.pacing import Priority
from .errors import refusals

if TYPE_CHECKING:
    from ..api.client import ApiClient
    from .memberships import MembersChange


async def member_ids(client: ApiClient, queue_id: str,
                     priority: Priority = Priority.INTERACTIVE) -> list[str]:
    """The ids of the queue's members (raises :class:`Refused`)."""
    with refusals("Could not read the members"):
        return [m.agent_id for m in await client.queues.members(queue_id, priority=priority)]


async def change_members(client: ApiClient, name: Callable[[str], str], queue_id: str,
                         add: Iterable[str], remove: Iterable[str]) -> MembersChange:
    """Assign several agents and remove several; an agent the service refuses is named
    (``name``) in ``failures`` with its reason, the others still change. Raises
    :class:`Refused` when nothing changed at all."""
    from .memberships import change_membership  # here: the directory needs only member_ids

    return await change_membership(
        add, remove, name=name, could_not_add="Could not assign members",
        adding=lambda ids: client.queues.add_members(queue_id, ids,
                                                     priority=Priority.INTERACTIVE),
        removing=lambda ids: client.queues.remove_members(queue_id, ids,
                                                          priority=Priority.INTERACTIVE))
