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


#: what the first frame (the inbox) is styled by; the others load right after it
FIRST_FRAME = ("app.tcss", "inbox.tcss")


def stylesheets() -> list[Path]:
    """Every stylesheet: those of the first frame first (in :data:`FIRST_FRAME` order),
    then the others by name."""
    folder = styles_dir()
    sheets = sorted(folder.glob("*.tcss"))
    order = {name: index for index, name in enumerate(FIRST_FRAME)}
    sheets.sort(key=lambda p: order.get(p.name, len(order)))
    return sheets


def first_frame_stylesheets() -> list[Path]:
    """The stylesheets the first frame needs. Textual parses the whole stylesheet again each
    time widgets of a new kind mount (several times before the first frame), so the fewer
    lines it holds then, the sooner the console shows."""
    return [p for p in stylesheets() if p.name in FIRST_FRAME]


def later_stylesheets() -> list[Path]:
    """The stylesheets loaded once the first frame is on screen."""
    return [p for p in stylesheets() if p.name not in FIRST_FRAME]
