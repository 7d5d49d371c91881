"""The one path for a queue's membership: who is in it, and changing it.

Admin (Queues), the Queues mode's member picker and the directory (which queues are mine)
all read and change members here, so a refusal reads the same everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..api.errors import ApiError
from ..api.pacing import Priority
from .errors import Refused

if TYPE_CHECKING:
    from ..api.client import ApiClient


@dataclass(frozen=True)
class MembersChange:
    """What a members change did: who was added and removed, and what failed (why)."""

    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


async def member_ids(client: ApiClient, queue_id: str,
                     priority: Priority = Priority.INTERACTIVE) -> list[str]:
    """The ids of the queue's members (raises the service's error)."""
    return [m.agent_id for m in await client.queues.members(queue_id, priority=priority)]


async def change_members(client: ApiClient, name: Callable[[str], str], queue_id: str,
                         add: Iterable[str], remove: Iterable[str]) -> MembersChange:
    """Assign several agents and remove several; an agent the service refuses is named
    (``name``) in ``failures`` with its reason, the others still change. Raises
    :class:`Refused` when nothing changed at all."""
    add_ids, remove_ids = sorted(set(add)), sorted(set(remove))
    if not add_ids and not remove_ids:
        raise Refused("Nothing changed")
    failures: list[str] = []
    added: list[str] = []
    removed: list[str] = []
    if add_ids:
        try:
            outcomes = await client.queues.add_members(queue_id, add_ids,
                                                       priority=Priority.INTERACTIVE)
        except ApiError as error:
            failures.append(f"Could not assign members: {error.message}")
        else:
            for index, agent_id in enumerate(add_ids):
                outcome = outcomes[index] if index < len(outcomes) else None
                if outcome is None or outcome.ok:
                    added.append(agent_id)
                else:
                    reason = outcome.error.message if outcome.error else "refused"
                    failures.append(f"{name(agent_id)}: {reason}")
    if remove_ids:
        try:
            await client.queues.remove_members(queue_id, remove_ids,
                                               priority=Priority.INTERACTIVE)
            removed = remove_ids
        except ApiError as error:
            failures.append(f"Could not remove members: {error.message}")
    if failures and not added and not removed:
        raise Refused("; ".join(failures))
    return MembersChange(added, removed, failures)
