"""Mode 1: the inbox (placeholder until the inbox screen lands)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from .base import ModeScreen


class InboxScreen(ModeScreen):
    """The agent's inbox."""

    MODE_NAME = "Inbox"
    TOPICS = ("inbox",)

    def compose_body(self) -> ComposeResult:
        yield Static("Inbox", id="placeholder")
