"""Where the console's stylesheets live: ``frontdesk/styles`` in the wheel, ``styles/`` in a
checkout."""

from __future__ import annotations

from pathlib import Path


def styles_dir() -> Path:
    """The folder of the ``.tcss`` files."""
    packed = Path(__file__).resolve().parent.parent / "styles"
    if packed.is_dir():
        return packed
    return Path(__file__).resolve().parents[3] / "styles"


def stylesheets() -> list[Path]:
    """Every stylesheet, ``app.tcss`` first."""
    folder = styles_dir()
    sheets = sorted(folder.glob("*.tcss"))
    sheets.sort(key=lambda p: p.name != "app.tcss")
    return sheets
