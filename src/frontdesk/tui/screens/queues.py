"""Mode: Queues."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from .base import ModeScreen


class QueuesScreen(ModeScreen):
    """The queues mode."""

    MODE_NAME = "Queues"

    def compose_body(self) -> ComposeResult:
        yield Static("Queues: coming soon", id="placeholder")
