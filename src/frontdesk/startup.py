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
import threading

__all__ = ["FIRST_FRAME", "hold_gc", "release_gc"]

_held = False
#: set once the console's first frame is on screen
FIRST_FRAME = threading.Event()


def hold_gc() -> None:
    """Pause cyclic garbage collection until :func:`release_gc` (no-op when already off)."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def release_gc() -> None:
    """Freeze what start-up built and resume collection, if :func:`hold_gc` paused it; the
    first frame is on screen (:data:`FIRST_FRAME`)."""
    global _held
    FIRST_FRAME.set()
    if _held:
        _held = False
        gc.freeze()
        gc.enable()
