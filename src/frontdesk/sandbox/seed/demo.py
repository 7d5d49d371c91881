"""The demo builder, assembled from one part per thing it seeds."""

from __future__ import annotations

from .conversations import Conversations
from .groups import Groups
from .large import Large


class Demo(Groups, Conversations, Large):
    """Builds the demo data inside the caller's transaction."""

    def build_small(self) -> None:
        """The small organisation: people, groups, tags and 1,000 conversations."""
        self._agents()
        self._groups()
        self._tags()
        self._endusers()
        self._conversations()
