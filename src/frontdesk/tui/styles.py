"""Where the console's stylesheets live: ``frontdesk/styles`` inside the installed package (the
wheel packs the project's top-level ``styles/`` there), or ``styles/`` at the root of the
checkout the package is imported from (an editable install). The one module that knows."""

from __future__ import annotations

from pathlib import Path


def styles_dir() -> Path:
    """The folder of the ``.tcss`` files: the package's own ``styles`` (a wheel), or else the
    ``styles`` beside the ``pyproject.toml`` of the checkout this package lives in.

    The package is a folder on disk in both cases (a wheel is installed unpacked), so its
    path is read directly rather than through ``importlib.resources`` (whose import, with
    ``zipfile``, costs the first frame a few milliseconds)."""
    here = Path(__file__).resolve()
    packed = here.parent.parent / "styles"
    if packed.is_dir():
        return packed
    for folder in here.parents:
        if (folder / "pyproject.toml").is_file() and (folder / "styles").is_dir():
            return folder / "styles"
    raise FileNotFoundError("The console's stylesheets (frontdesk/styles) are not installed.")


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
    lines it holds then, the sooner the console shows. Named, not listed from the folder (it
    is read when the app's class is made, before the first frame)."""
    folder = styles_dir()
    return [path for path in (folder / name for name in FIRST_FRAME) if path.is_file()]


def later_stylesheets() -> list[Path]:
    """The stylesheets loaded once the first frame is on screen."""
    return [p for p in stylesheets() if p.name not in FIRST_FRAME]
