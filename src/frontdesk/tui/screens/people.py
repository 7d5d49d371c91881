"""Mode: People."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from .base import ModeScreen


class PeopleScreen(ModeScreen):
    """The people mode."""

    MODE_NAME = "People"

    def compose_body(self) -> ComposeResult:
        yield Static("People: coming soon", id="placeholder")
