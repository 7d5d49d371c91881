"""Changing who belongs to a group (a team's members, a queue's): several added and several
removed in one go, each side its own call, what failed named with its reason.

The team and the queue differ only in their calls (a queue's answers one outcome per agent
added; a team's answers nothing), so they share this one change.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..api.errors import ApiError
from .errors import Refused

if TYPE_CHECKING:
    from ..api.models import BulkActionOutcome

__all__ = ["MembersChange", "change_membership"]


@dataclass(frozen=True)
class MembersChange:
    """What a members change did: who was added and removed, and what failed (why)."""

    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


#: adds the agents; their outcomes in order when the service gives them (else None)
Add = Callable[[list[str]], Awaitable["Sequence[BulkActionOutcome[str]] | None"]]
Remove = Callable[[list[str]], Awaitable[None]]


async def change_membership(add: Iterable[str], remove: Iterable[str], *, adding: Add,
                            removing: Remove, name: Callable[[str], str],
                            could_not_add: str = "Could not add members") -> MembersChange:
    """Add several agents (``adding``) and remove several (``removing``); an agent the
    service refuses is named (``name``) in ``failures`` with its reason, the others still
    change. Raises :class:`Refused` when there is nothing to change or nothing changed."""
    add_ids, remove_ids = sorted(set(add)), sorted(set(remove))
    if not add_ids and not remove_ids:
        raise Refused("Nothing changed")
    failures: list[str] = []
    added: list[str] = []
    removed: list[str] = []
    if add_ids:
        try:
            outcomes = await adding(add_ids)
        except ApiError as error:
            failures.append(f"{could_not_add}: {error.message}")
        else:
            for index, agent_id in enumerate(add_ids):
                outcome = outcomes[index] if outcomes is not None and index < len(outcomes) \
                    else None
                if outcome is None or outcome.ok:
                    added.append(agent_id)
                else:
                    reason = outcome.error.message if outcome.error else "refused"
                    failures.append(f"{name(agent_id)}: {reason}")
    if remove_ids:
        try:
            await removing(remove_ids)
            removed = remove_ids
        except ApiError as error:
            failures.append(f"Could not remove members: {error.message}")
    if failures and not added and not removed:
        raise Refused("; ".join(failures))
    return MembersChange(added, removed, failures)
