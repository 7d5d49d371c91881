"""What the member's role lets the console offer: keys, palette commands and sections.

A screen (or widget) names, beside its bindings, the operation each restricted action
performs (``NEEDS = {"tags_new": "tags.create"}``: action name → the client method's dotted
name). Whether the operation is allowed is the session's one predicate,
:meth:`~frontdesk.store.session.Session.may`, which reads the gateway's role table: there is
no second table of roles here. An action not offered is left out of the footer, the help and
the palette, and its key does nothing (``check_action`` answers False). Without a team
gateway everything is offered, as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from .screens.shared.palette import PaletteEntry

__all__ = ["may", "offered", "offered_entries", "through_gateway"]


def may(node: DOMNode, operation: str) -> bool:
    """Whether the session of ``node``'s app may perform ``operation`` (True without one)."""
    session = getattr(node.app, "session", None)
    return session is None or bool(session.may(operation))


def through_gateway(node: DOMNode) -> bool:
    """Whether the session of ``node``'s app signs in through a team gateway."""
    session = getattr(node.app, "session", None)
    return session is not None and bool(session.membership.gateway)


def offered(node: DOMNode, needs: Mapping[str, str], action: str) -> bool:
    """Whether ``action`` is offered: it needs no operation, or one the role allows."""
    operation = needs.get(action)
    return operation is None or may(node, operation)


def _action_of(entry: PaletteEntry) -> str:
    """The action a palette entry runs: ``palette('tags_new')`` runs ``tags_new``."""
    action = entry.action
    if action.startswith("palette(") and action.endswith(")"):
        return action[len("palette("):-1].strip("'\"")
    return action


def offered_entries(node: DOMNode, needs: Mapping[str, str],
                    entries: Iterable[PaletteEntry]) -> Iterator[PaletteEntry]:
    """The palette entries whose actions are offered."""
    return (entry for entry in entries if offered(node, needs, _action_of(entry)))
