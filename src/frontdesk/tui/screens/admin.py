"""Mode: Admin."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from .base import ModeScreen


class AdminScreen(ModeScreen):
    """The admin mode."""

    MODE_NAME = "Admin"

    def compose_body(self) -> ComposeResult:
        yield Static("Admin: coming soon", id="placeholder")
