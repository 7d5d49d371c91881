"""Mode: Team."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from .base import ModeScreen


class TeamScreen(ModeScreen):
    """The team mode."""

    MODE_NAME = "Team"

    def compose_body(self) -> ComposeResult:
        yield Static("Team: coming soon", id="placeholder")
