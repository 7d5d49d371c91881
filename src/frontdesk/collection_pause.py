"""The cyclic garbage collector held off while a thread opens, until its messages are painted.

A full collection walks every object the console holds (tens of milliseconds, more than a
hundred on a busy machine with a large inbox) and falls due every so often, after enough
allocations — such as the ones building a thread screen. When it falls between the service's
answer and the frame that shows the messages, the user waits for it. Holding it off for that
moment only moves it to just after the frame, while the user reads; a bound makes sure it
resumes when no messages come (the service is down).
"""

from __future__ import annotations

import gc
from collections.abc import Callable

__all__ = ["hold"]

#: the holds under way (collection resumes when the last one is released)
_holders = 0
#: whether collection was on when the first hold began (so a pause made elsewhere, like the
#: start-up's, is left as it is)
_was_enabled = False


def hold() -> Callable[[], None]:
    """Pause automatic collection; returns the release (idempotent: call it as often as
    convenient, from every way the wait can end)."""
    global _holders, _was_enabled
    if _holders == 0:
        _was_enabled = gc.isenabled()
        if _was_enabled:
            gc.disable()
    _holders += 1
    released = False

    def release() -> None:
        global _holders
        nonlocal released
        if released:
            return
        released = True
        _holders -= 1
        if _holders == 0 and _was_enabled:
            gc.enable()

    return release
