"""Start-up helpers shared by the command line and the console: nothing here imports more
than the standard library.

The cyclic garbage collector is held from the start of a console command until the first
frame is on screen: start-up allocates hundreds of thousands of long-lived objects (modules,
classes, styles), and each collection walks them all again — tens of milliseconds of the cold
start for nothing, as none of them is garbage. Once the frame is painted, everything alive is
frozen (moved out of the collector's sight: it is the program, not garbage) and collection
resumes as usual.

:data:`FIRST_FRAME` is set at that moment too, for work that should not compete with the first
frame for the interpreter (the demo's sandbox starts then).
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable

from . import collection_pause

__all__ = ["DRIVER_ENV", "FIRST_FRAME", "driver_from_environment", "hold_gc", "release_gc"]

#: where Textual reads a driver chosen from outside (textual-serve sets its web driver there)
DRIVER_ENV = "TEXTUAL_DRIVER"

#: the start-up's hold of the collector (:mod:`frontdesk.collection_pause`), while it lasts
_release: Callable[[], None] | None = None
#: whether collection was on when the start-up's hold began (what it built is frozen then)
_paused = False
#: set once the console's first frame is on screen
FIRST_FRAME = threading.Event()


def hold_gc() -> None:
    """Pause cyclic garbage collection until :func:`release_gc` (the start-up is one holder
    of :mod:`frontdesk.collection_pause`; no-op when it holds already)."""
    global _release, _paused
    if _release is None:
        _paused = gc.isenabled()
        _release = collection_pause.hold()


def release_gc() -> None:
    """The first frame is on screen (:data:`FIRST_FRAME`): freeze what start-up built, if
    :func:`hold_gc` paused collection, and release the start-up's hold (collection resumes
    unless another holder still holds it)."""
    global _release
    FIRST_FRAME.set()
    release, _release = _release, None
    if release is not None:
        if _paused:
            gc.freeze()
        release()


def driver_from_environment() -> bool:
    """Whether the console's driver was chosen from outside (:data:`DRIVER_ENV`): then
    Textual's own choice stands, and standard input belongs to that driver. ``frontdesk web``
    runs each browser tab's console so, with Textual's web driver speaking to the page over
    standard input and output; in a terminal the console uses its own driver and reads keys
    from the terminal."""
    return bool(os.environ.get(DRIVER_ENV))
