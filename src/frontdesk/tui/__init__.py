"""The Textual console: screens, widgets, keymap and command palette (never speaks HTTP)."""
