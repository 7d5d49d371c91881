"""The cyclic garbage collector held off while the console must answer at once: one counted
hold, whoever holds it.

A full collection walks every object the program holds (tens of milliseconds, more than a
hundred on a busy machine with a large inbox) and falls due every so often, after enough
allocations. Two moments must not wait for one, and each is a holder of the same hold:

* the start-up, from a console command until the first frame is on screen
  (:func:`frontdesk.startup.hold_gc`): it allocates hundreds of thousands of long-lived
  objects, none of them garbage;
* a thread that opens, from the user's enter until its messages are painted
  (``tui/screens/inbox/thread.py``): a collection falling between the service's answer and
  the frame only moves to just after it, while the user reads; a bound makes sure it resumes
  when no messages come (the service is down).

Collection resumes when the last holder releases, and only if it was on when the first began
(a pause made elsewhere is left as it is). Nothing here imports more than the standard
library: the start-up takes its hold before anything else is loaded.
"""

from __future__ import annotations

import gc
from collections.abc import Callable

__all__ = ["hold"]

#: the holds under way (collection resumes when the last one is released)
_holders = 0
#: whether collection was on when the first hold began (so a pause made elsewhere is left
#: as it is)
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
